/** Type helpers shared by the analyses: element sizes, static byte sizes, printing. */
import { FloatType, IndexType, IntegerType, MemRefType, RankedTensorType, formatType, type Type } from '@raptor-pim/ir-core';

/** Bytes of one element of `type` (index counts 8 bytes), or undefined for non-numeric types. */
export function elementBytes(type: Type): number | undefined {
  if (type instanceof FloatType) return type.width / 8;
  if (type instanceof IntegerType) return Math.ceil(type.width / 8);
  if (type instanceof IndexType) return 8;
  return undefined;
}

/** Element count of a static shape, or undefined when a dimension is dynamic. */
export function staticElementCount(shape: readonly number[]): number | undefined {
  let n = 1;
  for (const d of shape) {
    if (d < 0) return undefined;
    n *= d;
  }
  return n;
}

/** Bytes of a statically shaped memref or tensor, or undefined. */
export function staticByteSize(type: Type): number | undefined {
  if (!(type instanceof MemRefType) && !(type instanceof RankedTensorType)) return undefined;
  const n = staticElementCount(type.shape);
  const e = elementBytes(type.elementType);
  return n === undefined || e === undefined ? undefined : n * e;
}

/** True for f32 element types. */
export function isF32(type: Type): boolean {
  return type instanceof FloatType && type.kind === 'f32';
}

/** Prints a type as MLIR does. */
export function typeText(type: Type): string {
  return formatType(type);
}
