/**
 * Conversions between the interpreter's {@link ShapedValue} tensors and the kernels'
 * {@link F32Tensor}s (f32 only: the Spatial kernels compute in f32).
 */
import { FloatType, ShapedValue, formatType, type RuntimeValue, type Type } from '@raptor-pim/ir-core';
import type { F32Tensor } from './kernels';

/** The f32 tensor view of `value`, or an error text. */
export function toF32(value: RuntimeValue | undefined): F32Tensor | string {
  if (!(value instanceof ShapedValue)) return 'not a tensor value';
  if (!(value.elementType instanceof FloatType) || value.elementType.kind !== 'f32') return `element type ${formatType(value.elementType)} is not f32`;
  // Kernels never write their inputs: a dense value is handed over without a copy (a copy per
  // operand made interpreting crossbar-tiled graphs copy every weight tile on every spat.wvmm).
  const dense = value.offset === 0 && value.isContiguous && value.data.length === value.numElements;
  const data = (dense ? value.data : value.toContiguousArray()) as Float32Array;
  return { shape: [...value.shape], data };
}

/** A tensor value of `elementType` holding `t`. */
export function fromF32(t: F32Tensor, elementType: Type): ShapedValue {
  return new ShapedValue('tensor', elementType, [...t.shape], t.data);
}
