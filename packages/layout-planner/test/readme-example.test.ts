/** The README's example runs and prints what the README says (lenet5: 7 plans, 6 row strips, 1 materialization). */
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline } from '@raptor-pim/ir-core';
import { importOnnxModel, readOnnxFile } from '@raptor-pim/onnx-frontend';
import { countLayoutOps, registerLayoutPlannerPasses, TargetKey } from '@raptor-pim/layout-planner';
import { defaultTarget } from '@raptor-pim/pim-target';
import { MODELS_DIR } from './helpers';

it('plans lenet5 as the README example says', () => {
  const imported = importOnnxModel(readOnnxFile(path.join(MODELS_DIR, 'lenet5', 'model.onnx')).model!);
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  const pm = parsePassPipeline(imported.context, 'builtin.module(func.func(spat-plan-layouts{debug-layouts},spat-verify-layouts))', registry)!;
  pm.setContext(TargetKey, defaultTarget());
  const { result, diagnostics } = imported.context.diagnostics.capture(() => pm.run(imported.module!));
  expect(result.success).toBe(true);
  expect(diagnostics.filter((d) => d.severity !== 'remark')).toEqual([]);
  expect(diagnostics.filter((d) => d.severity === 'remark')).toHaveLength(7);
  expect(countLayoutOps(imported.module!)).toEqual({ plans: 7, rowStripPlans: 6, materializations: 1 });
});
