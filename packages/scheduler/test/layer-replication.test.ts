/**
 * Replication for layer-after-layer plans (`replicateLayers`, `planReplicatedLayers`): the
 * crossbars one copy per layer leaves free go to the weighted computes whose next replica count
 * saves the most time per crossbar, within a budget; the fallback of the pipelined strategies
 * takes them where they pack and shorten an inference.
 */
import fc from 'fast-check';
import { createCostModel, defaultTarget } from '@raptor-pim/pim-target';
import {
  Workload,
  createPlanScheduler,
  planLayerSequential,
  planReplicatedLayers,
  replicaCounts,
  replicaTimeNs,
  replicateLayers,
  estimateSchedule,
  planReads,
  type PlanContext,
  type SchedulePlan,
} from '@raptor-pim/scheduler';
import { lowerShared } from './models';

const cost = createCostModel(defaultTarget());

function workloadOf(name: string): Workload | undefined {
  const m = lowerShared(name);
  if (!m) return undefined;
  return new Workload(m.module.regions[0]!.firstBlock!.firstOp!, cost);
}

const crossbarsOf = (w: Workload, replicas: readonly number[]): number => w.nodes.reduce((a, n) => a + n.crossbars * replicas[n.index]!, 0);
const timeOf = (w: Workload, replicas: readonly number[]): number => w.nodes.reduce((a, n) => a + replicaTimeNs(n, cost, replicas[n.index]!), 0);

describe('replicateLayers', () => {
  it('within any budget: at least the base counts, valid counts only, weightless computes unchanged, the budget kept, and every step saves time (lenet5, resnet_mini)', () => {
    for (const name of ['lenet5', 'resnet_mini']) {
      const w = workloadOf(name);
      if (!w) return;
      const base = w.nodes.map(() => 1);
      const used = crossbarsOf(w, base);
      fc.assert(
        fc.property(fc.integer({ min: used, max: cost.crossbars }), (budget) => {
          const r = replicateLayers(w, cost, base, budget);
          expect(crossbarsOf(w, r)).toBeLessThanOrEqual(budget);
          for (const n of w.nodes) {
            expect(r[n.index]!).toBeGreaterThanOrEqual(base[n.index]!);
            if (n.crossbars === 0) expect(r[n.index]).toBe(base[n.index]);
            else if (r[n.index] !== base[n.index]) expect(replicaCounts(n, cost.cores)).toContain(r[n.index]);
          }
          if (r.some((x, i) => x !== base[i])) expect(timeOf(w, r)).toBeLessThan(timeOf(w, base));
          // Deterministic.
          expect(replicateLayers(w, cost, base, budget)).toEqual(r);
        }),
        { numRuns: 25 },
      );
    }
  });

  it('takes the step that saves the most time per extra crossbar first, and nothing when the budget is what the base holds (lenet5)', () => {
    const w = workloadOf('lenet5');
    if (!w) return;
    const base = w.nodes.map(() => 1);
    const used = crossbarsOf(w, base);
    expect(replicateLayers(w, cost, base, used)).toEqual(base);
    // The best first step, by hand.
    let best: { node: number; replicas: number; ratio: number } | undefined;
    for (const n of w.nodes) {
      if (n.crossbars === 0) continue;
      const next = replicaCounts(n, cost.cores).find((d) => d > 1);
      if (next === undefined) continue;
      const ratio = (replicaTimeNs(n, cost, 1) - replicaTimeNs(n, cost, next)) / ((next - 1) * n.crossbars);
      if (!best || ratio > best.ratio) best = { node: n.index, replicas: next, ratio };
    }
    expect(best).toBeDefined();
    const step = replicateLayers(w, cost, base, used + (best!.replicas - 1) * w.nodes[best!.node]!.crossbars);
    expect(step[best!.node]).toBeGreaterThanOrEqual(best!.replicas);
  });
});

describe('planReplicatedLayers', () => {
  /** The plans of one function, built inside a scheduler (the driver's workload and context). */
  function plansOf(name: string):
    | {
        plain: SchedulePlan | string;
        replicated: SchedulePlan | string;
        latency: (p: SchedulePlan) => number;
        crossbars: readonly number[];
      }
    | undefined {
    const m = lowerShared(name);
    if (!m) return undefined;
    const target = defaultTarget();
    let out: ReturnType<typeof plansOf>;
    const probe = createPlanScheduler({
      name: 'probe',
      description: 'plans of layer-sequential with and without replicas',
      optionsSchema: [],
      plan: (context: PlanContext) => {
        const c = {
          ...context,
          options: {
            ...context.options,
            transfer: 'host',
            'local-memory': 'enforce',
          },
        };
        const latency = (p: SchedulePlan): number => estimateSchedule(c.workload, p, planReads(c.workload, p), c.cost).latencyNs;
        out = {
          plain: planLayerSequential(c),
          replicated: planReplicatedLayers(c),
          latency,
          crossbars: c.workload.nodes.map((n) => n.crossbars),
        };
        return 'stop';
      },
    });
    probe.schedule(m.module, target, {});
    return out;
  }

  it('gives the free crossbars to replicas where they pack, and the estimate says they shorten an inference (mnist-8)', () => {
    const p = plansOf('mnist-8');
    if (!p) return;
    expect(typeof p.plain).not.toBe('string');
    expect(typeof p.replicated).not.toBe('string');
    const plain = p.plain as SchedulePlan;
    const replicated = p.replicated as SchedulePlan;
    expect(replicated.replicaCrossbars).toBeGreaterThan(0);
    expect(replicated.placements.some((x, i) => x.replicas > plain.placements[i]!.replicas)).toBe(true);
    // Weighted computes keep at least their plain counts (weightless ones may take fewer: the
    // other start of the search, which leaves event registers to weight replicas).
    expect(replicated.placements.every((x, i) => p.crossbars[i] === 0 || x.replicas >= plain.placements[i]!.replicas)).toBe(true);
    expect(p.latency(replicated)).toBeLessThan(p.latency(plain));
    expect(replicated.pipelined).toBe(false);
    expect(replicated.transfer).toBe('host');
  });
});
