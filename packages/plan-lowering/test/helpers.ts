/**
 * Shared test helpers: the shared models (imported with onnx-frontend), the interpreter, pass
 * pipelines with a target in the pass context, the onnxruntime tolerance of the model tests.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  FloatType,
  Interpreter,
  InterpreterRegistry,
  PassRegistry,
  ShapedValue,
  parsePassPipeline,
  type Diagnostic,
  type MLIRContext,
  type Operation,
} from '@raptor-pim/ir-core';
import { importOnnxModel, readNpy, readOnnxFile, tensorToNumbers, type ImportedModule } from '@raptor-pim/onnx-frontend';
import { registerAllSpatialInterpreterRules } from '@raptor-pim/spatial-dialect';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { cloneConfig, defaultTarget, type Target } from '@raptor-pim/pim-target';
import { TargetKey, registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';

/** The shared/ folder beside the repository checkout (override with RAPTOR_SHARED_DIR). */
export const SHARED_DIR = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(__dirname, '../../../../shared');
/** Root of the shared test models. */
export const MODELS_DIR = path.join(SHARED_DIR, 'models');

/** Model folder names under MODELS_DIR that contain a model.onnx. */
export function sharedModels(): string[] {
  if (!fs.existsSync(MODELS_DIR)) return [];
  return fs
    .readdirSync(MODELS_DIR)
    .filter((d) => fs.existsSync(path.join(MODELS_DIR, d, 'model.onnx')))
    .sort();
}

/** One shared model, imported, with its reference input and outputs. */
export interface LoadedModel {
  readonly imported: ImportedModule;
  readonly module: Operation;
  readonly context: MLIRContext;
  readonly inputs: ShapedValue[];
  readonly references: Float32Array[];
}

const npy = (file: string) => readNpy(fs.readFileSync(file), file).tensor!;

/** Imports shared model `name` and reads `input_<k>.npy` / `output_<k>.npy`. */
export function loadSharedModel(name: string): LoadedModel {
  const dir = path.join(MODELS_DIR, name);
  const { model } = readOnnxFile(path.join(dir, 'model.onnx'));
  const imported = importOnnxModel(model!);
  if (!imported.module) throw new Error(`${name}: import failed: ${imported.diagnostics.map((d) => d.message).join('\n')}`);
  const f32 = FloatType.f32(imported.context);
  const inputs = model!.graph.inputs.map((_, i) => {
    const t = npy(path.join(dir, `input_${i}.npy`));
    const v = ShapedValue.allocate('tensor', f32, t.dims)!;
    (v.data as Float32Array).set(Float32Array.from(tensorToNumbers(t)));
    return v;
  });
  const references: Float32Array[] = [];
  for (let k = 0; fs.existsSync(path.join(dir, `output_${k}.npy`)); k++) references.push(Float32Array.from(tensorToNumbers(npy(path.join(dir, `output_${k}.npy`)))));
  return { imported, module: imported.module, context: imported.context, inputs, references };
}

/** Runs function `name` of `module` with the spatial interpreter; throws with the diagnostic on failure. */
export function interpret(module: Operation, name: string, inputs: readonly ShapedValue[]): Float32Array[] {
  const registry = new InterpreterRegistry();
  registerAllSpatialInterpreterRules(registry);
  const r = new Interpreter(registry).runFunction(module, name, [...inputs]);
  if (!r.ok) throw new Error(`interpreter: ${r.diagnostic.message}`);
  return r.values.map((v) => Float32Array.from((v as ShapedValue).toContiguousArray() as ArrayLike<number>));
}

/** Worst |got - ref| / (atol + rtol |ref|) over all elements (rtol 1e-3, atol 1e-5 * max|ref|, as onnx-frontend's model tests): <= 1 passes. */
export function worstRatio(got: Float32Array, ref: Float32Array): number {
  let maxRef = 0;
  for (let i = 0; i < ref.length; i++) maxRef = Math.max(maxRef, Math.abs(ref[i]!));
  const atol = 1e-5 * maxRef;
  let worst = 0;
  for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(got[i]! - ref[i]!) / (atol + 1e-3 * Math.abs(ref[i]!)));
  return worst;
}

/** A pass registry with the layout planner's and plan-lowering's passes. */
export function passRegistry(): PassRegistry {
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  registerPlanLoweringPasses(registry);
  return registry;
}

/** The result of {@link runPipeline}. */
export interface PipelineRun {
  readonly success: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly milliseconds: number;
}

/** Runs the textual `pipeline` on `module` with `target` in the pass context (verifier on). */
export function runPipeline(module: Operation, pipeline: string, target: Target = defaultTarget()): PipelineRun {
  const ctx = module.context;
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const pm = parsePassPipeline(ctx, pipeline, passRegistry());
    if (!pm) return { success: false, milliseconds: 0 };
    pm.setContext(TargetKey, target);
    const t = performance.now();
    const r = pm.run(module);
    return { success: r.success, milliseconds: performance.now() - t };
  });
  return { ...result, diagnostics };
}

/** A target whose crossbars are `rows x columns` (the other numbers default). */
export function targetWithCrossbar(rows: number, columns: number): Target {
  const t = defaultTarget();
  const config = cloneConfig(t.config);
  config.chip_config.core_config.matrix_config.xbar_size = [rows, columns];
  return { ...t, config };
}

/** Every op of `root` (bodies included, `root` itself excluded). */
export function countOps(root: Operation): number {
  let n = -1;
  root.walk(() => {
    n++;
  });
  return n;
}

/** Counts of ops by name under `root`. */
export function opHistogram(root: Operation): Map<string, number> {
  const m = new Map<string, number>();
  root.walk((op) => {
    m.set(op.name, (m.get(op.name) ?? 0) + 1);
  });
  return m;
}
