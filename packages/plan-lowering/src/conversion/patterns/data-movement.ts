/**
 * Data-movement plans and materializations.
 *
 * - `spat.concat_plan` (channels): dense -> one `spat.graph_compute` joining the tensors
 *   (`spat.concat` axis 1); all row strips -> one lane per strip joining the strips' channel
 *   vectors (`spat.concat` axis 1 of `[W, Ci]`).
 * - `spat.flatten_plan`: dense -> one `spat.graph_compute` reshape; row strips -> dense
 *   (gate `canLowerFlattenFromRowStrip`: the strip order equals the NCHW order) -> the same
 *   reshape of the collection.
 * - `spat.resize_nearest_plan` (asymmetric, floor): one lane per output pixel reading the
 *   source pixel `((o * In) floordiv Out)` per axis; row strips -> row strips (gate
 *   `canLowerResizeNearestPlanToRowStrip`), dense -> dense (the pixels materialized dense).
 * - `spat.materialize_layout`: dense <-> row strips as explicit batches (see data-movement.ts
 *   of the conversion folder).
 */
import { createPattern, type RankedTensorType, type Value } from '@raptor-pim/ir-core';
import { ConcatPlanOp, FlattenPlanOp, MaterializeLayoutOp, ResizeNearestPlanOp, kernels } from '@raptor-pim/spatial-dialect';
import { checkFlattenFromRowStrip, checkResizeNearestPlanToRowStrip } from '@raptor-pim/layout-planner';
import { PlanLoweringMessages as M } from '../../diagnostics';
import { selectedResultLayout } from '../../analysis/selected-layouts';
import { buildBatch, buildCompute } from '../compute-builders';
import { denseToRowStrips, laneCoordinates, rowStripsToDense } from '../data-movement';
import { castRowStrip, nchwOf, physicalValueOf, readPixel, readStrip, type PhysicalValue } from '../physical-values';
import { refuse, type LoweringEnv } from '../lowering-env';

type RowStrips = PhysicalValue & { layout: 'nhwc_row_strip' };

/** `spat.concat_plan` (axis 1). */
export function concatPlanPattern(env: LoweringEnv) {
  return createPattern(ConcatPlanOp, (concat, rw) => {
    const op = concat.op;
    const pvs: PhysicalValue[] = [];
    for (const v of concat.inputs) {
      const pv = physicalValueOf(v);
      if (!pv) return refuse(env, op, M.notStatic('a concatenated operand'));
      pvs.push(pv);
    }
    const output = nchwOf(concat.output.type)!;
    const result = selectedResultLayout(env, op);
    if (!result) return false;
    const loc = op.location;
    rw.setInsertionPoint(op);
    if (result === 'dense_nchw' && pvs.every((p) => p.layout === 'dense_nchw')) {
      const [y] = buildCompute(rw, loc, { weights: [], inputs: pvs.map((p) => p.value) }, [[output.n, output.c, output.h, output.w]], (bb, _w, xs) => [bb.concat(1, xs)]);
      rw.replaceOp(op, [y!]);
    } else if (result === 'nhwc_row_strip' && pvs.every((p) => p.layout === 'nhwc_row_strip')) {
      const collection = buildBatch(rw, loc, output.n * output.h, { weights: [], inputs: pvs.map((p) => p.value) }, [output.w, output.c], (bb, _w, xs) =>
        bb.concat(1, pvs.map((p, i) => readStrip(bb, xs[i]!, p as RowStrips, bb.d0))),
      );
      rw.replaceOp(op, [castRowStrip(rw, loc, collection, concat.output.type as RankedTensorType)]);
    } else {
      return refuse(env, op, M.unsupportedLayouts(pvs.map((p) => p.layout).join(', '), result, 'all dense_nchw -> dense_nchw, all nhwc_row_strip -> nhwc_row_strip'));
    }
    env.loweredPlans++;
    return true;
  });
}

/** `spat.flatten_plan`. */
export function flattenPlanPattern(env: LoweringEnv) {
  return createPattern(FlattenPlanOp, (flatten, rw) => {
    const op = flatten.op;
    const out = (flatten.output.type as RankedTensorType).shape;
    const pv = physicalValueOf(flatten.input);
    const result = selectedResultLayout(env, op);
    if (!result) return false;
    if (result !== 'dense_nchw') return refuse(env, op, M.unsupportedLayouts(pv?.layout ?? 'dense_nchw', result, 'dense_nchw -> dense_nchw, nhwc_row_strip -> dense_nchw'));
    if (pv?.layout === 'nhwc_row_strip') {
      const verdict = checkFlattenFromRowStrip(flatten, env.config);
      if (!verdict.ok) return refuse(env, op, M.gateRefused('canLowerFlattenFromRowStrip', verdict.parameter, verdict.reason));
    }
    const loc = op.location;
    rw.setInsertionPoint(op);
    const source = pv?.value ?? flatten.input;
    const [y] = buildCompute(rw, loc, { weights: [], inputs: [source] }, [out], (bb, _w, [x]) => [bb.reshape(x!, out)]);
    rw.replaceOp(op, [y!]);
    env.loweredPlans++;
    return true;
  });
}

