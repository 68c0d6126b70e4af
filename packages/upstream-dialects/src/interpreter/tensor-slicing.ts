/**
 * Runtime slicing of tensor values: extraction and insertion of strided slices, computed with a
 * plain row-major walk over the slice sizes (rank-reducing slices drop unit dimensions, which
 * does not change the row-major order of the elements).
 */
import { ShapedValue } from '@raptor-pim/ir-core';
import { TensorMessages as M } from '../tensor/diagnostics';

/** Full-rank offsets, sizes and strides of one slice, all static numbers. */
export interface SliceSpec {
  readonly offsets: readonly number[];
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
}

/** The message of the first out-of-bounds dimension of `slice` in `shape`, or undefined. */
export function checkRuntimeSlice(shape: readonly number[], slice: SliceSpec): string | undefined {
  for (let d = 0; d < shape.length; d++) {
    const off = slice.offsets[d]!;
    const size = slice.sizes[d]!;
    const stride = slice.strides[d]!;
    if (size < 0) return M.runtimeNegativeSize(`size ${d}`, size);
    if (size === 0) {
      if (off < 0 || off > shape[d]!) return M.runtimeSliceOutOfBounds(d, off, size, stride, shape[d]!);
      continue;
    }
    const last = off + (size - 1) * stride;
    if (off < 0 || off >= shape[d]! || last < 0 || last >= shape[d]!) return M.runtimeSliceOutOfBounds(d, off, size, stride, shape[d]!);
  }
  return undefined;
}

/** Calls `visit(k, sourceIndex)` for the k-th element (row-major over `sizes`) of the slice. */
export function forEachSliceElement(base: ShapedValue, slice: SliceSpec, visit: (k: number, storageIndex: number) => void): void {
  const rank = slice.sizes.length;
  let n = 1;
  for (const s of slice.sizes) n *= s;
  if (n === 0) return;
  const idx = new Array<number>(rank).fill(0);
  const pos = new Array<number>(rank);
  for (let k = 0; k < n; k++) {
    for (let d = 0; d < rank; d++) pos[d] = slice.offsets[d]! + idx[d]! * slice.strides[d]!;
    visit(k, base.indexOf(pos));
    for (let d = rank - 1; d >= 0; d--) {
      if (++idx[d]! < slice.sizes[d]!) break;
      idx[d] = 0;
    }
  }
}

/** A new tensor of `resultShape` holding the slice of `source` (bounds must have been checked). */
export function extractSlice(source: ShapedValue, slice: SliceSpec, resultShape: readonly number[]): ShapedValue {
  const out = ShapedValue.allocate('tensor', source.elementType, resultShape)!;
  const src = source.data as unknown as (number | bigint)[];
  const dst = out.data as unknown as (number | bigint)[];
  forEachSliceElement(source, slice, (k, i) => {
    dst[k] = src[i]!;
  });
  return out;
}

/** A copy of `dest` with the slice replaced by the elements of `source` (row-major). */
export function insertSlice(source: ShapedValue, dest: ShapedValue, slice: SliceSpec): ShapedValue {
  const out = dest.copy('tensor');
  writeSliceInPlace(source, out, slice);
  return out;
}

/** Writes the elements of `source` into the slice of `target` (mutating `target`). */
export function writeSliceInPlace(source: ShapedValue, target: ShapedValue, slice: SliceSpec): void {
  const src = source.toContiguousArray() as unknown as (number | bigint)[];
  const dst = target.data as unknown as (number | bigint)[];
  forEachSliceElement(target, slice, (k, i) => {
    dst[i] = src[k]!;
  });
}
