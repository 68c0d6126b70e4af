/**
 * Pooling plans.
 *
 * `spat.max_pool2d_plan` (`spat.vmax` chains over the kernel positions; padding is the lowest f32):
 * - dense -> dense: one lane per (example, channel); from its padded `[1, 1, Hp, Wp]` plane
 *   (the slot of {@link padDense}'s planes) each kernel position `(i, j)` is one strided slice
 *   `[1, 1, Ho, Wo]`, maxed together.
 * - dense or row strips -> row strips (gate `canLowerMaxPoolPlanToRowStrip`): one lane per
 *   output strip; it cuts the window rows `[kh_ext, Wp, C]` of the padded NHWC rows
 *   ({@link padRowStrips}) and maxes them separably: the kernel rows, then the shifted pixel
 *   runs, then one slice with the column stride ({@link separableMax}). A dense input is first
 *   moved to row strips.
 *
 * `spat.global_average_pool_plan` (`spat.vavg`): one lane per (example, channel) averaging the
 * channel's plane (dense or gathered from the strips); dense -> dense through a physical-view
 * blueprint, dense or row strips -> row strips (gate `canLowerGlobalAveragePoolPlanToRowStrip`)
 * as the `[N, 1, C]` strips of the pooled pixel.
 */
import { createPattern, type RankedTensorType, type Value } from '@raptor-pim/ir-core';
import { GlobalAveragePoolPlanOp, MaxPool2dPlanOp } from '@raptor-pim/spatial-dialect';
import { checkGlobalAveragePoolPlanToRowStrip, checkMaxPoolPlanToRowStrip } from '@raptor-pim/layout-planner';
import { PlanLoweringMessages as M } from '../../diagnostics';
import { selectedResultLayout } from '../../analysis/selected-layouts';
import { checkWindow, isRefusal, windowExtent } from '../../analysis/window';
import { buildBatch, buildCompute, buildPhysicalView, type BodyBuilder } from '../compute-builders';
import { denseToRowStrips, laneCoordinates, padDense, padRowStrips, readDenseWindow, readRowWindow } from '../data-movement';
import { castRowStrip, nchwOf, physicalValueOf, readPlane, type PhysicalValue } from '../physical-values';
import { refuse, type LoweringEnv } from '../lowering-env';

/**
 * The max-pool padding value: the lowest finite f32, which a window made only of padding
 * yields (as onnxruntime and the interpreter's kernel do); real values always win over it.
 */
const LOWEST_F32 = -3.4028234663852886e38;

const ints = (a: { values: readonly (number | bigint)[] }): number[] => a.values.map(Number);

/**
 * The max pooling of one output row from its window `rows` (`[kh_ext, Wp, C]` padded NHWC rows),
 * separably: the max of the `kh` kernel rows (whole contiguous rows of the `wn` pixels the
 * kernel reaches), then of `kw` contiguous runs of `wh` pixels shifted by the dilation, then
 * one slice with the column stride (none when it is 1). Every copy is a contiguous run of
 * pixels except the last slice's `Wo` runs of `C` elements, where a slice per kernel position
 * would copy `kh * kw * Wo` runs; the maxima cover about as many elements, and the result is
 * the same (a maximum is exact in any order).
 */
function separableMax(bb: BodyBuilder, rows: Value, kernel: readonly number[], strides: readonly number[], dilations: readonly number[], wo: number, c: number): Value {
  const [kh, kw] = kernel as [number, number];
  const sw = strides[1]!;
  const [dh, dw] = dilations as [number, number];
  const wh = (wo - 1) * sw + 1;
  const wn = wh + (kw - 1) * dw;
  const vertical = bb.maxOf(Array.from({ length: kh }, (_, i) => bb.slice(rows, [i * dh, 0, 0], [1, wn, c], [wn, c])));
  const horizontal = kw === 1 ? vertical : bb.maxOf(Array.from({ length: kw }, (_, j) => bb.slice(vertical, [j * dw, 0], [wh, c])));
  return sw === 1 ? horizontal : bb.slice(horizontal, [0, 0], [wo, c], undefined, [sw, 1]);
}

