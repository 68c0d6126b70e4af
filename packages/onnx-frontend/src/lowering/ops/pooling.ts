/**
 * Max and global pooling: `MaxPool` (1-D and 2-D on `spat.max_pool2d_plan`, 3-D as 2-D pools of
 * every depth slice combined with `spat.vmax` over the kernel depth), `GlobalAveragePool` on
 * `spat.global_average_pool_plan` (any rank and batch, by reshaping the planes into channels of
 * one image) and `GlobalMaxPool` as a max pool with the whole plane as window.
 */
import type { Location, MLIRContext } from '@raptor-pim/ir-core';
import type { PlanOpDefinition } from '@raptor-pim/spatial-dialect';
import { GlobalAveragePoolPlanOp, MaxPool2dPlanOp, VmaxOp } from '@raptor-pim/spatial-dialect';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import type { LoweringContext, NodeLowering, Val, PlanAttributes } from '../lowering-context';
import { elementCount, i64Array } from '../ir-helpers';
import { AVERAGE_POOL_LOWERINGS } from './average-pool';
import { planTemp } from './conv-nd';
import { floorEndPads, resolveWindow, tapRange, type Window } from './window';

/** The most negative finite f32: onnxruntime's max over a window with no input tap. */
const LOWEST_F32 = -3.4028234663852886e38;

function maxPoolProps(ctx: MLIRContext, kernel: readonly number[], pads: readonly number[], strides: readonly number[], dilations: readonly number[]): PlanAttributes {
  return { dilations: i64Array(ctx, dilations), kernelShape: i64Array(ctx, kernel), pads: i64Array(ctx, pads), strides: i64Array(ctx, strides) };
}

function lowerMaxPool(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const rank = x.shape.length;
  if (rank < 3 || rank > 5) return cx.unsupported(n, `${rank - 2} spatial dimension(s) (1-D, 2-D and 3-D max pooling are lowered)`);
  if ((n.outputs[1] ?? '') !== '' && cx.isUsed(n.outputs[1]!)) return cx.unsupported(n, 'the Indices output is used (spat max pooling produces values only)');
  if ((getAttribute(n, 'storage_order', 'int') ?? 0) !== 0) return cx.unsupported(n, 'storage_order 1 (column-major Indices)');
  const outShape = cx.shapeOf(n.outputs[0]!);
  const kernel = getAttribute(n, 'kernel_shape', 'ints') ?? [];
  const win = resolveWindow(cx, n, x.shape.slice(2), kernel, outShape.slice(2));
  if (!win) return;
  // ceil_mode: the floor formula of the plan gives the inferred size with a larger end padding.
  const begin = [...win.begin];
  const ends = floorEndPads(win);
  const planAxes = rank === 3 ? [0] : rank === 4 ? [0, 1] : [1, 2];
  let xs = x;
  if (planAxes.some((i) => begin[i]! >= kernel[i]! || ends[i]! >= kernel[i]!)) {
    // The plan needs padding smaller than the kernel (only a dilated ceil_mode overhang breaks
    // it): pad those axes explicitly with the lowest f32, which never wins a max.
    xs = padWithLowest(cx, x, planAxes, begin, ends, loc);
    for (const i of planAxes) begin[i] = ends[i] = 0;
  }
  const [nb, c] = [x.shape[0]!, x.shape[1]!];
  if (rank === 4) {
    cx.emitPlan(n.outputs[0]!, MaxPool2dPlanOp, [xs], outShape, maxPoolProps(cx.context, kernel, [begin[0]!, begin[1]!, ends[0]!, ends[1]!], win.strides, win.dilations), loc);
    return;
  }
  if (rank === 3) {
    const x4 = cx.reshape(undefined, xs, [nb, c, 1, xs.shape[2]!], loc);
    const y4 = planTemp(cx, MaxPool2dPlanOp, [x4], [nb, c, 1, outShape[2]!], maxPoolProps(cx.context, [1, kernel[0]!], [0, begin[0]!, 0, ends[0]!], [1, win.strides[0]!], [1, win.dilations[0]!]), loc);
    cx.reshape(n.outputs[0]!, y4, outShape, loc);
    return;
  }
  // 3-D: 2-D pools of every (channel, depth) plane, then vmax over the kernel-depth taps.
  const [d, h, w] = xs.shape.slice(2) as [number, number, number];
  const [oh, ow] = win.output.slice(1) as [number, number];
  const x4 = cx.reshape(undefined, xs, [nb, c * d, h, w], loc);
  const pooled = planTemp(cx, MaxPool2dPlanOp, [x4], [nb, c * d, oh, ow], maxPoolProps(cx.context, kernel.slice(1), [begin[1]!, begin[2]!, ends[1]!, ends[2]!], win.strides.slice(1), win.dilations.slice(1)), loc);
  reduceDepth(cx, n.outputs[0]!, pooled, [nb, c, d, oh, ow], win, loc);
}

