/**
 * Element-wise arithmetic: `Add`, `Sub`, `Mul` with ONNX multidirectional broadcasting (any
 * ranks, runtime or constant operands on either side, and the opset < 7 `broadcast`/`axis`
 * attributes). Rank-4 forms that a plan op expresses keep the plan (`spat.add_plan`,
 * `spat.bias_add_plan`, a depthwise 1x1 `spat.conv2d_plan` for a per-channel scale); the rest
 * is one `spat.graph_compute` whose body broadcasts the operands (see `broadcast.ts`) and applies
 * `spat.vadd`/`spat.vsub`/`spat.vmul`. This file also holds the family's lowering table.
 */
import type { Location } from '@raptor-pim/ir-core';
import { conv2dProps } from './conv-nd';
import { AddPlanOp, BiasAddPlanOp, Conv2dPlanOp, VaddOp, VmulOp, VsubOp } from '@raptor-pim/spatial-dialect';
import { dataTypeName } from '../../onnx/dtypes';
import type { OnnxNode } from '../../onnx/model';
import type { BinaryOpDefinition } from '../body-builder';
import { F32, type LoweringContext, type NodeLowering, type Val } from '../lowering-context';
import { ACTIVATION_LOWERINGS } from './activations';
import { lowerBatchNormAnyRank } from './batch-norm';
import { alignRight, broadcastInBody, broadcastsTo, legacyAlign } from './broadcast';
import { ElementwiseReasons as R } from './elementwise-messages';

type BinaryKind = 'add' | 'sub' | 'mul';

const SPAT_OP: Readonly<Record<BinaryKind, BinaryOpDefinition>> = { add: VaddOp, sub: VsubOp, mul: VmulOp };

/** One operand of a binary node: its ONNX name, own shape, shape at the output rank and constant data. */
interface Operand {
  readonly index: number;
  readonly name: string;
  readonly shape: readonly number[];
  readonly aligned: readonly number[];
  readonly data: Float32Array | undefined;
}

const sameShape = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((d, i) => d === b[i]);

/** The single value of a constant whose elements are all equal (bitwise), or undefined. */
function splatValue(data: Float32Array): number | undefined {
  if (data.length === 0) return undefined;
  const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
  for (let i = 1; i < bits.length; i++) if (bits[i] !== bits[0]) return undefined;
  return data[0]!;
}

/** The per-channel [C] values of a constant aligned to a rank-4 output (1 everywhere but the channel axis), or undefined. */
function channelValues(o: Operand, channels: number): Float32Array | undefined {
  if (!o.data || o.aligned.some((d, i) => i !== 1 && d !== 1)) return undefined;
  if (o.aligned[1] === channels) return o.data;
  return o.aligned[1] === 1 ? new Float32Array(channels).fill(o.data[0]!) : undefined;
}

/** Rank-4 forms with a plan op; true when emitted. */
function lowerAsPlan(cx: LoweringContext, n: OnnxNode, kind: BinaryKind, ops: readonly Operand[], outShape: readonly number[], loc: Location): boolean {
  if (outShape.length !== 4) return false;
  const out = n.outputs[0]!;
  const [a, b] = [ops[0]!, ops[1]!];
  const runtimeFull = (o: Operand): boolean => !o.data && sameShape(o.shape, outShape);
  if (kind === 'add' && runtimeFull(a) && runtimeFull(b)) {
    const [x, y] = [cx.input(n, 0, loc), cx.input(n, 1, loc)];
    if (x && y) cx.emitPlan(out, AddPlanOp, [x, y], outShape, {}, loc);
    return true;
  }
  // Runtime x (first operand for Sub) with a per-channel constant.
  const c = outShape[1]!;
  const pairs: [Operand, Operand][] = kind === 'sub' ? [[a, b]] : [[a, b], [b, a]];
  for (const [rt, cst] of pairs) {
    const values = runtimeFull(rt) ? channelValues(cst, c) : undefined;
    if (!values) continue;
    const x = cx.input(n, rt.index, loc);
    if (!x) return true;
    if (kind === 'mul') {
      const w = cx.constantVal(`chscale:${cst.name}`, values, [c, 1, 1, 1], loc);
      cx.emitPlan(out, Conv2dPlanOp, [x, w], outShape, conv2dProps(cx.context, c, [0, 0, 0, 0], [1, 1], [1, 1]), loc);
    } else {
      const bias = kind === 'sub' ? values.map((v) => -v) : values;
      const bv = cx.constantVal(`${kind === 'sub' ? 'negbias' : 'bias'}:${cst.name}`, bias, [c], loc);
      cx.emitPlan(out, BiasAddPlanOp, [x, bv], outShape, {}, loc);
    }
    return true;
  }
  return false;
}

