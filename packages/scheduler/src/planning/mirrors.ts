/**
 * Recompute instead of broadcast: a weightless scalar graph compute whose inputs are all host
 * values (function arguments, constants) -- typically the padding of the network input -- is
 * computed again on every core that reads it, so its consumers' replicas read it locally
 * instead of receiving it from one core that would send it to each of them in turn. With a
 * cost model, a mirror is only placed where the core's local memory still holds it (else that
 * core receives the value as before).
 */
import type { CostModel } from '@raptor-pim/pim-target';
import type { Workload } from '../analysis/workload';
import { planLocalMemory } from './local-memory';
import type { SchedulePlan } from './schedule-plan';
import { planReads } from './transfers';

/**
 * `plan` with mirrors on the consumer cores of every eligible compute (virtual or physical
 * cores); with `cost`, not on cores whose modelled peak would then exceed their local memory.
 */
export function mirrorHostFedComputes(workload: Workload, plan: SchedulePlan, cost?: CostModel): SchedulePlan {
  const mirrors = workload.nodes.map(() => new Set<number>());
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    for (const input of n.inputs) for (const s of input.sources) for (const c of pl.cores) mirrors[s.producer]!.add(c);
  }
  const excluded = new Set<number>();
  const build = (): SchedulePlan => ({
    ...plan,
    placements: plan.placements.map((p, i) => {
      const n = workload.nodes[i]!;
      if (n.isBatch || n.crossbars > 0 || n.inputs.length > 0 || p.replicas !== 1) return p;
      const cores = [...mirrors[i]!].filter((c) => c !== p.cores[0] && !excluded.has(c)).sort((a, b) => a - b);
      return cores.length ? { ...p, mirrors: cores } : p;
    }),
  });
  let out = build();
  if (!cost) return out;
  // Drop the mirrors of cores that overflow, until none does (each round only removes).
  for (;;) {
    const mirrored = new Set(out.placements.flatMap((p) => [...(p.mirrors ?? [])]));
    const over = planLocalMemory(workload, out, planReads(workload, out), cost).filter((c) => c.peakBytes > cost.localMemoryBytes && mirrored.has(c.core));
    if (!over.length) return out;
    for (const c of over) excluded.add(c.core);
    out = build();
  }
}
