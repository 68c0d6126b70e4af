/**
 * Small-tensor evaluation used by constant folding of shape computations
 * (Shape -> Gather -> Cast -> Unsqueeze -> Concat -> Reshape chains): conversions between
 * tensors and number arrays, broadcasting, gather and slice on plain arrays.
 */
import { OnnxDataType, allocateData, bfloat16ToNumber, float16ToNumber } from '../onnx/dtypes';
import type { OnnxTensor } from '../onnx/model';

/** Element types constant folding computes with (exact in a double for our sizes). */
export function isFoldableType(dtype: number): boolean {
  return dtype !== OnnxDataType.UINT64 && dtype !== OnnxDataType.FLOAT16 && dtype !== OnnxDataType.BFLOAT16;
}

/** The elements of a tensor as numbers (int64 exact up to 2^53). */
export function tensorToNumbers(t: OnnxTensor): number[] {
  const out = new Array<number>(t.data.length);
  const d = t.data;
  if (d instanceof BigInt64Array || d instanceof BigUint64Array) {
    for (let i = 0; i < d.length; i++) out[i] = Number(d[i]!);
  } else if (t.dataType === OnnxDataType.FLOAT16) {
    for (let i = 0; i < d.length; i++) out[i] = float16ToNumber(d[i] as number);
  } else if (t.dataType === OnnxDataType.BFLOAT16) {
    for (let i = 0; i < d.length; i++) out[i] = bfloat16ToNumber(d[i] as number);
  } else {
    for (let i = 0; i < d.length; i++) out[i] = d[i] as number;
  }
  return out;
}

/** The values of a numeric tensor as a new Float32Array (f32 data is copied natively). */
export function tensorToFloat32(t: OnnxTensor): Float32Array {
  const d = t.data;
  if (d instanceof Float32Array) return new Float32Array(d);
  if (d instanceof BigInt64Array || d instanceof BigUint64Array || t.dataType === OnnxDataType.FLOAT16 || t.dataType === OnnxDataType.BFLOAT16) return Float32Array.from(tensorToNumbers(t));
  return Float32Array.from(d as ArrayLike<number>);
}

/** Builds a tensor of `dtype` from numbers (integers truncate toward zero, as ONNX Cast does). */
export function numbersToTensor(name: string, dtype: number, dims: readonly number[], values: readonly number[]): OnnxTensor {
  const data = allocateData(dtype, values.length);
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      data[i] = Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
    }
  } else if (dtype === OnnxDataType.BOOL) {
    for (let i = 0; i < values.length; i++) (data as Uint8Array)[i] = values[i] ? 1 : 0;
  } else if (dtype === OnnxDataType.FLOAT || dtype === OnnxDataType.DOUBLE) {
    for (let i = 0; i < values.length; i++) (data as Float32Array)[i] = values[i]!;
  } else {
    for (let i = 0; i < values.length; i++) (data as Int32Array)[i] = Math.trunc(values[i]!);
  }
  return { name, dataType: dtype, dims: [...dims], data };
}

/** Row-major strides of a shape. */
export function strides(dims: readonly number[]): number[] {
  const s = new Array<number>(dims.length);
  let acc = 1;
  for (let i = dims.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= dims[i]!;
  }
  return s;
}

/** Numpy multidirectional broadcast of two shapes, or undefined if incompatible. */
export function broadcastShapes(a: readonly number[], b: readonly number[]): number[] | undefined {
  const rank = Math.max(a.length, b.length);
  const out = new Array<number>(rank);
  for (let i = 0; i < rank; i++) {
    const x = a[a.length - rank + i] ?? 1;
    const y = b[b.length - rank + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return undefined;
    out[i] = x === 1 ? y : x;
  }
  return out;
}

/** Applies `f` elementwise with broadcasting to two arrays of the given shapes. */
export function broadcastBinary(
  a: readonly number[],
  aDims: readonly number[],
  b: readonly number[],
  bDims: readonly number[],
  outDims: readonly number[],
  f: (x: number, y: number) => number,
): number[] {
  const rank = outDims.length;
  const count = outDims.reduce((p, d) => p * d, 1);
  const as = strides(aDims);
  const bs = strides(bDims);
  const out = new Array<number>(count);
  const idx = new Array<number>(rank).fill(0);
  for (let k = 0; k < count; k++) {
    let ai = 0;
    let bi = 0;
    for (let i = 0; i < rank; i++) {
      const ax = i - (rank - aDims.length);
      const bx = i - (rank - bDims.length);
      if (ax >= 0 && aDims[ax] !== 1) ai += idx[i]! * as[ax]!;
      if (bx >= 0 && bDims[bx] !== 1) bi += idx[i]! * bs[bx]!;
    }
    out[k] = f(a[ai]!, b[bi]!);
    for (let i = rank - 1; i >= 0; i--) {
      if (++idx[i]! < outDims[i]!) break;
      idx[i] = 0;
    }
  }
  return out;
}

/** Gathers along `axis` (already normalised) with normalised indices. */
export function gatherValues(data: readonly number[], dims: readonly number[], axis: number, indices: readonly number[]): number[] {
  const outer = dims.slice(0, axis).reduce((p, d) => p * d, 1);
  const axisLen = dims[axis]!;
  const inner = dims.slice(axis + 1).reduce((p, d) => p * d, 1);
  const out: number[] = [];
  for (let o = 0; o < outer; o++) {
    for (const ix of indices) {
      const base = (o * axisLen + ix) * inner;
      for (let i = 0; i < inner; i++) out.push(data[base + i]!);
    }
  }
  return out;
}

/** A normalised slice of one axis: first index, step, and element count. */
export interface AxisSlice {
  readonly start: number;
  readonly step: number;
  readonly count: number;
}

/**
 * Normalises ONNX Slice parameters for one axis of length `dim`: negative indices count from
 * the end, out-of-range ones are clamped (differently for negative steps), as the spec says.
 */
export function normalizeSlice(start: number, end: number, step: number, dim: number): AxisSlice {
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = Math.min(Math.max(start, 0), dim);
    end = Math.min(Math.max(end, 0), dim);
  } else {
    start = Math.min(Math.max(start, 0), dim - 1);
    end = Math.min(Math.max(end, -1), dim - 1);
  }
  const count = Math.max(0, Math.ceil((end - start) / step));
  return { start, step, count };
}

/** Extracts the elements of a slice (one {@link AxisSlice} per axis) in row-major order. */
export function sliceValues(data: readonly number[], dims: readonly number[], slices: readonly AxisSlice[]): number[] {
  const rank = dims.length;
  const st = strides(dims);
  const total = slices.reduce((p, s) => p * s.count, 1);
  const out = new Array<number>(total);
  const idx = new Array<number>(rank).fill(0);
  for (let k = 0; k < total; k++) {
    let off = 0;
    for (let i = 0; i < rank; i++) off += (slices[i]!.start + idx[i]! * slices[i]!.step) * st[i]!;
    out[k] = data[off]!;
    for (let i = rank - 1; i >= 0; i--) {
      if (++idx[i]! < slices[i]!.count) break;
      idx[i] = 0;
    }
  }
  return out;
}
