/** The `affine` dialect, reduced to `affine.apply` (affine maps live in ir-core). */
import { ArithDialect, defineDialect, type Dialect } from '@raptor-pim/ir-core';
import { ApplyOp } from './ops';

/** Every affine op definition. */
export const AFFINE_OPERATIONS = [ApplyOp] as const;

/**
 * The affine dialect (`affine.apply` only). Folded constants materialize as `arith.constant`
 * (as in MLIR).
 */
export const AffineDialect: Dialect = defineDialect({
  namespace: 'affine',
  operations: AFFINE_OPERATIONS,
  materializeConstant: (builder, value, type, location) => ArithDialect.materializeConstant?.(builder, value, type, location) ?? null,
});