/**
 * `Add`/`Sub`/`Mul`: a plan for the rank-4 forms that have one, else a graph_compute where each
 * operand is broadcast to the output shape and one spat element-wise op combines them.
 */
function lowerBinary(cx: LoweringContext, n: OnnxNode, loc: Location, kind: BinaryKind): void {
  const outShape = cx.shapeOf(n.outputs[0]!);
  const names = [n.inputs[0] ?? '', n.inputs[1] ?? ''];
  for (const name of names) {
    const t = cx.dataTypeOf(name);
    if (t !== F32) return cx.unsupported(n, R.nonFloatOperand(name, dataTypeName(t)));
  }
  const shapes = names.map((name) => cx.shapeOf(name));
  const aligned = cx.opset < 7 ? [shapes[0]!, legacyAlign(n, shapes[0]!, shapes[1]!)] : shapes.map((s) => alignRight(s, outShape.length));
  // Shape inference has checked the broadcast (numpy rules, or opset-6 `broadcast`/`axis`).
  if (!aligned.every((s) => broadcastsTo(s, outShape))) throw new Error(`internal error: ${R.notBroadcastable(shapes[0]!, shapes[1]!, outShape)}`);
  const ops: Operand[] = names.map((name, index) => ({ index, name, shape: shapes[index]!, aligned: aligned[index]!, data: cx.constantOf(name) ? cx.floatsOf(name) : undefined }));
  if (lowerAsPlan(cx, n, kind, ops, outShape, loc)) return;
  // Operands of the region: runtime values as they are, constants at the output rank (a splat at the output shape when uniform).
  const inputs: Val[] = [];
  const preBroadcast: boolean[] = [];
  for (const o of ops) {
    if (!o.data) {
      const v = cx.input(n, o.index, loc);
      if (!v) return;
      inputs.push(v);
      preBroadcast.push(false);
      continue;
    }
    const s = splatValue(o.data);
    if (s !== undefined) inputs.push(cx.splat(s, outShape, loc));
    else inputs.push(cx.constantVal(`al:${o.name}`, o.data, o.aligned, loc));
    preBroadcast.push(s !== undefined);
  }
  cx.compute(n.outputs[0]!, inputs, outShape, loc, (b, args) => {
    const xs = ops.map((o, i) => (preBroadcast[i] ? args[i]! : broadcastInBody(b, args[i]!, inputs[i]!.shape, o.aligned, outShape)));
    return b.binary(SPAT_OP[kind], xs[0]!, xs[1]!, outShape);
  });
}

/** Lowerings of this file (element-wise arithmetic, activations, standalone BatchNormalization), by ONNX operator. */
export const ELEMENTWISE_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Add: (cx, n, loc) => lowerBinary(cx, n, loc, 'add'),
  Sub: (cx, n, loc) => lowerBinary(cx, n, loc, 'sub'),
  Mul: (cx, n, loc) => lowerBinary(cx, n, loc, 'mul'),
  ...ACTIVATION_LOWERINGS,
  BatchNormalization: lowerBatchNormAnyRank,
};
