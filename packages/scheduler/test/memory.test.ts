/**
 * Local memory as a hard constraint: on lenet5 (planned and lowered by the real upstream
 * stages) every strategy keeps every core's modelled peak within the target's local memory; a
 * smaller local memory makes the strategies stream partial results (window granularity) and
 * spread computes over more cores while the outputs stay those of the graph computes; a local
 * memory no compute fits fails with the diagnostic naming the compute, and `local-memory=report`
 * schedules anyway with warnings.
 */
import type { Operation } from '@raptor-pim/ir-core';
import { createCostModel, defaultTarget, type Target } from '@raptor-pim/pim-target';
import { Workload, builtinScheduler, granularityForMemory, minimumFootprint, minimumReplicas, placedFootprint, replicaCrossbarShortfall, type ScheduleReport } from '@raptor-pim/scheduler';
import { checkModule, printOperation, run } from './helpers';
import { lowerShared } from './models';

jest.setTimeout(300_000);

const STRATEGIES = ['throughput', 'layer-sequential', 'latency'];
const lowered = lowerShared;
/**
 * The unpacked lowering (one pixel per convolution lane): the tests below pin replica counts and
 * footprints of its lanes on small cores (a packed lowering for a 4 or 8 KiB target packs less
 * than the default target's, which `lowerShared` uses).
 */
const loweredUnpacked = (name: string) => lowerShared(name, { pixelPacking: false });

function targetWithLocalMemory(bytes?: number): Target {
  const t = defaultTarget();
  if (bytes !== undefined) t.config.chip_config.core_config.local_memory_config.memory_size = bytes;
  return t;
}

function targetWithHostMemory(bytes: number): Target {
  const t = defaultTarget();
  t.config.chip_config.global_memory_config.memory_size = bytes;
  return t;
}

/**
 * Schedules the lowered `model` with `strategy` on `target`, expecting a refusal: no report, one
 * error, the module as it was. Returns the error (undefined when the model is not available).
 */
function refusal(model: string, strategy: string, target: Target, options: Record<string, string> = {}): string | undefined {
  const m = lowered(model);
  if (!m) return undefined;
  const before = printOperation(m.module);
  const r = schedule(m.module, strategy, target, options);
  expect(r.report).toBeUndefined();
  expect(r.errors).toHaveLength(1);
  expect(printOperation(m.module)).toBe(before);
  return r.errors[0];
}

function schedule(module: Operation, strategy: string, target: Target, options: Record<string, string> = {}): { report?: ScheduleReport; errors: string[] } {
  const r = builtinScheduler(strategy)!.schedule(module, target, options);
  if (!r.module) return { errors: r.diagnostics.map((d) => d.message) };
  return { report: r.report.functions[0]!, errors: [] };
}

describe('lenet5 on the default target', () => {
  it.each(STRATEGIES)('%s: every core fits its local memory', (strategy) => {
    const m = lowered('lenet5');
    if (!m) return;
    const target = targetWithLocalMemory();
    const capacity = target.config.chip_config.core_config.local_memory_config.memory_size;
    const r = schedule(m.module, strategy, target);
    expect(r.errors).toEqual([]);
    expect(r.report!.cores.length).toBeGreaterThan(0);
    for (const c of r.report!.cores) expect(c.peakLocalBytes).toBeLessThanOrEqual(capacity);
    expect(r.report!.peakLocalBytes).toBeGreaterThan(0);
    expect(r.report!.warnings.filter((w) => w.includes('local memory'))).toEqual([]);
    expect(checkModule(m.module)).toEqual([]);
  });
});

