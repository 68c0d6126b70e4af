import { windowOutputSize } from './conv';
import { KernelMessages } from '../../diagnostics';
import { kernelFail, kernelOk, validateIntList, validateTensor } from './tensor';
import type { F32Tensor, KernelResult } from './tensor';

/**
 * Window attributes of 2-D pooling, named as `spat.max_pool2d_plan` names them. There is no
 * ceil mode: the reference's pooling plan has none, so output sizes always use the floor formula
 * of {@link windowOutputSize}.
 */
export interface Pool2dAttributes {
  /** `[height, width]` window size in elements, each >= 1 (required). */
  readonly kernelShape: readonly number[];
  /** `[top, left, bottom, right]` padding in elements, each smaller than the kernel. Default zeros. */
  readonly pads?: readonly number[];
  /** `[height, width]` window step, each >= 1. Default `[1, 1]`. */
  readonly strides?: readonly number[];
  /** `[height, width]` spacing between window taps, each >= 1. Default `[1, 1]`. */
  readonly dilations?: readonly number[];
}

/** Attributes of average pooling: the window plus the divisor rule. */
export interface AveragePool2dAttributes extends Pool2dAttributes {
  /**
   * When true, padded taps count in the divisor (ONNX `count_include_pad = 1`), so every window
   * divides by the number of taps inside the padded extent; when false (default, ONNX's default),
   * only taps inside the input count.
   */
  readonly countIncludePad?: boolean;
}

interface WindowGeometry {
  readonly n: number;
  readonly c: number;
  readonly h: number;
  readonly w: number;
  readonly kh: number;
  readonly kw: number;
  readonly oh: number;
  readonly ow: number;
  readonly padTop: number;
  readonly padLeft: number;
  readonly padBottom: number;
  readonly padRight: number;
  readonly sh: number;
  readonly sw: number;
  readonly dh: number;
  readonly dw: number;
}

function windowGeometry(kernel: string, input: F32Tensor, attributes: Pool2dAttributes): WindowGeometry | string {
  const pads = attributes.pads ?? [0, 0, 0, 0];
  const strides = attributes.strides ?? [1, 1];
  const dilations = attributes.dilations ?? [1, 1];
  const problem =
    validateTensor(kernel, 'input', input, 4) ??
    validateIntList(kernel, 'kernelShape', attributes.kernelShape, 2, 1) ??
    validateIntList(kernel, 'pads', pads, 4, 0) ??
    validateIntList(kernel, 'strides', strides, 2, 1) ??
    validateIntList(kernel, 'dilations', dilations, 2, 1);
  if (problem !== undefined) return problem;
  const [kh, kw] = attributes.kernelShape as [number, number];
  const [padTop, padLeft, padBottom, padRight] = pads as [number, number, number, number];
  if (padTop >= kh || padBottom >= kh || padLeft >= kw || padRight >= kw) {
    return KernelMessages.padNotSmallerThanKernel(kernel, pads, attributes.kernelShape);
  }
  const [n, c, h, w] = input.shape as [number, number, number, number];
  const [sh, sw] = strides as [number, number];
  const [dh, dw] = dilations as [number, number];
  const oh = windowOutputSize(h, kh, padTop, padBottom, sh, dh);
  const ow = windowOutputSize(w, kw, padLeft, padRight, sw, dw);
  if (oh < 1 || ow < 1) return KernelMessages.emptyOutput(kernel, [n, c, oh, ow]);
  return { n, c, h, w, kh, kw, oh, ow, padTop, padLeft, padBottom, padRight, sh, sw, dh, dw };
}

/** The most negative finite f32, onnxruntime's value for a max-pool window with no input tap. */
const LOWEST_F32 = -3.4028234663852886e38;

/**
 * 2-D max pooling over NCHW data (ONNX `MaxPool` without ceil mode, `spat.max_pool2d_plan`):
 * `y[n, c, oh, ow] = max_{kh, kw} x[n, c, oh*sh + kh*dh - padTop, ow*sw + kw*dw - padLeft]`
 * over taps inside the input; padding never wins. NaN inputs propagate only if they win a
 * comparison (like onnxruntime's `>` scan). A window whose taps all fall in the padding (possible
 * with dilations) yields the lowest finite f32, `-3.4028235e38`, as in onnxruntime. Output spatial sizes follow {@link windowOutputSize}.
 *
 * Fails when the input is not rank 4, an attribute is malformed, a pad is not smaller than
 * its kernel extent (the ONNX/onnxruntime rule), or the output would be empty.
 *
 * @example maxPool2d(x, { kernelShape: [2, 2], strides: [2, 2] }) // x [1,1,4,4] -> [1,1,2,2]
 */
