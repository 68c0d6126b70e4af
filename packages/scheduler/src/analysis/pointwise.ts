/**
 * What the body rewrites of the scheduler (`spat-tile-parallel-computes`, `spat-split-lanes`)
 * accept as element-wise: ops whose operands and result have one shape and that work element
 * by element, so any slice of the result needs the same slice of each operand.
 */
import { ConstantOp, DenseElementsAttr, RankedTensorType, type Operation } from '@raptor-pim/ir-core';
import { ReluOp, SigmoidOp, VaddOp, VmaxOp, VmulOp, VsubOp } from '@raptor-pim/spatial-dialect';

/** The element-wise spat ops (no broadcasting). */
export const POINTWISE_OPS = [ReluOp, SigmoidOp, VaddOp, VsubOp, VmulOp, VmaxOp] as const;

/** True when `op` is one of {@link POINTWISE_OPS}. */
export function isPointwise(op: Operation): boolean {
  return POINTWISE_OPS.some((d) => d.isInstance(op));
}

/** True when `t` is a ranked tensor type with a static shape. */
export function isStaticTensor(t: unknown): t is RankedTensorType {
  return t instanceof RankedTensorType && t.shape.every((x) => x >= 0);
}

/** The splat value of `op` when it is an `arith.constant` of a splat tensor (a rewrite resizes it freely), else undefined. */
export function splatConstantOf(op: Operation | null): DenseElementsAttr | undefined {
  if (!op || !ConstantOp.isInstance(op)) return undefined;
  const a = op.getAttr('value');
  return a instanceof DenseElementsAttr && a.isSplat ? a : undefined;
}
