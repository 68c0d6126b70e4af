/**
 * Shape rules of the data-movement and shape-computation operators, with constant folding
 * where all inputs are constant (so Reshape targets computed by Shape/Gather/Concat chains
 * become constants).
 */
import { Messages } from '../diagnostics';
import { OnnxDataType, dataTypeName, isSupportedDataType } from '../onnx/dtypes';
import {
  type AxisSlice,
  broadcastBinary,
  broadcastShapes,
  gatherValues,
  isFoldableType,
  normalizeSlice,
  numbersToTensor,
  sliceValues,
  tensorToNumbers,
} from './constant-eval';
import type { InferredValue, NodeContext } from './node-context';
import type { ShapeRule } from './rules-nn';

const count = (shape: readonly number[]): number => shape.reduce((p, d) => p * d, 1);

/** Builds an output value, folding it to a constant when `values` is given and small enough. */
function value(ctx: NodeContext, dataType: number, shape: readonly number[], values?: () => number[]): InferredValue {
  if (values && isFoldableType(dataType) && count(shape) <= ctx.maxFoldElements) {
    const name = ctx.node.outputs[0] ?? '';
    return { dataType, shape, constant: numbersToTensor(name, dataType, shape, values()) };
  }
  return { dataType, shape };
}

/** The constant of an inferred value as numbers, if foldable. */
function constOf(v: InferredValue | undefined): number[] | undefined {
  return v?.constant && isFoldableType(v.dataType) ? tensorToNumbers(v.constant) : undefined;
}

/** Opset-6 broadcasting: B matches A exactly, or (broadcast=1) a contiguous run of A's dims at `axis`. */
function legacyBroadcast(ctx: NodeContext, a: readonly number[], b: readonly number[]): number[] | undefined {
  if (ctx.attr('broadcast', 'int', 0) === 0) {
    if (a.join('x') !== b.join('x')) return ctx.shapeError(`shapes [${a.join('x')}] and [${b.join('x')}] differ and broadcast is not set (opset ${ctx.opset})`);
    return [...a];
  }
  const fits = (axis: number): boolean => axis >= 0 && axis + b.length <= a.length && b.every((d, i) => d === 1 || d === a[axis + i]);
  const axisAttr = ctx.attr('axis', 'int');
  const axis = axisAttr === undefined ? a.length - b.length : axisAttr < 0 ? axisAttr + a.length : axisAttr;
  if (b.length === 1 && b[0] === 1) return [...a];
  if (!fits(axis)) return ctx.shapeError(`B of shape [${b.join('x')}] does not broadcast into A [${a.join('x')}] at axis ${axis} (opset ${ctx.opset})`);
  return [...a];
}

const binary =
  (f: (x: number, y: number) => number): ShapeRule =>
  (ctx) => {
    const a = ctx.input(0);
    const b = ctx.input(1);
    if (!a || !b) return undefined;
    if (a.dataType !== b.dataType && a.dataType !== 0 && b.dataType !== 0) {
      return ctx.shapeError(`operand types differ: ${dataTypeName(a.dataType)} and ${dataTypeName(b.dataType)}`);
    }
    const shape = ctx.opset < 7 ? legacyBroadcast(ctx, a.shape, b.shape) : broadcastShapes(a.shape, b.shape);
    if (!shape) return ctx.opset < 7 ? undefined : ctx.shapeError(`shapes [${a.shape.join('x')}] and [${b.shape.join('x')}] do not broadcast`);
    const av = constOf(a);
    const bv = constOf(b);
    const integral = a.dataType !== OnnxDataType.FLOAT && a.dataType !== OnnxDataType.DOUBLE;
    const g = integral ? (x: number, y: number) => Math.trunc(f(x, y)) : a.dataType === OnnxDataType.FLOAT ? (x: number, y: number) => Math.fround(f(x, y)) : f;
    return [value(ctx, a.dataType, shape, av && bv && (ctx.opset >= 7 || a.shape.join('x') === b.shape.join('x')) ? () => broadcastBinary(av, a.shape, bv, b.shape, shape, g) : undefined)];
  };

const identity: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const c = constOf(x);
  return [value(ctx, x.dataType, x.shape, c && (() => c))];
};

