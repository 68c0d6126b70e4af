/**
 * Interpreter rules of the scf dialect. `scf.forall` runs its lanes one after another in a
 * configurable order (MLIR gives no order); each lane sees the initial shared outputs, and the
 * lanes' `tensor.parallel_insert_slice` publications are applied afterwards. Two publications
 * writing the same element of the same output are an error naming both ops and lanes.
 */
import {
  ExecutionFailure,
  ShapedValue,
  Yield,
  type ExecutionContext,
  type InterpreterRule,
  type Operation,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { ScfMessages as M } from '../scf/diagnostics';
import { forallSegments, readForallBounds } from '../scf/ops/forall';
import { publicationStack, type ParallelPublication, type PublicationCollector } from './tensor-rules';
import { forEachSliceElement, writeSliceInPlace } from './tensor-slicing';

/** The order in which `scf.forall` runs its lanes (all orders must give the same result). */
export type LaneOrder = 'forward' | 'reverse' | ((laneCount: number) => readonly number[]);

const ORDER_KEY = Symbol('scf.forall lane order');

/** Sets the lane order of `scf.forall` for runs of `interpreter` (default `forward`). */
export function setForallLaneOrder(ctx: ExecutionContext, order: LaneOrder): void {
  ctx.interpreter.state.set(ORDER_KEY, order);
}

function laneSequence(ctx: ExecutionContext, n: number): readonly number[] {
  const order = (ctx.interpreter.state.get(ORDER_KEY) as LaneOrder | undefined) ?? 'forward';
  if (typeof order === 'function') return order(n);
  const seq = Array.from({ length: n }, (_, i) => i);
  return order === 'reverse' ? seq.reverse() : seq;
}

/** A short description of a publication for diagnostics: `'op' at line:col (lane [i, j])`. */
function describe(p: ParallelPublication): string {
  const loc = p.op.location as unknown as { line?: number; column?: number };
  const where = loc.line !== undefined ? ` at ${loc.line}:${loc.column}` : '';
  return `'${p.op.name}'${where} (lane [${p.lane.join(', ')}])`;
}

/**
 * Applies lane publications to copies of `outputs` (in publication order), failing at the
 * second op when two publications write the same element of the same output.
 */
export function applyPublications(
  ctx: ExecutionContext,
  owner: Operation,
  outputs: readonly ShapedValue[],
  outputIndexOf: (p: ParallelPublication) => number,
  publications: readonly ParallelPublication[],
): ShapedValue[] | ExecutionFailure {
  const results = outputs.map((o) => o.copy('tensor'));
  const writers = results.map((r) => new Int32Array(r.data.length).fill(-1));
  for (let k = 0; k < publications.length; k++) {
    const p = publications[k]!;
    const i = outputIndexOf(p);
    const target = results[i]!;
    const w = writers[i]!;
    let clash = -1;
    let clashAt = -1;
    forEachSliceElement(target, p.slice, (_e, s) => {
      if (clash >= 0) return;
      if (w[s]! >= 0 && w[s] !== k) {
        clash = w[s]!;
        clashAt = s;
      }
      w[s] = k;
    });
    if (clash >= 0) {
      const other = publications[clash]!;
      const idx = unflatten(clashAt, target.shape);
      return ctx.fail(p.op, M.runtimeOverlap(describe(other), describe(p), `element [${idx.join(', ')}] of shared output #${i}`));
    }
    writeSliceInPlace(p.source, target, p.slice);
  }
  void owner;
  return results;
}

function unflatten(k: number, shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    out[d] = k % shape[d]!;
    k = Math.floor(k / shape[d]!);
  }
  return out;
}

const forallRule: InterpreterRule = (ctx, op, operands) => {
  const bounds = readForallBounds(op);
  const seg = forallSegments(op);
  const nums = operands.map((v) => (v instanceof ShapedValue ? 0 : Number(v)));
  let k = 0;
  const take = (statics: readonly number[], count: number) => {
    const dyn = nums.slice(k, k + count);
    k += count;
    let j = 0;
    return statics.map((v) => (v === Number.MIN_SAFE_INTEGER ? dyn[j++]! : v));
  };
  const lb = take(bounds.lowerBound, seg[0]!);
  const ub = take(bounds.upperBound, seg[1]!);
  const step = take(bounds.step, seg[2]!);
  const outputs = operands.slice(k) as ShapedValue[];
  for (const s of step) if (!(s > 0)) return ctx.fail(op, M.runtimeZeroStep(s));
  const counts = lb.map((l, d) => Math.max(0, Math.ceil((ub[d]! - l) / step[d]!)));
  const total = counts.reduce((a, b) => a * b, 1);
  const body = op.regions[0]!;
  const block = body.firstBlock!;
  const rank = lb.length;
  const collector: PublicationCollector = { lane: [], publications: [] };
  const stack = publicationStack(ctx);
  stack.push(collector);
  try {
    for (const linear of laneSequence(ctx, total)) {
      const ivs = new Array<number>(rank);
      let rest = linear;
      for (let d = rank - 1; d >= 0; d--) {
        ivs[d] = lb[d]! + (rest % counts[d]!) * step[d]!;
        rest = Math.floor(rest / counts[d]!);
      }
      collector.lane = ivs;
      const r = ctx.runRegion(body, [...ivs, ...outputs]);
      if (r instanceof ExecutionFailure) return r;
    }
  } finally {
    stack.pop();
  }
  const outArgs = block.arguments.slice(rank);
  const applied = applyPublications(ctx, op, outputs, (p) => outArgs.indexOf(p.dest as (typeof outArgs)[number]), collector.publications);
  return applied;
};

const inParallelRule: InterpreterRule = (ctx, op) => {
  const r = ctx.runRegion(op.regions[0]!, []);
  if (r instanceof ExecutionFailure) return r;
  return new Yield([]);
};

const forRule: InterpreterRule = (ctx, op, operands) => {
  const [lb, ub, step] = operands as [RuntimeValue, RuntimeValue, RuntimeValue];
  let iter: readonly RuntimeValue[] = operands.slice(3);
  const big = typeof lb === 'bigint';
  if (big ? (step as bigint) <= 0n : !((step as number) > 0)) return ctx.fail(op, M.runtimeZeroStep(step as number));
  const body = op.regions[0]!;
  if (big) {
    for (let i = lb as bigint; i < (ub as bigint); i += step as bigint) {
      const r = ctx.runRegion(body, [i, ...iter]);
      if (r instanceof ExecutionFailure) return r;
      iter = r;
    }
  } else {
    for (let i = lb as number; i < (ub as number); i += step as number) {
      const r = ctx.runRegion(body, [i, ...iter]);
      if (r instanceof ExecutionFailure) return r;
      iter = r;
    }
  }
  return iter;
};

const ifRule: InterpreterRule = (ctx, op, operands) => {
  const region = Number(operands[0]) !== 0 ? op.regions[0]! : op.regions[1]!;
  if (region.empty) return [];
  return ctx.runRegion(region, []);
};

/** The scf rules, by op name. */
export const SCF_INTERPRETER_RULES: Readonly<Record<string, InterpreterRule>> = {
  'scf.for': forRule,
  'scf.if': ifRule,
  'scf.yield': (_ctx, _op, operands) => new Yield(operands),
  'scf.forall': forallRule,
  'scf.forall.in_parallel': inParallelRule,
};
