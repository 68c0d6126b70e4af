// See bench.mjs. Times only the interpreter runs (the pipeline that builds the modules is not timed).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FloatType, Interpreter, InterpreterRegistry, PassRegistry, ShapedValue, parsePassPipeline, registerCorePasses, type Operation } from '@raptor-pim/ir-core';
import { registerAllPimInterpreterRules, registerPimDialect } from '@raptor-pim/pim-dialect';
import { registerAllSpatialInterpreterRules } from '@raptor-pim/spatial-dialect';
import { importOnnxModel, readOnnxFile } from '@raptor-pim/onnx-frontend';
import { defaultTarget } from '@raptor-pim/pim-target';
import { builtinScheduler } from '@raptor-pim/scheduler';
import { registerBufferizationPasses } from '@raptor-pim/bufferization';
import { TargetKey, registerSpatialToPimPasses } from '@raptor-pim/spatial-to-pim';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';

const root = path.resolve(__dirname, '../../..');
const shared = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(root, '../shared');
const argv = process.argv.slice(2);
let rounds = 3;
let oldRules: ((r: InterpreterRegistry, pim: boolean) => void) | undefined;
const models: string[] = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--rounds') rounds = Number(argv[++i]);
  else if (argv[i] === '--rules') oldRules = require(path.resolve(argv[++i]!)).overrideRules;
  else models.push(argv[i]!);
}
if (!models.length) models.push('lenet5', 'mlp_batch4', 'resnet_mini');

function pipeline(module: Operation, text: string, register: (r: PassRegistry) => void): void {
  const registry = new PassRegistry();
  register(registry);
  const pm = parsePassPipeline(module.context, `builtin.module(${text})`, registry);
  if (!pm) throw new Error(`bad pipeline ${text}`);
  const target = defaultTarget();
  target.config.raptor_config.allow_vsoftmax = true;
  pm.setContext(TargetKey, target);
  const { result, diagnostics } = module.context.diagnostics.capture(() => pm.run(module).success);
  if (!result) throw new Error(diagnostics.map((d) => d.message).join('\n'));
}

function inputs(shapes: readonly (readonly number[])[], kind: 'tensor' | 'buffer', ctx: Operation['context']): ShapedValue[] {
  return shapes.map((shape) => {
    const v = ShapedValue.allocate(kind, FloatType.f32(ctx), [...shape])!;
    const d = v.data as Float32Array;
    for (let k = 0; k < d.length; k++) d[k] = ((k * 7919) % 256) / 128 - 1;
    return v;
  });
}

function time(module: Operation, fn: string, args: () => ShapedValue[], pim: boolean): { ms: number; ops: number } | string {
  const registry = new InterpreterRegistry();
  if (pim) registerAllPimInterpreterRules(registry);
  else registerAllSpatialInterpreterRules(registry);
  oldRules?.(registry, pim);
  const samples: number[] = [];
  let ops = 0;
  for (let k = 0; k < rounds; k++) {
    const a = args();
    const interpreter = new Interpreter(registry);
    // CPU time of this process (user + system): less disturbed than wall time on a loaded machine.
    const c0 = process.cpuUsage();
    const r = interpreter.runFunction(module, fn, a);
    const c = process.cpuUsage(c0);
    samples.push((c.user + c.system) / 1000);
    if (!r.ok) return `fails: ${r.diagnostic.message}`;
    ops = interpreter.executedOps;
  }
  samples.sort((x, y) => x - y);
  return { ms: samples[Math.floor(samples.length / 2)]!, ops };
}

console.log('model            spatial ms   pim ms   (CPU time, median of %d runs)', rounds);
for (const model of models) {
  const file = path.join(shared, 'models', model, 'model.onnx');
  if (!fs.existsSync(file)) {
    console.log(`${model}: no model.onnx, skipped`);
    continue;
  }
  const imported = importOnnxModel(readOnnxFile(file).model!);
  const module = imported.module!;
  registerPimDialect(module.context);
  pipeline(module, 'func.func(canonicalize,cse),func.func(spat-plan-layouts,spat-verify-layouts),func.func(spat-lower-plans)', (r) => {
    registerCorePasses(r);
    registerLayoutPlannerPasses(r);
    registerPlanLoweringPasses(r);
  });
  const s = builtinScheduler('throughput')!.schedule(module, defaultTarget(), {});
  if (!s.module) throw new Error((s.diagnostics ?? []).map((d) => d.message).join('\n'));
  const shapes = imported.inputs.map((i) => i.shape);
  const fn = imported.functionName;
  const spatial = time(module, fn, () => inputs(shapes, 'tensor', module.context), false);
  pipeline(module, 'spat-to-pim,pim-bufferize', (r) => {
    registerSpatialToPimPasses(r);
    registerBufferizationPasses(r);
  });
  const pim = time(module, fn, () => inputs(shapes, 'buffer', module.context), true);
  const show = (t: { ms: number } | string, w: number): string => (typeof t === 'string' ? ` ${t}` : t.ms.toFixed(1).padStart(w));
  console.log(`${model.padEnd(16)} ${show(spatial, 10)} ${show(pim, 8)}`);
}
