/**
 * The spatial window of a convolution or pooling plan, checked against what the lowering
 * supports (positive kernel, strides and dilations, non-negative pads, output sizes equal to
 * the window formula). A refusal names the parameter, its value and the limit.
 */
import { kernels } from '@raptor-pim/spatial-dialect';
import type { Nchw } from '../conversion/physical-values';

/** A checked window: kernel, strides, dilations `[h, w]`, pads `[top, left, bottom, right]`. */
export interface Window {
  readonly kernel: readonly [number, number];
  readonly strides: readonly [number, number];
  readonly dilations: readonly [number, number];
  readonly pads: readonly [number, number, number, number];
}

/** A refused parameter: its name, value and the limit (the pieces of the diagnostic). */
export interface Refusal {
  readonly parameter: string;
  readonly value: string;
  readonly limit: string;
}

const list = (xs: readonly number[]): string => `[${xs.join(', ')}]`;

/** Checks the window of a plan with input `input` and output `output` geometry. */
export function checkWindow(kernel: readonly number[], strides: readonly number[], dilations: readonly number[], pads: readonly number[], input: Nchw, output: Nchw): Window | Refusal {
  if (kernel.length !== 2 || kernel.some((k) => k < 1)) return { parameter: 'kernel', value: list(kernel), limit: 'two positive sizes' };
  if (strides.length !== 2 || strides.some((s) => s < 1)) return { parameter: 'strides', value: list(strides), limit: 'two positive steps' };
  if (dilations.length !== 2 || dilations.some((d) => d < 1)) return { parameter: 'dilations', value: list(dilations), limit: 'two positive steps' };
  if (pads.length !== 4 || pads.some((p) => p < 0)) return { parameter: 'pads', value: list(pads), limit: 'four non-negative paddings [top, left, bottom, right]' };
  const w: Window = {
    kernel: [kernel[0]!, kernel[1]!],
    strides: [strides[0]!, strides[1]!],
    dilations: [dilations[0]!, dilations[1]!],
    pads: [pads[0]!, pads[1]!, pads[2]!, pads[3]!],
  };
  const ho = kernels.windowOutputSize(input.h, w.kernel[0], w.pads[0], w.pads[2], w.strides[0], w.dilations[0]);
  const wo = kernels.windowOutputSize(input.w, w.kernel[1], w.pads[1], w.pads[3], w.strides[1], w.dilations[1]);
  if (ho < 1 || wo < 1) return { parameter: 'kernel', value: list(kernel), limit: `the dilated window must fit the padded ${input.h}x${input.w} input` };
  if (ho !== output.h || wo !== output.w) return { parameter: 'output', value: `${output.h}x${output.w}`, limit: `the window formula gives ${ho}x${wo}` };
  return w;
}

/** True when `x` is a refusal. */
export function isRefusal(x: Window | Refusal): x is Refusal {
  return 'parameter' in x;
}

/** Dilated window extent `(k - 1) * d + 1` of axis `axis` (0: height, 1: width). */
export function windowExtent(w: Window, axis: 0 | 1): number {
  return (w.kernel[axis] - 1) * w.dilations[axis] + 1;
}
