// The shared models the scheduler handles, with every built-in strategy: the PIM multi-core
// interpreter gives the scheduled Spatial module's outputs after spat-to-pim (tensors) and after
// pim-bufferize + pim-plan-memory + pim-verify-memory (memrefs); every planned peak is within
// 1.05x of its lower bound.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FloatType, Interpreter, InterpreterRegistry, PassRegistry, ShapedValue, printOperation, registerCorePasses, type Operation } from '@raptor-pim/ir-core';
import { registerAllPimInterpreterRules, registerPimDialect } from '@raptor-pim/pim-dialect';
import { registerAllSpatialInterpreterRules } from '@raptor-pim/spatial-dialect';
import { importOnnxModel, readNpy, readOnnxFile } from '@raptor-pim/onnx-frontend';
import { defaultTarget, type Target } from '@raptor-pim/pim-target';
import { builtinScheduler } from '@raptor-pim/scheduler';
import { PimPlanMemoryPass, registerBufferizationPasses, type ModuleMemoryReport } from '@raptor-pim/bufferization';
import { registerSpatialToPimPasses } from '../src';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';
import { runPipeline } from './support/harness';

jest.setTimeout(300_000);

const SHARED = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(__dirname, '../../../../shared');
// RAPTOR_MODELS=a,b overrides; RAPTOR_SLOW_TESTS=1 adds the larger shared models (minutes in
// the interpreters): PIM on tensors == Spatial for every schedule the scheduler produces, and the
// memory plan checked when the schedule's live data fits the cores.
const SLOW = process.env['RAPTOR_SLOW_TESTS'] === '1';
const MODELS = (process.env['RAPTOR_MODELS'] ?? (SLOW ? 'mlp,mlp_batch4,lenet5,mnist-8,resnet_mini,mobilenet_block,yolo_block,resnet18' : 'mlp,mlp_batch4,lenet5,mnist-8')).split(',');
const DEFAULT_MODELS = new Set(['mlp', 'mlp_batch4', 'lenet5', 'mnist-8']);
const STRATEGIES = ['layer-sequential', 'throughput', 'latency'];

function inputs(name: string, shapes: readonly (readonly number[])[], kind: 'tensor' | 'buffer', ctx: Operation['context']): ShapedValue[] {
  return shapes.map((shape, i) => {
    const file = path.join(SHARED, 'models', name, `input_${i}.npy`);
    const { tensor } = readNpy(fs.readFileSync(file), file);
    const v = ShapedValue.allocate(kind, FloatType.f32(ctx), [...shape])!;
    (v.data as Float32Array).set(Float32Array.from(tensor!.data as unknown as ArrayLike<number>));
    return v;
  });
}

function run(module: Operation, fn: string, args: ShapedValue[], pim: boolean): number[][] {
  const registry = new InterpreterRegistry();
  if (pim) registerAllPimInterpreterRules(registry);
  else registerAllSpatialInterpreterRules(registry);
  const r = new Interpreter(registry).runFunction(module, fn, args);
  if (!r.ok) throw new Error(`${pim ? 'pim' : 'spatial'} interpreter: ${r.diagnostic.message} at ${r.op?.name}`);
  return r.values.map((v) => Array.from((v as ShapedValue).toContiguousArray() as Float32Array));
}

/** The default machine with pim.vsoftmax enabled (the models end in softmax). */
function softmaxTarget(): Target {
  const t = defaultTarget();
  t.config.raptor_config.allow_vsoftmax = true;
  return t;
}

/** Layout planning and plan lowering (the stages before the scheduler). */
const FRONTEND = 'func.func(canonicalize,cse),func.func(spat-plan-layouts,spat-verify-layouts),func.func(spat-lower-plans)';
const registerFrontend = (r: PassRegistry): void => {
  registerCorePasses(r);
  registerLayoutPlannerPasses(r);
  registerPlanLoweringPasses(r);
};

const register = (r: PassRegistry): void => {
  registerSpatialToPimPasses(r);
  registerBufferizationPasses(r);
};

describe.each(MODELS)('%s', (model) => {
  const file = path.join(SHARED, 'models', model, 'model.onnx');
  const available = fs.existsSync(file);
  it.each(STRATEGIES)('%s', (strategy) => {
    if (!available) return;
    const { model: onnx } = readOnnxFile(file);
    const imported = importOnnxModel(onnx!);
    const module = imported.module!;
    registerPimDialect(module.context);
    const planned = runPipeline(module, FRONTEND, registerFrontend);
    expect(planned.diagnostics.map((d) => d.message)).toEqual([]);
    const r = builtinScheduler(strategy)!.schedule(module, defaultTarget(), {});
    if (!DEFAULT_MODELS.has(model) && !r.module) {
      // A larger model the scheduler refuses (a layer over one core's crossbars or memory): nothing to convert.
      expect((r.diagnostics ?? []).length).toBeGreaterThan(0);
      return;
    }
    expect((r.diagnostics ?? []).map((d) => d.message)).toEqual([]);
    expect(r.module).toBeDefined();
    const shapes = imported.inputs.map((i) => i.shape);
    const fn = imported.functionName;
    const expected = run(module, fn, inputs(model, shapes, 'tensor', module.context), false);
    const a = runPipeline(module, 'spat-to-pim', register, true, softmaxTarget());
    if (!a.ok) throw new Error(a.diagnostics.map((d) => d.message).join('\n') + '\n' + printOperation(module).replace(/dense<"0x[0-9A-F]+">/g, 'dense<...>').slice(0, 20000));
    expect(run(module, fn, inputs(model, shapes, 'buffer', module.context), true)).toEqual(expected);
    let plan: ModuleMemoryReport | undefined;
    const registerWithReport = (reg: PassRegistry): void => {
      registerSpatialToPimPasses(reg);
      const defaults = new PassRegistry();
      registerBufferizationPasses(defaults);
      reg.registerPass(defaults.lookupPass('pim-bufferize')!.create);
      reg.registerPass(() => new PimPlanMemoryPass({ onReport: (x) => (plan = x) }));
      reg.registerPass(defaults.lookupPass('pim-verify-memory')!.create);
    };
    const b = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', registerWithReport, true, softmaxTarget());
    if (!DEFAULT_MODELS.has(model) && b.diagnostics.some((d) => /local memory holds/.test(d.message))) return; // the schedule's live data exceeds a core (scheduler finding)
    expect(b.diagnostics.map((d) => d.message)).toEqual([]);
    expect(run(module, fn, inputs(model, shapes, 'buffer', module.context), true)).toEqual(expected);
    for (const s of plan!.streams) expect(s.peak).toBeLessThanOrEqual(Math.ceil(s.lowerBound * 1.05));
  });
});

it('the default target (pim.vsoftmax disabled) refuses the softmax of mlp, naming the op and the flag', () => {
  const file = path.join(SHARED, 'models', 'mlp', 'model.onnx');
  if (!fs.existsSync(file)) return;
  const imported = importOnnxModel(readOnnxFile(file).model!);
  const module = imported.module!;
  registerPimDialect(module.context);
  expect(builtinScheduler('throughput')!.schedule(module, defaultTarget(), {}).module).toBeDefined();
  const before = printOperation(module);
  const r = runPipeline(module, 'spat-to-pim', register, true, defaultTarget());
  expect(r.ok).toBe(false);
  expect(r.diagnostics.map((d) => d.message)).toEqual([
    "'spat.softmax' has no PIM equivalent on this target: raptor_config.allow_vsoftmax is false; enable it in the target configuration or lower the op before spat-to-pim (no CPU fallback exists)",
  ]);
  expect(printOperation(module)).toBe(before);
});
