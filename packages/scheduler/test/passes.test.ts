import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  FloatType,
  MLIRContext,
  PassRegistry,
  ShapedValue,
  parsePassPipeline,
  parseSourceString,
  printOperation,
  verify,
  type Operation,
} from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { defaultHardwareConfig, defaultTarget } from '@raptor-pim/pim-target';
import {
  BUILTIN_SCHEDULERS,
  ScheduleReportKey,
  TargetKey,
  loadSchedulerPlugin,
  registerSchedulerPasses,
  verifyCommunication,
  type SchedulerRunReport,
} from '@raptor-pim/scheduler';
import { checkModule, run } from './helpers';
import { lowerShared } from './models';

const FIXTURES = path.join(__dirname, 'fixtures');
const PLUGIN = path.join(FIXTURES, 'plugin');

function parse(file: string): { ctx: MLIRContext; module: Operation } {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const text = fs.readFileSync(path.join(FIXTURES, file), 'utf8');
  const module = parseSourceString(ctx, text, { filename: file })!;
  expect(verify(module)).toBe(true);
  return { ctx, module };
}

function input(ctx: MLIRContext): ShapedValue {
  const v = ShapedValue.allocate('tensor', FloatType.f32(ctx), [1, 8])!;
  (v.data as Float32Array).set([1, -2, 3, -4, 0.5, 6, -7, 8]);
  return v;
}

/** Runs `pipeline` on `module`; the error messages and the schedule report. */
function runPipeline(ctx: MLIRContext, module: Operation, pipeline: string, target = defaultTarget()): { ok: boolean; errors: string[]; report?: SchedulerRunReport } {
  const registry = new PassRegistry();
  registerSchedulerPasses(registry);
  const errors: string[] = [];
  let report: SchedulerRunReport | undefined;
  const pm = ctx.diagnostics.withHandler(
    (d) => errors.push(d.message),
    () => parsePassPipeline(ctx, pipeline, registry),
  );
  if (!pm) return { ok: false, errors };
  pm.setContext(TargetKey, target);
  pm.setContext(ScheduleReportKey, (r: SchedulerRunReport) => {
    report = r;
  });
  const ok = ctx.diagnostics.withHandler(
    (d) => {
      if (d.severity === 'error') errors.push(d.message);
    },
    () => pm.run(module).success,
  );
  return { ok, errors, report };
}

describe('registerSchedulerPasses', () => {
  it('registers spat-schedule, spat-verify-communication, spat-split-input-channels, spat-split-lanes, spat-split-oversized-computes and spat-tile-parallel-computes', () => {
    const registry = new PassRegistry();
    registerSchedulerPasses(registry);
    expect(registry.registeredPasses.map((p) => p.argument)).toEqual(['spat-schedule', 'spat-split-input-channels', 'spat-split-lanes', 'spat-split-oversized-computes', 'spat-tile-parallel-computes', 'spat-verify-communication']);
  });

  it('lists the built-in strategies, throughput first (the default)', () => {
    expect(BUILTIN_SCHEDULERS.map((s) => s.name)).toEqual(['throughput', 'layer-sequential', 'latency']);
  });
});

