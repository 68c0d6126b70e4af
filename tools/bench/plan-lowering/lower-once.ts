// Imports one shared model, runs spat-plan-layouts (unless --dense), then times lowerPlans
// alone (wall and CPU milliseconds) and prints one JSON line: { ops, wallMs, cpuMs }.
// Used by plan-lowering's resnet18 test (outside jest, whose vm context makes Math builtins
// slow) and handy from the shell:
//   node --conditions=@raptor-pim/source -r @swc-node/register tools/bench/plan-lowering/lower-once.ts resnet18
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline, type Operation } from '@raptor-pim/ir-core';
import { importOnnxModel, readOnnxFile } from '@raptor-pim/onnx-frontend';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { lowerPlans } from '@raptor-pim/plan-lowering';
import { defaultTarget } from '@raptor-pim/pim-target';

const name = process.argv[2] ?? 'resnet18';
const dense = process.argv.includes('--dense');
const shared = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(__dirname, '../../../../shared');
const { model } = readOnnxFile(path.join(shared, 'models', name, 'model.onnx'));
const imported = importOnnxModel(model!);
const root = imported.module!;
if (!dense) {
  const registry = new PassRegistry();
  registerLayoutPlannerPasses(registry);
  const pm = parsePassPipeline(root.context, 'builtin.module(func.func(spat-plan-layouts))', registry);
  if (!pm || !pm.run(root).success) throw new Error('spat-plan-layouts failed');
}
const func: Operation = root.regions[0]!.firstBlock!.firstOp!;
const c0 = process.cpuUsage();
const t0 = performance.now();
const r = lowerPlans(func, defaultTarget().config);
const wallMs = performance.now() - t0;
const c = process.cpuUsage(c0);
if (!r.success) throw new Error('lowering failed');
let ops = -1;
root.walk(() => {
  ops++;
});
console.log(JSON.stringify({ ops, wallMs, cpuMs: (c.user + c.system) / 1000 }));
