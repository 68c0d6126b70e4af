import * as fs from 'node:fs';
import * as path from 'node:path';
import { FloatType, PassRegistry, ShapedValue, parsePassPipeline, type Operation, type RuntimeValue } from '@raptor-pim/ir-core';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { TargetKey as LoweringTargetKey, registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';
import { createCostModel, defaultTarget, type CostModel, type Target } from '@raptor-pim/pim-target';
import { Workload } from '@raptor-pim/scheduler';
import { funcOf, run } from './helpers';
import { importOnnxModel, readNpy, readOnnxFile, type ImportedModule } from '@raptor-pim/onnx-frontend';

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


/** A shared model imported, its layouts planned and its plans lowered to graph computes. */
export interface LoweredShared {
  readonly module: Operation;
  /** The entry function's name. */
  readonly fn: string;
  /** The model's inputs (input_<k>.npy). */
  readonly args: RuntimeValue[];
}

/**
 * Imports shared model `name` and runs `spat-plan-layouts,spat-lower-plans` on it (expected to
 * succeed); undefined when the model folder is missing.
 */
export function lowerShared(name: string, options: { readonly pixelPacking?: boolean; readonly target?: Target } = {}): LoweredShared | undefined {
  const imported = importShared(name);
  if (!imported?.module) return undefined;
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  registerPlanLoweringPasses(registry);
  const lower = options.pixelPacking === false ? 'spat-lower-plans{pixel-packing=false}' : 'spat-lower-plans';
  const pm = parsePassPipeline(imported.context, `builtin.module(func.func(spat-plan-layouts,${lower}))`, registry)!;
  // Plan lowering packs pixels by the target's local memory: a test scheduling for a small core lowers for it too.
  if (options.target) pm.setContext(LoweringTargetKey, options.target);
  const ok = pm.run(imported.module).success;
  expect(ok).toBe(true);
  return { module: imported.module, fn: imported.functionName, args: sharedInput(imported, name) };
}

/** A lowered shared model with its interpreted outputs (the reference), the default target's cost model and its function's workload. */
export interface LoweredWorkload {
  readonly model: LoweredShared;
  readonly reference: ReturnType<typeof run>;
  readonly cost: CostModel;
  readonly workload: Workload;
}

/** {@link lowerShared} on the default target, with the reference outputs (expected to run) and the workload; undefined when the model is missing. */
export function lowerSharedWorkload(name: string): LoweredWorkload | undefined {
  const model = lowerShared(name);
  if (!model) return undefined;
  const reference = run(model.module, model.fn, model.args);
  expect(reference.ok).toBe(true);
  const cost = createCostModel(defaultTarget());
  return { model, reference, cost, workload: new Workload(funcOf(model.module), cost) };
}

/** The largest divisor of `lanes` up to `max` (a replica count). */
export function replicasOf(lanes: number, max: number): number {
  for (let r = Math.min(lanes, max); r >= 1; r--) if (lanes % r === 0) return r;
  return 1;
}
