import { KernelMessages } from '../../diagnostics';
import { kernelFail, kernelOk, validateIntList, validateTensor } from './tensor';
import type { F32Tensor, KernelResult } from './tensor';

const KERNEL = 'conv2d';

/**
 * Attributes of a grouped 2-D convolution, named as `spat.conv2d_plan` names them.
 * Every field is optional; the defaults describe a plain, unpadded, dense convolution.
 */
export interface Conv2dAttributes {
  /** `[top, left, bottom, right]` zero padding in elements. Default `[0, 0, 0, 0]`. */
  readonly pads?: readonly number[];
  /** `[height, width]` output step in input elements, each >= 1. Default `[1, 1]`. */
  readonly strides?: readonly number[];
  /** `[height, width]` spacing between kernel taps, each >= 1. Default `[1, 1]`. */
  readonly dilations?: readonly number[];
  /** Number of channel groups, >= 1 (`group == Cin == Cout` is depthwise). Default 1. */
  readonly group?: number;
}

/**
 * Output length of one spatial axis of a convolution or pooling window:
 * `floor((input + padBegin + padEnd - dilation * (kernel - 1) - 1) / stride) + 1`
 * (the formula of `spat.conv2d_plan`). May be <= 0 when the window does not fit.
 *
 * @example windowOutputSize(4, 3, 0, 0, 1, 1) === 2
 */
export function windowOutputSize(
  input: number,
  kernel: number,
  padBegin: number,
  padEnd: number,
  stride: number,
  dilation: number,
): number {
  return Math.floor((input + padBegin + padEnd - dilation * (kernel - 1) - 1) / stride) + 1;
}

/** Output channels computed together by the inner loops. */
const BLOCK = 8;

/** Index range `[start, end)` of outputs whose tap `offset + o * stride` lies in `[0, size)`. */
function validRange(offset: number, stride: number, size: number, outSize: number, range: Int32Array): void {
  // offset + o*stride >= 0  <=>  o >= ceil(-offset / stride)
  let start = offset >= 0 ? 0 : Math.ceil(-offset / stride);
  // offset + o*stride <= size - 1  <=>  o <= floor((size - 1 - offset) / stride)
  let end = size - 1 - offset < 0 ? 0 : Math.floor((size - 1 - offset) / stride) + 1;
  if (end > outSize) end = outSize;
  if (start > end) start = end;
  range[0] = start;
  range[1] = end;
}

/**
 * Grouped 2-D cross-correlation over NCHW data (ONNX `Conv`, `spat.conv2d_plan`):
 *
 * `y[n, oc, oh, ow] = bias[oc] + sum_{ic in group(oc), kh, kw} x[n, ic, oh*sh + kh*dh - padTop, ow*sw + kw*dw - padLeft] * w[oc, ic - g*Cin/G, kh, kw]`
 *
 * with zero outside the input. Input `[N, Cin, H, W]`, weight `[Cout, Cin/group, Kh, Kw]`,
 * optional bias `[Cout]`; output `[N, Cout, OH, OW]` with each spatial size given by
 * {@link windowOutputSize}. Products are exact in f64 and accumulated in f64, rounded to f32
 * once per output element (see docs/kernels.md, "Tolerance policy").
 *
 * Fails (never throws) when ranks, channel counts, group divisibility, the bias length or an
 * attribute are inconsistent, or when the output would be empty.
 *
 * @example
 * conv2d(createTensor([1, 1, 3, 3], [1,2,3,4,5,6,7,8,9]), createTensor([1, 1, 2, 2], [1,0,0,1]))
 * // -> ok, shape [1, 1, 2, 2], data [6, 8, 12, 14]
 */
