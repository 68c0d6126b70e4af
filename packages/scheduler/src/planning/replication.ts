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
import { divisors, type Granularity, type Replication, type TransferMode } from './schedule-plan';
import { minimumReplicas } from './local-memory';

/** What packing must respect besides crossbars and time. */
export interface PackingConstraints {
  /** Granularity per node (default layer): decides which partial results stay live on a core. */
  readonly granularity?: readonly Granularity[];
  /** Ignore local memory (`local-memory=report`). */
  readonly ignoreMemory?: boolean;
  /** Keep the computes of one core close in program order ({@link PackOptions.compactStages}). */
  readonly compactStages?: boolean;
  /** A core of its own per replica while cores remain ({@link PackOptions.spread}). */
  readonly spread?: boolean;
  /** How activations move (default channels): with host slots nothing stays live after a body. */
  readonly transfer?: TransferMode;
  /** Keep replicas off their neighbours' cores where possible ({@link PackOptions.separateNeighbours}). */
  readonly separateNeighbours?: boolean;
}

/** The replica counts of a plan and their packing. */
export interface ReplicationPlan {
  /** Replicas and copies per node. */
  readonly replication: Replication[];
  /** The packing onto virtual cores. */
  readonly packing: CorePacking;
  /** The period the search reached (ns; the busiest core's time). */
  readonly periodNs: number;
}

/**
 * The cheapest replication of `node` whose per-replica time fits `periodNs`: over the divisors
 * r of the lane count (at most `maxReplicas`) and the copies c a core can hold, the fewest
 * crossbars r*c*X (then the fewest replicas); all lanes on distinct cores when nothing fits.
 */
export function replicationForPeriod(node: WorkloadNode, cost: CostModel, periodNs: number, maxReplicas = cost.cores, minReplicas = 1): Replication {
  const maxCopies = node.crossbars > 0 ? Math.max(1, Math.floor(cost.crossbarsPerCore / node.crossbars)) : 1;
  let best: Replication | undefined;
  for (const r of divisors(node.lanes)) {
    if (r > maxReplicas) break;
    if (r < minReplicas) continue;
    const rounds = node.lanes / r;
    for (let c = 1; c <= Math.min(maxCopies, rounds); c++) {
      if (replicaTimeNs(node, cost, r, c) > periodNs) continue;
      if (!best || r * c < best.replicas * best.copies) best = { replicas: r, copies: c };
      break;
    }
  }
  if (best) return best;
  // Nothing fits the period: every lane on a core of its own as far as the cores go (copies
  // on one core do not shorten a replica's time, see replicaTimeNs).
  const r = divisors(node.lanes).filter((d) => d <= maxReplicas).pop() ?? 1;
  return { replicas: r, copies: 1 };
}

/** Crossbars that a replication of every node holds. */
export function crossbarsOf(workload: Workload, replication: readonly Replication[]): number {
  return workload.nodes.reduce((a, n) => a + n.crossbars * replication[n.index]!.replicas * replication[n.index]!.copies, 0);
}

/**
 * Binary search on the period: the smallest T (to `tolerance` relative precision) whose
 * replica counts pack onto the cores with every core busy at most T. Returns undefined when
 * not even one copy per node packs.
 */
export function planReplicasForPeriod(workload: Workload, cost: CostModel, tolerance = 1e-3, constraints: PackingConstraints = {}): ReplicationPlan | undefined {
  return searchPeriods(workload, cost, tolerance, periodAttempt(workload, cost, constraints)).best;
}

/**
 * One try of the period search: each node's cheapest replication within `periodNs`, refused when
 * its crossbars exceed the target's, then packed onto the cores with that time budget (and the
 * packing preferences of `constraints`).
 */
function periodAttempt(workload: Workload, cost: CostModel, constraints: PackingConstraints): (periodNs: number) => ReplicationPlan | undefined {
  const nodes = workload.nodes.length;
  // Local memory sets a floor on replicas: one replica must fit a core (with windows where needed).
  const minimum = constraints.ignoreMemory ? undefined : minimumReplicas(workload, cost, constraints.granularity, constraints.transfer);
  return (periodNs) => {
    const replication = workload.nodes.map((n) => replicationForPeriod(n, cost, periodNs, cost.cores, minimum?.[n.index] ?? 1));
    if (crossbarsOf(workload, replication) > cost.crossbars) return undefined;
    const packing = packReplicas(replicaItems(workload, replication, cost, constraints.granularity, constraints.transfer), nodes, cost, {
      cores: cost.cores,
      timeBudgetNs: periodNs,
      preferAffinity: true,
      ignoreMemory: constraints.ignoreMemory === true,
      compactStages: constraints.compactStages === true,
      spread: constraints.spread === true,
      separateNeighbours: constraints.separateNeighbours === true,
    });
    return packing ? { replication, packing, periodNs: Math.max(0, ...packing.timeNs) } : undefined;
  };
}

