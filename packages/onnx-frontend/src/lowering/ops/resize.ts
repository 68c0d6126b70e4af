/**
 * Nearest-neighbour `Resize` and `Upsample`. The source index of every output index is
 * computed at compile time, per axis, with onnxruntime's f32 arithmetic for the node's
 * coordinate_transformation_mode and nearest_mode. When that index map equals the one of
 * `spat.resize_nearest_plan` (integer H/W scale, asymmetric coordinates, floor) the plan is
 * emitted; otherwise each resized axis becomes a static gather (strided slices + concat or
 * strided inserts, see `index-map.ts`) in a `spat.graph_compute`.
 */
import type { Location } from '@raptor-pim/ir-core';
import { ResizeNearestPlanOp } from '@raptor-pim/spatial-dialect';
import { kernels } from '@raptor-pim/spatial-dialect';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import type { LoweringContext, NodeLowering } from '../lowering-context';
import { DataMovementReasons as R } from './data-movement-messages';
import { defineIfEmpty, gatherAxis, isIdentityMap, sameShape } from './index-map';

const f32 = Math.fround;

/** ONNX coordinate transformation modes the lowering computes for nearest resizing. */
const COORDINATE_MODES = ['half_pixel', 'asymmetric', 'pytorch_half_pixel', 'align_corners', 'tf_half_pixel_for_nn'] as const;
type CoordinateMode = (typeof COORDINATE_MODES)[number];
/** ONNX nearest modes; `simple` is the rounding of Upsample and Resize-10 (truncate; ceil when downsampling). */
const NEAREST_MODES = ['round_prefer_floor', 'round_prefer_ceil', 'floor', 'ceil'] as const;
type NearestMode = (typeof NEAREST_MODES)[number] | 'simple';

/** Source index of each output index of one axis: the Spatial kernels' map (onnxruntime's f32 arithmetic). */
function nearestIndexMap(inSize: number, outSize: number, scale: number, mode: CoordinateMode, nearest: NearestMode): number[] {
  return Array.from(kernels.nearestIndexMap(inSize, outSize, scale, mode, nearest));
}

/** The per-axis scales of the node (ONNX order), or undefined when they are not constant. */
function axisScales(cx: LoweringContext, n: OnnxNode, inShape: readonly number[], outShape: readonly number[]): number[] | undefined {
  const rank = inShape.length;
  const constant = (i: number) => ((n.inputs[i] ?? '') === '' ? undefined : cx.numbersOf(n.inputs[i]!));
  if (n.opType === 'Upsample' || cx.opset < 11) {
    const scales = n.opType === 'Upsample' && cx.opset < 9 ? getAttribute(n, 'scales', 'floats') : constant(1);
    return scales ? [...scales] : undefined;
  }
  const axes = (cx.opset >= 18 ? getAttribute(n, 'axes', 'ints') : undefined)?.map((a) => (a < 0 ? a + rank : a)) ?? inShape.map((_, i) => i);
  const out = inShape.map(() => 1);
  const sizes = constant(3);
  if (sizes && sizes.length > 0) {
    const policy = getAttribute(n, 'keep_aspect_ratio_policy', 'string') ?? 'stretch';
    if (policy === 'stretch') axes.forEach((a) => (out[a] = inShape[a] === 0 ? 1 : f32(outShape[a]! / inShape[a]!)));
    else {
      const ratios = axes.map((a, i) => f32(sizes[i]! / inShape[a]!));
      const r = policy === 'not_larger' ? Math.min(...ratios) : Math.max(...ratios);
      axes.forEach((a) => (out[a] = r));
    }
    return out;
  }
  const scales = constant(2);
  if (!scales || scales.length !== axes.length) return undefined;
  axes.forEach((a, i) => (out[a] = scales[i]!));
  return out;
}

function lowerResize(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const mode = getAttribute(n, 'mode', 'string') ?? 'nearest';
  if (mode !== 'nearest') return cx.unsupported(n, R.resizeMode(mode));
  const isResize11 = n.opType === 'Resize' && cx.opset >= 11;
  const ctm = isResize11 ? (getAttribute(n, 'coordinate_transformation_mode', 'string') ?? 'half_pixel') : 'asymmetric';
  if (!(COORDINATE_MODES as readonly string[]).includes(ctm)) return cx.unsupported(n, R.resizeCoordinateMode(ctm));
  const nm = isResize11 ? (getAttribute(n, 'nearest_mode', 'string') ?? 'round_prefer_floor') : 'simple';
  if (nm !== 'simple' && !(NEAREST_MODES as readonly string[]).includes(nm)) return cx.unsupported(n, R.resizeNearestMode(nm));
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const out = n.outputs[0]!;
  const outShape = cx.shapeOf(out);
  if (defineIfEmpty(cx, out, outShape, loc)) return;
  // onnxruntime copies the input when no axis changes size, whatever the scales.
  if (sameShape(outShape, x.shape)) return void cx.define(out, x);
  const empty = x.shape.findIndex((d, a) => d === 0 && outShape[a]! > 0);
  if (empty >= 0) return cx.unsupported(n, R.resizeEmptyAxis(empty, outShape[empty]!));
  const scales = axisScales(cx, n, x.shape, outShape);
  if (!scales || scales.length !== x.shape.length) return cx.unsupported(n, R.resizeScales);
  const maps = x.shape.map((d, a) => nearestIndexMap(d, outShape[a]!, scales[a]!, ctm as CoordinateMode, nm as NearestMode));
  const isPlan =
    x.shape.length === 4 &&
    x.shape.every((d) => d > 0) &&
    isIdentityMap(maps[0]!, x.shape[0]!) &&
    isIdentityMap(maps[1]!, x.shape[1]!) &&
    [2, 3].every((a) => outShape[a]! % x.shape[a]! === 0 && nearestIndexMap(x.shape[a]!, outShape[a]!, f32(outShape[a]! / x.shape[a]!), 'asymmetric', 'floor').every((s, o) => s === maps[a]![o]));
  if (isPlan) return void cx.emitPlan(out, ResizeNearestPlanOp, [x], outShape, {}, loc);
  // Shrinking axes first keeps the intermediate tensors small.
  const order = x.shape.map((_, a) => a).filter((a) => !isIdentityMap(maps[a]!, x.shape[a]!));
  order.sort((a, b) => outShape[a]! / x.shape[a]! - outShape[b]! / x.shape[b]! || a - b);
  cx.compute(out, [x], outShape, loc, (b, [arg]) => {
    let v = { value: arg!, shape: [...x.shape] };
    for (const a of order) v = gatherAxis(b, v.value, v.shape, a, maps[a]!);
    return v.value;
  });
}

/** Lowerings of this file, by ONNX operator. */
export const RESIZE_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Resize: lowerResize,
  Upsample: lowerResize,
};
