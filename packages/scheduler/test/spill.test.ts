/**
 * Spilled nodes (`NodePlacement.spill`) in channel plans: their readers on other cores load host
 * slots (READY/FREE) while every other value moves through channels. The scheduled module passes
 * the communication checks and computes what the graph computes did, at layer and window
 * granularity; a spill breaks the cycle that blocking sends form when a streamed producer and a
 * later consumer of its reader share a core.
 */
import { type Operation } from '@raptor-pim/ir-core';
import { createCostModel, defaultTarget } from '@raptor-pim/pim-target';
import {
  Workload,
  createPlanScheduler,
  estimateSchedule,
  materializeSchedule,
  planLocalMemory,
  planReads,
  replicaOfLane,
  verifyCommunication,
  type Granularity,
  type NodePlacement,
  type SchedulePlan,
} from '@raptor-pim/scheduler';
import { funcOf, run } from './helpers';
import { lowerShared } from './models';

/** A shared model lowered by the upstream stages, its reference outputs, the default target and the workload of its function. */
function sharedWorkload(model: string) {
  const m = lowerShared(model);
  if (!m) return undefined;
  const reference = run(m.module, m.fn, m.args);
  const target = defaultTarget();
  const cost = createCostModel(target);
  return { m, reference, target, cost, workload: new Workload(funcOf(m.module), cost) };
}

function count(module: Operation, name: string): number {
  let n = 0;
  module.walk((op: Operation) => {
    if (op.name === name) n++;
  });
  return n;
}

/**
 * Every node on cores of its own (two replicas where its lanes split evenly), `spilled` through
 * host slots. A reader of a spilled node waits for whole layers: at window granularity a residual
 * addition would otherwise take its channel input round by round while its other input, spilled,
 * arrives only once complete, and the producer of both would block on it (a cycle).
 */
function ownCores(workload: Workload, granularity: Granularity, spilled: (node: number) => boolean): SchedulePlan {
  let next = 0;
  const placements: NodePlacement[] = workload.nodes.map((n) => {
    const replicas = n.isBatch && n.lanes % 2 === 0 ? 2 : 1;
    const cores = Array.from({ length: replicas }, () => next++);
    const readsSpill = n.inputs.some((i) => i.sources.some((s) => spilled(s.producer)));
    return { replicas, copies: 1, cores, granularity: readsSpill ? 'layer' : granularity, windows: replicas > 1, ...(spilled(n.index) ? { spill: true } : {}) };
  });
  return { strategy: 'test', transfer: 'channel', pipelined: true, placements };
}