const constant: ShapeRule = (ctx) => {
  const name = ctx.node.outputs[0] ?? '';
  const t = ctx.attr('value', 'tensor');
  if (t) return [{ dataType: t.dataType, shape: t.dims, constant: { ...t, name } }];
  const f = ctx.attr('value_float', 'float');
  if (f !== undefined) return [{ dataType: OnnxDataType.FLOAT, shape: [], constant: numbersToTensor(name, OnnxDataType.FLOAT, [], [f]) }];
  const fs = ctx.attr('value_floats', 'floats');
  if (fs) return [{ dataType: OnnxDataType.FLOAT, shape: [fs.length], constant: numbersToTensor(name, OnnxDataType.FLOAT, [fs.length], fs) }];
  const i = ctx.attr('value_int', 'int');
  if (i !== undefined) return [{ dataType: OnnxDataType.INT64, shape: [], constant: numbersToTensor(name, OnnxDataType.INT64, [], [i]) }];
  const is = ctx.attr('value_ints', 'ints');
  if (is) return [{ dataType: OnnxDataType.INT64, shape: [is.length], constant: numbersToTensor(name, OnnxDataType.INT64, [is.length], is) }];
  const other = [...ctx.node.attributes.keys()].join(', ') || 'none';
  return ctx.error(Messages.unsupportedAttributeValue('Constant', 'value', `(attributes: ${other})`, 'value, value_float, value_floats, value_int, value_ints'));
};

const shapeOp: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const rank = x.shape.length;
  const clampAxis = (a: number): number => Math.min(Math.max(a < 0 ? a + rank : a, 0), rank);
  const start = ctx.opset >= 15 ? clampAxis(ctx.attr('start', 'int', 0)) : 0;
  const end = ctx.opset >= 15 ? clampAxis(ctx.attr('end', 'int', rank)) : rank;
  const dims = x.shape.slice(start, Math.max(start, end));
  const name = ctx.node.outputs[0] ?? '';
  return [{ dataType: OnnxDataType.INT64, shape: [dims.length], constant: numbersToTensor(name, OnnxDataType.INT64, [dims.length], dims) }];
};

const cast: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const to = ctx.attr('to', 'int');
  if (to === undefined || !isSupportedDataType(to)) return ctx.error(Messages.unsupportedAttributeValue('Cast', 'to', to === undefined ? '(missing)' : dataTypeName(to), 'numeric types'));
  const c = constOf(x);
  const conv = to === OnnxDataType.FLOAT ? Math.fround : to === OnnxDataType.BOOL ? (v: number) => (v ? 1 : 0) : (v: number) => v;
  return [value(ctx, to, x.shape, c && (() => c.map(conv)))];
};

const gather: ShapeRule = (ctx) => {
  const data = ctx.input(0);
  const idx = ctx.input(1);
  if (!data || !idx) return undefined;
  if (data.shape.length === 0) return ctx.shapeError('data must have rank >= 1');
  const axis = ctx.axis(ctx.attr('axis', 'int', 0), data.shape.length);
  if (axis === undefined) return undefined;
  const shape = [...data.shape.slice(0, axis), ...idx.shape, ...data.shape.slice(axis + 1)];
  const dv = constOf(data);
  let iv = constOf(idx);
  if (iv) {
    const n = data.shape[axis]!;
    if (iv.some((i) => i < -n || i >= n)) return ctx.shapeError(`indices [${iv.join(', ')}] out of range for axis ${axis} of size ${n}`);
    iv = iv.map((i) => (i < 0 ? i + n : i));
  }
  return [value(ctx, data.dataType, shape, dv && iv ? () => gatherValues(dv, data.shape, axis, iv) : undefined)];
};

function axesFrom(ctx: NodeContext, attrBefore: number, inputIndex: number): number[] | undefined | null {
  if (ctx.opset < attrBefore) return ctx.attr('axes', 'ints')?.slice() ?? null;
  if (!ctx.has(inputIndex)) return null;
  return ctx.constInput(inputIndex);
}

