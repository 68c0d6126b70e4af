/**
 * `throughput` (the default): a batch-granularity inter-layer pipeline. Consecutive inferences
 * overlap, so the period is the busiest core's time; weights are replicated into the crossbars
 * the model leaves free by a binary search on the period T (r_l = the smallest divisor of the
 * lane count with ceil(P_l / r_l) * c_l <= T, accepted when the replicas pack onto the cores
 * within their crossbars and local memory), each replica's array groups stay on one core, and
 * activations move core to core through channels (host slots only when no on-chip packing fits).
 * A node whose partial result would not fit a core at layer granularity streams its fragments
 * out round by round (window granularity). Among the packings the period search accepts (also
 * kept apart from their neighbours' cores) and the layer-wise spreads ({@link layerWiseCandidates}),
 * the one with the best estimated throughput is taken (the estimate also charges transfers and
 * the delay that computes of several layers on one core put on the next inference).
 */
import { floatOption } from '@raptor-pim/ir-core';
import { enforcesLocalMemory, granularityForMemory, localMemoryOption, localMemoryPackingDetail, replicaCrossbarShortfall } from '../planning/local-memory';
import { mirrorHostFedComputes } from '../planning/mirrors';
import { estimateSchedule } from '../planning/estimate';
import { layerWiseCandidates, replicationCandidates, type PackingConstraints, type ReplicationPlan } from '../planning/replication';
import { planReads } from '../planning/transfers';
import type { Granularity, NodePlacement, SchedulePlan, TransferMode } from '../planning/schedule-plan';
import { createPlanScheduler, type PlanContext } from '../scheduler';
import { pickByReplay, type RankedPlan } from '../planning/replay-ranking';
import { fallbackOption, layerSequentialFallback } from './layer-sequential';
import { SchedulerMessages as M } from '../diagnostics';

const toleranceOption = floatOption('tolerance', 0.001, 'relative precision of the binary search on the period');

/** Replicas and cores of the throughput planner, with the given preferred consumer granularity. */
export function planThroughput(context: PlanContext, granularity: Granularity, strategy: string): SchedulePlan | string {
  const { workload, cost, options } = context;
  const enforce = enforcesLocalMemory(options);
  const granularities = enforce ? granularityForMemory(workload, cost, granularity) : workload.nodes.map(() => granularity);
  const tolerance = Number(options['tolerance'] ?? 0.001);
  let transfer: TransferMode = 'channel';
  const search = (constraints: PackingConstraints): ReplicationPlan[] => [
    ...replicationCandidates(workload, cost, tolerance, constraints),
    ...replicationCandidates(workload, cost, tolerance, { ...constraints, compactStages: true }),
    ...replicationCandidates(workload, cost, tolerance, { ...constraints, compactStages: true, spread: true }),
    ...replicationCandidates(workload, cost, tolerance, { ...constraints, compactStages: true, spread: true, separateNeighbours: true }),
  ];
  let candidates = search({ granularity: granularities, ignoreMemory: !enforce });
  // Layer-wise spreads too (every compute at layer granularity over the cores, apart from its
  // neighbours): where the pipeline's stages cannot overlap well, one layer after another over
  // many cores can still give the shorter period. Their partial results wait on the cores for
  // the send tasks; where that does not fit, they go through host slots (nothing stays live).
  let layerWiseTransfer: TransferMode = 'channel';
  let layerWise = layerWiseCandidates(workload, cost, { ignoreMemory: !enforce });
  if (!layerWise.length && enforce) {
    layerWiseTransfer = 'host';
    layerWise = layerWiseCandidates(workload, cost, { transfer: 'host' });
  }
  if (!candidates.length && enforce) {
    // The activations of a pipeline kept on chip exceed the cores' local memory: spill them
    // through host slots (READY/FREE), which keeps nothing live after a body (B4 charges it).
    transfer = 'host';
    candidates = search({ granularity: granularities, ignoreMemory: false, transfer });
  }
  if (!candidates.length && !layerWise.length) {
    const why = M.noPacking(strategy, cost.cores, enforce ? (replicaCrossbarShortfall(workload, cost, granularities) ?? memoryPackingDetail(context, granularities, search)) : undefined);
    return layerSequentialFallback(context, why);
  }
  // The estimate ranks the packings the period search accepted; on small workloads the best few
  // are replayed and the shortest replayed period wins (pickByReplay).
  const ranked: RankedPlan[] = [];
  const layer = workload.nodes.map((): Granularity => 'layer');
  const choices = [...candidates.map((c) => [c, granularities, transfer] as const), ...layerWise.map((c) => [c, layer, layerWiseTransfer] as const)];
  for (const [r, g, via] of choices) {
    const placements: NodePlacement[] = workload.nodes.map((n) => ({ ...r.replication[n.index]!, cores: r.packing.cores[n.index]!, granularity: g[n.index]! }));
    const plan = mirrorHostFedComputes(workload, { strategy, placements, transfer: via, pipelined: true }, enforce ? cost : undefined);
    ranked.push({ plan, estimateNs: estimateSchedule(workload, plan, planReads(workload, plan), cost).periodNs });
  }
  return pickByReplay(context, ranked, 'period')!;
}

/**
 * Why no packing was found when the crossbars would allow one: the local memory, where the same
 * search without the local-memory constraint finds packings (undefined otherwise).
 */
function memoryPackingDetail(context: PlanContext, granularities: readonly Granularity[], search: (constraints: PackingConstraints) => ReplicationPlan[]): string | undefined {
  if (!search({ granularity: granularities, ignoreMemory: true }).length) return undefined;
  return localMemoryPackingDetail(context.workload, context.cost, granularities);
}

/** The `throughput` strategy. */
export const throughputScheduler = createPlanScheduler({
  name: 'throughput',
  description: 'batch-granularity inter-layer pipeline with weight replication into free crossbars, activations in channels',
  optionsSchema: [toleranceOption, localMemoryOption, fallbackOption],
  plan: (context) => planThroughput(context, 'layer', 'throughput'),
});
