import {
  Interpreter,
  InterpreterRegistry,
  ShapedValue,
  printOperation,
  verify,
  type Operation,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { registerAllSpatialInterpreterRules } from '@raptor-pim/spatial-dialect';
import { defaultTarget } from '@raptor-pim/pim-target';
import { builtinScheduler, verifyCommunication, type SchedulerRunReport } from '@raptor-pim/scheduler';

/** Runs `@main` (or the module's function) with the spatial interpreter; outputs as flat arrays. */
export function run(module: Operation, fn: string, args: readonly RuntimeValue[]): { ok: true; outputs: number[][] } | { ok: false; message: string } {
  const registry = new InterpreterRegistry();
  registerAllSpatialInterpreterRules(registry);
  const r = new Interpreter(registry).runFunction(module, fn, [...args]);
  if (!r.ok) return { ok: false, message: r.diagnostic.message };
  return { ok: true, outputs: r.values.map((v) => Array.from((v as ShapedValue).toContiguousArray() as ArrayLike<number>)) };
}

/** Schedules `module` in place with a built-in strategy on the default target. */
export function scheduleWith(module: Operation, strategy: string): { report?: SchedulerRunReport; errors: string[] } {
  const s = builtinScheduler(strategy)!;
  const r = s.schedule(module, defaultTarget(), {});
  if (!r.module) return { errors: r.diagnostics.map((d) => d.message) };
  return { report: r.report, errors: [] };
}

/** Verifier and communication-checker messages of `module` (empty when clean). */
export function checkModule(module: Operation): string[] {
  const out: string[] = [];
  const ok = module.context.diagnostics.withHandler((d) => out.push(d.message), () => verify(module));
  if (!ok && !out.length) out.push('verification failed');
  out.push(...verifyCommunication(module, defaultTarget()).diagnostics.map((d) => d.message));
  return out;
}

export { printOperation };
