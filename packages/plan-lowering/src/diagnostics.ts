/**
 * Every message text `spat-lower-plans` emits, in one place. Messages name the plan (the op
 * reports itself as `'spat.<x>_plan' op`), the parameter and the limit, and say what would be
 * accepted.
 */
/** The message texts of `spat-lower-plans` (see the file comment). */
export const PlanLoweringMessages = {
  /** A plan parameter outside what the lowering supports. */
  unsupportedGeometry: (parameter: string, value: string, limit: string): string =>
    `spat-lower-plans: ${parameter} = ${value} is not supported (${limit})`,
  /** A weight operand that is not an `arith.constant` of dense f32 elements. */
  weightNotConstant: (what: string): string =>
    `spat-lower-plans: the ${what} must be a compile-time constant (an arith.constant of dense f32 elements) to be placed on crossbars`,
  /** An element type other than f32. */
  notF32: (index: number, type: string): string => `spat-lower-plans: operand or result #${index} has type ${type}; only f32 tensors are lowered`,
  /** An activation that is not a static rank-4 tensor with positive dimensions. */
  notStatic: (what: string): string => `spat-lower-plans: ${what}: expected static rank-4 tensors with positive dimensions`,
  /** The selected operand/result layout pair has no lowering. */
  unsupportedLayouts: (operands: string, result: string, supported: string): string =>
    `spat-lower-plans: operand layout(s) ${operands} -> result layout ${result} is not supported (supported: ${supported})`,
  /** A row-strip form whose gate (shared with the layout planner) refuses the plan. */
  gateRefused: (gate: string, parameter: string, reason: string): string =>
    `spat-lower-plans: ${gate} refuses the row-strip form: ${parameter}: ${reason}`,
  /** A materialization between two layouts that has no data movement. */
  unsupportedMaterialization: (source: string, target: string): string =>
    `spat-lower-plans: materializing ${source} as ${target} is not supported (supported: dense_nchw <-> nhwc_row_strip)`,
  /** A recorded operand layout that disagrees with the producer's layout. */
  operandLayoutMismatch: (index: number, recorded: string, actual: string): string =>
    `spat-lower-plans: operand #${index} is recorded as ${recorded} but its producer yields ${actual}; run spat-plan-layouts (which inserts spat.materialize_layout) first`,
  /** A row-strip value used by an op that reads logical (dense) values. */
  rowStripEscapes: (user: string): string =>
    `spat-lower-plans: a row-strip value is used by '${user}', which reads dense logical values; a spat.materialize_layout to dense_nchw is missing (run spat-plan-layouts)`,
  /** The nearest-neighbour index map is not an affine function of the output coordinate. */
  resizeNotAffine: (axis: string, inSize: number, outSize: number): string =>
    `spat-lower-plans: the ${axis} index map of the resize ${inSize} -> ${outSize} (asymmetric, floor) is not (o * ${inSize}) floordiv ${outSize}; this resize is not supported yet`,
  /** A layout record that is not one physical layout per operand and one for the result. */
  malformedRecord: (result: string, operands: string): string =>
    `spat-lower-plans: malformed layout record: spat.result_layout = ${result}, spat.operand_layouts = ${operands}`,
} as const;
