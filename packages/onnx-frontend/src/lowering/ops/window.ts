/**
 * Sliding-window geometry shared by the convolution and pooling lowerings: per spatial axis
 * the kernel extent, stride, dilation, begin/end padding (from `pads` or `auto_pad`) and the
 * output size, for any number of spatial axes.
 */
import { Messages } from '../../diagnostics';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import type { LoweringContext } from '../lowering-context';

/** The window of a Conv/MaxPool/AveragePool node, one entry per spatial axis. */
export interface Window {
  /** Input spatial sizes. */
  readonly input: readonly number[];
  /** Output spatial sizes (the inferred ones). */
  readonly output: readonly number[];
  readonly kernel: readonly number[];
  readonly strides: readonly number[];
  readonly dilations: readonly number[];
  /** Padding before each axis. */
  readonly begin: readonly number[];
  /** Padding after each axis, as the node declares it (without a ceil_mode overhang). */
  readonly end: readonly number[];
}

/**
 * The window of `n` over `inSpatial` with `kernel` producing `outSpatial`; reports an error
 * and returns undefined on an unknown `auto_pad`.
 */
export function resolveWindow(cx: LoweringContext, n: OnnxNode, inSpatial: readonly number[], kernel: readonly number[], outSpatial: readonly number[]): Window | undefined {
  const r = inSpatial.length;
  const strides = getAttribute(n, 'strides', 'ints') ?? new Array<number>(r).fill(1);
  const dilations = getAttribute(n, 'dilations', 'ints') ?? new Array<number>(r).fill(1);
  const autoPad = getAttribute(n, 'auto_pad', 'string') ?? 'NOTSET';
  let begin: number[];
  let end: number[];
  if (autoPad === 'NOTSET') {
    const p = getAttribute(n, 'pads', 'ints') ?? new Array<number>(2 * r).fill(0);
    begin = p.slice(0, r);
    end = p.slice(r, 2 * r);
  } else if (autoPad === 'VALID') {
    begin = new Array<number>(r).fill(0);
    end = new Array<number>(r).fill(0);
  } else if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') {
    begin = [];
    end = [];
    for (let i = 0; i < r; i++) {
      const total = Math.max(0, (outSpatial[i]! - 1) * strides[i]! + (kernel[i]! - 1) * dilations[i]! + 1 - inSpatial[i]!);
      const small = Math.floor(total / 2);
      begin.push(autoPad === 'SAME_UPPER' ? small : total - small);
      end.push(autoPad === 'SAME_UPPER' ? total - small : small);
    }
  } else {
    cx.error(n, Messages.unsupportedAttributeValue(n.opType, 'auto_pad', autoPad, 'NOTSET, VALID, SAME_UPPER, SAME_LOWER'));
    return undefined;
  }
  return { input: inSpatial, output: outSpatial, kernel, strides, dilations, begin, end };
}

/**
 * End padding that makes the floor output formula give the window's output size: the declared
 * end padding plus the ceil_mode overhang (never less than declared).
 */
export function floorEndPads(w: Window): number[] {
  return w.end.map((e, i) => {
    const needed = (w.output[i]! - 1) * w.strides[i]! + w.dilations[i]! * (w.kernel[i]! - 1) + 1 - (w.input[i]! + w.begin[i]! + e);
    return needed > 0 ? e + needed : e;
  });
}

/** Output positions `o` of axis `i` whose tap `t` reads an input element: `[lo, hi)` (empty when lo >= hi). */
export function tapRange(w: Window, i: number, t: number): { lo: number; hi: number; first: number } {
  const s = w.strides[i]!;
  const shift = t * w.dilations[i]! - w.begin[i]!; // input position of tap t for output 0
  const lo = Math.max(0, Math.ceil(-shift / s));
  const hi = Math.min(w.output[i]!, Math.floor((w.input[i]! - 1 - shift) / s) + 1);
  return { lo, hi, first: lo * s + shift };
}

/**
 * Per output position of axis `i`, the number of taps inside the input (`includePad` false)
 * or inside the padded extent `[-begin, input + end)` (`includePad` true).
 */
export function tapCounts(w: Window, i: number, includePad: boolean): number[] {
  const [lo, hi] = includePad ? [-w.begin[i]!, w.input[i]! + w.end[i]!] : [0, w.input[i]!];
  return Array.from({ length: w.output[i]! }, (_, o) => {
    let c = 0;
    for (let t = 0; t < w.kernel[i]!; t++) {
      const p = o * w.strides[i]! + t * w.dilations[i]! - w.begin[i]!;
      if (p >= lo && p < hi) c++;
    }
    return c;
  });
}
