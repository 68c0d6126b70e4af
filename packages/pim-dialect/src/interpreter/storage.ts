/**
 * Byte-level access to pim storage (ir-core `ShapedValue`s): tensors have value semantics (a
 * write produces a copy of the destination), memrefs are mutable buffers written in place.
 * Offsets and sizes of copies and transfers are in bytes; vector lengths are in elements.
 */
import { ShapedValue, type RuntimeValue } from '@raptor-pim/ir-core';

/** Result of a storage helper: a value or a diagnostic text. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** True when `v` is a tensor or buffer value. */
export function isShaped(v: RuntimeValue | undefined): v is ShapedValue {
  return v instanceof ShapedValue;
}

/** Bytes per element of `v`. */
export function elementBytes(v: ShapedValue): number {
  return v.data.BYTES_PER_ELEMENT;
}

/** Total bytes of `v`. */
export function byteSize(v: ShapedValue): number {
  return v.numElements * elementBytes(v);
}

/**
 * The destination a rule writes: memrefs are written in place, tensors get a contiguous copy
 * (so bytes outside the written range keep the destination's contents).
 */
export function writable(dst: ShapedValue): ShapedValue {
  return dst.kind === 'buffer' ? dst : dst.copy('tensor');
}

/** A byte view of `v`'s elements (requires a contiguous view). */
export function bytesOf(v: ShapedValue): Uint8Array | undefined {
  if (!v.isContiguous) return undefined;
  const eb = elementBytes(v);
  return new Uint8Array(v.data.buffer, v.data.byteOffset + v.offset * eb, v.numElements * eb);
}

/** A contiguous copy of `v`'s elements as numbers (64-bit integers converted). */
export function readNumbers(v: ShapedValue): number[] {
  const a = v.toContiguousArray() as unknown as ArrayLike<number | bigint>;
  const out = new Array<number>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = Number(a[i]);
  return out;
}

/**
 * Stores `values` into the first elements of `dst` (row-major) with the element type's rounding
 * (f32 rounding, integer truncation and wrap, as a typed-array store; 64-bit integers via BigInt).
 */
export function writeNumbers(dst: ShapedValue, values: readonly number[], start = 0): void {
  const rank = dst.shape.length;
  const idx = new Array<number>(rank).fill(0);
  // advance to `start`
  let k = 0;
  const big = dst.data instanceof BigInt64Array || dst.data instanceof BigUint64Array;
  const advance = (): void => {
    for (let d = rank - 1; d >= 0; d--) {
      if (++idx[d]! < dst.shape[d]!) return;
      idx[d] = 0;
    }
  };
  for (; k < start; k++) advance();
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    dst.set(idx, big ? BigInt(Number.isFinite(v) ? Math.trunc(v) : 0) : v);
    advance();
  }
}

/** Checks a byte range `[offset, offset + size)` against a buffer of `bytes` bytes. */
export function inBounds(offset: number, size: number, bytes: number): boolean {
  return Number.isInteger(offset) && Number.isInteger(size) && offset >= 0 && size >= 0 && offset + size <= bytes;
}
