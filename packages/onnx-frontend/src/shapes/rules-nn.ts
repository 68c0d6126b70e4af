/**
 * Shape rules of the neural-network operators: convolutions, pooling, Gemm/MatMul,
 * normalisation, activations, resampling and DepthToSpace.
 */
import { Messages } from '../diagnostics';
import { OnnxDataType } from '../onnx/dtypes';
import { broadcastShapes } from './constant-eval';
import type { InferredValue, NodeContext } from './node-context';

/** A shape rule: the inferred outputs of a node, or undefined after reporting an error. */
export type ShapeRule = (ctx: NodeContext) => (InferredValue | undefined)[] | undefined;

const same: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  return x ? [{ dataType: x.dataType, shape: x.shape }] : undefined;
};

interface Window {
  readonly kernel: number[];
  readonly strides: number[];
  readonly dilations: number[];
  readonly pads: number[];
  readonly autoPad: string;
}

function readWindow(ctx: NodeContext, spatial: number, kernel: number[]): Window | undefined {
  const strides = ctx.attr('strides', 'ints', new Array<number>(spatial).fill(1));
  const dilations = ctx.attr('dilations', 'ints', new Array<number>(spatial).fill(1));
  const pads = ctx.attr('pads', 'ints', new Array<number>(2 * spatial).fill(0));
  const autoPad = ctx.attr('auto_pad', 'string', 'NOTSET');
  if (kernel.length !== spatial) return ctx.shapeError(`kernel_shape has ${kernel.length} values, expected ${spatial}`);
  if (strides.length !== spatial) return ctx.shapeError(`strides has ${strides.length} values, expected ${spatial}`);
  if (dilations.length !== spatial) return ctx.shapeError(`dilations has ${dilations.length} values, expected ${spatial}`);
  if (pads.length !== 2 * spatial) return ctx.shapeError(`pads has ${pads.length} values, expected ${2 * spatial}`);
  if ([...strides, ...dilations, ...kernel].some((v) => !(v >= 1))) return ctx.shapeError('kernel_shape, strides and dilations must be positive');
  if (pads.some((p) => p < 0)) return ctx.shapeError('pads must be non-negative');
  if (!['NOTSET', 'SAME_UPPER', 'SAME_LOWER', 'VALID'].includes(autoPad)) {
    return ctx.error(Messages.unsupportedAttributeValue(ctx.node.opType, 'auto_pad', autoPad, 'NOTSET, SAME_UPPER, SAME_LOWER, VALID'));
  }
  return { kernel, strides: [...strides], dilations: [...dilations], pads: [...pads], autoPad };
}

function windowOutput(ctx: NodeContext, inDims: readonly number[], w: Window, ceilMode: boolean): number[] | undefined {
  const n = inDims.length;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const input = inDims[i]!;
    const s = w.strides[i]!;
    const effective = (w.kernel[i]! - 1) * w.dilations[i]! + 1;
    let size: number;
    if (w.autoPad === 'SAME_UPPER' || w.autoPad === 'SAME_LOWER') size = Math.ceil(input / s);
    else {
      // VALID is the explicit formula with zero pads (ceil_mode applies to it too, as in onnxruntime).
      const valid = w.autoPad === 'VALID';
      const head = valid ? 0 : w.pads[i]!;
      const total = valid ? 0 : head + w.pads[i + n]!;
      const span = input + total - effective;
      size = (ceilMode ? Math.ceil(span / s) : Math.floor(span / s)) + 1;
      // A window starting in the end padding is dropped (ONNX and onnxruntime rule).
      if (ceilMode && size > 0 && (size - 1) * s >= input + head) size--;
    }
    if (!(size >= 1)) return ctx.shapeError(`spatial dimension #${i} of size ${input} is too small for a window of ${effective} (output size ${size})`);
    out.push(size);
  }
  return out;
}

