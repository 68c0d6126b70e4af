import {
  FloatType,
  Interpreter,
  InterpreterRegistry,
  MLIRContext,
  RankedTensorType,
  ShapedValue,
  parseSourceString,
  printOperation,
  verify,
  type Operation,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { registerAllSpatialInterpreterRules, registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { defaultTarget } from '@raptor-pim/pim-target';
import { builtinScheduler, verifyCommunication, type SchedulerRunReport } from '@raptor-pim/scheduler';

/** The module's (first) `func.func`. */
export function funcOf(module: Operation): Operation {
  const f = module.regions[0]!.firstBlock!.operations.find((o) => o.name === 'func.func');
  if (!f) throw new Error('the module has no func.func');
  return f;
}

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

/** Parses Spatial IR `text` in a fresh context and expects it to verify. */
export function parseVerified(text: string, filename: string): Operation {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const errors: string[] = [];
  const module = ctx.diagnostics.withHandler((d) => errors.push(d.message), () => parseSourceString(ctx, text, { filename }));
  if (!module) throw new Error(`unparsable input (${errors.join('; ')}):\n${text}`);
  expect(verifierMessages(module)).toEqual([]);
  return module;
}

/** The verifier's messages on `module` (empty when it verifies). */
export function verifierMessages(module: Operation): string[] {
  const out: string[] = [];
  const ok = module.context.diagnostics.withHandler((d) => out.push(d.message), () => verify(module));
  return ok ? [] : out.length ? out : ['verification failed'];
}

/** A deterministic pseudo-random stream (mulberry32). */
function randomStream(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random f32 inputs (quarter steps in [-4, 4)) for every argument of `func`. */
export function randomArgs(func: Operation, seed: number): RuntimeValue[] {
  const next = randomStream(seed);
  const f32 = FloatType.f32(func.context);
  return func.regions[0]!.firstBlock!.arguments.map((a) => {
    const v = ShapedValue.allocate('tensor', f32, (a.type as RankedTensorType).shape)!;
    const data = v.data as Float32Array;
    for (let i = 0; i < data.length; i++) data[i] = Math.floor(next() * 32) / 4 - 4;
    return v;
  });
}
