/**
 * `latency`: a fine-grained pipeline for batch 1. Every round (graph lane: a row or pixel
 * window) of a consumer starts as soon as the producer fragments it reads have arrived, so
 * layers overlap within one inference. Replication is chosen greedily where it shortens the
 * estimated critical path: starting from the best estimate among one copy per layer, the
 * throughput replication, and layer-wise spreads (every compute at layer granularity over up to
 * all, half or a quarter of the cores, packed with and without keeping replicas off their
 * neighbours' cores), the node change (next replica count, or one more weight copy on its
 * cores) that lowers the estimated latency most is taken, until nothing improves or capacity
 * runs out. Where windows cannot overlap layers (the pipeline would deadlock, or a layer needs
 * its whole input), a layer-wise spread is the shorter: each layer's replicas compute side by
 * side, provided no core holds both a replica and a send task to a later replica of the same
 * layer (blocking transfers in one global order would chain them).
 */
import { uintOption } from '@raptor-pim/ir-core';
import type { CostModel } from '@raptor-pim/pim-target';
import type { Workload } from '../analysis/workload';
import { packReplicas, replicaItems, replicaTimeNs } from '../planning/core-mapping';
import { enforcesLocalMemory, granularityForMemory, localMemoryOption, localMemoryPackingDetail, minimumReplicas, replicaCrossbarShortfall } from '../planning/local-memory';
import { mirrorHostFedComputes } from '../planning/mirrors';
import { estimateSchedule } from '../planning/estimate';
import { crossbarsOf, layerWiseReplications, planReplicasForPeriod } from '../planning/replication';
import { divisors, type Granularity, type NodePlacement, type Replication, type SchedulePlan, type TransferMode } from '../planning/schedule-plan';
import { planReads } from '../planning/transfers';
import { createPlanScheduler, type PlanContext } from '../scheduler';
import { fallbackOption, layerSequentialFallback } from './layer-sequential';
import { SchedulerMessages as M } from '../diagnostics';

const stepsOption = uintOption('max-steps', 6, 'greedy replication steps');

/**
 * How a candidate replication is packed: the plan's granularity per node, the granularity whose
 * memory packing reserves (layer where it fits, so that the driver's fallback to layer
 * granularity, when the window pipeline would deadlock, still fits), and whether memory binds.
 */
interface Packing {
  readonly granularity: readonly Granularity[];
  readonly reserve: readonly Granularity[];
  readonly enforce: boolean;
  /** A core per replica while cores remain, then stage-compact (see PackOptions). */
  readonly spread?: boolean;
  /** How activations move (default channels; host slots when the on-chip pipeline does not fit). */
  readonly transfer?: TransferMode;
  /** No replica beside a producer or consumer of its node (see PackOptions). */
  readonly separate?: boolean;
}

function planFor(workload: Workload, cost: CostModel, replication: readonly Replication[], packing: Packing): SchedulePlan | undefined {
  if (crossbarsOf(workload, replication) > cost.crossbars) return undefined;
  const packed = packReplicas(replicaItems(workload, replication, cost, packing.reserve, packing.transfer), workload.nodes.length, cost, {
    cores: cost.cores,
    timeBudgetNs: Infinity,
    preferAffinity: true,
    ignoreMemory: !packing.enforce,
    spread: packing.spread === true,
    compactStages: packing.spread === true,
    separateNeighbours: packing.separate === true,
  });
  if (!packed) return undefined;
  const placements: NodePlacement[] = workload.nodes.map((n) => ({ ...replication[n.index]!, cores: packed.cores[n.index]!, granularity: packing.granularity[n.index]! }));
  return mirrorHostFedComputes(workload, { strategy: 'latency', placements, transfer: packing.transfer ?? 'channel', pipelined: true }, packing.enforce ? cost : undefined);
}

function latencyOf(workload: Workload, plan: SchedulePlan, cost: CostModel): number {
  return estimateSchedule(workload, plan, planReads(workload, plan), cost).latencyNs;
}