const squeeze: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const axes = axesFrom(ctx, 13, 1);
  if (axes === undefined) return undefined;
  const rank = x.shape.length;
  let remove: Set<number>;
  if (axes === null) remove = new Set(x.shape.flatMap((d, i) => (d === 1 ? [i] : [])));
  else {
    remove = new Set();
    for (const a of axes) {
      const n = ctx.axis(a, rank, 'axes value');
      if (n === undefined) return undefined;
      if (x.shape[n] !== 1) return ctx.shapeError(`cannot squeeze axis ${a} of size ${x.shape[n]}`);
      remove.add(n);
    }
  }
  const shape = x.shape.filter((_, i) => !remove.has(i));
  const c = constOf(x);
  return [value(ctx, x.dataType, shape, c && (() => c))];
};

const unsqueeze: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const axes = axesFrom(ctx, 13, 1);
  if (axes === undefined) return undefined;
  if (axes === null) return ctx.shapeError("'axes' is required");
  const rank = x.shape.length + axes.length;
  const norm = new Set<number>();
  for (const a of axes) {
    const n = ctx.axis(a, rank, 'axes value');
    if (n === undefined) return undefined;
    if (norm.has(n)) return ctx.shapeError(`axis ${a} is repeated`);
    norm.add(n);
  }
  const shape: number[] = [];
  let j = 0;
  for (let i = 0; i < rank; i++) shape.push(norm.has(i) ? 1 : x.shape[j++]!);
  const c = constOf(x);
  return [value(ctx, x.dataType, shape, c && (() => c))];
};

const concat: ShapeRule = (ctx) => {
  const ins: InferredValue[] = [];
  for (let i = 0; i < ctx.inputCount; i++) {
    const v = ctx.input(i);
    if (!v) return undefined;
    ins.push(v);
  }
  if (ins.length === 0) return ctx.shapeError('needs at least one input');
  const rank = ins[0]!.shape.length;
  const axisAttr = ctx.attr('axis', 'int');
  if (axisAttr === undefined) return ctx.shapeError("attribute 'axis' is required");
  const axis = ctx.axis(axisAttr, rank);
  if (axis === undefined) return undefined;
  const shape = [...ins[0]!.shape];
  for (let k = 1; k < ins.length; k++) {
    const s = ins[k]!.shape;
    if (s.length !== rank || s.some((d, i) => i !== axis && d !== shape[i])) {
      return ctx.shapeError(`input #${k} has shape [${s.join('x')}], incompatible with [${ins[0]!.shape.join('x')}] along axis ${axis}`);
    }
    shape[axis]! += s[axis]!;
  }
  const consts = ins.map(constOf);
  const fold = consts.every((c) => c !== undefined)
    ? () => {
        const outer = count(shape.slice(0, axis));
        const out: number[] = [];
        for (let o = 0; o < outer; o++) {
          ins.forEach((v, k) => {
            const chunk = count(v.shape.slice(axis));
            out.push(...consts[k]!.slice(o * chunk, (o + 1) * chunk));
          });
        }
        return out;
      }
    : undefined;
  return [value(ctx, ins[0]!.dataType, shape, fold)];
};

const flatten: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const rank = x.shape.length;
  let axis = ctx.attr('axis', 'int', 1);
  if (axis < -rank || axis > rank) return ctx.shapeError(`axis ${axis} is out of range for rank ${rank}`);
  if (axis < 0) axis += rank;
  const shape = [count(x.shape.slice(0, axis)), count(x.shape.slice(axis))];
  const c = constOf(x);
  return [value(ctx, x.dataType, shape, c && (() => c))];
};

