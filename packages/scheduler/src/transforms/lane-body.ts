/**
 * Pieces of the lane-body rewrites that clone a compute's body into lanes working on chunks of
 * a dimension (`spat-split-lanes`, the chunk tiling of `spat-tile-parallel-computes`).
 */
import { ConstantOp, DenseElementsAttr, IRMapping, type OpBuilder, type Operation, type RankedTensorType, type Value } from '@raptor-pim/ir-core';
import { createExtractSlice, type IndexOrValue } from '@raptor-pim/upstream-dialects';
import { splatConstantOf } from '../analysis/pointwise';

/**
 * The lane's chunk of the tensor constant `op` as a value of `type` (the chunk's type): a splat
 * shrinks to `type`; a dense constant is cloned whole and sliced at `offset` along `dim`.
 */
export function chunkOfConstant(b: OpBuilder, op: Operation, type: RankedTensorType, dim: number, offset: () => IndexOrValue): Value {
  const splat = splatConstantOf(op);
  if (splat) return ConstantOp.build(b, { value: DenseElementsAttr.splat(type, splat.getNumber(0)), result: type }, op.location).result;
  const whole = b.clone(op, new IRMapping()).getResult(0);
  return createExtractSlice(b, op.location, whole, { offsets: type.shape.map((_, j) => (j === dim ? offset() : 0)), sizes: type.shape });
}

/** Clones `op` (no regions) with its operands mapped by `operandOf`, and maps its results in `mapping`. */
export function cloneWithOperands(b: OpBuilder, op: Operation, operandOf: (v: Value) => Value, mapping: IRMapping): Operation {
  const clone = b.create({ name: op.name, location: op.location, operands: op.operands.map(operandOf), resultTypes: op.resultTypes, properties: new Map(op.properties), attributes: op.attributes });
  op.results.forEach((r, i) => mapping.map(r, clone.getResult(i)));
  return clone;
}
