/**
 * Capacity and replication planning: how many copies of each graph compute's weights to
 * place. {@link planReplicasForPeriod} is the throughput planner: a binary search on the
 * pipeline period T with r_l = the smallest divisor of the lane count with
 * ceil(P_l / r_l) * c_l <= T, accepted when the replicas pack onto the target's cores
 * ({@link packReplicas}). It uses whatever crossbars the model leaves free rather than a
 * fixed margin (PIMCOMP-NN's `balance` stops at ~50%).
 */
import type { CostModel } from '@raptor-pim/pim-target';
import type { Workload, WorkloadNode } from '../analysis/workload';
import { packReplicas, replicaItems, replicaTimeNs, type CorePacking } from './core-mapping';
import { divisors } from './schedule-plan';

/** The replica counts of a plan and their packing. */
export interface ReplicationPlan {
  /** Replicas per node. */
  readonly replicas: number[];
  /** The packing onto virtual cores. */
  readonly packing: CorePacking;
  /** The period the search reached (ns; the busiest core's time). */
  readonly periodNs: number;
}

/** The smallest divisor r of the node's lanes with ceil(lanes / r) * laneTime <= period (or all lanes). */
export function replicasForPeriod(node: WorkloadNode, periodNs: number): number {
  for (const d of divisors(node.lanes)) if (replicaTimeNs(node, d) <= periodNs) return d;
  return node.lanes;
}

/** Crossbars that `replicas` copies of every node hold. */
export function crossbarsOf(workload: Workload, replicas: readonly number[]): number {
  return workload.nodes.reduce((a, n) => a + n.crossbars * replicas[n.index]!, 0);
}

/**
 * Binary search on the period: the smallest T (to `tolerance` relative precision) whose
 * replica counts pack onto the cores with every core busy at most T. Returns undefined when
 * not even one copy per node packs.
 */
export function planReplicasForPeriod(workload: Workload, cost: CostModel, tolerance = 1e-3): ReplicationPlan | undefined {
  const nodes = workload.nodes.length;
  const attempt = (periodNs: number): ReplicationPlan | undefined => {
    const replicas = workload.nodes.map((n) => replicasForPeriod(n, periodNs));
    if (crossbarsOf(workload, replicas) > cost.crossbars) return undefined;
    const packing = packReplicas(replicaItems(workload, replicas), nodes, cost, { cores: cost.cores, timeBudgetNs: periodNs, preferAffinity: true });
    return packing ? { replicas, packing, periodNs: Math.max(0, ...packing.timeNs) } : undefined;
  };
  let hi = workload.nodes.reduce((a, n) => a + replicaTimeNs(n, 1), 0);
  let best = attempt(hi);
  if (!best) return undefined;
  let lo = 0;
  while (hi - lo > Math.max(1, hi * tolerance)) {
    const mid = (lo + hi) / 2;
    const r = attempt(mid);
    if (r) {
      best = r;
      hi = mid;
    } else lo = mid;
  }
  return best;
}

/** One copy of every node, packed without a time limit (the baseline capacity check). */
export function planSingleCopies(workload: Workload, cost: CostModel, preferAffinity: boolean): ReplicationPlan | undefined {
  const replicas = workload.nodes.map(() => 1);
  const packing = packReplicas(replicaItems(workload, replicas), workload.nodes.length, cost, { cores: cost.cores, timeBudgetNs: Infinity, preferAffinity });
  return packing ? { replicas, packing, periodNs: Math.max(0, ...packing.timeNs) } : undefined;
}