const reshape: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const target = ctx.constInput(1);
  if (!target) return undefined;
  const allowZero = ctx.opset >= 14 && ctx.attr('allowzero', 'int', 0) !== 0;
  const shape: number[] = [];
  let infer = -1;
  for (let i = 0; i < target.length; i++) {
    const t = target[i]!;
    if (t === -1) {
      if (infer >= 0) return ctx.shapeError(`target shape [${target.join(', ')}] has more than one -1`);
      infer = i;
      shape.push(1);
    } else if (t === 0 && !allowZero) {
      if (i >= x.shape.length) return ctx.shapeError(`target shape [${target.join(', ')}] copies dimension #${i} (0), but the input has rank ${x.shape.length}`);
      shape.push(x.shape[i]!);
    } else if (t < 0 || !Number.isInteger(t)) return ctx.shapeError(`invalid target dimension ${t}`);
    else shape.push(t);
  }
  const total = count(x.shape);
  if (infer >= 0) {
    const rest = count(shape);
    if (rest === 0 || total % rest !== 0) return ctx.shapeError(`cannot reshape [${x.shape.join('x')}] (${total} elements) to [${target.join(', ')}]`);
    shape[infer] = total / rest;
  }
  if (count(shape) !== total) return ctx.shapeError(`cannot reshape [${x.shape.join('x')}] (${total} elements) to [${shape.join('x')}] (${count(shape)} elements)`);
  const c = constOf(x);
  return [value(ctx, x.dataType, shape, c && (() => c))];
};

const transpose: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const rank = x.shape.length;
  const perm = ctx.attr('perm', 'ints') ?? x.shape.map((_, i) => rank - 1 - i);
  if (perm.length !== rank || [...perm].sort((a, b) => a - b).some((p, i) => p !== i)) {
    return ctx.shapeError(`perm [${perm.join(', ')}] is not a permutation of 0..${rank - 1}`);
  }
  const shape = perm.map((p) => x.shape[p]!);
  const c = constOf(x);
  const fold = c
    ? () => {
        const inStrides = x.shape.map((_, i) => count(x.shape.slice(i + 1)));
        const slices: AxisSlice[] = perm.map((p) => ({ start: 0, step: 1, count: x.shape[p]! }));
        const out: number[] = [];
        const idx = new Array<number>(rank).fill(0);
        for (let k = 0; k < count(shape); k++) {
          let off = 0;
          for (let i = 0; i < rank; i++) off += idx[i]! * inStrides[perm[i]!]!;
          out.push(c[off]!);
          for (let i = rank - 1; i >= 0; i--) {
            if (++idx[i]! < slices[i]!.count) break;
            idx[i] = 0;
          }
        }
        return out;
      }
    : undefined;
  return [value(ctx, x.dataType, shape, fold)];
};

const split: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const axis = ctx.axis(ctx.attr('axis', 'int', 0), x.shape.length);
  if (axis === undefined) return undefined;
  const dim = x.shape[axis]!;
  let sizes: number[] | undefined;
  if (ctx.opset < 13) sizes = ctx.attr('split', 'ints')?.slice();
  else if (ctx.has(1)) {
    sizes = ctx.constInput(1);
    if (!sizes) return undefined;
  }
  const n = ctx.node.outputs.length;
  if (!sizes) {
    const numOutputs = ctx.opset >= 18 ? ctx.attr('num_outputs', 'int') : undefined;
    if (numOutputs !== undefined) {
      if (numOutputs !== n) return ctx.shapeError(`num_outputs ${numOutputs} differs from the ${n} outputs`);
      const chunk = Math.ceil(dim / n);
      // Every chunk but the last has `chunk` elements; the last must not be empty (onnxruntime rule).
      if (chunk * (n - 1) >= dim) return ctx.shapeError(`num_outputs ${n} cannot split an axis of size ${dim} into non-empty chunks of ${chunk}`);
      sizes = Array.from({ length: n }, (_, i) => Math.min(chunk, dim - i * chunk));
    } else {
      if (dim % n !== 0) return ctx.shapeError(`axis of size ${dim} does not split evenly into ${n} outputs`);
      sizes = new Array<number>(n).fill(dim / n);
    }
  }
  if (sizes.length !== n) return ctx.shapeError(`split has ${sizes.length} sizes for ${n} outputs`);
  if (sizes.some((s) => s < 0) || sizes.reduce((a, b) => a + b, 0) !== dim) return ctx.shapeError(`split sizes [${sizes.join(', ')}] do not sum to ${dim}`);
  const c = constOf(x);
  let start = 0;
  return sizes.map((s) => {
    const shape = [...x.shape];
    shape[axis] = s;
    const slices = x.shape.map((d, i) => (i === axis ? { start, step: 1, count: s } : { start: 0, step: 1, count: d }));
    start += s;
    return value(ctx, x.dataType, shape, c && (() => sliceValues(c, x.shape, slices)));
  });
};

