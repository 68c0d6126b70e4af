import * as path from 'node:path';
import {
  compile,
  createRaptorPassRegistry,
  formatCompileDiagnostic,
  formatCompileReport,
  interpretFunction,
  TargetKey,
  RAPTOR_STAGES,
  type CompileProgress,
  type ScheduleResult,
  type Scheduler,
} from '@raptor-pim/compiler';
import { Diagnostic, StringAttr, createPass, intOption, enumOption, parseSourceString, type Operation } from '@raptor-pim/ir-core';
import { defaultTarget, loadTarget, type Target } from '@raptor-pim/pim-target';
import { createRaptorContext } from '@raptor-pim/compiler';
import { SHARED, maxAbsDiff, modelDir, readModel, readNpyTensor } from './support/models';

// The whole pipeline on mlp takes ~1 s, more on a loaded machine.
jest.setTimeout(60_000);

const mlp = readModel('mlp');
const input = readNpyTensor(path.join(modelDir('mlp'), 'input_0.npy'));
const reference = readNpyTensor(path.join(modelDir('mlp'), 'output_0.npy'));

/** Runs @main of `module` on the mlp input and returns the worst error against onnxruntime. */
function errorAgainstReference(module: Operation): number {
  const r = interpretFunction(module, 'main', [input]);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  expect(r.outputs[0]!.shape).toEqual(reference.shape);
  return maxAbsDiff(r.outputs[0]!.data, reference.data);
}

/** A fake scheduler: records what it was given and marks the module. */
function fakeScheduler(result: 'in-place' | 'new-module' | 'fail' = 'in-place') {
  const calls: { target: Target; options: Record<string, unknown> }[] = [];
  const scheduler: Scheduler = {
    name: 'fake',
    optionsSchema: [intOption('cores', 1, 'cores to use'), enumOption('order', ['bfs', 'dfs'] as const, 'bfs')],
    schedule(module, target, options): ScheduleResult {
      calls.push({ target, options: { ...options } });
      if (result === 'fail') return { diagnostics: [new Diagnostic('error', module.location, 'fake: cannot schedule this')] };
      if (result === 'new-module') {
        const fresh = parseSourceString(module.context, 'module attributes {fake.scheduled} {\n  func.func @main(%x: tensor<1x784xf32>) -> tensor<1x784xf32> {\n    return %x : tensor<1x784xf32>\n  }\n}\n')!;
        return { module: fresh, report: { strategy: 'fake', functions: [] } };
      }
      module.setAttr('fake.scheduled', StringAttr.get(module.context, `${String(options['cores'])}/${String(options['order'])}`));
      return { module, report: { strategy: 'fake', functions: [] } };
    },
  };
  return { scheduler, calls };
}

/** The frontend and the scheduler stage only (the fake scheduler takes plans as they are). */
const UP_TO_SCHEDULER = 'raptor-frontend,spat-schedule';

