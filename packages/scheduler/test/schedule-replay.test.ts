/**
 * The replay of scheduled programs (`replaySchedule`): hand-written schedules whose timing follows
 * from the cost model step by step (a send that blocks until its receiver is ready and delays the
 * next send; a host slot read after its READY signal), the steady state of looping programs, and
 * the reports of the built-in strategies (estimated by the replay, the plan's estimate kept
 * beside it). The agreement with pim-sim is checked by codegen's `estimate-vs-sim` test.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MLIRContext, parseSourceString, verify, type Operation } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { createCostModel, defaultTarget } from '@raptor-pim/pim-target';
import { replaySchedule, verifyCommunication } from '@raptor-pim/scheduler';
import { funcOf, scheduleWith } from './helpers';
import { lowerShared } from './models';

const FIXTURES = path.join(__dirname, 'fixtures');
const cost = createCostModel(defaultTarget());

function parseFixture(name: string): Operation {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const module = parseSourceString(ctx, fs.readFileSync(path.join(FIXTURES, name), 'utf8'), { filename: name })!;
  expect(module && verify(module)).toBe(true);
  expect(verifyCommunication(module, defaultTarget()).diagnostics).toHaveLength(0);
  return module;
}

describe('replaySchedule', () => {
  it('a send blocks until its receiver posts the receive, and delays the sends after it', () => {
    const func = funcOf(parseFixture('replay-rendezvous.mlir'));
    const r = replaySchedule(func, cost)!;
    const small = 64 * 4;
    const big = 4096 * 4;
    const link01 = cost.transferNs(1, 0, 1);
    // Core 1 posts its receive after its fill and three ReLUs.
    const ready1 = cost.localFillNs(big) + 3 * cost.vectorOpNs(4096, 1);
    // Core 0's first send waits for it; its second send starts when the first is done.
    const fill0 = cost.localFillNs(small);
    expect(ready1).toBeGreaterThan(fill0 + link01);
    const sent1 = ready1 + cost.sendNs(small, 0, 1) - link01;
    const sent2 = sent1 + cost.sendNs(small, 0, 2);
    const end1 = sent1 + cost.deliverNs(small, 0, 1);
    // Core 2 received at once in a replay without rendezvous; here after core 0's second send.
    const end2 = sent2 + cost.deliverNs(small, 0, 2) + cost.vectorOpNs(64, 1) + cost.hostStoreNs(small, 2);
    expect(r.latencyNs).toBeCloseTo(Math.max(end1, end2), 6);
    expect(r.timeline).toBeUndefined();
    // The timeline: when each scheduled compute started (its core reached it) and ended.
    const t = replaySchedule(func, cost, { timeline: true })!.timeline!;
    expect(t.map((x) => [x.core, x.lane])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(t.map((x) => x.startNs)).toEqual([0, 0, 0]);
    expect(t[0]!.endNs).toBeCloseTo(sent2, 6);
    expect(t[1]!.endNs).toBeCloseTo(end1, 6);
    expect(t[2]!.endNs).toBeCloseTo(end2, 6);
    // Looping: core 1 is the bottleneck; each round it computes, then waits for the handshake
    // (its receive posted before core 0 sends again) and the data.
    expect(r.periodNs).toBeCloseTo(ready1 + cost.sendNs(small, 0, 1) - link01 + cost.deliverNs(small, 0, 1), 3);
    expect(r.throughput).toBeCloseTo(1e9 / r.periodNs, 6);
  });

  it('a host slot is loaded after its READY signal arrives; loads and stores take the port', () => {
    const func = funcOf(parseFixture('replay-host-slot.mlir'));
    const r = replaySchedule(func, cost)!;
    const bytes = 64 * 4;
    const computed = cost.localFillNs(1024 * 4) + cost.vectorOpNs(1024, 1);
    // The body's slice of the result is priced as a local copy.
    const slice = cost.localCopyNs(bytes);
    const stored = computed + slice + cost.hostStoreNs(bytes, 0);
    const signalled = stored + cost.syncNs(0, 1);
    const loaded = signalled + cost.hostLoadNs(bytes, 1);
    const end = loaded + cost.hostStoreNs(bytes, 1);
    expect(r.latencyNs).toBeCloseTo(end, 6);
  });

  it('is deterministic and undefined for a function without scheduled computes', () => {
    const func = funcOf(parseFixture('replay-rendezvous.mlir'));
    expect(replaySchedule(func, cost)).toEqual(replaySchedule(func, cost));
    const ctx = new MLIRContext();
    registerSpatialDialect(ctx);
    const empty = parseSourceString(ctx, 'module {\n  func.func @main(%a: tensor<1x4xf32>) -> tensor<1x4xf32> {\n    return %a : tensor<1x4xf32>\n  }\n}\n')!;
    expect(replaySchedule(funcOf(empty), cost)).toBeUndefined();
  });

  it.each(['throughput', 'layer-sequential', 'latency'])('the %s report is estimated by the replay, the plan estimate beside it (mnist-8)', (strategy) => {
    const { module } = lowerShared('mnist-8')!;
    const { report, errors } = scheduleWith(module, strategy);
    expect(errors).toEqual([]);
    const f = report!.functions[0]!;
    expect(f.estimatedBy).toBe('replay');
    const replay = replaySchedule(funcOf(module), cost)!;
    expect(f.latencyNs).toBeCloseTo(replay.latencyNs, 2);
    expect(f.periodNs).toBeCloseTo(replay.periodNs, 2);
    expect(f.planLatencyNs).toBeGreaterThan(0);
    expect(f.planPeriodNs).toBeGreaterThan(0);
  });
});
