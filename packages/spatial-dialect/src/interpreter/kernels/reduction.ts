import { KernelMessages } from '../../diagnostics';
import { kernelFail, kernelOk, normalizeAxis, shapeSize, stridesOf, validateTensor } from './tensor';
import type { F32Tensor, KernelResult } from './tensor';

/**
 * Numerically stable softmax along one axis (ONNX `Softmax`, opset >= 13):
 * `y = exp(x - m) / sum(exp(x - m))` over every line along `axis`, with `m` the line's maximum
 * (subtracting it changes nothing mathematically and keeps `exp` finite). Sums in f64.
 * `axis` may be negative (default -1, the last axis).
 *
 * A line whose maximum is `+Infinity` or that contains NaN yields NaN, as in onnxruntime.
 *
 * @example softmax(createTensor([1, 2], [0, 0]), -1) // -> [0.5, 0.5]
 */
export function softmax(input: F32Tensor, axis = -1): KernelResult<F32Tensor> {
  const kernel = 'softmax';
  const problem = validateTensor(kernel, 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  const rank = input.shape.length;
  if (rank === 0) return softmaxAll(input);
  const a = normalizeAxis(axis, rank);
  if (a < 0) return kernelFail(KernelMessages.axisOutOfRange(kernel, axis, -rank, rank - 1));
  const len = input.shape[a]!;
  let outer = 1;
  for (let d = 0; d < a; d++) outer *= input.shape[d]!;
  let inner = 1;
  for (let d = a + 1; d < rank; d++) inner *= input.shape[d]!;
  const out = new Float32Array(input.data.length);
  const lineExp = new Float64Array(len);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      softmaxLine(input.data, o * len * inner + i, inner, len, out, lineExp);
    }
  }
  return kernelOk({ shape: input.shape.slice(), data: out });
}

function softmaxLine(x: Float32Array, base: number, stride: number, len: number, out: Float32Array, scratch: Float64Array): void {
  let max = -Infinity;
  for (let k = 0; k < len; k++) {
    const v = x[base + k * stride]!;
    if (v > max || v !== v) max = v;
  }
  let sum = 0;
  for (let k = 0; k < len; k++) {
    const e = Math.exp(x[base + k * stride]! - max);
    scratch[k] = e;
    sum += e;
  }
  for (let k = 0; k < len; k++) out[base + k * stride] = scratch[k]! / sum;
}

/**
 * Softmax over the whole tensor as one normalization domain (`spat.softmax`, `pim.vsoftmax`):
 * `y[i] = exp(x[i] - m) / sum_j exp(x[j] - m)` with `m = max(x)`. Shape is preserved.
 */
export function softmaxAll(input: F32Tensor): KernelResult<F32Tensor> {
  const problem = validateTensor('softmaxAll', 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  const n = input.data.length;
  const out = new Float32Array(n);
  softmaxLine(input.data, 0, 1, n, out, new Float64Array(n));
  return kernelOk({ shape: input.shape.slice(), data: out });
}

/** The reductions of {@link reduce}. */
export type ReductionKind = 'sum' | 'mean' | 'max' | 'min';

/**
 * Reduces over `axes` (ONNX `ReduceSum`/`ReduceMean`/`ReduceMax`/`ReduceMin`). Without `axes`
 * (or with an empty list) every axis is reduced, as ONNX does when `noop_with_empty_axes` is 0.
 * `keepDims` (default true) keeps reduced axes as size 1. Sums accumulate in f64 and are
 * rounded once; `mean` divides the f64 sum by the element count.
 *
 * Fails on an axis out of range or repeated, and on an empty reduction domain for
 * `mean`/`max`/`min` (an empty `sum` is 0).
 */
export function reduce(kind: ReductionKind, input: F32Tensor, axes?: readonly number[], keepDims = true): KernelResult<F32Tensor> {
  const kernel = `reduce_${kind}`;
  const problem = validateTensor(kernel, 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  const rank = input.shape.length;
  const reduced = new Uint8Array(rank);
  if (axes === undefined || axes.length === 0) reduced.fill(1);
  else {
    for (const axis of axes) {
      const a = normalizeAxis(axis, rank);
      if (a < 0) return kernelFail(KernelMessages.axisOutOfRange(kernel, axis, -rank, rank - 1));
      if (reduced[a] === 1) return kernelFail(KernelMessages.duplicateAxis(kernel, axes));
      reduced[a] = 1;
    }
  }
  const keptShape = input.shape.map((d, i) => (reduced[i] === 1 ? 1 : d));
  const outShape = keepDims ? keptShape : input.shape.filter((_, i) => reduced[i] !== 1);
  const outSize = shapeSize(keptShape);
  let domain = 1;
  for (let i = 0; i < rank; i++) if (reduced[i] === 1) domain *= input.shape[i]!;
  if (domain === 0 && kind !== 'sum' && outSize > 0) return kernelFail(KernelMessages.emptyReduction(kernel, input.shape));
  const acc = new Float64Array(outSize);
  if (kind === 'max') acc.fill(-Infinity);
  else if (kind === 'min') acc.fill(Infinity);
  const total = input.data.length;
  if (total > 0) {
    // Output stride per input axis: 0 on reduced axes.
    const outStrides = stridesOf(keptShape).map((s, i) => (reduced[i] === 1 ? 0 : s));
    const counter = new Int32Array(rank);
    const x = input.data;
    for (let i = 0; i < total; i++) {
      let o = 0;
      for (let d = 0; d < rank; d++) o += counter[d]! * outStrides[d]!;
      const v = x[i]!;
      switch (kind) {
        case 'sum':
        case 'mean':
          acc[o] += v;
          break;
        case 'max':
          if (v > acc[o]! || v !== v) acc[o] = v;
          break;
        case 'min':
          if (v < acc[o]! || v !== v) acc[o] = v;
          break;
      }
      for (let d = rank - 1; d >= 0; d--) {
        counter[d]++;
        if (counter[d]! < input.shape[d]!) break;
        counter[d] = 0;
      }
    }
  }
  const out = new Float32Array(outSize);
  for (let i = 0; i < outSize; i++) out[i] = kind === 'mean' ? acc[i]! / domain : acc[i]!;
  return kernelOk({ shape: outShape, data: out });
}

/**
 * Average of a complete slice into a `[1, 1]` tensor (`spat.vavg`, `pim.vavg`):
 * `y[0, 0] = sum(x) / count(x)`, summed in f64. Fails on an empty input.
 *
 * @example vavg(createTensor([1, 4], [1, 2, 3, 4])) // -> [1, 1]: [2.5]
 */
export function vavg(input: F32Tensor): KernelResult<F32Tensor> {
  const problem = validateTensor('vavg', 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  const n = input.data.length;
  if (n === 0) return kernelFail(KernelMessages.emptyReduction('vavg', input.shape));
  let sum = 0;
  for (let i = 0; i < n; i++) sum += input.data[i]!;
  return kernelOk({ shape: [1, 1], data: Float32Array.of(sum / n) });
}
