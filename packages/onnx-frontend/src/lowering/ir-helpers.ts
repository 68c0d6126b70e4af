/**
 * Small helpers of the ONNX lowering for building IR: static f32 tensor types, `i64` integer
 * and array attributes, name locations and element counts.
 */
import { DenseArrayAttr, IntegerAttr, IntegerType, NameLoc, type Location, type MLIRContext, type RankedTensorType } from '@raptor-pim/ir-core';
import { f32TensorType } from '@raptor-pim/spatial-dialect';

/** `tensor<1x3xf32>` (`tensor<f32>` for rank 0). */
export function tensorType(ctx: MLIRContext, shape: readonly number[]): RankedTensorType {
  return f32TensorType(ctx, shape);
}

/** `array<i64: 1, 2>`. */
export function i64Array(ctx: MLIRContext, values: readonly number[]): DenseArrayAttr {
  return DenseArrayAttr.i64(ctx, values);
}

/** `3 : i64`. */
export function i64(ctx: MLIRContext, value: number): IntegerAttr {
  return IntegerAttr.get(IntegerType.get(ctx, 64), value);
}

/** `loc("node_name")`: the name location carrying an ONNX node name. */
export function nameLoc(ctx: MLIRContext, name: string): Location {
  return NameLoc.get(ctx, name);
}

/** Number of elements of a shape. */
export function elementCount(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}
