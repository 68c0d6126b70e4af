/**
 * `NodePlacement.selfHostReads`: a reader loads from host slots even what a producer replica on
 * its own core stored (instead of taking the producer's partial result as SSA, which keeps it
 * live on the core until the reader runs). The writer signals READY to its own core; the checks
 * pass and the outputs are the graph's. And `matchReplicasToCores`, the matching
 * `layer-sequential` falls back to when placing replicas one after another leaves one without a core.
 */
import { createCostModel, defaultTarget } from '@raptor-pim/pim-target';
import { Workload, matchReplicasToCores, materializeSchedule, planLocalMemory, planReads, verifyCommunication, type NodePlacement, type SchedulePlan } from '@raptor-pim/scheduler';
import { funcOf, run } from './helpers';
import { lowerShared } from './models';


/** lenet5 layer after layer through host slots, nodes 2k and 2k+1 on core k (node 2k+1 reads node 2k on its own core). */
function twoCores(workload: Workload, selfHostReads: boolean): SchedulePlan {
  const placements: NodePlacement[] = workload.nodes.map((n) => ({
    replicas: 1,
    copies: 1,
    cores: [Math.floor(n.index / 2)],
    granularity: 'layer',
    ...(selfHostReads ? { selfHostReads: true } : {}),
  }));
  return { strategy: 'test', transfer: 'host', pipelined: false, placements };
}

describe('selfHostReads (lenet5, two nodes per core, through host slots)', () => {
  it.each([false, true])('selfHostReads %s: verified, equal to the graph; with it no read is SSA and no core has a higher peak', (self) => {
    const m = lowerShared('lenet5');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    const target = defaultTarget();
    const cost = createCostModel(target);
    const workload = new Workload(funcOf(m.module), cost);
    // Node 1 reads node 0 on its own core.
    expect(workload.nodes[1]!.inputs.some((i) => i.sources.some((s) => s.producer === 0))).toBe(true);
    const plan = twoCores(workload, self);
    const reads = planReads(workload, plan);
    const local = reads.filter((r) => r.hasLocal).length;
    const own = reads.flatMap((r) => r.remote).filter((f) => f.fromCore === f.toCore).length;
    if (self) {
      expect(local).toBe(0);
      expect(own).toBeGreaterThan(0);
    } else {
      expect(local).toBeGreaterThan(0);
      expect(own).toBe(0);
    }
    const peaks = planLocalMemory(workload, plan, reads, cost).map((c) => c.peakBytes);
    const done = materializeSchedule(workload, plan, reads, cost);
    expect(done.hostFallbacks).toBe(0);
    expect(verifyCommunication(m.module, target).diagnostics.map((d) => d.message)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
    if (self) {
      const m2 = lowerShared('lenet5')!;
      const w2 = new Workload(funcOf(m2.module), cost);
      const viaSsa = planLocalMemory(w2, twoCores(w2, false), planReads(w2, twoCores(w2, false)), cost).map((c) => c.peakBytes);
      expect(Math.max(...peaks)).toBeLessThanOrEqual(Math.max(...viaSsa));
    }
  });
});

describe('matchReplicasToCores', () => {
  it('finds the assignment placing replicas in order misses', () => {
    // In order, replica 0 takes core 0 and replica 1 finds none; the matching moves replica 0 to core 1.
    expect(matchReplicasToCores([[0, 1], [0]], 2)).toEqual([1, 0]);
    expect(matchReplicasToCores([[0, 1, 2], [0, 1], [0]], 3)).toEqual([2, 1, 0]);
  });

  it('is undefined when some replica can take no core', () => {
    expect(matchReplicasToCores([[0], [0]], 2)).toBeUndefined();
    expect(matchReplicasToCores([[1], []], 2)).toBeUndefined();
  });
});