function planLatency(context: PlanContext): SchedulePlan | string {
  const { workload, cost, options } = context;
  const enforce = enforcesLocalMemory(options);
  let packing: Packing = {
    granularity: enforce ? granularityForMemory(workload, cost, 'window') : workload.nodes.map(() => 'window'),
    reserve: enforce ? granularityForMemory(workload, cost, 'layer') : workload.nodes.map(() => 'window'),
    enforce,
  };
  // One copy per layer, split over as many cores as its data needs (local memory).
  let minimum = enforce ? minimumReplicas(workload, cost, packing.reserve) : undefined;
  let single: Replication[] = workload.nodes.map((n) => ({ replicas: minimum?.[n.index] ?? 1, copies: 1 }));
  if (enforce && !planFor(workload, cost, single, packing) && !planFor(workload, cost, single, { ...packing, spread: true })) {
    // The activations kept on chip exceed the cores' local memory: spill them through host slots.
    packing = { ...packing, granularity: packing.granularity.map(() => 'layer'), reserve: packing.reserve.map(() => 'layer'), transfer: 'host' };
    minimum = minimumReplicas(workload, cost, packing.reserve, 'host');
    single = workload.nodes.map((n) => ({ replicas: minimum?.[n.index] ?? 1, copies: 1 }));
  }
  const balanced = planReplicasForPeriod(workload, cost, 1e-3, { granularity: packing.reserve, ignoreMemory: !enforce, ...(packing.transfer ? { transfer: packing.transfer } : {}) })?.replication;
  interface Candidate {
    replication: Replication[];
    plan: SchedulePlan;
    latency: number;
  }
  let current: Candidate | undefined;
  let best: Packing = packing;
  // Layer after layer, each spread over the cores (data parallel): no window pipeline, so no
  // deadlock repair later; where the window pipeline cannot overlap layers, it is the shorter.
  const layerWise: Packing = { ...packing, granularity: packing.reserve.map(() => 'layer'), reserve: packing.reserve.map(() => 'layer'), spread: true };
  const layerMinimum = enforce ? minimumReplicas(workload, cost, layerWise.granularity, layerWise.transfer) : undefined;
  const starts: { packing: Packing; replication: Replication[] }[] = [];
  for (const p of [packing, { ...packing, spread: true }]) for (const r of balanced ? [single, balanced] : [single]) starts.push({ packing: p, replication: r });
  const layerApart: Packing = { ...layerWise, separate: true };
  for (const p of [layerWise, layerApart]) for (const r of layerWiseReplications(workload, cost, layerMinimum)) starts.push({ packing: p, replication: r });
  // Starting points: one copy per layer and the period search's replication, packed first-fit
  // or spread over the cores, and the layer-wise spreads; the greedy steps keep the packing of
  // the best one.
  for (const { packing: p, replication: r } of starts) {
    const plan = planFor(workload, cost, r, p);
    if (!plan) continue;
    const latency = latencyOf(workload, plan, cost);
    if (!current || latency < current.latency * 0.999) {
      current = { replication: [...r], plan, latency };
      best = p;
    }
  }
  if (!current) {
    const shortfall = enforce ? replicaCrossbarShortfall(workload, cost, packing.reserve, packing.transfer) : undefined;
    // Local memory alone, where one copy per layer packs without it.
    const memory = enforce && !shortfall && planFor(workload, cost, single, { ...packing, enforce: false }) ? localMemoryPackingDetail(workload, cost, packing.reserve, packing.transfer) : undefined;
    return layerSequentialFallback(context, M.noPacking('latency', cost.cores, shortfall ?? memory));
  }
  const chosenPacking = best;
  let chosen: Candidate = current;
  const steps = Number(options['max-steps'] ?? 6);
  for (let step = 0; step < steps; step++) {
    const cur: Candidate = chosen;
    // Candidates: the nodes with the longest per-replica time (at most 3, deterministic order).
    const time = (i: number): number => replicaTimeNs(workload.nodes[i]!, cost, cur.replication[i]!.replicas, cur.replication[i]!.copies);
    const candidates = workload.nodes
      .filter((n) => cur.replication[n.index]!.replicas * cur.replication[n.index]!.copies < n.lanes)
      .sort((a, b) => time(b.index) - time(a.index) || a.index - b.index)
      .slice(0, 3);
    let improved: Candidate | undefined;
    for (const n of candidates) {
      const { replicas, copies } = cur.replication[n.index]!;
      const options: Replication[] = [];
      const next = divisors(n.lanes).find((d) => d > replicas);
      if (next !== undefined && next <= cost.cores) options.push({ replicas: next, copies: Math.min(copies, n.lanes / next) });
      if (n.crossbars > 0 && (copies + 1) * n.crossbars <= cost.crossbarsPerCore && copies + 1 <= n.lanes / replicas) options.push({ replicas, copies: copies + 1 });
      for (const o of options) {
        const r = [...cur.replication];
        r[n.index] = o;
        const plan = planFor(workload, cost, r, chosenPacking);
        if (!plan) continue;
        const latency = latencyOf(workload, plan, cost);
        if (latency < (improved ?? cur).latency * 0.999) improved = { replication: r, plan, latency };
      }
    }
    if (!improved) break;
    chosen = improved;
  }
  return chosen.plan;
}

/** The `latency` strategy. */
export const latencyScheduler = createPlanScheduler({
  name: 'latency',
  description: 'fine-grained (row/window) pipeline for batch 1 with replication where it shortens the critical path',
  optionsSchema: [stepsOption, localMemoryOption, fallbackOption],
  plan: planLatency,
});
