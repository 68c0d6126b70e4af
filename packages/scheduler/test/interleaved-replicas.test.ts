/**
 * Interleaved replicas (`NodePlacement.interleaved`): a node's replicas take its lanes
 * round-robin (lane `l` on replica `l mod r`) instead of contiguous blocks, so the replicas of a
 * value streamed into readers that take its fragments in lane order work side by side (resnet18's
 * stem, kept on chip in the replicated layer-sequential plan). Hand-made plans with interleaved
 * batches (window pipelines through channels, with and without streaming windows; layer
 * granularity through host slots, where readers load parts at the slot's position in its
 * replica) must compute exactly what the graph computes did and pass the communication checks.
 */
import fc from 'fast-check';
import { createCostModel, defaultTarget } from '@raptor-pim/pim-target';
import {
  Workload,
  lanesOfReplica,
  materializeSchedule,
  planReads,
  replicaOfLane,
  replaySchedule,
  roundOfLane,
  windowRunsOf,
  type Granularity,
  type NodePlacement,
  type SchedulePlan,
  type TransferMode,
} from '@raptor-pim/scheduler';
import { checkModule, funcOf, run } from './helpers';
import { lowerShared, lowerSharedWorkload, replicasOf } from './models';

/**
 * Every node on cores of its own, batches with more than one replica interleaved where
 * `interleave(node)` says so, windows on every batch with a windowed input (`per` rounds per
 * window there, or one window per replica).
 */
function interleavedPlan(workload: Workload, options: { granularity: Granularity; transfer: TransferMode; per?: number; maxReplicas?: number; interleave?: (node: number) => number }): SchedulePlan {
  let core = 0;
  const placements: NodePlacement[] = workload.nodes.map((n) => {
    const replicas = replicasOf(n.lanes, options.maxReplicas ?? 3);
    const cores = Array.from({ length: replicas }, () => core++);
    const windowed = n.isBatch && n.inputs.some((i) => i.window !== undefined);
    // Lanes dealt per turn (0: contiguous blocks).
    const interleaved = n.isBatch && replicas > 1 ? options.interleave?.(n.index) ?? 1 : 0;
    const per = windowed && options.per !== undefined && options.granularity === 'window' ? Math.min(options.per, Math.ceil(n.lanes / replicas)) : undefined;
    return {
      replicas,
      copies: 1,
      cores,
      granularity: options.granularity,
      ...(windowed || (interleaved > 0 && options.transfer === 'host') ? { windows: true } : {}),
      ...(per !== undefined ? { windowRounds: per } : {}),
      ...(interleaved > 0 ? { interleaved } : {}),
    };
  });
  return { strategy: 'test', transfer: options.transfer, pipelined: options.granularity === 'window', placements };
}

describe('interleaved replicas', () => {
  it('replica j takes lanes j, j + r, ... (or runs of b lanes); its part holds them in round order', () => {
    const p = { replicas: 3, interleaved: 1 };
    expect(lanesOfReplica(p, 9, 1)).toEqual([1, 4, 7]);
    expect(lanesOfReplica(p, 8, 2)).toEqual([2, 5]);
    expect(replicaOfLane(p, 9, 7)).toBe(1);
    expect(roundOfLane(p, 9, 7)).toBe(2);
    // Contiguous blocks (the default) for comparison.
    expect(lanesOfReplica({ replicas: 3 }, 9, 1)).toEqual([3, 4, 5]);
    expect(roundOfLane({ replicas: 3 }, 9, 7)).toBe(1);
    // Runs of two lanes dealt in turn.
    const runs = { replicas: 3, interleaved: 2 };
    expect(lanesOfReplica(runs, 14, 1)).toEqual([2, 3, 8, 9]);
    expect(lanesOfReplica(runs, 14, 0)).toEqual([0, 1, 6, 7, 12, 13]);
    expect(replicaOfLane(runs, 14, 9)).toBe(1);
    expect(roundOfLane(runs, 14, 9)).toBe(3);
    expect(roundOfLane(runs, 14, 12)).toBe(4);
    expect(windowRunsOf({ replicas: 2, windowRounds: 2, interleaved: 1 }, 10, 1)).toEqual([[1, 3], [5, 7], [9]]);
  });

  const cases: { name: string; granularity: Granularity; transfer: TransferMode; per?: number; exact?: boolean }[] = [
    { name: 'a window pipeline through channels', granularity: 'window', transfer: 'channel' },
    { name: 'a window pipeline with one round per window', granularity: 'window', transfer: 'channel', per: 1 },
    { name: 'a window pipeline with two rounds per window', granularity: 'window', transfer: 'channel', per: 2 },
    { name: 'layer granularity through host slots (parts stored and loaded)', granularity: 'layer', transfer: 'host' },
    { name: 'exact windows of one round through host slots (each lane loads only what it reads)', granularity: 'window', transfer: 'host', per: 1, exact: true },
  ];
  describe.each(['lenet5', 'mnist-8'])('%s', (model) => {
    it.each(cases)('$name: same outputs, checks pass, the replay runs', ({ granularity, transfer, per, exact }) => {
      const lowered = lowerSharedWorkload(model);
      if (!lowered) return;
      const { model: m, reference, cost, workload } = lowered;
      // (The exact case interleaves the weighted computes only, as the strategy does: chains of
      // interleaved streams through channels can deadlock.)
      const weighted = (node: number): number => (workload.nodes[node]!.crossbars > 0 ? 1 : 0);
      const planned = interleavedPlan(workload, { granularity, transfer, ...(per !== undefined ? { per } : {}), ...(exact ? { interleave: weighted } : {}) });
      // Exact windows read host slots; an interleaved node's own results then stream to its readers
      // through channels (`onChip`), as in the replicated layer-sequential plan.
      const plan: SchedulePlan = exact
        ? { ...planned, placements: planned.placements.map((p) => ({ ...p, ...(p.windowRounds !== undefined ? { exactWindows: true } : {}), ...(p.interleaved ? { onChip: true } : {}) })) }
        : planned;
      if (exact) expect(plan.placements.filter((p) => p.exactWindows && p.interleaved).length).toBeGreaterThan(0);
      expect(plan.placements.filter((p) => p.interleaved).length).toBeGreaterThan(exact ? 0 : 2);
      materializeSchedule(workload, plan, planReads(workload, plan), cost);
      expect(checkModule(m.module)).toEqual([]);
      expect(run(m.module, m.fn, m.args)).toEqual(reference);
      expect(replaySchedule(funcOf(m.module), cost)).toBeDefined();
    });
  });

  it('property: interleaved on any nodes (runs of 1-3 lanes, or contiguous), any replicas and rounds per window (lenet5) keeps the outputs and the checks', () => {
    const base = lowerShared('lenet5');
    if (!base) return;
    const reference = run(base.module, base.fn, base.args);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 16, maxLength: 16 }), fc.integer({ min: 2, max: 4 }), fc.integer({ min: 1, max: 6 }), (mask, maxReplicas, per) => {
        const m = lowerShared('lenet5')!;
        const cost = createCostModel(defaultTarget());
        const workload = new Workload(funcOf(m.module), cost);
        const plan = interleavedPlan(workload, { granularity: 'window', transfer: 'channel', per, maxReplicas, interleave: (node) => mask[node % mask.length]! });
        materializeSchedule(workload, plan, planReads(workload, plan), cost);
        expect(checkModule(m.module)).toEqual([]);
        expect(run(m.module, m.fn, m.args)).toEqual(reference);
      }),
      { numRuns: 8, seed: 20261207 },
    );
  });
});
