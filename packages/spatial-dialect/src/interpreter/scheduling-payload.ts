/**
 * Payload helpers of the scheduling interpreter: byte views of tensors and buffers (channel
 * and host transfers carry bytes, as the PIM instructions do) and the shaped value of a type.
 */
import { MemRefType, RankedTensorType, ShapedValue, formatType, type Type } from '@raptor-pim/ir-core';

/** The static shape and element type of a ranked tensor or memref type, or undefined. */
export function staticShapeOf(type: Type): { shape: readonly number[]; elementType: Type; kind: 'tensor' | 'buffer' } | undefined {
  if (type instanceof RankedTensorType && type.shape.every((d) => d >= 0)) {
    return { shape: type.shape, elementType: type.elementType, kind: 'tensor' };
  }
  if (type instanceof MemRefType && type.shape.every((d) => d >= 0)) {
    return { shape: type.shape, elementType: type.elementType, kind: 'buffer' };
  }
  return undefined;
}

/** A zero-filled value of `type`, or an error message. */
export function zeroValueOf(type: Type): ShapedValue | string {
  const s = staticShapeOf(type);
  const v = s && ShapedValue.allocate(s.kind, s.elementType, s.shape);
  return v ?? `unsupported payload type ${formatType(type)}`;
}

/** The bytes of `value` in row-major order (a copy). */
export function bytesOf(value: ShapedValue): Uint8Array {
  const a = value.toContiguousArray();
  return new Uint8Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength));
}

/** Number of bytes a value of `type` occupies in the interpreter (elements x typed-array width), or undefined. */
export function byteSizeOf(type: Type): number | undefined {
  const z = zeroValueOf(type);
  return typeof z === 'string' ? undefined : z.data.byteLength;
}

/** A value of `type` whose bytes are `bytes` (the caller checked the size). */
export function valueFromBytes(type: Type, bytes: Uint8Array): ShapedValue | string {
  const z = zeroValueOf(type);
  if (typeof z === 'string') return z;
  new Uint8Array(z.data.buffer, z.data.byteOffset, z.data.byteLength).set(bytes);
  return z;
}
