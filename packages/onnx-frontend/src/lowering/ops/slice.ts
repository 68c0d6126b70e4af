/**
 * `Slice` (attributes before opset 10, inputs from 10): one strided `tensor.extract_slice`
 * covering the selected elements; each axis with a negative step is then reversed by one
 * single-index slice per element of that axis and a `spat.concat` (O(size of the axis)).
 */
import type { Location } from '@raptor-pim/ir-core';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import { type AxisSlice, normalizeSlice } from '../../shapes/constant-eval';
import type { LoweringContext, NodeLowering } from '../lowering-context';
import { DataMovementReasons as R } from './data-movement-messages';
import { defineIfEmpty, gatherAxis } from './index-map';

/** The starts/ends/axes/steps of a Slice node, or the name of the input that is not constant. */
function sliceParams(cx: LoweringContext, n: OnnxNode): { starts: number[]; ends: number[]; axes?: number[]; steps?: number[] } | string {
  if (cx.opset < 10) {
    return { starts: [...(getAttribute(n, 'starts', 'ints') ?? [])], ends: [...(getAttribute(n, 'ends', 'ints') ?? [])], axes: getAttribute(n, 'axes', 'ints')?.slice() };
  }
  const read = (i: number): number[] | undefined | null => ((n.inputs[i] ?? '') === '' ? undefined : (cx.numbersOf(n.inputs[i]!) ?? null));
  const [starts, ends, axes, steps] = [read(1), read(2), read(3), read(4)];
  const names = ['starts', 'ends', 'axes', 'steps'];
  const missing = [starts, ends, axes, steps].findIndex((v) => v === null);
  if (missing >= 0) return names[missing]!;
  return { starts: starts ?? [], ends: ends ?? [], axes: axes ?? undefined, steps: steps ?? undefined };
}

function lowerSlice(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const p = sliceParams(cx, n);
  if (typeof p === 'string') return cx.unsupported(n, R.notConstant(p));
  const rank = x.shape.length;
  const slices: AxisSlice[] = x.shape.map((d) => ({ start: 0, step: 1, count: d }));
  p.starts.forEach((start, k) => {
    let a = p.axes?.[k] ?? k;
    if (a < 0) a += rank;
    slices[a] = normalizeSlice(start, p.ends[k]!, p.steps?.[k] ?? 1, x.shape[a]!);
  });
  const out = n.outputs[0]!;
  const sizes = slices.map((s) => s.count);
  if (defineIfEmpty(cx, out, sizes, loc)) return;
  const offsets = slices.map((s) => (s.step > 0 ? s.start : s.start + (s.count - 1) * s.step));
  const strides = slices.map((s) => (s.count === 1 ? 1 : Math.abs(s.step)));
  cx.compute(out, [x], sizes, loc, (b, [a]) => {
    let v = b.extractSlice(a!, x.shape, offsets, sizes, strides);
    slices.forEach((s, axis) => {
      if (s.step < 0 && s.count > 1) v = gatherAxis(b, v, sizes, axis, Array.from({ length: s.count }, (_, o) => s.count - 1 - o)).value;
    });
    return v;
  });
}

/** Lowerings of this file, by ONNX operator. */
export const SLICE_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Slice: lowerSlice,
};
