/**
 * Every shared model (imported with @raptor-pim/onnx-frontend) planned three ways: local search
 * (`solver=local`), off (`disable-spatial-planning`) and exact (the default). For each: the plans and
 * materializations are counted, the local and exact total costs compared (exact is never
 * worse), the result passes spat-verify-layouts, and the interpreter gives bit-identical
 * outputs before and after planning. The figures are printed (README, "Figures").
 * resnet18 (11.7 M parameters, ~5 s import and a long interpreter run) is the slow case; set
 * LAYOUT_PLANNER_SKIP_SLOW=1 to leave it out locally.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MLIRContext, PassRegistry, parsePassPipeline, type Operation } from '@raptor-pim/ir-core';
import { buildLayoutProblem, countLayoutOps, labellingCost, planLayoutCapabilities, registerLayoutPlannerPasses, runLocalSearch, solveExact } from '@raptor-pim/layout-planner';
import { formatDiagnostic, importOnnxModel, readNpy, readOnnxFile, runImportedModule, tensorToNumbers, type ImportedModule } from '@raptor-pim/onnx-frontend';
import { defaultTarget } from '@raptor-pim/pim-target';
import { MODELS_DIR } from './helpers';

jest.setTimeout(900_000);

const SLOW = new Set(['resnet18']);
const MODELS = fs.existsSync(MODELS_DIR)
  ? fs
      .readdirSync(MODELS_DIR)
      .filter((d) => fs.existsSync(path.join(MODELS_DIR, d, 'model.onnx')))
      .filter((d) => !(process.env['LAYOUT_PLANNER_SKIP_SLOW'] && SLOW.has(d)))
      .sort()
  : [];

const PIPELINES = {
  local: 'spat-plan-layouts{solver=local}',
  off: 'spat-plan-layouts{disable-spatial-planning}',
  exact: 'spat-plan-layouts', // the default solver
} as const;

function plan(ctx: MLIRContext, module: Operation, passes: string): Operation {
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  const copy = module.clone();
  const { result, diagnostics } = ctx.diagnostics.capture(() => parsePassPipeline(ctx, `builtin.module(func.func(${passes},spat-verify-layouts))`, registry)!.run(copy));
  expect(diagnostics.map((d) => d.message)).toEqual([]);
  expect(result.success).toBe(true);
  return copy;
}

function mainFunction(module: Operation): Operation {
  return module.regions[0]!.entryBlock!.firstOp!;
}

it('finds the shared models', () => {
  expect(MODELS.length).toBeGreaterThanOrEqual(process.env['LAYOUT_PLANNER_SKIP_SLOW'] ? 10 : 11);
});

describe.each(MODELS)('%s', (name) => {
  it('plans on/off/exact, verifies, and keeps the interpreter outputs', () => {
    const dir = path.join(MODELS_DIR, name);
    const { model } = readOnnxFile(path.join(dir, 'model.onnx'));
    const imported: ImportedModule = importOnnxModel(model!);
    expect(imported.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
    const module = imported.module!;
    const ctx = imported.context;

    // Costs of both solvers on the same problem; exact is never worse.
    const config = defaultTarget().config;
    const { problem } = buildLayoutProblem(mainFunction(module), config, planLayoutCapabilities());
    const local = runLocalSearch(problem);
    expect(local.converged).toBe(true);
    const t0 = performance.now();
    const exact = solveExact(problem)!;
    const exactMs = performance.now() - t0;
    expect(exact).toBeDefined();
    const localCost = labellingCost(problem, local.selection);
    expect(exact.cost).toBe(labellingCost(problem, exact.selection));
    expect(exact.cost).toBeLessThanOrEqual(localCost);

    const planned = { local: plan(ctx, module, PIPELINES.local), off: plan(ctx, module, PIPELINES.off), exact: plan(ctx, module, PIPELINES.exact) };
    const counts = { local: countLayoutOps(planned.local), off: countLayoutOps(planned.off), exact: countLayoutOps(planned.exact) };
    expect(counts.off.materializations).toBe(0);
    expect(counts.off.rowStripPlans).toBe(0);

    const inputs = model!.graph.inputs.map((_, i) => {
      const t = readNpy(fs.readFileSync(path.join(dir, `input_${i}.npy`))).tensor!;
      return { shape: t.dims, data: Float32Array.from(tensorToNumbers(t)) };
    });
    const before = runImportedModule(imported, inputs);
    if (!before.ok) throw new Error(before.diagnostics.map(formatDiagnostic).join('\n'));
    for (const mode of ['local', 'off', 'exact'] as const) {
      const after = runImportedModule({ ...imported, module: planned[mode] }, inputs);
      if (!after.ok) throw new Error(after.diagnostics.map(formatDiagnostic).join('\n'));
      expect(after.outputs.map((o) => o.shape)).toEqual(before.outputs.map((o) => o.shape));
      after.outputs.forEach((o, k) => expect(Buffer.from(o.data.buffer).equals(Buffer.from(before.outputs[k]!.data.buffer))).toBe(true));
    }
    console.log(
      `| ${name} | ${counts.exact.plans} | ${counts.local.rowStripPlans} / ${counts.exact.rowStripPlans} | ${counts.local.materializations} | ${counts.off.materializations} | ${counts.exact.materializations} | ${localCost} | ${exact.cost} | ${local.rounds} | ${exactMs.toFixed(2)} |`,
    );
  });
});
