/**
 * `latency`: a fine-grained pipeline for batch 1. Every round (graph lane: a row or pixel
 * window) of a consumer starts as soon as the producer fragments it reads have arrived, so
 * layers overlap within one inference. Replication is chosen greedily where it shortens the
 * estimated critical path: starting from the better of one copy per layer and the throughput
 * replication, the node whose next replica count (next divisor of its lanes) lowers the
 * estimated latency most is replicated, until nothing improves or capacity runs out.
 */
import { uintOption } from '@raptor-pim/ir-core';
import type { CostModel } from '@raptor-pim/pim-target';
import type { Workload } from '../analysis/workload';
import { packReplicas, replicaItems } from '../planning/core-mapping';
import { estimateSchedule } from '../planning/estimate';
import { crossbarsOf, planReplicasForPeriod } from '../planning/replication';
import { divisors, type NodePlacement, type SchedulePlan } from '../planning/schedule-plan';
import { planReads } from '../planning/transfers';
import { createPlanScheduler, type PlanContext } from '../scheduler';
import { SchedulerMessages as M } from '../diagnostics';

const stepsOption = uintOption('max-steps', 64, 'greedy replication steps');

function planFor(workload: Workload, cost: CostModel, replicas: readonly number[]): SchedulePlan | undefined {
  if (crossbarsOf(workload, replicas) > cost.crossbars) return undefined;
  const packing = packReplicas(replicaItems(workload, replicas), workload.nodes.length, cost, { cores: cost.cores, timeBudgetNs: Infinity, preferAffinity: true });
  if (!packing) return undefined;
  const placements: NodePlacement[] = workload.nodes.map((n) => ({ replicas: replicas[n.index]!, cores: packing.cores[n.index]!, granularity: 'window' }));
  return { strategy: 'latency', placements, transfer: 'channel', pipelined: true };
}

function latencyOf(workload: Workload, plan: SchedulePlan, cost: CostModel): number {
  return estimateSchedule(workload, plan, planReads(workload, plan), cost).latencyNs;
}

function planLatency({ workload, cost, options }: PlanContext): SchedulePlan | string {
  const single = workload.nodes.map(() => 1);
  const balanced = planReplicasForPeriod(workload, cost)?.replicas;
  let best: { replicas: number[]; plan: SchedulePlan; latency: number } | undefined;
  for (const r of balanced ? [single, balanced] : [single]) {
    const plan = planFor(workload, cost, r);
    if (!plan) continue;
    const latency = latencyOf(workload, plan, cost);
    if (!best || latency < best.latency) best = { replicas: [...r], plan, latency };
  }
  if (!best) return M.noPacking('latency', cost.cores);
  let current = best;
  const steps = Number(options['max-steps'] ?? 64);
  for (let step = 0; step < steps; step++) {
    // Candidates: the nodes with the longest per-replica time (at most 8, deterministic order).
    const cur = current;
    const candidates = workload.nodes
      .filter((n) => cur.replicas[n.index]! < n.lanes)
      .sort((a, b) => (b.lanes / cur.replicas[b.index]!) * b.laneComputeNs - (a.lanes / cur.replicas[a.index]!) * a.laneComputeNs || a.index - b.index)
      .slice(0, 8);
    let improved: typeof cur | undefined;
    for (const n of candidates) {
      const next = divisors(n.lanes).find((d) => d > cur.replicas[n.index]!);
      if (next === undefined) continue;
      const r = [...cur.replicas];
      r[n.index] = next;
      const plan = planFor(workload, cost, r);
      if (!plan) continue;
      const latency = latencyOf(workload, plan, cost);
      if (latency < (improved ?? cur).latency * 0.999) improved = { replicas: r, plan, latency };
    }
    if (!improved) break;
    current = improved;
  }
  return current.plan;
}

/** The `latency` strategy. */
export const latencyScheduler = createPlanScheduler({
  name: 'latency',
  description: 'fine-grained (row/window) pipeline for batch 1 with replication where it shortens the critical path',
  optionsSchema: [stepsOption],
  plan: planLatency,
});
