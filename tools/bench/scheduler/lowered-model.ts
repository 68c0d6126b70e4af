/**
 * A shared model lowered to graph computes as the compiler's pipeline does it (onnx-frontend,
 * then layout planning and plan lowering), for the scheduler benchmarks.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline, type Operation } from '@raptor-pim/ir-core';
import { importOnnxModel, readOnnxFile } from '@raptor-pim/onnx-frontend';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';

/** The module of `model` (under `shared`/models) lowered to graph computes, or the reason it is not. */
export function loweredSharedModel(shared: string, model: string): Operation | string {
  const file = path.join(shared, 'models', model, 'model.onnx');
  if (!fs.existsSync(file)) return 'no model file';
  const { model: m } = readOnnxFile(file);
  if (!m) return 'unreadable';
  const imported = importOnnxModel(m);
  if (!imported.module) return imported.diagnostics.map((d) => d.message).join('; ');
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  registerPlanLoweringPasses(registry);
  const ctx = imported.context;
  const errors: string[] = [];
  const ok = ctx.diagnostics.withHandler(
    (d) => {
      if (d.severity === 'error') errors.push(d.message);
    },
    () => parsePassPipeline(ctx, 'builtin.module(func.func(spat-plan-layouts,spat-lower-plans))', registry)?.run(imported.module!).success,
  );
  return ok ? imported.module : `lowering failed: ${errors[0] ?? 'pipeline'}`;
}

