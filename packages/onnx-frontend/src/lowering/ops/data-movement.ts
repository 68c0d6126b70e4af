/**
 * Data-movement lowerings: `Identity`/`Dropout`/`Cast` (aliases), `Concat`, `Split`, `Gather`
 * with constant indices, and `Flatten`/`Reshape`/`Squeeze`/`Unsqueeze` (`spat.flatten_plan`
 * for rank-2 results, else a region reshape). The table also merges the other data-movement
 * files Transpose/DepthToSpace, Slice and Pad (Resize/Upsample: resize.ts, merged by ops/index.ts).
 */
import type { Location } from '@raptor-pim/ir-core';
import { ConcatPlanOp, FlattenPlanOp } from '@raptor-pim/spatial-dialect';
import { dataTypeName } from '../../onnx/dtypes';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import { tensorToNumbers } from '../../shapes/constant-eval';
import { F32, type LoweringContext, type NodeLowering, type Val } from '../lowering-context';
import { elementCount, i64 } from '../ir-helpers';
import { DataMovementReasons as R } from './data-movement-messages';
import { defineIfEmpty, gatherAxis, sameShape } from './index-map';
import { PAD_LOWERINGS } from './pad';
import { SLICE_LOWERINGS } from './slice';
import { TRANSPOSE_LOWERINGS } from './transpose';

function lowerIdentity(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (x) cx.define(n.outputs[0]!, x);
}

/** Dropout in inference: the output is the input (training mode only with ratio 0; no used mask). */
function lowerDropout(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  if ((n.outputs[1] ?? '') !== '' && cx.isUsed(n.outputs[1]!)) return cx.unsupported(n, R.dropoutMask);
  if (cx.opset >= 12 && (n.inputs[2] ?? '') !== '') {
    const training = cx.numbersOf(n.inputs[2]!);
    const ratio = (n.inputs[1] ?? '') !== '' ? cx.numbersOf(n.inputs[1]!) : [0.5];
    if (!training || (training[0] !== 0 && ratio?.[0] !== 0)) return cx.unsupported(n, R.dropoutTraining);
  }
  lowerIdentity(cx, n, loc);
}

/** Cast: float32 -> float32 is the identity; a constant input of any numeric type becomes an f32 constant. */
function lowerCast(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const name = n.inputs[0]!;
  const to = getAttribute(n, 'to', 'int') ?? 0;
  const from = cx.dataTypeOf(name);
  const c = cx.constantOf(name);
  if (to !== F32) return cx.unsupported(n, R.castTo(dataTypeName(to)));
  if (c) {
    const data = Float32Array.from(tensorToNumbers(c));
    cx.define(n.outputs[0]!, cx.constantVal(`cast:${name}`, data, cx.shapeOf(name), loc));
    return;
  }
  if (from !== F32) return cx.unsupported(n, R.castFrom(dataTypeName(from)));
  lowerIdentity(cx, n, loc);
}

function lowerConcat(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const out = n.outputs[0]!;
  const outShape = cx.shapeOf(out);
  const rank = outShape.length;
  let axis = getAttribute(n, 'axis', 'int') ?? 1;
  if (axis < 0) axis += rank;
  const ins: Val[] = [];
  for (let i = 0; i < n.inputs.length; i++) {
    const v = cx.input(n, i, loc);
    if (!v) return;
    if (elementCount(v.shape) > 0) ins.push(v);
  }
  if (defineIfEmpty(cx, out, outShape, loc)) return;
  if (ins.length === 1) return void cx.define(out, ins[0]!);
  if (rank === 4 && axis === 1) {
    cx.emitPlan(out, ConcatPlanOp, ins, outShape, { axis: i64(cx.context, 1) }, loc);
    return;
  }
  cx.compute(out, ins, outShape, loc, (b, args) => b.concat(axis, args, ins.map((v) => v.shape), outShape));
}

/** Split: one `spat.graph_compute` per non-empty output, extracting its static slice along the axis. */
function lowerSplit(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const rank = x.shape.length;
  let axis = getAttribute(n, 'axis', 'int') ?? 0;
  if (axis < 0) axis += rank;
  let offset = 0;
  for (const out of n.outputs) {
    const shape = cx.shapeOf(out);
    if (out !== '' && !defineIfEmpty(cx, out, shape, loc)) {
      const offsets = x.shape.map((_, i) => (i === axis ? offset : 0));
      if (sameShape(shape, x.shape)) cx.define(out, x);
      else cx.compute(out, [x], shape, loc, (b, [a]) => b.extractSlice(a!, x.shape, offsets, shape));
    }
    offset += shape[axis] ?? 0;
  }
}

/** Gather of a runtime (or constant f32) tensor at constant indices: static slices + concat, then a reshape to the index shape. */
function lowerGather(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const idx = cx.numbersOf(n.inputs[1] ?? '');
  if (!idx) return cx.unsupported(n, R.gatherIndices);
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const rank = x.shape.length;
  let axis = getAttribute(n, 'axis', 'int') ?? 0;
  if (axis < 0) axis += rank;
  const size = x.shape[axis]!;
  const map: number[] = [];
  for (const i of idx) {
    if (i < -size || i >= size) return cx.unsupported(n, R.gatherIndexRange(i, size));
    map.push(i < 0 ? i + size : i);
  }
  const out = n.outputs[0]!;
  const outShape = cx.shapeOf(out);
  if (defineIfEmpty(cx, out, outShape, loc)) return;
  cx.compute(out, [x], outShape, loc, (b, [a]) => {
    const g = gatherAxis(b, a!, x.shape, axis, map);
    return b.reshape(g.value, g.shape, outShape);
  });
}

/**
 * Reshape, Flatten, Squeeze, Unsqueeze: the identity when the shape does not change,
 * `spat.flatten_plan` for a rank-2 [prod(dims before k), prod(rest)] result, else a region
 * `tensor.collapse_shape` + `tensor.expand_shape`.
 */
function lowerReshape(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const out = n.outputs[0]!;
  const outShape = cx.shapeOf(out);
  if (defineIfEmpty(cx, out, outShape, loc)) return;
  if (sameShape(outShape, x.shape)) return void cx.define(out, x);
  if (outShape.length === 2 && x.shape.length > 0) {
    for (let k = 0; k <= x.shape.length; k++) {
      if (elementCount(x.shape.slice(0, k)) === outShape[0] && elementCount(x.shape.slice(k)) === outShape[1]) {
        cx.emitPlan(out, FlattenPlanOp, [x], outShape, { axis: i64(cx.context, k) }, loc);
        return;
      }
    }
  }
  cx.reshape(out, x, outShape, loc);
}

/** Lowerings of the data-movement family, by ONNX operator (this file and its sibling files). */
export const DATA_MOVEMENT_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Identity: lowerIdentity,
  Dropout: lowerDropout,
  Cast: lowerCast,
  Concat: lowerConcat,
  Split: lowerSplit,
  Gather: lowerGather,
  Flatten: lowerReshape,
  Reshape: lowerReshape,
  Squeeze: lowerReshape,
  Unsqueeze: lowerReshape,
  ...TRANSPOSE_LOWERINGS,
  ...SLICE_LOWERINGS,
  ...PAD_LOWERINGS,
};
