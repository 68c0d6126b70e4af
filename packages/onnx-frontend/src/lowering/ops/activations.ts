/**
 * Activations on any rank: `Relu` (`spat.relu_plan` on NCHW, else `spat.relu` in a
 * graph_compute), `Sigmoid` (with `Mul(x, Sigmoid(x))` fused to `spat.silu_plan` on NCHW, or
 * to sigmoid + vmul in one region on other ranks), and the operators the Spatial dialect has no
 * op for, decomposed into `spat.sigmoid`/`spat.relu`/`spat.vmax`/`spat.vmul`/`spat.vadd`/
 * `spat.vsub` with splat constants (docs/lowering.md, "Element-wise and softmax"):
 * `Tanh(x) = 2 sigmoid(2x) - 1`; `LeakyRelu(x) = max(x, alpha x)` for 0 <= alpha <= 1, else
 * `relu(x) + alpha (x - relu(x))`; `Clip(x, lo, hi) = -max(-t, -hi)` with `t = max(x, lo)` (exact);
 * `HardSigmoid(x) = Clip(alpha x + beta, 0, 1)`.
 */
import type { Location, Value } from '@raptor-pim/ir-core';
import { ReluOp, ReluPlanOp, SigmoidOp, SiluPlanOp, VaddOp, VmaxOp, VmulOp, VsubOp } from '@raptor-pim/spatial-dialect';
import { getAttribute, type OnnxNode } from '../../onnx/model';
import type { BodyBuilder } from '../body-builder';
import type { LoweringContext, NodeLowering, Val } from '../lowering-context';
import { nameLoc } from '../ir-helpers';
import { ElementwiseReasons as R } from './elementwise-messages';

/**
 * A graph_compute over `x` and splat constants of `x`'s shape holding `constants` (each bound
 * once); `build` receives the body argument of `x` and a lookup of the constants' arguments.
 * Every constant must be used by `build` (a graph_compute uses all its inputs).
 */
function computeWithSplats(cx: LoweringContext, out: string, x: Val, constants: readonly number[], loc: Location, build: (b: BodyBuilder, x: Value, k: (value: number) => Value) => Value): Val {
  const distinct = [...new Set(constants)];
  const inputs = [x, ...distinct.map((c) => cx.splat(c, x.shape, loc))];
  return cx.compute(out, inputs, x.shape, loc, (b, args) =>
    build(b, args[0]!, (value) => {
      const at = distinct.indexOf(value);
      if (at < 0) throw new Error(`internal error: splat ${value} was not bound`);
      return args[at + 1]!;
    }),
  );
}

function lowerRelu(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  if (x.shape.length === 4) cx.emitPlan(n.outputs[0]!, ReluPlanOp, [x], x.shape, {}, loc);
  else cx.elementwise(n.outputs[0]!, ReluOp, [x], loc);
}

/** `Sigmoid`; a sole consumer `Mul(x, s)`/`Mul(s, x)` of the same shape is fused (SiLU). */
function lowerSigmoid(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const s = n.outputs[0]!;
  const mul = cx.soleConsumer(s);
  if (mul?.opType === 'Mul' && mul.inputs.length === 2) {
    const other = mul.inputs[0] === s ? mul.inputs[1] : mul.inputs[0];
    const mulOut = mul.outputs[0]!;
    if (other === n.inputs[0] && cx.shapeOf(mulOut).join('x') === x.shape.join('x') && cx.shapeOf(mulOut).length === x.shape.length) {
      cx.fused.add(mul);
      const mulLoc = nameLoc(cx.context, cx.nodeName(mul));
      if (x.shape.length === 4) cx.emitPlan(mulOut, SiluPlanOp, [x], x.shape, {}, mulLoc);
      else cx.compute(mulOut, [x], x.shape, mulLoc, (b, [a]) => b.binary(VmulOp, a!, b.unary(SigmoidOp, a!, x.shape), x.shape));
      return;
    }
  }
  cx.elementwise(s, SigmoidOp, [x], loc);
}

/** `Tanh(x) = 2 * sigmoid(2x) - 1` (products by 2 are exact; the error is that of sigmoid near 1/2, ~1e-7 absolute). */
function lowerTanh(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const t = x.shape;
  computeWithSplats(cx, n.outputs[0]!, x, [2, 1], loc, (b, a, k) => {
    const s = b.unary(SigmoidOp, b.binary(VmulOp, a, k(2), t), t);
    return b.binary(VsubOp, b.binary(VmulOp, s, k(2), t), k(1), t);
  });
}