/**
 * The source index of every output index of one resized axis (asymmetric, floor), as the
 * interpreter's kernel computes it.
 */
function nearestSources(inSize: number, outSize: number): Int32Array {
  const probe = kernels.createTensor([1, 1, inSize, 1], Array.from({ length: inSize }, (_, i) => i));
  const r = kernels.resizeNearest(probe, { sizes: [1, 1, outSize, 1], coordinateTransformationMode: 'asymmetric', nearestMode: 'floor' });
  if (!r.ok) throw new Error(`internal error: resize probe failed: ${r.message}`);
  return Int32Array.from(r.value.data);
}

/** True when output index `o` of the axis reads `(o * inSize) floordiv outSize`. */
function isAffineNearest(inSize: number, outSize: number): boolean {
  const map = nearestSources(inSize, outSize);
  for (let o = 0; o < outSize; o++) if (map[o] !== Math.floor((o * inSize) / outSize)) return false;
  return true;
}

/** `spat.resize_nearest_plan`. */
export function resizeNearestPlanPattern(env: LoweringEnv) {
  return createPattern(ResizeNearestPlanOp, (resize, rw) => {
    const op = resize.op;
    const input = physicalValueOf(resize.input);
    const output = nchwOf(resize.output.type);
    if (!input || !output) return refuse(env, op, M.notStatic('the input and output of the resize'));
    const g = input.geometry;
    if (output.n !== g.n || output.c !== g.c) return refuse(env, op, M.unsupportedGeometry('output', `[${output.n}, ${output.c}, ...]`, `batch ${g.n} and ${g.c} channels (only H and W resize)`));
    if (!isAffineNearest(g.h, output.h)) return refuse(env, op, M.resizeNotAffine('height', g.h, output.h));
    if (!isAffineNearest(g.w, output.w)) return refuse(env, op, M.resizeNotAffine('width', g.w, output.w));
    const result = selectedResultLayout(env, op);
    if (!result) return false;
    if (result === 'nhwc_row_strip') {
      if (input.layout !== 'nhwc_row_strip') return refuse(env, op, M.unsupportedLayouts(input.layout, result, 'dense_nchw -> dense_nchw, nhwc_row_strip -> nhwc_row_strip'));
      const verdict = checkResizeNearestPlanToRowStrip(resize, env.config);
      if (!verdict.ok) return refuse(env, op, M.gateRefused('canLowerResizeNearestPlanToRowStrip', verdict.parameter, verdict.reason));
    } else if (result !== 'dense_nchw' || input.layout !== 'dense_nchw') {
      return refuse(env, op, M.unsupportedLayouts(input.layout, result, 'dense_nchw -> dense_nchw, nhwc_row_strip -> nhwc_row_strip'));
    }
    const loc = op.location;
    rw.setInsertionPoint(op);
    const collection = buildBatch(rw, loc, output.n * output.h * output.w, { weights: [], inputs: [input.value] }, [1, g.c], (bb, _w, [x]) => {
      const [n, oh, ow] = laneCoordinates(bb, [output.n, output.h, output.w]);
      return readPixel(bb, x!, input, n!, oh!.mul(g.h).floorDiv(output.h), ow!.mul(g.w).floorDiv(output.w));
    });
    const pixels: RowStrips = { layout: 'nhwc_row_strip', form: 'pixels', value: collection, geometry: output };
    const replacement: Value = result === 'nhwc_row_strip' ? castRowStrip(rw, loc, collection, resize.output.type as RankedTensorType) : rowStripsToDense(rw, loc, pixels);
    rw.replaceOp(op, [replacement]);
    env.loweredPlans++;
    return true;
  });
}

/** `spat.materialize_layout`: dense <-> row strips; a conversion to the same layout forwards the value. */
export function materializeLayoutPattern(env: LoweringEnv) {
  return createPattern(MaterializeLayoutOp, (mat, rw) => {
    const op = mat.op;
    const source = mat.sourcePhysicalLayout.value;
    const target = mat.targetPhysicalLayout.value;
    const pv = physicalValueOf(mat.input);
    const actual = pv?.layout ?? 'dense_nchw';
    if (actual !== source) return refuse(env, op, M.operandLayoutMismatch(0, source, actual));
    const loc = op.location;
    rw.setInsertionPoint(op);
    if (source === target) {
      rw.replaceOp(op, [mat.input]);
    } else if (pv && pv.layout === 'dense_nchw' && target === 'nhwc_row_strip') {
      const strips = denseToRowStrips(rw, loc, pv);
      rw.replaceOp(op, [castRowStrip(rw, loc, strips.value, mat.output.type as RankedTensorType)]);
    } else if (pv && pv.layout === 'nhwc_row_strip' && target === 'dense_nchw') {
      rw.replaceOp(op, [rowStripsToDense(rw, loc, pv)]);
    } else {
      return refuse(env, op, M.unsupportedMaterialization(source, target));
    }
    env.loweredMaterializations++;
    return true;
  });
}