/** The max-pool lowering pattern of `env`. */
export function maxPoolPlanPattern(env: LoweringEnv) {
  return createPattern(MaxPool2dPlanOp, (pool, rw) => {
    const op = pool.op;
    const input = physicalValueOf(pool.input);
    const output = nchwOf(pool.output.type);
    if (!input || !output) return refuse(env, op, M.notStatic('the input and output of the max pooling'));
    const g = input.geometry;
    const win = checkWindow(ints(pool.kernelShape), ints(pool.strides), ints(pool.dilations), ints(pool.pads), g, output);
    if (isRefusal(win)) return refuse(env, op, M.unsupportedGeometry(win.parameter, win.value, win.limit));
    const result = selectedResultLayout(env, op);
    if (!result) return false;
    const loc = op.location;
    rw.setInsertionPoint(op);
    const [kh, kw] = win.kernel;
    const [sh, sw] = win.strides;
    const [dh, dw] = win.dilations;
    if (result === 'dense_nchw' && input.layout === 'dense_nchw') {
      const padded = padDense(rw, loc, input, win.pads, LOWEST_F32);
      const hp = g.h + win.pads[0] + win.pads[2];
      const wp = g.w + win.pads[1] + win.pads[3];
      const collection = buildBatch(rw, loc, g.n * g.c, { weights: [], inputs: [padded.value] }, [1, 1, output.h, output.w], (bb, _w, [x]) => {
        const [n, c] = laneCoordinates(bb, [g.n, g.c]);
        const plane = readDenseWindow(bb, x!, padded, n!, c!, 1, 0, 0, hp, wp);
        const taps: Value[] = [];
        for (let i = 0; i < kh; i++) {
          for (let j = 0; j < kw; j++) taps.push(bb.slice(plane, [0, 0, i * dh, j * dw], [1, 1, output.h, output.w], undefined, [1, 1, sh, sw]));
        }
        return bb.maxOf(taps);
      });
      rw.replaceOp(op, [buildPhysicalView(rw, loc, collection, [output.n, output.c, output.h, output.w])]);
    } else if (result === 'nhwc_row_strip') {
      const verdict = checkMaxPoolPlanToRowStrip(pool, env.config);
      if (!verdict.ok) return refuse(env, op, M.gateRefused('canLowerMaxPoolPlanToRowStrip', verdict.parameter, verdict.reason));
      const strips = input.layout === 'dense_nchw' ? denseToRowStrips(rw, loc, input) : input;
      const padded = padRowStrips(rw, loc, strips as PhysicalValue & { layout: 'nhwc_row_strip' }, win.pads, LOWEST_F32);
      const wp = g.w + win.pads[1] + win.pads[3];
      const khe = windowExtent(win, 0);
      const collection = buildBatch(rw, loc, g.n * output.h, { weights: [], inputs: [padded.value] }, [output.w, g.c], (bb, _w, [x]) => {
        const [n, oh] = laneCoordinates(bb, [g.n, output.h]);
        const rows = readRowWindow(bb, x!, padded, n!, oh!.mul(sh), 0, 0, khe, wp, g.c);
        return separableMax(bb, rows, win.kernel, win.strides, win.dilations, output.w, g.c);
      });
      rw.replaceOp(op, [castRowStrip(rw, loc, collection, pool.output.type as RankedTensorType)]);
    } else {
      return refuse(env, op, M.unsupportedLayouts(input.layout, result, 'dense_nchw -> dense_nchw, dense_nchw -> nhwc_row_strip, nhwc_row_strip -> nhwc_row_strip'));
    }
    env.loweredPlans++;
    return true;
  });
}

/** The global-average-pool lowering pattern of `env`. */
export function globalAveragePoolPlanPattern(env: LoweringEnv) {
  return createPattern(GlobalAveragePoolPlanOp, (pool, rw) => {
    const op = pool.op;
    const input = physicalValueOf(pool.input);
    const output = nchwOf(pool.output.type);
    if (!input || !output) return refuse(env, op, M.notStatic('the input and output of the global average pooling'));
    const g = input.geometry;
    const result = selectedResultLayout(env, op);
    if (!result) return false;
    const loc = op.location;
    rw.setInsertionPoint(op);
    const toDense = result === 'dense_nchw' && input.layout === 'dense_nchw';
    if (!toDense) {
      if (result !== 'nhwc_row_strip') return refuse(env, op, M.unsupportedLayouts(input.layout, result, 'dense_nchw -> dense_nchw, dense_nchw -> nhwc_row_strip, nhwc_row_strip -> nhwc_row_strip'));
      const verdict = checkGlobalAveragePoolPlanToRowStrip(pool, env.config);
      if (!verdict.ok) return refuse(env, op, M.gateRefused('canLowerGlobalAveragePoolPlanToRowStrip', verdict.parameter, verdict.reason));
    }
    const fragment = toDense ? [1, 1, 1, 1] : [1, 1];
    const collection = buildBatch(rw, loc, g.n * g.c, { weights: [], inputs: [input.value] }, fragment, (bb, _w, [x]) => {
      const [n, c] = laneCoordinates(bb, [g.n, g.c]);
      return bb.average(readPlane(bb, x!, input, n!, c!), fragment);
    });
    if (toDense) {
      rw.replaceOp(op, [buildPhysicalView(rw, loc, collection, [g.n, g.c, 1, 1])]);
    } else {
      // Slot order (n, c) of one-element fragments is the strip order of the pooled pixel.
      const [strips] = buildCompute(rw, loc, { weights: [], inputs: [collection] }, [[g.n, 1, g.c]], (bb, _w, [x]) => [bb.reshape(x!, [g.n, 1, g.c])]);
      rw.replaceOp(op, [castRowStrip(rw, loc, strips!, pool.output.type as RankedTensorType)]);
    }
    env.loweredPlans++;
    return true;
  });
}