const conv: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  const w = ctx.input(1);
  if (!x || !w) return undefined;
  if (x.shape.length < 3) return ctx.shapeError(`input X has rank ${x.shape.length}, expected 3 or more (N x C x spatial)`);
  if (w.shape.length !== x.shape.length) return ctx.shapeError(`weights W have rank ${w.shape.length}, expected ${x.shape.length} (same as X)`);
  const group = ctx.attr('group', 'int', 1);
  const cin = x.shape[1]!;
  if (group < 1 || cin % group !== 0 || w.shape[1]! * group !== cin) {
    return ctx.shapeError(`input has ${cin} channels but W is [${w.shape.join('x')}] with group ${group} (expected W dim 1 = ${cin}/${group})`);
  }
  if (w.shape[0]! % group !== 0) return ctx.shapeError(`output channels ${w.shape[0]} are not divisible by group ${group}`);
  if (ctx.has(2)) {
    const b = ctx.input(2);
    if (!b) return undefined;
    if (b.shape.length !== 1 || b.shape[0] !== w.shape[0]) return ctx.shapeError(`bias B has shape [${b.shape.join('x')}], expected [${w.shape[0]}]`);
  }
  const spatial = x.shape.length - 2;
  const kernel = [...ctx.attr('kernel_shape', 'ints', w.shape.slice(2))];
  const win = readWindow(ctx, spatial, kernel);
  if (!win) return undefined;
  const out = windowOutput(ctx, x.shape.slice(2), win, false);
  return out ? [{ dataType: x.dataType, shape: [x.shape[0]!, w.shape[0]!, ...out] }] : undefined;
};

const pool: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  if (x.shape.length < 3) return ctx.shapeError(`input X has rank ${x.shape.length}, expected 3 or more (N x C x spatial)`);
  const kernel = ctx.attr('kernel_shape', 'ints');
  if (!kernel) return ctx.shapeError("attribute 'kernel_shape' is required");
  if (ctx.node.opType === 'MaxPool' && ctx.attr('storage_order', 'int', 0) !== 0) {
    return ctx.error(Messages.unsupportedAttributeValue('MaxPool', 'storage_order', '1', '0 (row major)'));
  }
  const win = readWindow(ctx, x.shape.length - 2, [...kernel]);
  if (!win) return undefined;
  const n = win.kernel.length;
  if (win.autoPad === 'NOTSET' && win.kernel.some((k, i) => win.pads[i]! >= k || win.pads[i + n]! >= k)) {
    // onnxruntime rejects such pooling windows (a window could lie entirely in the padding).
    return ctx.shapeError(`pads [${win.pads.join(', ')}] must be smaller than kernel_shape [${win.kernel.join(', ')}]`);
  }
  const out = windowOutput(ctx, x.shape.slice(2), win, ctx.attr('ceil_mode', 'int', 0) !== 0);
  if (!out) return undefined;
  const shape = [x.shape[0]!, x.shape[1]!, ...out];
  return [{ dataType: x.dataType, shape }, { dataType: OnnxDataType.INT64, shape }];
};

const globalPool: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  if (x.shape.length < 3) return ctx.shapeError(`input X has rank ${x.shape.length}, expected 3 or more`);
  return [{ dataType: x.dataType, shape: [x.shape[0]!, x.shape[1]!, ...x.shape.slice(2).map(() => 1)] }];
};

const gemm: ShapeRule = (ctx) => {
  const a = ctx.input(0);
  const b = ctx.input(1);
  if (!a || !b) return undefined;
  if (a.shape.length !== 2 || b.shape.length !== 2) return ctx.shapeError(`A and B must be 2-D, got [${a.shape.join('x')}] and [${b.shape.join('x')}]`);
  const [m, ka] = ctx.attr('transA', 'int', 0) ? [a.shape[1]!, a.shape[0]!] : [a.shape[0]!, a.shape[1]!];
  const [kb, n] = ctx.attr('transB', 'int', 0) ? [b.shape[1]!, b.shape[0]!] : [b.shape[0]!, b.shape[1]!];
  if (ka !== kb) return ctx.shapeError(`inner dimensions differ: A gives K=${ka}, B gives K=${kb}`);
  if (ctx.has(2)) {
    const c = ctx.input(2);
    if (!c) return undefined;
    const bc = broadcastShapes([m, n], c.shape);
    if (!bc || bc.length !== 2 || bc[0] !== m || bc[1] !== n) return ctx.shapeError(`C of shape [${c.shape.join('x')}] does not broadcast to [${m}x${n}]`);
  }
  return [{ dataType: a.dataType, shape: [m, n] }];
};

