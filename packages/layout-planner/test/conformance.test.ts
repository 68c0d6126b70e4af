/**
 * The ONNX backend conformance models (Debian libonnx-testdata, node/ and pytorch-converted/,
 * collected and imported as onnx-frontend's conformance suite does: `conformance-cases.ts`)
 * that `@raptor-pim/onnx-frontend` imports into at least one layout-aware plan: planned with the
 * default solver and with planning disabled, verified by spat-verify-layouts, and interpreted
 * with bit-identical outputs before and after planning. Compile-time operands (conv weights
 * and bias, pads, scales, ...) are bound as constants as `raptor import --const-input` does;
 * models the importer refuses are out of scope here (onnx-frontend's conformance suite reports
 * them).
 */
import { PassRegistry, parsePassPipeline, type Operation } from '@raptor-pim/ir-core';
import { countLayoutOps, registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { OnnxDataType, hasErrors, runImportedModule, tensorToNumbers } from '@raptor-pim/onnx-frontend';
import { collectCases, importCase } from '../../onnx-frontend/test/conformance-cases';

jest.setTimeout(600_000);

function plan(module: Operation, passes: string): Operation {
  const ctx = module.context;
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  const copy = module.clone();
  const { result, diagnostics } = ctx.diagnostics.capture(() => parsePassPipeline(ctx, `builtin.module(func.func(${passes},spat-verify-layouts))`, registry)!.run(copy));
  expect(diagnostics.map((d) => d.message)).toEqual([]);
  expect(result.success).toBe(true);
  return copy;
}

it('plans every imported conformance model with plans and keeps its outputs', () => {
  let planned = 0;
  let plans = 0;
  let rowStrips = 0;
  let materializations = 0;
  for (const c of collectCases().cases) {
    const dir = c.key;
    const { imported, runtime } = importCase(c);
    if (runtime.some((t) => t.dataType !== OnnxDataType.FLOAT)) continue;
    if (!imported.module || hasErrors(imported.diagnostics)) continue;
    if (countLayoutOps(imported.module).plans === 0) continue;
    const inputs = runtime.map((t) => ({ shape: t.dims, data: Float32Array.from(tensorToNumbers(t)) }));
    const before = runImportedModule(imported, inputs);
    if (!before.ok) continue; // interpreter failures of the import are onnx-frontend's suite's concern
    for (const passes of ['spat-plan-layouts', 'spat-plan-layouts{disable-spatial-planning}']) {
      const module = plan(imported.module, passes);
      const after = runImportedModule({ ...imported, module }, inputs);
      expect(after.ok).toBe(true);
      if (!after.ok) continue;
      after.outputs.forEach((o, k) => expect([dir, Buffer.from(o.data.buffer).equals(Buffer.from(before.outputs[k]!.data.buffer))]).toEqual([dir, true]));
      if (passes === 'spat-plan-layouts') {
        const c = countLayoutOps(module);
        plans += c.plans;
        rowStrips += c.rowStripPlans;
        materializations += c.materializations;
      }
    }
    planned++;
  }
  console.log(`conformance: ${planned} models with plans; ${plans} plans, ${rowStrips} row strips, ${materializations} materializations`);
  expect(planned).toBeGreaterThan(50);
});
