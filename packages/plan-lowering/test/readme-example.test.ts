/**
 * The README's example runs: a module imported by onnx-frontend, planned and lowered through a
 * textual pipeline with the target in the pass context; no plan is left and the interpreter
 * still matches onnxruntime.
 */
import { PassRegistry, parsePassPipeline } from '@raptor-pim/ir-core';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { TargetKey, lowerPlans, registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';
import { defaultTarget } from '@raptor-pim/pim-target';
import { Conv2dPlanOp } from '@raptor-pim/spatial-dialect';
import { interpret, loadSharedModel, opHistogram, sharedModels, worstRatio } from './helpers';

const HAS_LENET = sharedModels().includes('lenet5');

(HAS_LENET ? it : it.skip)('the pipeline example lowers lenet5', () => {
  const { module, context: ctx, imported, inputs, references } = loadSharedModel('lenet5');
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  registerPlanLoweringPasses(registry);
  const pm = parsePassPipeline(ctx, 'builtin.module(func.func(spat-plan-layouts,spat-lower-plans))', registry)!;
  pm.setContext(TargetKey, defaultTarget());
  const result = pm.run(module);
  expect(result.success).toBe(true);
  expect(opHistogram(module).get(Conv2dPlanOp.name)).toBeUndefined();
  expect(worstRatio(interpret(module, imported.functionName, inputs)[0]!, references[0]!)).toBeLessThanOrEqual(1);
});

(HAS_LENET ? it : it.skip)('lowerPlans on one function', () => {
  const { module } = loadSharedModel('lenet5');
  const funcOp = module.regions[0]!.firstBlock!.firstOp!;
  const r = lowerPlans(funcOp, defaultTarget().config);
  expect(r).toEqual({ success: true, loweredPlans: 7, loweredMaterializations: 0 });
});
