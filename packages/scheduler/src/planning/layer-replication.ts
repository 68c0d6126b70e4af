/**
 * Replication for a schedule that runs one layer after another: each layer's replicas compute
 * side by side, so an inference takes about the sum over layers of one replica's time
 * (`ceil(lanes / r) * laneBusyNs`). {@link replicateLayers} gives the crossbars a plan leaves
 * free, greedily, to the weighted computes whose next replica count saves the most time per
 * extra crossbar (PIMCOMP-NN's low-latency mode replicates the same way, by the work a layer
 * does per weight).
 */
import type { CostModel } from '@raptor-pim/pim-target';
import type { Workload } from '../analysis/workload';
import { replicaTimeNs } from './core-mapping';
import { replicaCounts } from './schedule-plan';
import { crossbarsOf } from './replication';

/**
 * Per node, at least `base[node]` replicas, and more for weighted nodes while their weights fit
 * `crossbarBudget` crossbars in all: each step takes the node (and its next replica count) that
 * shortens the sum of per-replica times most per extra crossbar (ties: the lower node index).
 * Weightless nodes and the nodes of `fixed` keep their base counts. Deterministic.
 */
export function replicateLayers(workload: Workload, cost: CostModel, base: readonly number[], crossbarBudget: number, fixed: ReadonlySet<number> = new Set()): number[] {
  const replicas = [...base];
  let used = crossbarsOf(workload, replicas.map((r) => ({ replicas: r, copies: 1 })));
  const counts = workload.nodes.map((n) => (n.crossbars > 0 ? replicaCounts(n, cost.cores) : []));
  for (;;) {
    let best: { node: number; replicas: number; ratio: number } | undefined;
    for (const n of workload.nodes) {
      if (n.crossbars === 0 || fixed.has(n.index)) continue;
      const r = replicas[n.index]!;
      const next = counts[n.index]!.find((d) => d > r);
      if (next === undefined) continue;
      const extra = (next - r) * n.crossbars;
      if (used + extra > crossbarBudget) continue;
      const saved = replicaTimeNs(n, cost, r) - replicaTimeNs(n, cost, next);
      if (saved <= 0) continue;
      const ratio = saved / extra;
      if (!best || ratio > best.ratio) best = { node: n.index, replicas: next, ratio };
    }
    if (!best) return replicas;
    used += (best.replicas - replicas[best.node]!) * workload.nodes[best.node]!.crossbars;
    replicas[best.node] = best.replicas;
  }
}