/** The binary search on the period: the best plan and every feasible plan it met (largest period first). */
function searchPeriods(
  workload: Workload,
  cost: CostModel,
  tolerance: number,
  attempt: (periodNs: number) => ReplicationPlan | undefined,
): { best?: ReplicationPlan; feasible: ReplicationPlan[] } {
  let hi = workload.nodes.reduce((a, n) => a + replicaTimeNs(n, cost, 1), 0);
  let best = attempt(hi);
  if (!best) return { feasible: [] };
  const feasible = [best];
  let lo = 0;
  while (hi - lo > Math.max(1, hi * tolerance)) {
    const mid = (lo + hi) / 2;
    const r = attempt(mid);
    if (r) {
      best = r;
      feasible.push(r);
      hi = mid;
    } else lo = mid;
  }
  return { best, feasible };
}

/**
 * Candidate replications for a strategy that compares them with the estimate: the plans the
 * binary search on the period accepted (from one copy per node down to the smallest period),
 * distinct replications only, the smallest period first. The packing's period is each core's
 * busy time; the estimate also sees transfers and how computes of several layers on one core
 * delay the next inference, so the smallest packed period is not always the best schedule.
 */
export function replicationCandidates(workload: Workload, cost: CostModel, tolerance = 1e-3, constraints: PackingConstraints = {}): ReplicationPlan[] {
  const attempt = periodAttempt(workload, cost, constraints);
  const { feasible } = searchPeriods(workload, cost, tolerance, attempt);
  const seen = new Set<string>();
  const out: ReplicationPlan[] = [];
  for (const r of [...feasible].reverse()) {
    const key = r.replication.map((x) => `${x.replicas}x${x.copies}`).join(',') + '|' + r.packing.cores.map((c) => c.join('.')).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  return out;
}

/** One copy of every node, packed without a time limit (the baseline capacity check). */
export function planSingleCopies(workload: Workload, cost: CostModel, preferAffinity: boolean, constraints: PackingConstraints = {}): ReplicationPlan | undefined {
  const minimum = constraints.ignoreMemory ? undefined : minimumReplicas(workload, cost, constraints.granularity, constraints.transfer);
  const replication = workload.nodes.map((n) => ({ replicas: minimum?.[n.index] ?? 1, copies: 1 }));
  const packing = packReplicas(replicaItems(workload, replication, cost, constraints.granularity, constraints.transfer), workload.nodes.length, cost, {
    cores: cost.cores,
    timeBudgetNs: Infinity,
    preferAffinity,
    ignoreMemory: constraints.ignoreMemory === true,
  });
  return packing ? { replication, packing, periodNs: Math.max(0, ...packing.timeNs) } : undefined;
}

/**
 * Per node, the most replicas (a divisor of its lanes) up to `cap`, one weight copy each, and at
 * least `minimum` (what local memory asks for).
 */
export function spreadReplication(workload: Workload, cap: number, minimum?: readonly number[]): Replication[] {
  return workload.nodes.map((n) => {
    const fitting = divisors(n.lanes).filter((d) => d <= cap);
    const replicas = Math.max(fitting[fitting.length - 1] ?? 1, minimum?.[n.index] ?? 1);
    return { replicas, copies: 1 };
  });
}

/**
 * The replications of the layer-wise spreads: {@link spreadReplication} up to all, half and a
 * quarter of the cores, most replicas first.
 */
export function layerWiseReplications(workload: Workload, cost: CostModel, minimum?: readonly number[]): Replication[][] {
  return [cost.cores, cost.cores / 2, cost.cores / 4].map((cap) => spreadReplication(workload, cap, minimum));
}

/**
 * Layer-wise spreads: every compute at layer granularity with its replicas up to all, half or a
 * quarter of the cores ({@link layerWiseReplications}, at least what local memory asks for), one
 * replica per core while cores remain, kept off the cores of their neighbours where possible
 * ({@link PackOptions.separateNeighbours}); the ones that pack, most replicas first.
 */
export function layerWiseCandidates(workload: Workload, cost: CostModel, constraints: PackingConstraints = {}): ReplicationPlan[] {
  const granularity = workload.nodes.map((): Granularity => 'layer');
  const minimum = constraints.ignoreMemory ? undefined : minimumReplicas(workload, cost, granularity, constraints.transfer);
  const out: ReplicationPlan[] = [];
  for (const replication of layerWiseReplications(workload, cost, minimum)) {
    if (crossbarsOf(workload, replication) > cost.crossbars) continue;
    const packing = packReplicas(replicaItems(workload, replication, cost, granularity, constraints.transfer), workload.nodes.length, cost, {
      cores: cost.cores,
      timeBudgetNs: Infinity,
      preferAffinity: true,
      ignoreMemory: constraints.ignoreMemory === true,
      compactStages: true,
      spread: true,
      separateNeighbours: true,
    });
    if (packing) out.push({ replication, packing, periodNs: Math.max(0, ...packing.timeNs) });
  }
  return out;
}
