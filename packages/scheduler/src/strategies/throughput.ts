/**
 * `throughput` (the default): a batch-granularity inter-layer pipeline. Consecutive inferences
 * overlap, so the period is the busiest core's time; weights are replicated into the crossbars
 * the model leaves free by a binary search on the period T (r_l = the smallest divisor of the
 * lane count with ceil(P_l / r_l) * c_l <= T, accepted when the replicas pack onto the cores
 * within their crossbars and local memory), each replica's array groups stay on one core, and
 * activations move core to core through channels, never through host memory. A node whose
 * partial result would not fit a core at layer granularity streams its fragments out round by
 * round (window granularity).
 */
import { floatOption } from '@raptor-pim/ir-core';
import { enforcesLocalMemory, granularityForMemory, localMemoryOption } from '../planning/local-memory';
import { mirrorHostFedComputes } from '../planning/mirrors';
import { planReplicasForPeriod } from '../planning/replication';
import type { Granularity, NodePlacement, SchedulePlan } from '../planning/schedule-plan';
import { createPlanScheduler, type PlanContext } from '../scheduler';
import { SchedulerMessages as M } from '../diagnostics';

const toleranceOption = floatOption('tolerance', 0.001, 'relative precision of the binary search on the period');

/** Replicas and cores of the throughput planner, with the given preferred consumer granularity. */
export function planThroughput(context: PlanContext, granularity: Granularity, strategy: string): SchedulePlan | string {
  const { workload, cost, options } = context;
  const enforce = enforcesLocalMemory(options);
  const granularities = enforce ? granularityForMemory(workload, cost, granularity) : workload.nodes.map(() => granularity);
  const r = planReplicasForPeriod(workload, cost, Number(options['tolerance'] ?? 0.001), { granularity: granularities, ignoreMemory: !enforce });
  if (!r) return M.noPacking(strategy, cost.cores);
  const placements: NodePlacement[] = workload.nodes.map((n) => ({ ...r.replication[n.index]!, cores: r.packing.cores[n.index]!, granularity: granularities[n.index]! }));
  return mirrorHostFedComputes(workload, { strategy, placements, transfer: 'channel', pipelined: true }, enforce ? cost : undefined);
}

/** The `throughput` strategy. */
export const throughputScheduler = createPlanScheduler({
  name: 'throughput',
  description: 'batch-granularity inter-layer pipeline with weight replication into free crossbars, activations in channels',
  optionsSchema: [toleranceOption, localMemoryOption],
  plan: (context) => planThroughput(context, 'layer', 'throughput'),
});
