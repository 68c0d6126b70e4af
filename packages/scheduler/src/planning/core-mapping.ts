/**
 * Core mapping: packing replicas of graph computes onto (virtual) cores under each core's
 * crossbar capacity, local memory and a time budget, keeping each replica's array groups on
 * one core and the replicas of one compute on distinct cores.
 */
import type { CostModel } from '@raptor-pim/pim-target';
import type { Workload, WorkloadNode } from '../analysis/workload';
import { laneWorkOf } from './estimate';
import { hasConsumers, placedFootprint, type FootprintMode, type ReplicaFootprint } from './local-memory';
import { partBytes } from './windows';
import type { Granularity, Replication, TransferMode } from './schedule-plan';

/** One replica to place. */
export interface ReplicaItem {
  /** Node index. */
  readonly node: number;
  /** Replica (scheduled lane) index. */
  readonly replica: number;
  /** Crossbars it holds. */
  readonly crossbars: number;
  /** Busy time per inference on its core (ns). */
  readonly timeNs: number;
  /** Peak local memory of its body while it runs (bytes; {@link replicaFootprint}). */
  readonly memoryBytes: number;
  /** Bytes it keeps live on its core after its body (partial results read later by send tasks). */
  readonly retainedBytes: number;
  /** Nodes whose results it reads (a replica of one on the same core forwards its result locally). */
  readonly producers: readonly number[];
  /** Bytes of its results (kept live when a consumer runs on the same core). */
  readonly resultBytes: number;
  /** A node whose cores this replica prefers (its main producer), or -1. */
  readonly affinity: number;
}

/** A packing: per node, the core of each replica; per core its load. */
export interface CorePacking {
  /** cores[node][replica] = core index. */
  readonly cores: number[][];
  /** Crossbars used per core. */
  readonly crossbarsUsed: number[];
  /** Busy time per core. */
  readonly timeNs: number[];
  /**
   * Bound on the peak memory per core: the largest replica body plus every partial result kept
   * live on the core (a core runs its computes one after another; forwarded results stay live).
   */
  readonly memoryBytes: number[];
}

const laneNsCache = new WeakMap<CostModel, WeakMap<object, number>>();

/**
 * The time one lane of `node` keeps its core busy, priced as the estimate prices it
 * ({@link laneWorkOf}: the lane's `mvmul`s, vector instructions and local copies one after
 * another) plus its transfers; cached per cost model and graph compute.
 */
export function laneBusyNs(node: WorkloadNode, cost: CostModel): number {
  let byOp = laneNsCache.get(cost);
  if (!byOp) laneNsCache.set(cost, (byOp = new WeakMap()));
  let ns = byOp.get(node.op);
  if (ns === undefined) {
    const w = laneWorkOf(node.op, cost);
    ns = w.mvmNs + w.vectorNs + w.copyNs + node.laneTransferNs;
    byOp.set(node.op, ns);
  }
  return ns;
}

/**
 * Per-replica busy time of a node with `replicas` replicas: its rounds run one after another
 * ({@link laneBusyNs} each). A lowered lane's instructions depend on one another (the code
 * reuses its buffers), so further weight copies on the same core (`copies`) do not overlap
 * rounds and leave the time unchanged; parallelism comes from replicas on distinct cores.
 */
export function replicaTimeNs(node: WorkloadNode, cost: CostModel, replicas: number, copies = 1): number {
  void copies;
  return Math.ceil(node.lanes / replicas) * laneBusyNs(node, cost);
}

/**
 * The replicas of every node as items (node order, then replica order); `granularity` (per
 * node, default layer) decides which partial results a replica keeps for its readers; `transfer`
 * is the plan's, or per node how its footprint is modelled (see `footprintMode`).
 */
