/**
 * Recompute instead of broadcast: a weightless scalar graph compute whose inputs are all host
 * values (function arguments, constants) -- typically the padding of the network input -- is
 * computed again on every core that reads it, so its consumers' replicas read it locally
 * instead of receiving it from one core that would send it to each of them in turn.
 */
import type { Workload } from '../analysis/workload';
import type { SchedulePlan } from './schedule-plan';

/** `plan` with mirrors on the consumer cores of every eligible compute (virtual or physical cores). */
export function mirrorHostFedComputes(workload: Workload, plan: SchedulePlan): SchedulePlan {
  const mirrors = workload.nodes.map(() => new Set<number>());
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    for (const input of n.inputs) for (const s of input.sources) for (const c of pl.cores) mirrors[s.producer]!.add(c);
  }
  const placements = plan.placements.map((p, i) => {
    const n = workload.nodes[i]!;
    if (n.isBatch || n.crossbars > 0 || n.inputs.length > 0 || p.replicas !== 1) return p;
    const cores = [...mirrors[i]!].filter((c) => c !== p.cores[0]).sort((a, b) => a - b);
    return cores.length ? { ...p, mirrors: cores } : p;
  });
  return { ...plan, placements };
}
