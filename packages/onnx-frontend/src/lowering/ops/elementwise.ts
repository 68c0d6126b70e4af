/**
 * Element-wise lowerings: `Relu` (plan), `Sigmoid` (and `Mul(x, Sigmoid(x))` as `spat.silu_plan`),
 * `Add` (plans for NCHW, bias add for per-channel constants) and `Mul` with broadcasting, `Clip`
 * and `HardSigmoid` from `spat.vmax`/`spat.vsub`/`spat.relu`.
 */
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import { type LoweringContext, type NodeLowering, type Val } from '../lowering-context';
import { nameLoc, tensorType } from '../mlir-text';

function lowerSigmoid(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const s = n.outputs[0]!;
  const mul = cx.soleConsumer(s);
  if (mul?.opType === 'Mul') {
    const other = mul.inputs[0] === s ? mul.inputs[1] : mul.inputs[0];
    if (other === n.inputs[0]) {
      cx.fused.add(mul);
      cx.emitPlan(mul.outputs[0]!, 'spat.silu_plan', [x], x.shape, '', nameLoc(cx.nodeName(mul)));
      return;
    }
  }
  cx.elementwise(s, 'spat.sigmoid', [x], loc);
}

function binary(cx: LoweringContext, n: OnnxNode, loc: string, computeOp: string, isAdd: boolean): void {
  const outShape = cx.shapeOf(n.outputs[0]!);
  const [a, b] = [n.inputs[0]!, n.inputs[1]!];
  const aConst = cx.constantOf(a) !== undefined;
  const bConst = cx.constantOf(b) !== undefined;
  if (isAdd && outShape.length === 4 && aConst !== bConst) {
    const [rt, cst] = aConst ? [b, a] : [a, b];
    const bias = cx.perChannel(cst, outShape[1]!, 4, 1);
    const x = cx.defined(rt);
    if (bias && x && x.shape.join() === outShape.join()) {
      const bv = { ssa: cx.constant(`bias:${cst}`, bias, [outShape[1]!], loc), shape: [outShape[1]!] };
      cx.emitPlan(n.outputs[0]!, 'spat.bias_add_plan', [x, bv], outShape, '', loc);
      return;
    }
  }
  const operand = (name: string, isConst: boolean): Val | undefined => {
    if (isConst) return cx.broadcastConstant(name, outShape, loc);
    const v = cx.defined(name);
    return v && v.shape.length === outShape.length && v.shape.every((d, i) => d === outShape[i] || d === 1) ? v : undefined;
  };
  const x = operand(a, aConst);
  const y = operand(b, bConst);
  if (!x || !y) return cx.unsupported(n, `broadcasting ${cx.shapeOf(a).join('x')} and ${cx.shapeOf(b).join('x')} to ${outShape.join('x')} (runtime operands must have the output rank; spat element-wise ops need equal shapes)`);
  const same = x.shape.join() === outShape.join() && y.shape.join() === outShape.join();
  if (isAdd && outShape.length === 4 && same) {
    cx.emitPlan(n.outputs[0]!, 'spat.add_plan', [x, y], outShape, '', loc);
    return;
  }
  if (same) {
    cx.elementwise(n.outputs[0]!, computeOp, [x, y], loc);
    return;
  }
  const t = tensorType(outShape);
  cx.compute(n.outputs[0]!, [x, y], outShape, loc, (bb, args) => {
    const push = (l: string): void => bb.push(l);
    const [ex, ey] = [expand(cx, args[0]!, x.shape, outShape, push, loc), expand(cx, args[1]!, y.shape, outShape, push, loc)];
    const r = cx.fresh('r');
    push(`${r} = ${computeOp} ${ex}, ${ey} : (${t}, ${t}) -> ${t} ${loc}`);
    return r;
  });
}

/**
 * Broadcasts a body value of `shape` (same rank, 1 where it differs) to `outShape` by
 * `spat.concat` of copies along each broadcast axis.
 */
function expand(cx: LoweringContext, v: string, shape: readonly number[], outShape: readonly number[], push: (l: string) => void, loc: string): string {
  let cur = v;
  const s = [...shape];
  for (let d = 0; d < outShape.length; d++) {
    if (s[d] === outShape[d]) continue;
    const from = tensorType(s);
    s[d] = outShape[d]!;
    const next = cx.fresh('bc');
    push(`${next} = spat.concat axis ${d} ${new Array<string>(outShape[d]!).fill(cur).join(', ')} : (${new Array<string>(outShape[d]!).fill(from).join(', ')}) -> ${tensorType(s)} ${loc}`);
    cur = next;
  }
  return cur;
}

