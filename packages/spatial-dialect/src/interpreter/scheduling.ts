/**
 * Interpreter rules of the scheduling and communication ops. Scheduled computes run as one
 * multi-core run ({@link ScheduledRun}, on ir-core's concurrent-streams executor): when the
 * interpreter reaches the first scheduled op of a group of siblings, the whole group runs as
 * concurrent core streams and the later members return their precomputed results.
 */
import {
  Branch,
  ExecutionFailure,
  IntegerAttr,
  ShapedValue,
  Yield,
  type InterpreterRegistry,
  type InterpreterRule,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { SchedulingMessages as M } from './scheduling-messages';
import { COMMUNICATION_OPS, ScheduledRun, schedulingState } from './scheduled-run';
import { zeroValueOf } from './scheduling-payload';

const scheduledRule: InterpreterRule = (ctx, op) => {
  const state = schedulingState(ctx.interpreter);
  const cached = state.results.get(op);
  if (cached) {
    state.results.delete(op);
    return cached;
  }
  const run = new ScheduledRun(ctx.interpreter, op);
  const r = run.runToCompletion();
  if (r instanceof ExecutionFailure) return r;
  for (const [member, values] of r) if (member !== op) state.results.set(member, values);
  return r.get(op)!;
};

const outsideSchedule: InterpreterRule = (ctx, op) => ctx.fail(op, M.communicationOutsideSchedule(op.name));

const sourceSelect: InterpreterRule = (ctx, op, operands) => {
  const sel = Number(operands[0]);
  const count = operands.length - 1;
  if (!Number.isInteger(sel) || sel < 0 || sel >= count) return ctx.fail(op, M.selectorOutOfRange(sel, count));
  return [operands[1 + sel]!];
};

const deferredCommunication: InterpreterRule = (ctx, op, operands) => {
  const attr = op.getAttr('specialization_count');
  const count = attr instanceof IntegerAttr ? Number(attr.value) : 1;
  const body = op.regions[0]!;
  if (count <= 1) {
    const r = ctx.runRegion(body, operands);
    if (r instanceof ExecutionFailure) return r;
    return [r[0]!];
  }
  const out = zeroValueOf(op.resultTypes[0]!);
  if (typeof out === 'string') return ctx.fail(op, out);
  const per = out.numElements / count;
  const dst = out.data as unknown as (number | bigint)[];
  for (let c = 0; c < count; c++) {
    const r = ctx.runRegion(body, [...operands, c]);
    if (r instanceof ExecutionFailure) return r;
    const frag = r[0];
    if (!(frag instanceof ShapedValue) || frag.numElements !== per) return ctx.fail(op, M.notAShapedValue('the yielded fragment'));
    const src = frag.toContiguousArray() as unknown as (number | bigint)[];
    for (let k = 0; k < per; k++) dst[c * per + k] = src[k]!;
  }
  return [out];
};

const blockYield: InterpreterRule = (_ctx, op, operands) =>
  op.numSuccessors ? new Branch(op.getSuccessor(0), operands as RuntimeValue[]) : new Yield(operands);

/** The rules of the 11 scheduling/communication ops, keyed by op name. */
export const SCHEDULING_INTERPRETER_RULES: Readonly<Record<string, InterpreterRule>> = {
  'spat.scheduled_compute': scheduledRule,
  'spat.scheduled_compute_batch': scheduledRule,
  'spat.block_yield': blockYield,
  'spat.deferred_communication': deferredCommunication,
  'spat.deferred_source_select': sourceSelect,
  ...Object.fromEntries([...COMMUNICATION_OPS].map((n) => [n, outsideSchedule])),
};

/**
 * Registers the scheduling rules (combine with the spat compute/element-wise rules, ir-core's
 * builtin rules and the upstream tensor/scf/affine rules).
 */
export function registerSchedulingInterpreterRules(registry: InterpreterRegistry): void {
  registry.registerAll(SCHEDULING_INTERPRETER_RULES);
}

export { ScheduledRun } from './scheduled-run';