/** `x` padded on the spatial axes `axes` (window indices) by `begin`/`end` with the lowest f32, in a graph_compute. */
function padWithLowest(cx: LoweringContext, x: Val, axes: readonly number[], begin: readonly number[], end: readonly number[], loc: Location): Val {
  const shape = x.shape.map((s, a) => (a >= 2 && axes.includes(a - 2) ? s + begin[a - 2]! + end[a - 2]! : s));
  const offsets = x.shape.map((_, a) => (a >= 2 && axes.includes(a - 2) ? begin[a - 2]! : 0));
  return cx.compute(undefined, [x, cx.splat(LOWEST_F32, shape, loc)], shape, loc, (b, [a, fill]) => b.insertSlice(a!, fill!, shape, offsets, x.shape));
}

/**
 * Max over the kernel-depth taps of `planes` ([N, C*D, OH, OW] viewed as [N, C, D, OH, OW]):
 * each tap is one strided depth slice, combined with spat.vmax into the output depths it
 * covers (taps reading only padding are skipped; a depth no tap covers keeps the lowest f32).
 */
function reduceDepth(cx: LoweringContext, out: string, planes: Val, shape5: readonly number[], win: Window, loc: Location): Val {
  const [nb, c, , oh, ow] = shape5 as [number, number, number, number, number];
  const od = win.output[0]!;
  const outShape = [nb, c, od, oh, ow];
  const taps = Array.from({ length: win.kernel[0]! }, (_, t) => tapRange(win, 0, t)).filter((r) => r.lo < r.hi);
  const full = taps.findIndex((r) => r.lo === 0 && r.hi === od);
  const inputs = [planes];
  if (full < 0) inputs.push(cx.splat(LOWEST_F32, outShape, loc));
  return cx.compute(out, inputs, outShape, loc, (b, args) => {
    const v = b.reshape(args[0]!, planes.shape, shape5);
    const slice = (r: { lo: number; hi: number; first: number }) => {
      const count = r.hi - r.lo;
      return b.extractSlice(v, shape5, [0, 0, r.first, 0, 0], [nb, c, count, oh, ow], [1, 1, count > 1 ? win.strides[0]! : 1, 1, 1]);
    };
    let acc = full >= 0 ? slice(taps[full]!) : args[1]!;
    taps.forEach((r, i) => {
      if (i === full) return;
      const count = r.hi - r.lo;
      const s = slice(r);
      if (count === od) acc = b.binary(VmaxOp, acc, s, outShape);
      else {
        const part = [nb, c, count, oh, ow];
        const cur = b.extractSlice(acc, outShape, [0, 0, r.lo, 0, 0], part);
        acc = b.insertSlice(b.binary(VmaxOp, cur, s, part), acc, outShape, [0, 0, r.lo, 0, 0], part);
      }
    });
    return acc;
  });
}

/**
 * Emits the rank-4 plan `op` on `x` viewed as `inShape4`, giving `outShape4`, and views the
 * result as the shape of `out`; without the views when `x` and `out` already have those shapes.
 */
function planThroughView(cx: LoweringContext, out: string, op: PlanOpDefinition, x: Val, inShape4: readonly number[], outShape4: readonly number[], props: PlanAttributes, loc: Location): void {
  const outShape = cx.shapeOf(out);
  const x4 = cx.reshape(undefined, x, inShape4, loc);
  if (x4 === x && outShape.join() === outShape4.join()) {
    cx.emitPlan(out, op, [x], outShape, props, loc);
    return;
  }
  cx.reshape(out, planTemp(cx, op, [x4], outShape4, props, loc), outShape, loc);
}

/** The spatial plane of an [N, C, spatial...] shape as [H, W] (other ranks flattened to [prod, 1]). */
function planeOf(shape: readonly number[]): number[] {
  const spatial = shape.slice(2);
  return spatial.length === 2 ? spatial : [elementCount(spatial), 1];
}

function lowerGlobalAveragePool(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const [nb, c] = [x.shape[0]!, x.shape[1]!];
  // The plan takes one image: [N, C, spatial...] -> [1, N*C, H, W] (planes as channels).
  planThroughView(cx, n.outputs[0]!, GlobalAveragePoolPlanOp, x, [1, nb * c, ...planeOf(x.shape)], [1, nb * c, 1, 1], {}, loc);
}

function lowerGlobalMaxPool(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const [nb, c] = [x.shape[0]!, x.shape[1]!];
  const plane = planeOf(x.shape);
  planThroughView(cx, n.outputs[0]!, MaxPool2dPlanOp, x, [nb, c, ...plane], [nb, c, 1, 1], maxPoolProps(cx.context, plane, [0, 0, 0, 0], [1, 1], [1, 1]), loc);
}

/** Lowerings of this file (and of average-pool.ts), by ONNX operator. */
export const POOLING_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  MaxPool: lowerMaxPool,
  GlobalAveragePool: lowerGlobalAveragePool,
  GlobalMaxPool: lowerGlobalMaxPool,
  ...AVERAGE_POOL_LOWERINGS,
};