describe('lenet5 with 48 KiB of local memory per core', () => {
  const capacity = 48 * 1024;
  it.each(['throughput', 'layer-sequential'])('%s: streams partial results or spreads computes over more cores, and every core fits', (strategy) => {
    const m = lowered('lenet5');
    if (!m) return;
    const wide = lowered('lenet5')!;
    const atDefault = schedule(wide.module, strategy, targetWithLocalMemory());
    const r = schedule(m.module, strategy, targetWithLocalMemory(capacity));
    expect(r.errors).toEqual([]);
    for (const c of r.report!.cores) expect(c.peakLocalBytes).toBeLessThanOrEqual(capacity);
    expect(atDefault.report!.layers.every((l) => l.granularity === 'layer')).toBe(true);
    if (strategy === 'throughput') {
      // At 64 KiB every layer keeps its partial result for the send tasks; at 48 KiB some stream.
      expect(r.report!.layers.some((l) => l.granularity === 'window')).toBe(true);
    } else {
      // Host transfers store partial results inside their bodies: nothing stays live after a body,
      // so the schedule fits on no more cores than at 64 KiB.
      expect(r.report!.cores.length).toBeGreaterThanOrEqual(atDefault.report!.cores.length);
    }
    expect(checkModule(m.module)).toEqual([]);
  });

  it('throughput: the streamed schedule computes what the graph computes', () => {
    const m = lowered('lenet5');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    expect(reference.ok).toBe(true);
    expect(schedule(m.module, 'throughput', targetWithLocalMemory(capacity)).errors).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });
});

