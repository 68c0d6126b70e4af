/**
 * `Pad` (pads attribute before opset 11, inputs from 11, `axes` from 18, negative pads crop).
 * Constant mode: a splat of the value, and the (cropped) input inserted into it with
 * `tensor.insert_slice`. Modes reflect, edge and wrap: per padded axis, a static gather of the
 * source index of every output index (mirror without repeating the border, clamp, or modulo),
 * applied to the axis after cropping by its negative pads (as onnxruntime does).
 */
import type { Location } from '@raptor-pim/ir-core';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import type { LoweringContext, NodeLowering } from '../lowering-context';
import { DataMovementReasons as R } from './data-movement-messages';
import { defineIfEmpty, gatherAxis, sameShape } from './index-map';

function lowerPad(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const mode = getAttribute(n, 'mode', 'string') ?? 'constant';
  if (mode !== 'constant' && mode !== 'reflect' && mode !== 'edge' && mode !== 'wrap') return cx.unsupported(n, R.padMode(mode));
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const rank = x.shape.length;
  let pads: readonly number[] | undefined;
  let value = 0;
  let axes = x.shape.map((_, i) => i);
  if (cx.opset < 11) {
    pads = getAttribute(n, 'pads', 'ints') ?? getAttribute(n, 'paddings', 'ints');
    value = getAttribute(n, 'value', 'float') ?? 0;
  } else {
    pads = cx.numbersOf(n.inputs[1] ?? '');
    if (!pads) return cx.unsupported(n, R.notConstant('pads'));
    if ((n.inputs[2] ?? '') !== '') {
      const v = cx.numbersOf(n.inputs[2]!);
      if (!v) return cx.unsupported(n, R.notConstant('constant_value'));
      value = v[0] ?? 0;
    }
    if (cx.opset >= 18 && (n.inputs[3] ?? '') !== '') {
      const a = cx.numbersOf(n.inputs[3]!);
      if (!a) return cx.unsupported(n, R.notConstant('axes'));
      axes = a.map((v) => (v < 0 ? v + rank : v));
    }
  }
  const before = new Array<number>(rank).fill(0);
  const after = new Array<number>(rank).fill(0);
  axes.forEach((a, i) => {
    before[a] = pads![i] ?? 0;
    after[a] = pads![i + axes.length] ?? 0;
  });
  const out = n.outputs[0]!;
  const outShape = x.shape.map((d, i) => d + before[i]! + after[i]!);
  if (defineIfEmpty(cx, out, outShape, loc)) return;
  if (sameShape(outShape, x.shape) && before.every((p) => p === 0)) return void cx.define(out, x);
  if (mode !== 'constant') {
    const keptEmpty = (i: number): boolean => x.shape[i]! - Math.max(0, -before[i]!) - Math.max(0, -after[i]!) <= 0;
    if (x.shape.some((_, i) => keptEmpty(i) && outShape[i]! > 0)) return cx.unsupported(n, R.padEmptyAxis(mode));
    cx.compute(out, [x], outShape, loc, (b, [a]) => {
      let cur = { value: a!, shape: [...x.shape] };
      for (let axis = 0; axis < rank; axis++) {
        if (before[axis] === 0 && after[axis] === 0) continue;
        // Negative pads crop first; the padding then repeats the cropped axis (as onnxruntime does).
        const lo = Math.max(0, -before[axis]!);
        const kept = x.shape[axis]! - lo - Math.max(0, -after[axis]!);
        const padBefore = Math.max(0, before[axis]!);
        const map = Array.from({ length: outShape[axis]! }, (_, o) => lo + padSource(mode, o - padBefore, kept));
        cur = gatherAxis(b, cur.value, cur.shape, axis, map);
      }
      return cur.value;
    });
    return;
  }
  // The part of the input that stays (negative pads crop) and where it lands.
  const srcOffsets = before.map((p) => Math.max(0, -p));
  const counts = x.shape.map((d, i) => d - srcOffsets[i]! - Math.max(0, -after[i]!));
  const dstOffsets = before.map((p) => Math.max(0, p));
  if (counts.some((c) => c <= 0)) return void cx.define(out, cx.splat(value, outShape, loc));
  if (sameShape(counts, outShape)) {
    cx.compute(out, [x], outShape, loc, (b, [a]) => b.extractSlice(a!, x.shape, srcOffsets, counts));
    return;
  }
  const fill = cx.splat(value, outShape, loc);
  cx.compute(out, [x, fill], outShape, loc, (b, [a, f]) => b.insertSlice(b.extractSlice(a!, x.shape, srcOffsets, counts), f!, outShape, dstOffsets, counts));
}

/** The source index of padded index `i` (may be outside [0, size)) along an axis of `size` elements. */
function padSource(mode: string, i: number, size: number): number {
  if (i >= 0 && i < size) return i;
  if (mode === 'wrap') return ((i % size) + size) % size;
  if (mode === 'edge' || size === 1) return Math.min(size - 1, Math.max(0, i));
  // reflect: mirror about the border elements (not repeated), as often as needed.
  const period = 2 * (size - 1);
  const m = ((i % period) + period) % period;
  return m < size ? m : period - m;
}

/** Lowerings of this file, by ONNX operator. */
export const PAD_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Pad: lowerPad,
};