describe.each(['lenet5', 'resnet_mini'])('spilled nodes in a channel plan (%s)', (model) => {
  it.each(['layer', 'window'] as const)('every other node spilled at %s granularity: verified and equal to the graph', (granularity) => {
    const shared = sharedWorkload(model);
    if (!shared) return;
    const { m, reference, target, cost, workload } = shared;
    const plan = ownCores(workload, granularity, (i) => i % 2 === 0);
    const reads = planReads(workload, plan);
    const estimate = estimateSchedule(workload, plan, reads, cost);
    expect(estimate.spilledBytes).toBeGreaterThan(0);
    expect(estimate.spilledBytes).toBeLessThan(estimate.transferBytes);
    expect(planLocalMemory(workload, plan, reads, cost).length).toBeGreaterThan(0);
    const done = materializeSchedule(workload, plan, reads, cost);
    expect(done.hostFallbacks).toBe(0);
    expect(done.hostSlots).toBeGreaterThan(0);
    // Layer granularity stores a part once; a window writer stores its fragments round by round, in pieces.
    if (granularity === 'layer') expect(count(m.module, 'spat.host_store_sync')).toBe(done.hostSlots);
    else expect(count(m.module, 'spat.host_store_sync')).toBeGreaterThan(done.hostSlots);
    expect(count(m.module, 'spat.channel_send')).toBeGreaterThan(0);
    expect(verifyCommunication(m.module, target).diagnostics.map((d) => d.message)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });
});

describe('a spill breaks a cycle of blocking sends', () => {
  // lenet5: conv1 (node 1) streams to node 2, which streams to node 3; conv1 and node 3 share a
  // core, node 3 after conv1. Through channels node 2 blocks sending to node 3 (not started:
  // its core still runs conv1), so conv1 blocks sending to node 2: a deadlock. With node 2
  // spilled it stores its result after its last round and never waits for node 3.
  function plan(workload: Workload, spillReader: boolean): SchedulePlan {
    let next = 10;
    const placements: NodePlacement[] = workload.nodes.map((n) => {
      const core = n.index === 1 || n.index === 3 ? 0 : n.index === 2 ? 1 : next++;
      return { replicas: 1, copies: 1, cores: [core], granularity: 'window', ...(spillReader && n.index === 2 ? { spill: true } : {}) };
    });
    return { strategy: 'test', transfer: 'channel', pipelined: false, placements };
  }

  it.each([false, true])('node 2 spilled: %s', (spill) => {
    const shared = sharedWorkload('lenet5');
    if (!shared) return;
    const { m, reference, target, cost, workload } = shared;
    expect(workload.nodes[2]!.inputs.some((i) => i.sources.some((s) => s.producer === 1))).toBe(true);
    expect(workload.nodes[3]!.inputs.some((i) => i.sources.some((s) => s.producer === 2))).toBe(true);
    const p = plan(workload, spill);
    materializeSchedule(workload, p, planReads(workload, p), cost);
    const checked = verifyCommunication(m.module, target);
    if (!spill) {
      expect(checked.deadlock).toBeDefined();
      return;
    }
    expect(checked.diagnostics.map((d) => d.message)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });

  it('a spilled slot the host memory cannot hold falls back to channels (a warning), and the driver repairs the cycle that makes by the simulated send order, keeping the window pipeline', () => {
    const m = lowerShared('lenet5');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    const target = defaultTarget();
    // Room for the graph's input and output only: node 2's slot does not fit.
    target.config.chip_config.global_memory_config.memory_size = 4096;
    const scheduler = createPlanScheduler({ name: 'spill-test', description: 'node 2 spilled beside a co-located chain', optionsSchema: [], plan: (c) => plan(c.workload, true) });
    const r = scheduler.schedule(m.module, target, {});
    expect(r.diagnostics ?? []).toEqual([]);
    const report = r.report!.functions[0]!;
    expect(report.hostSlots).toBe(0);
    expect(report.warnings).toEqual([
      "spill-test: 1 partial results go through channels instead of host slots (0 slots fit the 4096 bytes of host memory and the event registers)",
      expect.stringMatching(/its producers send in the order a simulation of the streams found/),
    ]);
    expect(report.layers.every((l) => l.granularity === 'window')).toBe(true);
    expect(verifyCommunication(m.module, target).diagnostics.map((d) => d.message)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
});
});

describe('host slots read in several rounds', () => {
  // Every node on cores of its own, activations through host slots, every reader at window
  // granularity: a reader replica that reads fragments of one small slot in several of its
  // rounds loads them round by round (a whole-slot load would stay live from the first round
  // that reads it to the last).
  it.each(['lenet5', 'resnet_mini'])('%s: a load per reader, slot and round; verified and equal to the graph', (model) => {
    const shared = sharedWorkload(model);
    if (!shared) return;
    const { m, reference, target, cost, workload } = shared;
    const plan: SchedulePlan = { ...ownCores(workload, 'window', () => false), transfer: 'host', pipelined: false };
    const reads = planReads(workload, plan);
    // The loads the rule asks for: per reader replica and slot read in several rounds, one per round.
    let acrossRounds = 0;
    let loadsAtLeast = 0;
    for (const r of reads) {
      const rounds = new Map<string, Set<number>>();
      for (const f of r.remote) {
        const key = `${f.producer}:${replicaOfLane(plan.placements[f.producer]!, workload.nodes[f.producer]!.lanes, f.slot)}:${f.resultIndex}`;
        (rounds.get(key) ?? rounds.set(key, new Set()).get(key)!).add(f.round);
      }
      for (const s of rounds.values()) {
        if (s.size > 1) acrossRounds++;
        loadsAtLeast += s.size;
      }
    }
    expect(acrossRounds).toBeGreaterThan(0);
    const done = materializeSchedule(workload, plan, reads, cost);
    expect(done.hostFallbacks).toBe(0);
    expect(count(m.module, 'spat.host_wait_load')).toBeGreaterThanOrEqual(loadsAtLeast);
    expect(verifyCommunication(m.module, target).diagnostics.map((d) => d.message)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });
});