const slice: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const rank = x.shape.length;
  let starts: number[] | undefined;
  let ends: number[] | undefined;
  let axes: number[] | undefined;
  let steps: number[] | undefined;
  if (ctx.opset < 10) {
    starts = ctx.attr('starts', 'ints')?.slice();
    ends = ctx.attr('ends', 'ints')?.slice();
    axes = ctx.attr('axes', 'ints')?.slice();
    if (!starts || !ends) return ctx.shapeError("attributes 'starts' and 'ends' are required");
  } else {
    starts = ctx.constInput(1);
    ends = ctx.constInput(2);
    if (!starts || !ends) return undefined;
    if (ctx.has(3)) {
      axes = ctx.constInput(3);
      if (!axes) return undefined;
    }
    if (ctx.has(4)) {
      steps = ctx.constInput(4);
      if (!steps) return undefined;
    }
  }
  axes ??= starts.map((_, i) => i);
  steps ??= starts.map(() => 1);
  if (ends.length !== starts.length || axes.length !== starts.length || steps.length !== starts.length) {
    return ctx.shapeError('starts, ends, axes and steps must have the same length');
  }
  const slices: AxisSlice[] = x.shape.map((d) => ({ start: 0, step: 1, count: d }));
  const seen = new Set<number>();
  for (let k = 0; k < starts.length; k++) {
    const a = ctx.axis(axes[k]!, rank, 'axes value');
    if (a === undefined) return undefined;
    if (seen.has(a)) return ctx.shapeError(`axis ${axes[k]} is repeated`);
    seen.add(a);
    if (steps[k] === 0) return ctx.shapeError('steps must not be 0');
    slices[a] = normalizeSlice(starts[k]!, ends[k]!, steps[k]!, x.shape[a]!);
  }
  const shape = slices.map((s) => s.count);
  const c = constOf(x);
  return [value(ctx, x.dataType, shape, c && (() => sliceValues(c, x.shape, slices)))];
};

const pad: ShapeRule = (ctx) => {
  const x = ctx.input(0);
  if (!x) return undefined;
  const rank = x.shape.length;
  const mode = ctx.attr('mode', 'string', 'constant');
  if (!['constant', 'reflect', 'edge', 'wrap'].includes(mode)) return ctx.error(Messages.unsupportedAttributeValue('Pad', 'mode', mode, 'constant, reflect, edge, wrap'));
  let pads: number[] | undefined;
  let axes = x.shape.map((_, i) => i);
  if (ctx.opset < 11) {
    pads = ctx.attr('pads', 'ints')?.slice();
    if (!pads) return ctx.shapeError("attribute 'pads' is required");
  } else {
    pads = ctx.constInput(1);
    if (!pads) return undefined;
    if (ctx.opset >= 18 && ctx.has(3)) {
      const a = ctx.constInput(3);
      if (!a) return undefined;
      const norm: number[] = [];
      for (const v of a) {
        const n = ctx.axis(v, rank, 'axes value');
        if (n === undefined) return undefined;
        norm.push(n);
      }
      axes = norm;
    }
  }
  if (pads.length !== 2 * axes.length) return ctx.shapeError(`pads has ${pads.length} values, expected ${2 * axes.length}`);
  const shape = [...x.shape];
  axes.forEach((a, i) => (shape[a] = shape[a]! + pads[i]! + pads[i + axes.length]!));
  if (shape.some((d) => d < 0)) return ctx.shapeError(`negative pads give an empty shape [${shape.join('x')}]`);
  return [{ dataType: x.dataType, shape }];
};

/** Shape rules of the tensor operators, by op_type. */
export const TENSOR_RULES: Readonly<Record<string, ShapeRule>> = {
  Add: binary((x, y) => x + y),
  Sub: binary((x, y) => x - y),
  Mul: binary((x, y) => x * y),
  Identity: identity,
  Constant: constant,
  Shape: shapeOp,
  Cast: cast,
  Gather: gather,
  Squeeze: squeeze,
  Unsqueeze: unsqueeze,
  Concat: concat,
  Flatten: flatten,
  Reshape: reshape,
  Transpose: transpose,
  Split: split,
  Slice: slice,
  Pad: pad,
};

