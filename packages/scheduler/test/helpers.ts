import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  FloatType,
  Interpreter,
  InterpreterRegistry,
  ShapedValue,
  printOperation,
  verify,
  type Operation,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { registerAllSpatialInterpreterRules } from '@raptor-pim/spatial-dialect';
import { importOnnxModel, readNpy, readOnnxFile, type ImportedModule } from '@raptor-pim/onnx-frontend';
import { defaultTarget } from '@raptor-pim/pim-target';
import { builtinScheduler, verifyCommunication, type SchedulerRunReport } from '@raptor-pim/scheduler';

/** The shared/ folder beside the repository checkout (override with RAPTOR_SHARED_DIR). */
export const SHARED_DIR = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(__dirname, '../../../../shared');
/** Root of the shared test models. */
export const MODELS_DIR = path.join(SHARED_DIR, 'models');

/** Imports a shared model (undefined when the folder is missing). */
export function importShared(name: string): ImportedModule | undefined {
  const file = path.join(MODELS_DIR, name, 'model.onnx');
  if (!fs.existsSync(file)) return undefined;
  const { model } = readOnnxFile(file);
  return model ? importOnnxModel(model) : undefined;
}

/** The model's first input (input_0.npy) as a runtime value. */
export function sharedInput(imported: ImportedModule, name: string): RuntimeValue[] {
  const f32 = FloatType.f32(imported.context);
  return imported.inputs.map((inp, i) => {
    const file = path.join(MODELS_DIR, name, `input_${i}.npy`);
    const { tensor } = readNpy(fs.readFileSync(file), file);
    const v = ShapedValue.allocate('tensor', f32, inp.shape)!;
    const data = tensor!.data as unknown as ArrayLike<number>;
    (v.data as Float32Array).set(Float32Array.from(data));
    return v;
  });
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
