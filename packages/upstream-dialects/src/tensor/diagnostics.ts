/**
 * Every message text of the tensor dialect (verifiers, custom assembly, interpreter), worded as
 * MLIR 22 words them where MLIR has the same check. The offset/size/stride interface messages
 * are shared with memref ({@link MemRefMessages}).
 */
import { MemRefMessages } from '../memref/diagnostics';

const q = (s: string) => `'${s}'`;

/** Messages of the tensor dialect. */
export const TensorMessages = {
  // ---------------------------------------------------------------- shared with memref (ViewLikeInterface)
  mixedRank: MemRefMessages.mixedRank,
  dynamicEntryCount: MemRefMessages.dynamicEntryCount,
  rankedEntryCount: MemRefMessages.rankedEntryCount,
  nonNegative: MemRefMessages.nonNegative,
  // ---------------------------------------------------------------- creation
  dynamicSizeCount: (has: number, expected: number) => `incorrect number of dynamic sizes, has ${has}, expected ${expected}`,
  splatElementType: 'failed to verify that operand type matches element type of result',
  fromElementsType: 'failed to verify that operand types match result element type',
  fromElementsCount: (operands: number, types: number) =>
    `number of operands and types do not match: got ${operands} operands and ${types} types`,
  // ---------------------------------------------------------------- access
  extractIndexCount: 'incorrect number of indices for extract_element',
  extractResultType: 'failed to verify that result type matches element type of tensor',
  insertIndexCount: 'incorrect number of indices',
  insertScalarType: 'failed to verify that scalar type matches element type of dest',
  insertResultType: "failed to verify that result type matches type of dest",
  castIncompatible: (a: string, b: string) => `operand type ${q(a)} and result type ${q(b)} are cast incompatible`,
  // ---------------------------------------------------------------- slices
  sliceRankTooLarge: 'expected rank to be smaller or equal to the other rank. ',
  sliceSizeMismatch: (expected: string) => `expected type to be ${q(expected)} or a rank-reduced version. (size mismatch) `,
  sliceElementType: (elem: string) => `expected element type to be ${q(elem)}`,
  sliceOutOfBounds: (dim: number, last: number, size: number) => `slice along dimension ${dim} runs out-of-bounds: ${last} >= ${size}`,
  offsetOutOfBounds: (dim: number, off: number, size: number, equalAllowed: boolean) =>
    `offset ${dim} is out-of-bounds: ${off} ${equalAllowed ? '>' : '>='} ${size}`,
  insertSliceResultType: 'failed to verify that expected result type to match dest type',
  parallelInsertParent: 'expected InParallelOpInterface parent, got:',
  parallelInsertDest: 'may only insert into an output block argument',
  // ---------------------------------------------------------------- reshapes
  reshapeRankOrder: (expanded: string, collapsed: string) =>
    `expected the expanded type, ${q(expanded)} to have a higher (or same) rank than the collapsed type, ${q(collapsed)}.`,
  reshapeGroupCount: (rank: number, groups: number) =>
    `expected collapsed rank (${rank}) to equal the number of reassociation maps (${groups}).`,
  reshapeMapSize: (i: number, rank: number, dims: number) =>
    `expected reassociation map #${i} to have size equal to the expanded rank (${rank}), but it is  ${dims}.`,
  reshapeInvalidMap: (i: number) => `expected reassociation map #${i} to be valid and contiguous.`,
  reshapeDynamicDim: (i: number) =>
    `expected dimension ${i} of collapsed type to be dynamic since one or more of the corresponding dimensions in the expanded type is dynamic`,
  reshapeStaticDim: (i: number, v: number) => `expected dimension ${i} of collapsed type to be static value of ${v}`,
  reshapeCollapsedType: (expected: string, got: string) => `expected collapsed type to be ${q(expected)}, but got ${q(got)}`,
  expandOutputRank: (rank: number, got: number) =>
    `expected number of static shape dims to be equal to the output rank (${rank}) but found ${got} inputs instead`,
  expandDynamicCount: (dyn: number, values: number) =>
    `mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has ${dyn} dynamic dims while output_shape has ${values} values`,
  expandOutputShape: (pos: number) => `invalid output shape provided at pos ${pos}`,
  expectedOutputShape: "expected 'output_shape'",
  reassociationAttr: "attribute 'reassociation' failed to satisfy constraint: Array of 64-bit integer array attributes",
  // ---------------------------------------------------------------- custom assembly
  expectedRankedTensor: (t: string) => `invalid kind of type specified: expected builtin.tensor, but found ${q(t)}`,
  // ---------------------------------------------------------------- interpreter
  runtimeIndexOutOfBounds: (what: string, indices: readonly number[], shape: readonly number[]) =>
    `${what} index [${indices.join(', ')}] is out of bounds of shape [${shape.join(', ')}]`,
  runtimeSliceOutOfBounds: (dim: number, offset: number, size: number, stride: number, extent: number) =>
    `slice along dimension ${dim} (offset ${offset}, size ${size}, stride ${stride}) runs out of bounds of ${extent}`,
  runtimeShapeMismatch: (what: string, got: readonly number[], expected: readonly number[]) =>
    `${what} has shape [${got.join(', ')}] at run time, expected [${expected.join(', ')}]`,
  runtimeNegativeSize: (what: string, v: number) => `${what} is negative at run time (${v})`,
  runtimeUnsupportedElement: (t: string) => `unsupported element type ${q(t)} in the interpreter`,
  runtimeNoCollector: 'no enclosing parallel op collects this publication (run it inside scf.forall or an op using publicationStack)',
  runtimeDimOutOfRange: (dim: number, rank: number) => `dimension index ${dim} is out of range for rank ${rank}`,
  runtimeReshapeMismatch: (group: number, expected: number, got: number) =>
    `reassociation group #${group} has ${got} elements at run time, expected ${expected}`,
} as const;
