/**
 * Convolution of any spatial rank on `spat.conv2d_plan`: 2-D directly, 1-D as a 2-D
 * convolution over [N, C, 1, L], 3-D as a sum over kernel depth of 2-D convolutions whose batch
 * holds the input depth slices each kernel-depth tap reads (see docs/lowering.md,
 * "Convolution, pooling, matrix products"). Shared by `Conv` and `AveragePool`.
 */
import type { Location, MLIRContext } from '@raptor-pim/ir-core';
import type { PlanOpDefinition } from '@raptor-pim/spatial-dialect';
import { Conv2dPlanOp, VaddOp } from '@raptor-pim/spatial-dialect';
import type { LoweringContext, Val, PlanAttributes } from '../lowering-context';
import { i64, i64Array } from '../ir-helpers';
import { tapRange, type Window } from './window';

/** A convolution with compile-time weights. */
export interface ConvSpec {
  /** Weights [Cout, Cin/group, k...] (row-major). */
  readonly weight: Float32Array;
  readonly wShape: readonly number[];
  /** Per output channel bias, if any. */
  readonly bias?: Float32Array;
  readonly group: number;
  readonly window: Window;
  /** A key unique to the node (constant deduplication). */
  readonly key: string;
}

/** Emits a planning op whose result is not an ONNX value. */
export function planTemp(cx: LoweringContext, op: PlanOpDefinition, operands: readonly Val[], shape: readonly number[], props: PlanAttributes, loc: Location): Val {
  return cx.emitPlan(cx.temp(), op, operands, shape, props, loc);
}

/** The attributes of a `spat.conv2d_plan`. */
export function conv2dProps(ctx: MLIRContext, group: number, pads: readonly number[], strides: readonly number[], dilations: readonly number[]): PlanAttributes {
  return { dilations: i64Array(ctx, dilations), group: i64(ctx, group), pads: i64Array(ctx, pads), strides: i64Array(ctx, strides) };
}

/** One `spat.conv2d_plan` over rank-4 `x` (not bound to an ONNX name unless `out` is given). */
function conv2d(cx: LoweringContext, out: string | undefined, x: Val, w: Val, bias: Val | undefined, outShape: readonly number[], props: PlanAttributes, loc: Location): Val {
  const ops = bias ? [x, w, bias] : [x, w];
  return out === undefined ? planTemp(cx, Conv2dPlanOp, ops, outShape, props, loc) : cx.emitPlan(out, Conv2dPlanOp, ops, outShape, props, loc);
}

/**
 * Emits the convolution of `x` ([N, Cin, spatial...], 1 to 3 spatial axes) and binds the
 * result [N, Cout, output...] to `out`.
 */
export function emitConvNd(cx: LoweringContext, out: string, x: Val, spec: ConvSpec, loc: Location): Val {
  const { window: win, wShape, group } = spec;
  const [n, cout] = [x.shape[0]!, wShape[0]!];
  const outShape = [n, cout, ...win.output];
  const biasVal = (): Val | undefined => (spec.bias ? cx.constantVal(`${spec.key}:b`, spec.bias, [cout], loc) : undefined);
  const rank = x.shape.length;
  if (rank === 4) {
    const w = cx.constantVal(`${spec.key}:w`, spec.weight, wShape, loc);
    const bias = biasVal();
    return conv2d(cx, out, x, w, bias, outShape, conv2dProps(cx.context, group, [win.begin[0]!, win.begin[1]!, win.end[0]!, win.end[1]!], win.strides, win.dilations), loc);
  }
  if (rank === 3) {
    // [N, C, L] -> [N, C, 1, L]; kernel [1, k].
    const x4 = cx.reshape(undefined, x, [n, x.shape[1]!, 1, x.shape[2]!], loc);
    const w = cx.constantVal(`${spec.key}:w`, spec.weight, [wShape[0]!, wShape[1]!, 1, wShape[2]!], loc);
    const bias = biasVal();
    const props = conv2dProps(cx.context, group, [0, win.begin[0]!, 0, win.end[0]!], [1, win.strides[0]!], [1, win.dilations[0]!]);
    const y4 = conv2d(cx, undefined, x4, w, bias, [n, cout, 1, win.output[0]!], props, loc);
    return cx.reshape(out, y4, outShape, loc);
  }
  return emitConv3d(cx, out, x, spec, biasVal(), loc);
}