describe('the dialect reference graph batch', () => {
  const { ctx: c0, module: m0 } = parse('graph-batch.mlir');
  const expected = run(m0, 'main', [input(c0)]);

  it.each(BUILTIN_SCHEDULERS.map((s) => s.name))('%s: scheduled module checks and computes the same', (strategy) => {
    const { ctx, module } = parse('graph-batch.mlir');
    const r = runPipeline(ctx, module, `builtin.module(spat-schedule{strategy=${strategy}},spat-verify-communication)`);
    expect(r.errors).toEqual([]);
    expect(r.ok).toBe(true);
    expect(checkModule(module)).toEqual([]);
    expect(run(module, 'main', [input(ctx)])).toEqual(expected);
    expect(r.report!.functions[0]!.strategy).toBe(strategy);
  });

  it.each(['throughput', 'layer-sequential'])('%s: printed schedule matches the golden file', (strategy) => {
    const { ctx, module } = parse('graph-batch.mlir');
    runPipeline(ctx, module, `builtin.module(spat-schedule{strategy=${strategy}})`);
    const golden = path.join(FIXTURES, 'golden', `graph-batch.${strategy}.mlir`);
    const text = printOperation(module) + '\n';
    if (process.env['UPDATE_GOLDEN']) {
      fs.mkdirSync(path.dirname(golden), { recursive: true });
      fs.writeFileSync(golden, text);
    }
    expect(text).toBe(fs.readFileSync(golden, 'utf8'));
    // The printed schedule parses back and verifies.
    const again = parseSourceString(ctx, text, { filename: golden });
    expect(again && verify(again)).toBe(true);
  });

  it('takes strategy options from the pipeline and rejects unknown ones', () => {
    const ok = parse('graph-batch.mlir');
    expect(runPipeline(ok.ctx, ok.module, 'builtin.module(spat-schedule{strategy=throughput tolerance=0.01})').errors).toEqual([]);
    const bad = parse('graph-batch.mlir');
    expect(runPipeline(bad.ctx, bad.module, 'builtin.module(spat-schedule{strategy=throughput bogus=1})').errors).toEqual([
      "spat-schedule: strategy 'throughput' has no option 'bogus'; its options are: tolerance, local-memory, fallback",
    ]);
    const badValue = parse('graph-batch.mlir');
    expect(runPipeline(badValue.ctx, badValue.module, 'builtin.module(spat-schedule{strategy=layer-sequential transfer=carrier-pigeon})').errors[0]).toMatch(
      /option 'transfer' of strategy 'layer-sequential' expects one of 'host', 'channel'/,
    );
  });

  it('names the strategies when the one asked for does not exist', () => {
    const { ctx, module } = parse('graph-batch.mlir');
    expect(runPipeline(ctx, module, 'builtin.module(spat-schedule{strategy=genetic})').errors).toEqual([
      "spat-schedule: unknown strategy 'genetic'; the strategies are: throughput, layer-sequential, latency (or give plugin=PATH)",
    ]);
  });

  it('fails with B0 naming the crossbars needed and available and the largest layer', () => {
    const { ctx, module } = parse('graph-batch.mlir');
    const config = defaultHardwareConfig();
    config.chip_config.core_cnt = 1;
    config.chip_config.core_config.matrix_config.xbar_array_count = 1;
    config.chip_config.core_config.matrix_config.xbar_size = [4, 4];
    const r = runPipeline(ctx, module, 'builtin.module(spat-schedule)', { config, network: defaultTarget().network });
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      'spat-schedule: the model needs 2 crossbars for one copy of its weights but the target has 1 (largest layer #1 spat.graph_compute: 2 crossbars); use a target with more cores or crossbars per core',
    ]);
  });
});

describe('plug-ins', () => {
  it('runs a plug-in outside the package (default export) with its own options', () => {
    const { ctx, module } = parse('graph-batch.mlir');
    const expected = run(module, 'main', [input(ctx)]);
    const r = runPipeline(ctx, module, `builtin.module(spat-schedule{plugin=${PLUGIN} first-core=5},spat-verify-communication)`);
    expect(r.errors).toEqual([]);
    expect(r.report!.strategy).toBe('round-robin');
    expect(r.report!.functions[0]!.layers.map((l) => l.cores)).toEqual([[5], [6]]);
    expect(run(module, 'main', [input(ctx)])).toEqual(expected);
  });

  it('loads a plug-in asynchronously and reports a module that is not a scheduler', async () => {
    const s = await loadSchedulerPlugin(PLUGIN);
    expect(typeof s === 'string' ? s : s.name).toBe('round-robin');
    const bad = await loadSchedulerPlugin(path.join(FIXTURES, 'graph-batch.mlir'));
    expect(typeof bad).toBe('string');
  });

  it('refuses strategy and plugin together', () => {
    const { ctx, module } = parse('graph-batch.mlir');
    expect(runPipeline(ctx, module, `builtin.module(spat-schedule{strategy=latency plugin=${PLUGIN}})`).errors).toEqual([
      'spat-schedule: give either strategy=NAME or plugin=PATH, not both',
    ]);
  });
});

describe('spat-verify-communication after spat-schedule', () => {
  /** Runs `pipeline` on `module` (the default target); the statistics report. */
  const statisticsOf = (module: Operation, pipeline: string): string => {
    const registry = new PassRegistry();
    registerSchedulerPasses(registry);
    const pm = parsePassPipeline(module.context, pipeline, registry)!;
    pm.setContext(TargetKey, defaultTarget());
    expect(pm.run(module).success).toBe(true);
    return pm.statisticsReport();
  };

  it('does not check again a function the scheduler checked in its final form; a new pipeline checks it (and finds it clean)', () => {
    const lowered = lowerShared('mnist-8');
    if (!lowered) return;
    // mnist-8's `throughput` plan has a window pipeline: the scheduler checks it for deadlocks.
    const scheduled = statisticsOf(lowered.module, 'builtin.module(spat-schedule{strategy=throughput},spat-verify-communication)');
    expect(scheduled).toMatch(/\(S\) 1 functions-checked-by-scheduler/);
    expect(scheduled).toMatch(/\(S\) 0 functions-checked -/);
    const again = statisticsOf(lowered.module, 'builtin.module(spat-verify-communication)');
    expect(again).toMatch(/\(S\) 1 functions-checked -/);
    expect(verifyCommunication(lowered.module, defaultTarget()).diagnostics).toEqual([]);
  });
});