const matmul: ShapeRule = (ctx) => {
  const a = ctx.input(0);
  const b = ctx.input(1);
  if (!a || !b) return undefined;
  if (a.shape.length === 0 || b.shape.length === 0) return ctx.shapeError('operands must have rank >= 1');
  const as = a.shape.length === 1 ? [1, a.shape[0]!] : a.shape;
  const bs = b.shape.length === 1 ? [b.shape[0]!, 1] : b.shape;
  const k1 = as[as.length - 1]!;
  const k2 = bs[bs.length - 2]!;
  if (k1 !== k2) return ctx.shapeError(`inner dimensions differ: [${a.shape.join('x')}] x [${b.shape.join('x')}]`);
  const batch = broadcastShapes(as.slice(0, -2), bs.slice(0, -2));
  if (!batch) return ctx.shapeError(`batch dimensions do not broadcast: [${a.shape.join('x')}] x [${b.shape.join('x')}]`);
  const shape = [...batch];
  if (a.shape.length > 1) shape.push(as[as.length - 2]!);
  if (b.shape.length > 1) shape.push(bs[bs.length - 1]!);
  return [{ dataType: a.dataType, shape }];
};

const batchNorm: ShapeRule = (ctx) => {
  const extraOutputs = ctx.node.outputs.slice(1).some((o) => o !== '');
  if (ctx.attr('training_mode', 'int', 0) !== 0 || extraOutputs) return ctx.error(Messages.trainingBatchNorm());
  const x = ctx.input(0);
  if (!x) return undefined;
  if (x.shape.length < 2) return ctx.shapeError(`input X has rank ${x.shape.length}, expected 2 or more`);
  for (let i = 1; i <= 4; i++) {
    const p = ctx.input(i);
    if (!p) return undefined;
    if (p.shape.length !== 1 || p.shape[0] !== x.shape[1]) return ctx.shapeError(`input #${i} has shape [${p.shape.join('x')}], expected [${x.shape[1]}] (channels)`);
  }
  return [{ dataType: x.dataType, shape: x.shape }];
};

const softmax: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const defaultAxis = ctx.opset >= 13 ? -1 : 1;
  if (ctx.axis(ctx.attr('axis', 'int', defaultAxis), Math.max(x.shape.length, 1)) === undefined) return undefined;
  return [{ dataType: x.dataType, shape: x.shape }];
};

const clip: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  for (const i of [1, 2]) {
    if (ctx.opset >= 11 && ctx.has(i)) {
      const v = ctx.input(i);
      if (!v) return undefined;
      if (v.shape.reduce((p, d) => p * d, 1) !== 1) return ctx.shapeError(`input #${i} must be a scalar, got [${v.shape.join('x')}]`);
    }
  }
  return [{ dataType: x.dataType, shape: x.shape }];
};

const dropout: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  if (ctx.opset >= 12 && ctx.has(2)) {
    const training = ctx.constInput(2);
    if (!training) return undefined;
    if (training.some((v) => v !== 0)) return ctx.error(Messages.trainingDropout());
  } else if (ctx.opset < 7 && ctx.attr('is_test', 'int', 0) === 0) {
    return ctx.error(Messages.trainingDropout());
  }
  return [{ dataType: x.dataType, shape: x.shape }, { dataType: OnnxDataType.BOOL, shape: x.shape }];
};

const depthToSpace: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const b = ctx.attr('blocksize', 'int');
  const mode = ctx.attr('mode', 'string', 'DCR');
  if (b === undefined || b < 1) return ctx.shapeError("attribute 'blocksize' must be a positive integer");
  if (mode !== 'DCR' && mode !== 'CRD') return ctx.error(Messages.unsupportedAttributeValue('DepthToSpace', 'mode', mode, 'DCR, CRD'));
  if (x.shape.length !== 4) return ctx.shapeError(`input has rank ${x.shape.length}, expected 4`);
  const [n, c, h, w] = x.shape as [number, number, number, number];
  if (c % (b * b) !== 0) return ctx.shapeError(`channels ${c} are not divisible by blocksize^2 = ${b * b}`);
  return [{ dataType: x.dataType, shape: [n, c / (b * b), h * b, w * b] }];
};

function scaledShape(ctx: NodeContext, shape: readonly number[], scales: readonly number[]): number[] | undefined {
  if (scales.length !== shape.length) return ctx.shapeError(`scales has ${scales.length} values, expected ${shape.length} (input rank)`);
  if (scales.some((s) => !(s > 0))) return ctx.shapeError(`scales must be positive, got [${scales.join(', ')}]`);
  return shape.map((d, i) => Math.floor(d * scales[i]!));
}