/**
 * 3-D convolution: for each kernel-depth tap kd, the input depth slices it reads (one strided
 * slice of the depth-major input [D, N, C, H, W]) form the batch of a 2-D convolution with
 * the weights W[:, :, kd]; the results (batch [outDepth * N]) are summed with spat.vadd into
 * the output rows they contribute to, then rearranged to [N, Cout, OD, OH, OW].
 */
function emitConv3d(cx: LoweringContext, out: string, x: Val, spec: ConvSpec, bias: Val | undefined, loc: Location): Val {
  const { window: win, wShape, group } = spec;
  const [n, cin, d, h, w] = x.shape as [number, number, number, number, number];
  const [cout, cg, kd, kh, kw] = wShape as [number, number, number, number, number];
  const [od, oh, ow] = win.output as [number, number, number];
  const depthMajor = [d, n, cin, h, w];
  const xT = cx.compute(undefined, [x], depthMajor, loc, (b, [a]) => b.transpose(a!, x.shape, [2, 0, 1, 3, 4]));
  const plane = cg * kh * kw;
  const props = conv2dProps(cx.context, group, [win.begin[1]!, win.begin[2]!, win.end[1]!, win.end[2]!], win.strides.slice(1), win.dilations.slice(1));
  const rangeOf = (t: number) => tapRange(win, 0, t);
  // The bias goes to a tap covering every output depth (if any), else into the accumulator.
  const fullTap = Array.from({ length: kd }, (_, t) => t).find((t) => rangeOf(t).lo === 0 && rangeOf(t).hi === od);
  const parts: { y: Val; lo: number; count: number }[] = [];
  for (let t = 0; t < kd; t++) {
    const { lo, hi, first } = rangeOf(t);
    if (lo >= hi) continue; // this tap only reads padding
    const count = hi - lo;
    const xs = cx.compute(undefined, [xT], [count * n, cin, h, w], loc, (b, [a]) => {
      const s = b.extractSlice(a!, depthMajor, [first, 0, 0, 0, 0], [count, n, cin, h, w], [count > 1 ? win.strides[0]! : 1, 1, 1, 1, 1]);
      return b.reshape(s, [count, n, cin, h, w], [count * n, cin, h, w]);
    });
    const wt = new Float32Array(cout * plane);
    for (let co = 0; co < cout; co++) for (let c = 0; c < cg; c++) wt.set(spec.weight.subarray(((co * cg + c) * kd + t) * kh * kw, ((co * cg + c) * kd + t + 1) * kh * kw), (co * cg + c) * kh * kw);
    const wv = cx.constantVal(`${spec.key}:w${t}`, wt, [cout, cg, kh, kw], loc);
    parts.push({ y: conv2d(cx, undefined, xs, wv, t === fullTap ? bias : undefined, [count * n, cout, oh, ow], props, loc), lo, count });
  }
  const accShape = [od * n, cout, oh, ow];
  const inputs = parts.map((p) => p.y);
  let init: Val | undefined;
  if (fullTap === undefined) {
    if (spec.bias) {
      const data = new Float32Array(od * n * cout * oh * ow);
      for (let r = 0; r < od * n; r++) for (let co = 0; co < cout; co++) data.fill(spec.bias[co]!, (r * cout + co) * oh * ow, (r * cout + co + 1) * oh * ow);
      init = cx.constantVal(`${spec.key}:bacc`, data, accShape, loc);
    } else init = cx.splat(0, accShape, loc);
    inputs.push(init);
  }
  return cx.compute(out, inputs, [n, cout, od, oh, ow], loc, (b, args) => {
    const full = parts.findIndex((p) => p.count === od);
    let acc = init ? args[parts.length]! : args[full]!;
    parts.forEach((p, i) => {
      if (!init && i === full) return;
      const shape = [p.count * n, cout, oh, ow];
      if (p.count === od) acc = b.binary(VaddOp, acc, args[i]!, accShape);
      else {
        const s = b.extractSlice(acc, accShape, [p.lo * n, 0, 0, 0], shape);
        const sum = b.binary(VaddOp, s, args[i]!, shape);
        acc = b.insertSlice(sum, acc, accShape, [p.lo * n, 0, 0, 0], shape);
      }
    });
    const r = b.reshape(acc, accShape, [od, n, cout, oh, ow]);
    return b.transpose(r, [od, n, cout, oh, ow], [1, 2, 0, 3, 4]);
  });
}
