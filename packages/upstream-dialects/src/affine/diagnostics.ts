/** Every message text of the affine dialect, worded as MLIR 22 words them. */

/** Messages of the affine dialect. */
export const AffineMessages = {
  operandCount: 'operand count and affine map dimension and symbol count must match',
  oneResult: 'mapping must produce one value',
  dimSymbolMismatch: 'dimension or symbol index mismatch',
  dimensionalOperandAsSymbol: 'dimensional operand cannot be used as a symbol',
  expectedMap: 'expected affine map attribute',
  runtimeUndefined: 'the affine map is undefined on these operands (division or modulo by a non-positive value)',
} as const;