export function conv2d(
  input: F32Tensor,
  weight: F32Tensor,
  bias?: F32Tensor,
  attributes: Conv2dAttributes = {},
): KernelResult<F32Tensor> {
  const pads = attributes.pads ?? [0, 0, 0, 0];
  const strides = attributes.strides ?? [1, 1];
  const dilations = attributes.dilations ?? [1, 1];
  const group = attributes.group ?? 1;
  const problem =
    validateTensor(KERNEL, 'input', input, 4) ??
    validateTensor(KERNEL, 'weight', weight, 4) ??
    (bias === undefined ? undefined : validateTensor(KERNEL, 'bias', bias)) ??
    validateIntList(KERNEL, 'pads', pads, 4, 0) ??
    validateIntList(KERNEL, 'strides', strides, 2, 1) ??
    validateIntList(KERNEL, 'dilations', dilations, 2, 1) ??
    validateIntList(KERNEL, 'group', [group], 1, 1);
  if (problem !== undefined) return kernelFail(problem);

  const [n, cin, h, w] = input.shape as [number, number, number, number];
  const [cout, cinPerGroup, kh, kw] = weight.shape as [number, number, number, number];
  if (cin % group !== 0) return kernelFail(KernelMessages.groupChannels(KERNEL, cin, group, 'input'));
  if (cout % group !== 0) return kernelFail(KernelMessages.groupChannels(KERNEL, cout, group, 'weight (output channels)'));
  if (cinPerGroup !== cin / group) return kernelFail(KernelMessages.convWeightChannels(KERNEL, weight.shape, cin, group));
  if (bias !== undefined && !(bias.shape.length === 1 && bias.shape[0] === cout)) {
    return kernelFail(KernelMessages.biasShape(KERNEL, bias.shape, `[${cout}] (one value per output channel)`));
  }
  const [padTop, padLeft, padBottom, padRight] = pads as [number, number, number, number];
  const [sh, sw] = strides as [number, number];
  const [dh, dw] = dilations as [number, number];
  const oh = windowOutputSize(h, kh, padTop, padBottom, sh, dh);
  const ow = windowOutputSize(w, kw, padLeft, padRight, sw, dw);
  if (oh < 1 || ow < 1 || kh < 1 || kw < 1) return kernelFail(KernelMessages.emptyOutput(KERNEL, [n, cout, oh, ow]));

  const out = new Float32Array(n * cout * oh * ow);
  const x = input.data;
  const wt = weight.data;
  const coutPerGroup = cout / group;
  const plane = oh * ow;
  const inPlane = h * w;
  const taps = kh * kw;
  const wOcStride = cinPerGroup * taps; // distance between two output channels' filters
  // Accumulators for a block of up to 8 output channels: every input element loaded feeds
  // 8 multiply-adds (the "register blocking" that makes this loop ~2x faster than one channel).
  const acc = new Float64Array(BLOCK * plane);
  const hRange = new Int32Array(2);
  const wRange = new Int32Array(2);
  // Hoisted valid output ranges per kernel tap, so the inner loops never test bounds.
  const ohStart = new Int32Array(kh);
  const ohEnd = new Int32Array(kh);
  const owStart = new Int32Array(kw);
  const owEnd = new Int32Array(kw);
  for (let r = 0; r < kh; r++) {
    validRange(r * dh - padTop, sh, h, oh, hRange);
    ohStart[r] = hRange[0]!;
    ohEnd[r] = hRange[1]!;
  }
  for (let s = 0; s < kw; s++) {
    validRange(s * dw - padLeft, sw, w, ow, wRange);
    owStart[s] = wRange[0]!;
    owEnd[s] = wRange[1]!;
  }

  for (let b = 0; b < n; b++) {
    for (let g = 0; g < group; g++) {
      for (let ocg = 0; ocg < coutPerGroup; ) {
        const remaining = coutPerGroup - ocg;
        const block = remaining >= 8 ? 8 : remaining >= 4 ? 4 : 1;
        const oc0 = g * coutPerGroup + ocg;
        for (let j = 0; j < block; j++) acc.fill(bias === undefined ? 0 : bias.data[oc0 + j]!, j * plane, (j + 1) * plane);
        for (let icg = 0; icg < cinPerGroup; icg++) {
          const inBase = (b * cin + g * cinPerGroup + icg) * inPlane;
          const wBase = (oc0 * cinPerGroup + icg) * taps;
          for (let r = 0; r < kh; r++) {
            const rowOffset = r * dh - padTop;
            const o0 = ohStart[r]!;
            const o1 = ohEnd[r]!;
            for (let s = 0; s < kw; s++) {
              const q0 = owStart[s]!;
              const q1 = owEnd[s]!;
              if (q0 >= q1 || o0 >= o1) continue;
              const colOffset = s * dw - padLeft;
              const wi = wBase + r * kw + s;
              if (block === 8) {
                const w0 = wt[wi]!;
                const w1 = wt[wi + wOcStride]!;
                const w2 = wt[wi + 2 * wOcStride]!;
                const w3 = wt[wi + 3 * wOcStride]!;
                const w4 = wt[wi + 4 * wOcStride]!;
                const w5 = wt[wi + 5 * wOcStride]!;
                const w6 = wt[wi + 6 * wOcStride]!;
                const w7 = wt[wi + 7 * wOcStride]!;
                for (let o = o0; o < o1; o++) {
                  const inRow = inBase + (o * sh + rowOffset) * w + colOffset;
                  const a0 = o * ow;
                  const a1 = a0 + plane;
                  const a2 = a1 + plane;
                  const a3 = a2 + plane;
                  const a4 = a3 + plane;
                  const a5 = a4 + plane;
                  const a6 = a5 + plane;
                  const a7 = a6 + plane;
                  for (let q = q0; q < q1; q++) {
                    const xv = x[inRow + q * sw]!;
                    acc[a0 + q] += w0 * xv;
                    acc[a1 + q] += w1 * xv;
                    acc[a2 + q] += w2 * xv;
                    acc[a3 + q] += w3 * xv;
                    acc[a4 + q] += w4 * xv;
                    acc[a5 + q] += w5 * xv;
                    acc[a6 + q] += w6 * xv;
                    acc[a7 + q] += w7 * xv;
                  }
                }
              } else if (block === 4) {
                const w0 = wt[wi]!;
                const w1 = wt[wi + wOcStride]!;
                const w2 = wt[wi + 2 * wOcStride]!;
                const w3 = wt[wi + 3 * wOcStride]!;
                for (let o = o0; o < o1; o++) {
                  const inRow = inBase + (o * sh + rowOffset) * w + colOffset;
                  const a0 = o * ow;
                  const a1 = a0 + plane;
                  const a2 = a1 + plane;
                  const a3 = a2 + plane;
                  for (let q = q0; q < q1; q++) {
                    const xv = x[inRow + q * sw]!;
                    acc[a0 + q] += w0 * xv;
                    acc[a1 + q] += w1 * xv;
                    acc[a2 + q] += w2 * xv;
                    acc[a3 + q] += w3 * xv;
                  }
                }
              } else {
                const w0 = wt[wi]!;
                for (let o = o0; o < o1; o++) {
                  const inRow = inBase + (o * sh + rowOffset) * w + colOffset;
                  const a0 = o * ow;
                  if (sw === 1) {
                    for (let q = q0; q < q1; q++) acc[a0 + q] += w0 * x[inRow + q]!;
                  } else {
                    for (let q = q0; q < q1; q++) acc[a0 + q] += w0 * x[inRow + q * sw]!;
                  }
                }
              }
            }
          }
        }
        out.set(acc.subarray(0, block * plane), (b * cout + oc0) * plane);
        ocg += block;
      }
    }
  }
  return kernelOk({ shape: [n, cout, oh, ow], data: out });
}