export function replicaItems(
  workload: Workload,
  replication: readonly Replication[],
  cost: CostModel,
  granularity?: readonly Granularity[],
  transfer: TransferMode | ((node: WorkloadNode) => FootprintMode) = 'channel',
): ReplicaItem[] {
  const items: ReplicaItem[] = [];
  for (const n of workload.nodes) {
    const { replicas: r, copies } = replication[n.index]!;
    const mode = typeof transfer === 'function' ? transfer(n) : { transfer, keepsResults: false };
    const placed = placedFootprint(workload, n, r, granularity?.[n.index] ?? 'layer', cost, mode.transfer, mode.keepsResults, mode.interleaved);
    let footprint: ReplicaFootprint = placed;
    if (granularity?.[n.index] === 'window') {
      // A window pipeline that deadlocks falls back to layer granularity on the same cores: keep
      // room for that where it fits a core (a streamed result is not kept at window granularity).
      const layer = placedFootprint(workload, n, r, 'layer', cost, mode.transfer, mode.keepsResults, mode.interleaved);
      if (layer.bodyBytes <= cost.localMemoryBytes && layer.bodyBytes > footprint.bodyBytes) footprint = layer;
    }
    const producers = [...new Set(n.inputs.flatMap((i) => i.sources.map((s) => s.producer)))].sort((a, b) => a - b);
    const windows = placed.windows;
    const resultBytes = hasConsumers(workload, n.index)
      ? n.resultBytes.reduce((a, b, k) => a + Math.ceil((windows ? partBytes(n, k, r) : b) / cost.localAlignment) * cost.localAlignment, 0)
      : 0;
    let affinity = -1;
    let best = -1;
    for (const input of n.inputs) {
      for (const s of input.sources) {
        const bytes = s.slotBytes * s.slotsPerLane.reduce((a, x) => a + x.length, 0);
        if (bytes > best) {
          best = bytes;
          affinity = s.producer;
        }
      }
    }
    for (let j = 0; j < r; j++) {
      items.push({
        node: n.index,
        replica: j,
        crossbars: n.crossbars * copies,
        timeNs: replicaTimeNs(n, cost, r, copies),
        memoryBytes: footprint.bodyBytes,
        retainedBytes: footprint.retainedBytes,
        producers,
        resultBytes,
        affinity,
      });
    }
  }
  return items;
}

/** Options of {@link packReplicas}. */
export interface PackOptions {
  /** Cores available. */
  readonly cores: number;
  /** Maximum busy time per core (Infinity: no time limit). */
  readonly timeBudgetNs: number;
  /** Co-locate weightless replicas with their producer's replica of the same index when it fits. */
  readonly preferAffinity: boolean;
  /** Pack without the local-memory constraint (`local-memory=report`). */
  readonly ignoreMemory?: boolean;
  /**
   * Among the cores an item fits, take the one whose computes stay closest to it in program
   * order (the smallest span of node indices) instead of the first: a core looping over
   * computes of distant layers holds the next inference back by the time between them.
   */
  readonly compactStages?: boolean;
  /** Give every item a core of its own while cores remain (then {@link PackOptions.compactStages} or first fit). */
  readonly spread?: boolean;
  /**
   * Never put a replica on a core that hosts a producer or a consumer of its node. With layer
   * granularity a core that hosts both a consumer replica and a send task to a later replica of
   * the same consumer computes in between (blocking transfers in one global order), which chains
   * the replicas of a layer one after another; apart, they compute side by side.
   */
  readonly separateNeighbours?: boolean;
}

/**
 * First-fit-decreasing packing (largest crossbars first, then longest time; ties by node and
 * replica, so the result is deterministic). Returns undefined when the items do not fit.
 */