const upsample: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const mode = ctx.attr('mode', 'string', 'nearest');
  if (mode !== 'nearest' && mode !== 'linear' && mode !== 'bilinear') return ctx.error(Messages.unsupportedAttributeValue('Upsample', 'mode', mode, 'nearest, linear'));
  const scales = ctx.opset >= 9 ? ctx.constInput(1) : ctx.attr('scales', 'floats');
  if (!scales) return ctx.opset >= 9 ? undefined : ctx.shapeError("attribute 'scales' is required");
  const shape = scaledShape(ctx, x.shape, scales);
  return shape ? [{ dataType: x.dataType, shape }] : undefined;
};

const resize: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const rank = x.shape.length;
  const scalesIndex = ctx.opset >= 11 ? 2 : 1;
  const axesAttr = ctx.opset >= 18 ? ctx.attr('axes', 'ints') : undefined;
  const axes = axesAttr ? axesAttr.map((a) => (a < 0 ? a + rank : a)) : x.shape.map((_, i) => i);
  if (axes.some((a) => a < 0 || a >= rank)) return ctx.shapeError(`axes [${axesAttr?.join(', ')}] out of range for rank ${rank}`);
  const hasSizes = ctx.opset >= 11 && ctx.has(3) && (ctx.input(3)?.shape[0] ?? 0) > 0;
  const shape = [...x.shape];
  if (hasSizes) {
    const sizes = ctx.constInput(3);
    if (!sizes) return undefined;
    if (sizes.length !== axes.length) return ctx.shapeError(`sizes has ${sizes.length} values, expected ${axes.length}`);
    const policy = ctx.attr('keep_aspect_ratio_policy', 'string', 'stretch');
    if (policy === 'stretch') axes.forEach((a, i) => (shape[a] = sizes[i]!));
    else if (policy === 'not_larger' || policy === 'not_smaller') {
      const ratios = axes.map((a, i) => sizes[i]! / x.shape[a]!);
      const r = policy === 'not_larger' ? Math.min(...ratios) : Math.max(...ratios);
      axes.forEach((a) => (shape[a] = Math.round(r * x.shape[a]!)));
    } else return ctx.error(Messages.unsupportedAttributeValue('Resize', 'keep_aspect_ratio_policy', policy, 'stretch, not_larger, not_smaller'));
  } else {
    if (!ctx.has(scalesIndex)) return ctx.shapeError('one of scales or sizes is required');
    const scales = ctx.constInput(scalesIndex);
    if (!scales) return undefined;
    if (scales.length !== axes.length) return ctx.shapeError(`scales has ${scales.length} values, expected ${axes.length}`);
    if (scales.some((s) => !(s > 0))) return ctx.shapeError(`scales must be positive, got [${scales.join(', ')}]`);
    // tf_crop_and_resize scales the region of interest, not the whole axis.
    let extent = axes.map(() => 1);
    if (ctx.opset >= 11 && ctx.attr('coordinate_transformation_mode', 'string', 'half_pixel') === 'tf_crop_and_resize') {
      const roi = ctx.has(1) ? ctx.constInput(1) : undefined;
      if (!roi) return ctx.has(1) ? undefined : ctx.shapeError("coordinate_transformation_mode 'tf_crop_and_resize' needs the roi input");
      if (roi.length !== 2 * axes.length) return ctx.shapeError(`roi has ${roi.length} values, expected ${2 * axes.length}`);
      extent = axes.map((_, i) => roi[i + axes.length]! - roi[i]!);
    }
    axes.forEach((a, i) => (shape[a] = Math.floor(x.shape[a]! * extent[i]! * scales[i]!)));
  }
  if (shape.some((d) => !Number.isSafeInteger(d) || d < 0)) return ctx.shapeError(`invalid output shape [${shape.join('x')}]`);
  return [{ dataType: x.dataType, shape }];
};

/** Shape rules of the NN operators, by op_type. */
export const NN_RULES: Readonly<Record<string, ShapeRule>> = {
  Conv: conv,
  MaxPool: pool,
  AveragePool: pool,
  GlobalAveragePool: globalPool,
  GlobalMaxPool: globalPool,
  Gemm: gemm,
  MatMul: matmul,
  BatchNormalization: batchNorm,
  Softmax: softmax,
  Relu: same,
  LeakyRelu: same,
  Sigmoid: same,
  Tanh: same,
  HardSigmoid: same,
  Clip: clip,
  Dropout: dropout,
  DepthToSpace: depthToSpace,
  Upsample: upsample,
  Resize: resize,
};