/** The scalar value of an optional constant input, or undefined when absent/not constant. */
function scalarInput(cx: LoweringContext, n: OnnxNode, i: number): number | undefined | 'runtime' {
  const name = n.inputs[i] ?? '';
  if (name === '') return undefined;
  const c = cx.floatsOf(name);
  return c && c.length === 1 ? c[0]! : 'runtime';
}

/**
 * Clip(x, lo, hi) = t - relu(t - hi) with t = vmax(x, lo): `spat.vmax`, `spat.vsub`,
 * `spat.relu` on splat constants in a graph_compute.
 */
function lowerClip(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  let lo: number | undefined | 'runtime' = getAttribute(n, 'min', 'float');
  let hi: number | undefined | 'runtime' = getAttribute(n, 'max', 'float');
  if (cx.opset >= 11) {
    lo = scalarInput(cx, n, 1);
    hi = scalarInput(cx, n, 2);
  }
  if (lo === 'runtime' || hi === 'runtime') return cx.unsupported(n, 'min/max are not constant scalars');
  clipCompute(cx, n.outputs[0]!, x, 1, 0, lo, hi, loc);
}

/** HardSigmoid(x) = clip(alpha * x + beta, 0, 1). */
function lowerHardSigmoid(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  clipCompute(cx, n.outputs[0]!, x, getAttribute(n, 'alpha', 'float') ?? 0.2, getAttribute(n, 'beta', 'float') ?? 0.5, 0, 1, loc);
}

function clipCompute(cx: LoweringContext, out: string, x: Val, alpha: number, beta: number, lo: number | undefined, hi: number | undefined, loc: string): void {
  const t = tensorType(x.shape);
  const inputs: Val[] = [x];
  const slot = (v: number): number => inputs.push(cx.splat(v, x.shape, loc)) - 1;
  const alphaAt = alpha !== 1 ? slot(alpha) : -1;
  const betaAt = beta !== 0 ? slot(beta) : -1;
  const loAt = lo !== undefined && lo !== 0 ? slot(lo) : -1;
  const hiAt = hi !== undefined ? slot(hi) : -1;
  cx.compute(out, inputs, x.shape, loc, (bb, args) => {
    const push = (l: string): void => bb.push(l);
    let cur = args[0]!;
    const bin = (op: string, rhs: string): void => {
      const r = cx.fresh('r');
      push(`${r} = ${op} ${cur}, ${rhs} : (${t}, ${t}) -> ${t} ${loc}`);
      cur = r;
    };
    if (alphaAt >= 0) bin('spat.vmul', args[alphaAt]!);
    if (betaAt >= 0) bin('spat.vadd', args[betaAt]!);
    if (lo === 0) {
      const r = cx.fresh('r');
      push(`${r} = spat.relu(${cur}) : ${t} -> ${t} ${loc}`);
      cur = r;
    } else if (loAt >= 0) bin('spat.vmax', args[loAt]!);
    if (hiAt >= 0) {
      const d = cx.fresh('r');
      push(`${d} = spat.vsub ${cur}, ${args[hiAt]} : (${t}, ${t}) -> ${t} ${loc}`);
      const rl = cx.fresh('r');
      push(`${rl} = spat.relu(${d}) : ${t} -> ${t} ${loc}`);
      bin('spat.vsub', rl);
    }
    return cur;
  });
}

/** Lowerings of this file, by ONNX operator. */
export const ELEMENTWISE_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Relu: (cx, n, loc) => {
    const x = cx.input(n, 0, loc);
    if (x) cx.emitPlan(n.outputs[0]!, 'spat.relu_plan', [x], cx.shapeOf(n.outputs[0]!), '', loc);
  },
  Sigmoid: lowerSigmoid,
  Add: (cx, n, loc) => binary(cx, n, loc, 'spat.vadd', true),
  Mul: (cx, n, loc) => binary(cx, n, loc, 'spat.vmul', false),
  Clip: lowerClip,
  HardSigmoid: lowerHardSigmoid,
};