export function packReplicas(items: readonly ReplicaItem[], nodes: number, cost: CostModel, options: PackOptions): CorePacking | undefined {
  const order = items.map((_, i) => i);
  order.sort((a, b) => {
    const x = items[a]!;
    const y = items[b]!;
    return y.crossbars - x.crossbars || y.timeNs - x.timeNs || x.node - y.node || x.replica - y.replica;
  });
  const cores: number[][] = Array.from({ length: nodes }, () => []);
  const crossbarsUsed: number[] = [];
  const timeNs: number[] = [];
  const memoryBytes: number[] = [];
  const hosts: Set<number>[] = [];
  // Per core: the largest body beyond what the item itself keeps afterwards, and the partial
  // results kept live (node -> bytes); the peak is at most their sum.
  const largestBody: number[] = [];
  const kept: Map<number, number>[] = [];
  const byNode = new Map(items.map((x) => [x.node, x]));
  const replicasOf = new Map<number, number>();
  for (const x of items) replicasOf.set(x.node, (replicasOf.get(x.node) ?? 0) + 1);
  const bodyBeyondKept = (it: ReplicaItem): number => Math.max(0, it.memoryBytes - it.retainedBytes);
  /** Retained bytes per node on core `c` once `it` joins it (forwarding in either direction keeps a result live). */
  const keptWith = (c: number, it: ReplicaItem): Map<number, number> => {
    const next = new Map(kept[c]!);
    const keepNode = (node: number, bytes: number): void => {
      if (bytes > (next.get(node) ?? 0)) next.set(node, bytes);
    };
    if (it.retainedBytes > 0) keepNode(it.node, it.retainedBytes);
    for (const p of it.producers) if (hosts[c]!.has(p)) keepNode(p, byNode.get(p)?.resultBytes ?? 0);
    for (const n of hosts[c]!) if (byNode.get(n)?.producers.includes(it.node)) keepNode(it.node, it.resultBytes);
    return next;
  };
  const sum = (m: Map<number, number>): number => {
    let t = 0;
    for (const b of m.values()) t += b;
    return t;
  };
  /** True when `it` fits core `c` (and, when `apart`, the core hosts none of its neighbours). */
  const fits = (c: number, it: ReplicaItem, apart = false): boolean =>
    crossbarsUsed[c]! + it.crossbars <= cost.crossbarsPerCore &&
    timeNs[c]! + it.timeNs <= options.timeBudgetNs &&
    (options.ignoreMemory === true || Math.max(largestBody[c]!, bodyBeyondKept(it)) + sum(keptWith(c, it)) <= cost.localMemoryBytes) &&
    !hosts[c]!.has(it.node) &&
    !(apart && neighbourOn(c, it));
  /** True when core `c` hosts a producer or a consumer of the item's node. */
  const neighbourOn = (c: number, it: ReplicaItem): boolean => {
    for (const n of hosts[c]!) if (it.producers.includes(n) || byNode.get(n)?.producers.includes(it.node)) return true;
    return false;
  };
  const put = (c: number, it: ReplicaItem): void => {
    crossbarsUsed[c]! += it.crossbars;
    timeNs[c]! += it.timeNs;
    kept[c] = keptWith(c, it);
    largestBody[c] = Math.max(largestBody[c]!, bodyBeyondKept(it));
    memoryBytes[c] = largestBody[c]! + sum(kept[c]!);
    hosts[c]!.add(it.node);
    cores[it.node]![it.replica] = c;
  };
  // Weighted items first (they decide the cores), weightless ones after so they can follow their producer.
  const weighted = order.filter((i) => items[i]!.crossbars > 0);
  const weightless = order.filter((i) => items[i]!.crossbars === 0);
  for (const i of [...weighted, ...weightless]) {
    const it = items[i]!;
    if (it.crossbars > cost.crossbarsPerCore) return undefined;
    // Apart from its neighbours where some core allows it, else wherever it fits.
    let chosen = options.separateNeighbours === true ? choose(it, true) : -1;
    if (chosen < 0) chosen = choose(it, false);
    if (chosen < 0) return undefined;
    put(chosen, it);
  }
  return { cores, crossbarsUsed, timeNs, memoryBytes };

  /** The core `it` goes to (opening one where needed; `apart`: see {@link fits}), or -1 when none can take it. */
  function choose(it: ReplicaItem, apart: boolean): number {
    let chosen = -1;
    if (options.preferAffinity && it.affinity >= 0) {
      const pc = cores[it.affinity];
      const c = pc && pc.length ? pc[it.replica % pc.length] : undefined;
      // Beside the producer replica of the same index when both have as many replicas: its reads
      // of that producer stay on the core (no send task there), so it need not keep apart.
      const aligned = replicasOf.get(it.affinity) === replicasOf.get(it.node);
      if (c !== undefined && fits(c, it, apart && !aligned)) chosen = c;
    }
    const open = (): number => {
      crossbarsUsed.push(0);
      timeNs.push(0);
      memoryBytes.push(0);
      largestBody.push(0);
      kept.push(new Map());
      hosts.push(new Set());
      return crossbarsUsed.length - 1;
    };
    if (chosen < 0 && options.spread && crossbarsUsed.length < options.cores) {
      chosen = open();
      return fits(chosen, it, apart) ? chosen : -1;
    }
    if (chosen < 0 && options.compactStages) {
      let bestSpan = Infinity;
      for (let c = 0; c < crossbarsUsed.length; c++) {
        if (!fits(c, it, apart)) continue;
        let lo = it.node;
        let hi = it.node;
        for (const n of hosts[c]!) {
          lo = Math.min(lo, n);
          hi = Math.max(hi, n);
        }
        if (hi - lo < bestSpan) {
          bestSpan = hi - lo;
          chosen = c;
        }
      }
    }
    for (let c = 0; chosen < 0 && c < crossbarsUsed.length; c++) if (fits(c, it, apart)) chosen = c;
    if (chosen < 0) {
      if (crossbarsUsed.length >= options.cores) return -1;
      chosen = open();
      if (!fits(chosen, it, apart)) return -1;
    }
    return chosen;
  }
}