describe('lenet5 with 16 KiB of local memory per core', () => {
  const capacity = 16 * 1024;
  it.each(STRATEGIES)('%s: splits the computes whose feature maps do not fit over more cores, holding windows and parts; outputs unchanged', (strategy) => {
    const m = lowered('lenet5');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    expect(reference.ok).toBe(true);
    const r = schedule(m.module, strategy, targetWithLocalMemory(capacity));
    expect(r.errors).toEqual([]);
    for (const c of r.report!.cores) expect(c.peakLocalBytes).toBeLessThanOrEqual(capacity);
    // conv1's 784 pixel lanes read a whole padded map and publish 6 KiB or more: one core cannot hold them.
    expect(r.report!.layers.find((l) => l.name === '#1 conv1')!.replicas).toBeGreaterThan(1);
    expect(r.report!.warnings.filter((w) => w.includes('local memory'))).toEqual([]);
    expect(checkModule(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });

  it('local-memory=report schedules without splitting and warns per core', () => {
    const m = lowered('lenet5');
    if (!m) return;
    const r = schedule(m.module, 'throughput', targetWithLocalMemory(4 * 1024), { 'local-memory': 'report' });
    expect(r.errors).toEqual([]);
    expect(r.report!.warnings.some((w) => /core \d+: estimated peak local memory \d+ bytes exceeds the 4096 bytes/.test(w))).toBe(true);
  });
});

describe('lenet5 with 4 KiB of local memory per core', () => {
  it.each(STRATEGIES)('%s: fails with the diagnostic naming the compute that cannot fit', (strategy) => {
    const m = lowered('lenet5');
    if (!m) return;
    const r = schedule(m.module, strategy, targetWithLocalMemory(4 * 1024));
    expect(r.report).toBeUndefined();
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors[0]).toMatch(/^spat-schedule: #\d+ \w+ needs \d+ bytes of live local memory on one core even split over \d+ cores? \(each holding only the windows it reads and its own results\) and at window granularity \(inputs \d+ B, .*\) but a core has 4096 bytes/);
    // The module is left as it was: no scheduled computes.
    let scheduled = 0;
    m.module.walk((op: Operation) => {
      if (op.name === 'spat.scheduled_compute' || op.name === 'spat.scheduled_compute_batch') scheduled++;
    });
    expect(scheduled).toBe(0);
  });
});

describe('lenet5 with 8 KiB of local memory per core', () => {
  it('layer-sequential with channels counts the partial result a streamed producer assembles for a reader on its core', () => {
    const m = lowered('lenet5');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    expect(reference.ok).toBe(true);
    // Before, the strategy placed ReLU replicas beside their streamed convolution replicas and the
    // driver's replay refused the plan (14144 bytes on a core of 8192).
    const r = schedule(m.module, 'layer-sequential', targetWithLocalMemory(8 * 1024), { transfer: 'channel' });
    expect(r.errors).toEqual([]);
    for (const c of r.report!.cores) expect(c.peakLocalBytes).toBeLessThanOrEqual(8 * 1024);
    expect(checkModule(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });
});

describe('mobilenet_block on the default target', () => {
  it('layer-sequential: readers of many host slots share one READY register per producer result, and the schedule runs', () => {
    const m = lowered('mobilenet_block');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    expect(reference.ok).toBe(true);
    // One READY register per slot and reader needs more than a core's 32 registers here (a
    // transpose replica reads a slot of every replica of the convolution before it); before, 127
    // partial results fell back to channels, which deadlock, and the strategy refused the model.
    const r = schedule(m.module, 'layer-sequential', defaultTarget());
    expect(r.errors).toEqual([]);
    expect(r.report!.hostSlots).toBeGreaterThan(200);
    expect(r.report!.channels).toBe(0);
    expect(checkModule(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });

  const noPipeline = (strategy: string): RegExp =>
    new RegExp(
      `strategy '${strategy}' found no mapping of the graph computes onto 64 cores \\(the replicas fit the crossbars but no packing keeps every core within its local memory \\(the same search without that constraint finds packings\\): the fewest replicas local memory allows are \\d+, taking up to \\d+ of a core's 65536 bytes each \\(#\\d+ `,
    );

  it.each(['throughput', 'latency'])('%s with fallback=none: refused with the reason, local memory (the same search without it packs), the module unchanged', (strategy) => {
    const error = refusal('mobilenet_block', strategy, defaultTarget(), { fallback: 'none' });
    if (error === undefined) return;
    expect(error).toMatch(new RegExp(`^spat-schedule: ${noPipeline(strategy).source}`));
  });

  it('throughput and latency: no pipeline fits, so both schedule layer after layer as layer-sequential does, with weight replicas in the crossbars it leaves free and the reason as a warning; faster than layer-sequential (estimate), verified and equal to the graph', () => {
    const m = lowered('mobilenet_block');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    const r = schedule(m.module, 'throughput', defaultTarget());
    expect(r.errors).toEqual([]);
    expect(r.report!.warnings[0]).toMatch(noPipeline('throughput'));
    const extra = /; scheduled as layer-sequential instead, with weight replicas in (\d+) more crossbars \(layer after layer, no pipeline between layers; option fallback=none refuses instead\)$/.exec(r.report!.warnings[0]!);
    expect(extra).not.toBeNull();
    // The yardstick on the same module: the replicas are the difference, and they pay off (its
    // weightless computes also take fewer replicas, so that fewer overlapping windows are loaded
    // through the global memory port: 52.6 ms simulated against 88.5 ms).
    const yardstick = schedule(lowered('mobilenet_block')!.module, 'layer-sequential', defaultTarget());
    expect(r.report!.crossbarsUsed - yardstick.report!.crossbarsUsed).toBe(Number(extra![1]));
    expect(r.report!.crossbarsUsed).toBeLessThanOrEqual(r.report!.crossbarsAvailable);
    expect(r.report!.latencyNs).toBeLessThan(yardstick.report!.latencyNs);
    expect(r.report!.layers.some((l, i) => l.crossbarsPerCopy === 0 && l.replicas < yardstick.report!.layers[i]!.replicas)).toBe(true);
    expect(r.report!.layers.every((l, i) => l.crossbarsPerCopy === 0 || l.replicas >= yardstick.report!.layers[i]!.replicas)).toBe(true);
    expect(r.report!.strategy).toBe('throughput');
    expect(r.report!.channels).toBe(0);
    expect(checkModule(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
    // latency falls back to the same plan: the same scheduled module.
    const scheduled = printOperation(m.module);
    const again = lowered('mobilenet_block')!;
    const l = schedule(again.module, 'latency', defaultTarget());
    expect(l.errors).toEqual([]);
    expect(l.report!.warnings[0]).toMatch(noPipeline('latency'));
    expect(printOperation(again.module)).toBe(scheduled);
  });

  it('layer-sequential with 0.75 MiB of host memory: slots whose readers ran before a writer share its bytes; verified and equal to the graph', () => {
    const m = lowered('mobilenet_block');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    const target = targetWithHostMemory(0.75 * 1024 * 1024);
    // One after another the slots take about 2.2 MB; sharing, they fit what is left of 0.75 MiB.
    // (277 slots: the global average pooling reads pieces of its slots through exact windows.)
    const r = schedule(m.module, 'layer-sequential', target);
    expect(r.errors).toEqual([]);
    expect(r.report!.hostSlots).toBe(277);
    expect(r.report!.channels).toBe(0);
    expect(checkModule(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });

  it('layer-sequential with 512 KiB of host memory: the bytes its host slots need and the room are a diagnostic, the module unchanged', () => {
    const error = refusal('mobilenet_block', 'layer-sequential', targetWithHostMemory(512 * 1024));
    if (error === undefined) return;
    expect(error).toMatch(
      /^spat-schedule: strategy 'layer-sequential': its host slots need \d+ bytes, even sharing bytes between slots whose readers all ran before the other's writer, but host memory has room for \d+ \(524288 bytes less the graph's inputs, outputs and host constants\)$/,
    );
  });
});

describe('lenet5 with little host memory', () => {
  it('layer-sequential at 16 KiB: the values whose slots do not fit stream on chip (onChip, window granularity, apart on their cores); verified and equal to the graph', () => {
    const m = lowered('lenet5');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    const r = schedule(m.module, 'layer-sequential', targetWithHostMemory(16 * 1024));
    expect(r.errors).toEqual([]);
    // Some activations go through channels now, the others still through host slots.
    expect(r.report!.channels).toBeGreaterThan(0);
    expect(r.report!.hostSlots).toBeGreaterThan(0);
    expect(r.report!.layers.filter((l) => l.onChip).length).toBeGreaterThan(0);
    const streamed = r.report!.layers.filter((l) => l.granularity === 'window');
    expect(streamed.length).toBeGreaterThanOrEqual(2);
    // The nodes streaming into one another never share a core.
    const cores = streamed.flatMap((l) => l.cores);
    expect(new Set(cores).size).toBe(cores.length);
    expect(checkModule(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });

  it('layer-sequential at 4 KiB, where the graph input alone nearly fills host memory: names the bytes its slots need and the room, the module unchanged', () => {
    const error = refusal('lenet5', 'layer-sequential', targetWithHostMemory(4 * 1024));
    if (error === undefined) return;
    expect(error).toMatch(
      /^spat-schedule: strategy 'layer-sequential': its host slots need \d+ bytes, even sharing bytes between slots whose readers all ran before the other's writer, but host memory has room for \d+ \(4096 bytes less the graph's inputs, outputs and host constants\)$/,
    );
    const [needed, room] = error.match(/\d+/g)!.map(Number);
    expect(needed!).toBeGreaterThan(room!);
  });
});

describe('lenet5 with 5 KiB of local memory per core', () => {
  it('layer-sequential where line buffers fit no core: exact windows (pieces of host slots), verified and equal to the graph (resnet_mini, 8 KiB)', () => {
    const m = lowerShared('resnet_mini', { target: targetWithLocalMemory(8 * 1024) });
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    const r = schedule(m.module, 'layer-sequential', targetWithLocalMemory(8 * 1024));
    expect(r.errors).toEqual([]);
    const exact = r.report!.layers.filter((l) => l.exactWindows);
    expect(exact.length).toBeGreaterThan(0);
    for (const l of exact) expect(l.windowRounds).toBeGreaterThanOrEqual(1);
    expect(Math.max(...r.report!.cores.map((c) => c.peakLocalBytes))).toBeLessThanOrEqual(8 * 1024);
    expect(checkModule(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });

  it('layer-sequential names the compute that fits no core even with its most replicas (4.75 KiB)', () => {
    const m = lowerShared('lenet5', { target: targetWithLocalMemory(4864) });
    if (!m) return;
    const r = schedule(m.module, 'layer-sequential', targetWithLocalMemory(4864));
    expect(r.report).toBeUndefined();
    expect(r.errors[0]).toMatch(/^spat-schedule: strategy 'layer-sequential' found no mapping of the graph computes onto 64 cores \(#\d+ \S+ needs \d+ bytes of live local memory (on one core|per replica even split over \d+ cores) but a core has 4864/);
  });

  it('layer-sequential schedules it since its flatten (a reshape) is tiled in chunks: fits, verified, equal to the graph', () => {
    const m = lowerShared('lenet5', { target: targetWithLocalMemory(5 * 1024) });
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    const r = schedule(m.module, 'layer-sequential', targetWithLocalMemory(5 * 1024));
    expect(r.errors).toEqual([]);
    expect(r.report!.layers.some((l) => /flatten/.test(l.name) && l.lanes > 1)).toBe(true);
    expect(Math.max(...r.report!.cores.map((c) => c.peakLocalBytes))).toBeLessThanOrEqual(5 * 1024);
    expect(checkModule(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });
});

describe('minimumReplicas with host transfers', () => {
  it('keeps parts within the host part budget where the crossbars allow, and drops to the fewest replicas that fit where they do not (lenet5)', () => {
    const m = loweredUnpacked('lenet5');
    if (!m) return;
    const cost = createCostModel(defaultTarget());
    const func = m.module.regions[0]!.firstBlock!.firstOp!;
    const w = new Workload(func, cost);
    const g = granularityForMemory(w, cost, 'layer', 'host');
    const crossbarsOf = (r: readonly number[]): number => w.nodes.reduce((a, n) => a + r[n.index]! * n.crossbars, 0);
    const roomy = minimumReplicas(w, cost, g, 'host');
    // conv1 (node 1, 2 crossbars) takes 4 replicas so that each stores an eighth of a core at most.
    expect(roomy[1]).toBe(4);
    expect(crossbarsOf(roomy)).toBe(12);
    const tight = { ...cost, crossbars: 10 };
    const fewer = minimumReplicas(w, tight, g, 'host');
    expect(fewer[1]).toBe(1);
    expect(crossbarsOf(fewer)).toBeLessThanOrEqual(10);
    for (const n of w.nodes) expect(placedFootprint(w, n, fewer[n.index]!, g[n.index]!, tight, 'host').bodyBytes).toBeLessThanOrEqual(cost.localMemoryBytes);
    // Channels: no host part budget, the crossbars change nothing.
    expect(minimumReplicas(w, tight, g, 'channel')).toEqual(minimumReplicas(w, cost, g, 'channel'));
  });
});

describe('minimumFootprint', () => {
  it('counts exact windows through host slots where no channel footprint fits (resnet_mini conv_1 at 4 KiB)', () => {
    const m = loweredUnpacked('resnet_mini');
    if (!m) return;
    const cost = createCostModel(targetWithLocalMemory(4 * 1024));
    const w = new Workload(m.module.regions[0]!.firstBlock!.firstOp!, cost);
    const conv = w.nodes.find((n) => n.name === '#3 conv_1')!;
    const channel = Math.min(...[1, 2, 4, 8, 16, 32, 64].filter((r) => conv.lanes % r === 0).flatMap((r) => (['window', 'layer'] as const).map((g) => placedFootprint(w, conv, r, g, cost).bodyBytes)));
    expect(channel).toBeGreaterThan(cost.localMemoryBytes);
    const f = minimumFootprint(w, conv, cost);
    expect(f.bodyBytes).toBeLessThanOrEqual(cost.localMemoryBytes);
    expect(placedFootprint(w, conv, f.replicas, 'window', cost, 'host').exactWindows).toBe(true);
  });
});

describe('minimumReplicas through channels', () => {
  it('prefers replicas that also fit the layer-granularity fallback, and drops to those the window pipeline needs where the crossbars do not allow them (lenet5, 8 KiB)', () => {
    const m = loweredUnpacked('lenet5');
    if (!m) return;
    const cost = createCostModel(targetWithLocalMemory(8 * 1024));
    const w = new Workload(m.module.regions[0]!.firstBlock!.firstOp!, cost);
    const g = w.nodes.map(() => 'window' as const);
    const roomy = minimumReplicas(w, cost, g, 'channel');
    // conv1 and conv2: 4 replicas each, so that at layer granularity each still fits 8 KiB.
    expect([roomy[1], roomy[4]]).toEqual([4, 4]);
    for (const n of w.nodes) expect(placedFootprint(w, n, roomy[n.index]!, 'layer', cost).bodyBytes).toBeLessThanOrEqual(cost.localMemoryBytes);
    const tight = { ...cost, crossbars: 1 };
    const fewest = minimumReplicas(w, tight, g, 'channel');
    expect([fewest[1], fewest[4]]).toEqual([1, 1]);
    for (const n of w.nodes) expect(placedFootprint(w, n, fewest[n.index]!, 'window', cost).bodyBytes).toBeLessThanOrEqual(cost.localMemoryBytes);
  });
});

describe('replicaCrossbarShortfall', () => {
  it('is silent where the replicas local memory asks for fit the crossbars (lenet5 at 16 KiB and 64 KiB)', () => {
    const m = lowered('lenet5');
    if (!m) return;
    for (const bytes of [16 * 1024, 64 * 1024]) {
      const cost = createCostModel(targetWithLocalMemory(bytes));
      const func = m.module.regions[0]!.firstBlock!.firstOp!;
      expect(replicaCrossbarShortfall(new Workload(func, cost), cost)).toBeUndefined();
    }
  });

  it('names the crossbars needed and available and the largest share when they do not (lenet5 on 64 cores of 1 crossbar at 3 KiB)', () => {
    const m = lowered('lenet5');
    if (!m) return;
    const target = targetWithLocalMemory(3 * 1024);
    target.config.chip_config.core_config.matrix_config.xbar_array_count = 1;
    const cost = createCostModel(target);
    const workload = new Workload(m.module.regions[0]!.firstBlock!.firstOp!, cost);
    const replicas = minimumReplicas(workload, cost);
    const needed = workload.nodes.reduce((a, n) => a + replicas[n.index]! * n.crossbars, 0);
    const message = replicaCrossbarShortfall(workload, cost);
    expect(needed).toBeGreaterThan(cost.crossbars);
    expect(message).toMatch(new RegExp(`^the replicas local memory needs take ${needed} crossbars and the target has ${cost.crossbars}; the largest share is #\\d+ \\S+: \\d+ replicas x \\d+ crossbars$`));
  });
});

describe('streaming windows in whole rows', () => {
  // Runs crossing row boundaries at varying points alternate between windows of different heights
  // (resnet18's stem: 7 and 9 input rows), which fragments a core's memory plan; runs of at least
  // a row are whole rows.
  it('a window run of at least one row of lanes is a whole number of rows (resnet_mini, 6 to 32 KiB)', () => {
    const m = lowered('resnet_mini');
    if (!m) return;
    let checked = 0;
    for (const kib of [6, 8, 12, 16, 24, 32]) {
      const cost = createCostModel(targetWithLocalMemory(kib * 1024));
      const w = new Workload(m.module.regions[0]!.firstBlock!.firstOp!, cost);
      for (const n of w.nodes) {
        const boxes = n.inputs.find((i) => i.window)?.window?.boxesPerLane;
        if (!boxes || boxes.length < 2) continue;
        let row = 1;
        while (row < boxes.length && boxes[row]!.offsets[0] === boxes[0]!.offsets[0]) row++;
        if (row === boxes.length) continue;
        for (const replicas of [1, 2]) {
          if (n.lanes % replicas !== 0) continue;
          const f = placedFootprint(w, n, replicas, 'window', cost);
          if (f.windowRounds === undefined || f.exactWindows || f.windowRounds < row) continue;
          expect(f.windowRounds % row).toBe(0);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