export function maxPool2d(input: F32Tensor, attributes: Pool2dAttributes): KernelResult<F32Tensor> {
  const g = windowGeometry('maxPool2d', input, attributes);
  if (typeof g === 'string') return kernelFail(g);
  const { n, c, h, w, kh, kw, oh, ow, padTop, padLeft, sh, sw, dh, dw } = g;
  const out = new Float32Array(n * c * oh * ow);
  const x = input.data;
  let o = 0;
  for (let p = 0; p < n * c; p++) {
    const base = p * h * w;
    for (let y = 0; y < oh; y++) {
      const rowStart = y * sh - padTop;
      for (let z = 0; z < ow; z++) {
        const colStart = z * sw - padLeft;
        let best = -Infinity;
        let taps = 0;
        for (let r = 0; r < kh; r++) {
          const row = rowStart + r * dh;
          if (row < 0 || row >= h) continue;
          const rowBase = base + row * w;
          for (let s = 0; s < kw; s++) {
            const col = colStart + s * dw;
            if (col < 0 || col >= w) continue;
            const v = x[rowBase + col]!;
            if (v > best) best = v;
            taps++;
          }
        }
        out[o++] = taps === 0 ? LOWEST_F32 : best;
      }
    }
  }
  return kernelOk({ shape: [n, c, oh, ow], data: out });
}

/**
 * 2-D average pooling over NCHW data (ONNX `AveragePool` without ceil mode):
 * `y = sum(taps inside the input) / count`, where `count` is the number of taps inside the
 * input (`countIncludePad` false) or inside the padded extent `[-padBegin, size + padEnd)`
 * (`countIncludePad` true; without ceil mode that is always `kh * kw`). Sums are accumulated
 * in f64 and divided once.
 *
 * Fails like {@link maxPool2d}.
 */
export function averagePool2d(input: F32Tensor, attributes: AveragePool2dAttributes): KernelResult<F32Tensor> {
  const g = windowGeometry('averagePool2d', input, attributes);
  if (typeof g === 'string') return kernelFail(g);
  const { n, c, h, w, kh, kw, oh, ow, padTop, padLeft, padBottom, padRight, sh, sw, dh, dw } = g;
  const includePad = attributes.countIncludePad ?? false;
  const out = new Float32Array(n * c * oh * ow);
  const x = input.data;
  let o = 0;
  for (let p = 0; p < n * c; p++) {
    const base = p * h * w;
    for (let y = 0; y < oh; y++) {
      const rowStart = y * sh - padTop;
      for (let z = 0; z < ow; z++) {
        const colStart = z * sw - padLeft;
        let sum = 0;
        let inside = 0;
        let padded = 0;
        for (let r = 0; r < kh; r++) {
          const row = rowStart + r * dh;
          const rowInPadded = row >= -padTop && row < h + padBottom;
          const rowInside = row >= 0 && row < h;
          for (let s = 0; s < kw; s++) {
            const col = colStart + s * dw;
            if (rowInPadded && col >= -padLeft && col < w + padRight) padded++;
            if (rowInside && col >= 0 && col < w) {
              sum += x[base + row * w + col]!;
              inside++;
            }
          }
        }
        const count = includePad ? padded : inside;
        out[o++] = count === 0 ? 0 : sum / count;
      }
    }
  }
  return kernelOk({ shape: [n, c, oh, ow], data: out });
}

function globalPool(kernel: string, input: F32Tensor, isMax: boolean): KernelResult<F32Tensor> {
  const problem = validateTensor(kernel, 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  if (input.shape.length < 3) return kernelFail(KernelMessages.rankMismatch(kernel, 'input', input.shape, '>= 3 (N, C, spatial...)'));
  const n = input.shape[0]!;
  const c = input.shape[1]!;
  let spatial = 1;
  for (let i = 2; i < input.shape.length; i++) spatial *= input.shape[i]!;
  if (spatial === 0) return kernelFail(KernelMessages.emptyReduction(kernel, input.shape));
  const outShape = input.shape.map((d, i) => (i < 2 ? d : 1));
  const out = new Float32Array(n * c);
  const x = input.data;
  for (let p = 0; p < n * c; p++) {
    const base = p * spatial;
    if (isMax) {
      let best = -Infinity;
      for (let i = 0; i < spatial; i++) {
        const v = x[base + i]!;
        if (v > best) best = v;
      }
      out[p] = best;
    } else {
      let sum = 0;
      for (let i = 0; i < spatial; i++) sum += x[base + i]!;
      out[p] = sum / spatial;
    }
  }
  return kernelOk({ shape: outShape, data: out });
}

/**
 * Global average pooling (ONNX `GlobalAveragePool`, `spat.global_average_pool_plan`): the mean
 * of every `[n, c]` spatial plane, accumulated in f64. Input `[N, C, ...spatial]` (rank >= 3),
 * output `[N, C, 1, ...]`. Fails on an empty spatial domain.
 *
 * @example globalAveragePool(createTensor([1, 1, 2, 2], [1, 2, 3, 4])) // -> [1,1,1,1] = [2.5]
 */
export function globalAveragePool(input: F32Tensor): KernelResult<F32Tensor> {
  return globalPool('globalAveragePool', input, false);
}

/**
 * Global max pooling (ONNX `GlobalMaxPool`): the maximum of every `[n, c]` spatial plane.
 * Input `[N, C, ...spatial]` (rank >= 3), output `[N, C, 1, ...]`. Fails on an empty spatial domain.
 */
export function globalMaxPool(input: F32Tensor): KernelResult<F32Tensor> {
  return globalPool('globalMaxPool', input, true);
}