describe('compile()', () => {
  it('runs raptor-frontend on an imported model: same outputs as onnxruntime, a report per stage, dumps, progress', () => {
    const events: CompileProgress[] = [];
    const r = compile(mlp, { pipeline: 'raptor-frontend', dumpAfter: ['cse'], onProgress: (e) => events.push(e) });
    expect(r.diagnostics.map(formatCompileDiagnostic)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.pipeline).toMatch(/^builtin\.module\(func\.func\(canonicalize\{.*\},cse\)\)$/);
    expect(errorAgainstReference(r.module!)).toBeLessThan(1e-5);
    // One frontend stage: the import and its clean-up.
    expect(r.report.stages.map((s) => [s.stage, s.passes.map((p) => p.pass)])).toEqual([['frontend', ['import', 'canonicalize', 'cse']]]);
    const [frontend] = r.report.stages;
    expect(frontend!.opCount).toBe(Object.values(frontend!.opCounts).reduce((a, b) => a + b, 0));
    expect(frontend!.opCounts['func.func']).toBe(1);
    expect(r.report.peakHeapBytes).toBeGreaterThan(0);
    expect(r.report.totalMs).toBeGreaterThanOrEqual(frontend!.ms);
    expect(formatCompileReport(r.report)).toMatch(/^stage +ms +ops +passes\nfrontend +[\d.]+ +\d+ +import [\d.]+, canonicalize [\d.]+, cse [\d.]+\ntotal/);
    expect(events.map((e) => `${e.step}/${e.steps} ${e.stage} ${e.stageStep}/${e.stageSteps} ${e.pass}`)).toEqual([
      '0/3 frontend 0/3 import',
      '1/3 frontend 1/3 canonicalize',
      '2/3 frontend 2/3 cse',
    ]);
    // The dump is the module after cse, which parses back.
    expect(r.dumps.map((d) => d.pass)).toEqual(['cse']);
    const ctx = createRaptorContext();
    const reparsed = ctx.diagnostics.capture(() => parseSourceString(ctx, r.dumps[0]!.ir));
    expect(reparsed.diagnostics).toEqual([]);
    expect(errorAgainstReference(reparsed.result!)).toBeLessThan(1e-5);
  });

  it('runs a fake Scheduler value with the target and typed options, and keeps its report', () => {
    const target = defaultTarget();
    target.config.chip_config.core_cnt = 7;
    const { scheduler, calls } = fakeScheduler();
    const r = compile(mlp, { scheduler, schedulerOptions: { cores: 3 }, target, pipeline: UP_TO_SCHEDULER });
    expect(r.diagnostics.map(formatCompileDiagnostic)).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.target).toBe(target);
    expect(calls[0]!.options).toEqual({ cores: 3 });
    expect((r.module!.getAttr('fake.scheduled') as StringAttr).value).toBe('3/undefined');
    expect(r.report.schedule).toEqual({ strategy: 'fake', functions: [] });
    expect(r.report.stages.map((s) => s.stage)).toEqual(['frontend', 'scheduler']);
    expect(errorAgainstReference(r.module!)).toBeLessThan(1e-5);
    // Options written in the pipeline are parsed with the scheduler's schema and win over the given ones.
    const t = compile(mlp, { scheduler, schedulerOptions: { cores: 3 }, pipeline: 'raptor-frontend,spat-schedule{cores=5 order=dfs}' });
    expect(t.diagnostics).toEqual([]);
    expect(calls[1]!.options).toEqual({ cores: 5, order: 'dfs' });
    // A built-in strategy named in the pipeline is used instead.
    expect(compile(mlp, { scheduler, pipeline: 'raptor-frontend,spat-schedule{strategy=no-such}' }).diagnostics.map((d) => d.stage)).toEqual(['scheduler']);
    expect(calls).toHaveLength(2);
  });

  it("replaces the module's body when the scheduler returns a new module; reports its failures", () => {
    const fresh = compile(mlp, { scheduler: fakeScheduler('new-module').scheduler, pipeline: UP_TO_SCHEDULER });
    expect(fresh.diagnostics).toEqual([]);
    expect(interpretFunction(fresh.module!, 'main', [input])).toMatchObject({ ok: true, outputs: [{ shape: [1, 784] }] });
    const failed = compile(mlp, { scheduler: fakeScheduler('fail').scheduler, pipeline: UP_TO_SCHEDULER });
    expect(failed.ok).toBe(false);
    expect(failed.diagnostics.map((d) => `${d.stage}: ${d.message}`)).toEqual(['scheduler: fake: cannot schedule this']);
    // A scheduler given to a pipeline without a scheduler stage is reported, not silently dropped.
    const unused = compile(mlp, { scheduler: fakeScheduler().scheduler, pipeline: 'raptor-frontend' });
    expect(unused.ok).toBe(true);
    expect(unused.diagnostics.map((d) => `${d.severity}: ${d.message}`)).toEqual([
      "warning: compile: the scheduler 'fake' is not used: the pipeline has no scheduler stage (spat-schedule)",
    ]);
  });

  it('raptor-compile takes mlp to a program bundle, one report entry and progress bar per stage (stage-differential.test.ts checks every pass)', () => {
    const target = defaultTarget();
    target.config.raptor_config.allow_vsoftmax = true; // mlp ends in Softmax
    const events: CompileProgress[] = [];
    const r = compile(mlp, { target, onProgress: (e) => events.push(e) });
    expect(r.diagnostics.map(formatCompileDiagnostic)).toEqual([]);
    expect(r.report.stages.map((s) => s.stage)).toEqual(RAPTOR_STAGES.map((s) => s.name));
    expect(r.report.schedule!.functions).toHaveLength(1);
    expect(r.bundle!.programs.length).toBe(r.report.emit!.cores);
    expect(r.report.emit!.activeCores).toBeGreaterThan(0);
    // Progress: every step once, in order; within each stage, steps 0..n-1 of n.
    expect(events.map((e) => e.step)).toEqual(events.map((_, k) => k));
    expect(events.every((e) => e.steps === events.length)).toBe(true);
    for (const stage of r.report.stages) {
      const own = events.filter((e) => e.stage === stage.stage);
      expect([stage.stage, own.map((e) => `${e.stageStep}/${e.stageSteps}`)]).toEqual([stage.stage, own.map((_, k) => `${k}/${own.length}`)]);
      expect(own.map((e) => e.pass)).toEqual(stage.passes.map((p) => p.pass));
    }
    // The default target refuses the softmax at spat-to-pim, with the flag to set.
    const refused = compile(mlp);
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => d.stage)).toEqual(['spatial-to-pim']);
    expect(refused.diagnostics[0]!.message).toContain('allow_vsoftmax');
    expect(refused.bundle).toBeUndefined();
  });

  it('bad pipelines, options, dumpAfter names, scheduler options and targets are diagnostics, not exceptions', () => {
    const messages = (r: ReturnType<typeof compile>) => r.diagnostics.map((d) => `${d.stage}: ${d.message}`);
    const unknown = compile(mlp, { pipeline: 'builtin.module(no-such-pass)' });
    expect(unknown.ok).toBe(false);
    expect(unknown.module).toBeUndefined(); // nothing was imported
    expect(messages(unknown)).toEqual([
      "pipeline: 'no-such-pass' does not refer to a registered pass or pass pipeline",
      "pipeline: compile: invalid pipeline 'builtin.module(no-such-pass)' (see the diagnostic above)",
    ]);
    expect(unknown.diagnostics[0]!.location).toBe('MLIR Textual PassPipeline Parser:1:16');
    const badOption = compile(mlp, { pipeline: 'cse,canonicalize{top-down=sideways}' });
    expect(messages(badOption)[0]).toBe("pipeline: invalid value 'sideways' for option 'top-down' of pass 'canonicalize': expected true or false");
    expect(messages(compile(mlp, { pipeline: 'raptor-frontend', dumpAfter: ['spat-plan-layouts'] }))).toEqual([
      "pipeline: compile: dumpAfter names 'spat-plan-layouts', which is not a pass of the pipeline; the pipeline runs: canonicalize, cse",
    ]);
    const { scheduler } = fakeScheduler();
    const badStrategyOption = messages(compile(mlp, { scheduler, pipeline: 'spat-schedule{order=sideways}' }));
    expect(badStrategyOption).toHaveLength(1);
    expect(badStrategyOption[0]).toBe("scheduler: spat-schedule: option 'order' of strategy 'fake' expects one of 'bfs', 'dfs', got 'sideways'");
    const unknownOption = messages(compile(mlp, { scheduler, pipeline: 'spat-schedule{threads=2}' }));
    expect(unknownOption[0]).toMatch(/^scheduler: spat-schedule: .*'threads'/);
    expect(unknownOption[0]).toContain('cores, order');
    const missingTarget = compile(mlp, { target: path.join(SHARED, 'no-such-arch.json') });
    expect(missingTarget.ok).toBe(false);
    expect(missingTarget.diagnostics.map((d) => d.stage)).toEqual(['target', 'target']);
    const wide = defaultTarget();
    wide.config.chip_config.core_config.matrix_config.xbar_size = [128, 64];
    expect(messages(compile(mlp, { target: wide }))).toEqual([
      "frontend: compile: the ONNX frontend tiles weights on square crossbars; the target's xbar_size is [128, 64]",
    ]);
  });

  it("sets the target on the pass manager under 'raptor.target' (a loaded pimsim-nn architecture JSON too)", () => {
    const seen: (Target | undefined)[] = [];
    const registry = createRaptorPassRegistry();
    registry.registerPass(() => createPass({ argument: 'test-read-target', description: 'records the target', run: (_op, pass) => void seen.push(pass.getContext(TargetKey)) }));
    const arch = path.join(SHARED, 'spec/pimsim-nn-example/arch/latency_config.json');
    expect(compile(mlp, { registry, pipeline: 'test-read-target', target: arch }).diagnostics).toEqual([]);
    expect(seen[0]).toEqual(loadTarget(arch).value);
    expect(compile(mlp, { registry, pipeline: 'test-read-target' }).ok).toBe(true);
    expect(seen[1]).toEqual(defaultTarget());
    expect(seen[0]).not.toEqual(seen[1]);
    // A pass that fails without a diagnostic still fails the compile, with a diagnostic naming it.
    registry.registerPass(() => createPass({ argument: 'test-fail-silently', description: 'fails without a word', run: (_op, pass) => pass.signalPassFailure() }));
    const silent = compile(mlp, { registry, pipeline: 'test-fail-silently' });
    expect(silent.ok).toBe(false);
    expect(silent.diagnostics.map((d) => `${d.stage}: ${d.message}`)).toEqual([
      "custom: compile: pass 'test-fail-silently' failed without reporting a diagnostic (a bug in the pass: it must say why)",
    ]);
    // The crossbar size of the target reaches the importer: 64-wide tiles make more wvmm ops.
    const small = defaultTarget();
    small.config.chip_config.core_config.matrix_config.xbar_size = [64, 64];
    const count = (t: Target) => compile(mlp, { registry, pipeline: 'test-read-target', target: t }).report.stages[0]!.opCounts['spat.wvmm'] ?? 0;
    expect(count(small)).toBeGreaterThan(count(defaultTarget()));
  });

  it('takes a module at any IR level instead of a model', () => {
    const ctx = createRaptorContext();
    const module = parseSourceString(ctx, 'func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %a = arith.addf %x, %x : tensor<2xf32>\n  %b = arith.addf %x, %x : tensor<2xf32>\n  %c = arith.mulf %a, %b : tensor<2xf32>\n  return %c : tensor<2xf32>\n}\n')!;
    const r = compile(module, { pipeline: 'builtin.module(func.func(cse))', dumpAfter: ['cse'] });
    expect(r.diagnostics).toEqual([]);
    expect(r.module).toBe(module);
    expect(r.report.stages.map((s) => [s.stage, s.opCount])).toEqual([['core', 4]]);
    expect(r.dumps[0]!.ir).not.toContain('%1 = arith.addf');
    const out = interpretFunction(module, 'main', [{ shape: [2], data: Float32Array.of(1, 2) }]);
    expect(out).toEqual({ ok: true, outputs: [{ shape: [2], data: Float32Array.of(4, 16) }] });
  });
});