/** `LeakyRelu`: `max(x, alpha x)` when 0 <= alpha <= 1, else `relu(x) + alpha (x - relu(x))`. */
function lowerLeakyRelu(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const alpha = getAttribute(n, 'alpha', 'float') ?? 0.01;
  const t = x.shape;
  if (alpha >= 0 && alpha <= 1) {
    computeWithSplats(cx, n.outputs[0]!, x, [alpha], loc, (b, a, k) => b.binary(VmaxOp, a, b.binary(VmulOp, a, k(alpha), t), t));
    return;
  }
  computeWithSplats(cx, n.outputs[0]!, x, [alpha], loc, (b, a, k) => {
    const r = b.unary(ReluOp, a, t);
    const neg = b.binary(VsubOp, a, r, t);
    return b.binary(VaddOp, r, b.binary(VmulOp, neg, k(alpha), t), t);
  });
}

/** The scalar value of an optional constant input: undefined when absent, 'runtime' when not a compile-time scalar. */
function scalarInput(cx: LoweringContext, n: OnnxNode, i: number): number | undefined | 'runtime' {
  const name = n.inputs[i] ?? '';
  if (name === '') return undefined;
  const c = cx.floatsOf(name);
  return c && c.length === 1 ? c[0]! : 'runtime';
}

/** `Clip` with `min`/`max` attributes (opset < 11) or constant scalar inputs; either may be absent. */
function lowerClip(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  let lo: number | undefined | 'runtime' = getAttribute(n, 'min', 'float');
  let hi: number | undefined | 'runtime' = getAttribute(n, 'max', 'float');
  if (cx.opset >= 11) {
    lo = scalarInput(cx, n, 1);
    hi = scalarInput(cx, n, 2);
  }
  if (lo === 'runtime') return cx.unsupported(n, R.clipBoundsNotConstant('min'));
  if (hi === 'runtime') return cx.unsupported(n, R.clipBoundsNotConstant('max'));
  clipCompute(cx, n.outputs[0]!, x, 1, 0, lo, hi, loc);
}

/** `HardSigmoid(x) = clip(alpha * x + beta, 0, 1)`. */
function lowerHardSigmoid(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  clipCompute(cx, n.outputs[0]!, x, getAttribute(n, 'alpha', 'float') ?? 0.2, getAttribute(n, 'beta', 'float') ?? 0.5, 0, 1, loc);
}

/**
 * `clip(alpha * x + beta, lo, hi)` in one graph_compute: `t = max(y, lo)` (`spat.relu` when lo
 * is 0), then `min(t, hi) = -max(-t, -hi)` (negations are exact, so the result is exact). With
 * lo > hi every element becomes hi, as ONNX says.
 */
function clipCompute(cx: LoweringContext, out: string, x: Val, alpha: number, beta: number, lo: number | undefined, hi: number | undefined, loc: Location): void {
  const t = x.shape;
  const constants = [...(alpha !== 1 ? [alpha] : []), ...(beta !== 0 ? [beta] : []), ...(lo !== undefined && lo !== 0 ? [lo] : []), ...(hi !== undefined ? [-1, -hi] : [])];
  if (constants.length === 0 && lo === undefined) {
    // Neither bound: Clip is the identity.
    cx.define(out, x);
    return;
  }
  computeWithSplats(cx, out, x, constants, loc, (b, a, k) => {
    let cur = a;
    if (alpha !== 1) cur = b.binary(VmulOp, cur, k(alpha), t);
    if (beta !== 0) cur = b.binary(VaddOp, cur, k(beta), t);
    if (lo === 0) cur = b.unary(ReluOp, cur, t);
    else if (lo !== undefined) cur = b.binary(VmaxOp, cur, k(lo), t);
    if (hi !== undefined) cur = b.binary(VmulOp, b.binary(VmaxOp, b.binary(VmulOp, cur, k(-1), t), k(-hi), t), k(-1), t);
    return cur;
  });
}

/** Lowerings of this file, by ONNX operator. */
export const ACTIVATION_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Relu: lowerRelu,
  Sigmoid: lowerSigmoid,
  Tanh: lowerTanh,
  LeakyRelu: lowerLeakyRelu,
  Clip: lowerClip,
  HardSigmoid: lowerHardSigmoid,
};
