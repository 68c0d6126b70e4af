/**
 * A schedule before it is written into the IR: per graph compute its replica count (scheduled
 * lanes) and the core of each replica, how data moves between cores, and at which granularity
 * a consumer waits for its producer. Strategies build a plan with the building blocks of
 * `planning/`; `materializeSchedule` writes it into the module.
 *
 * The lanes of a node with `r` replicas are split in `r` contiguous blocks of
 * `lanes / r` (block distribution, so a replica reads a compact window of its input): lane
 * `l` runs on replica `floor(l / (lanes / r))` in round `l % (lanes / r)`, on that replica's
 * core, with weight copy `round % copies`.
 */
import type { WorkloadNode } from '../analysis/workload';

/** Replicas and weight copies per replica of one node. */
export interface Replication {
  /** Replicas (distinct cores); divides the lanes. */
  readonly replicas: number;
  /** Weight copies per replica. */
  readonly copies: number;
}

/** How payloads between two cores move. */
export type TransferMode = 'channel' | 'host';

/**
 * When a consumer may start: `layer` waits for every fragment it reads before its first round
 * (batch granularity: receives at body entry, sends at body exit); `window` starts each round
 * as soon as that round's fragments arrived (fine-grained pipeline: receives and sends around
 * every round).
 */
export type Granularity = 'layer' | 'window';

/** Placement of one graph compute. */
export interface NodePlacement {
  /** Replicas = scheduled computes on distinct cores; divides the node's graph lanes. */
  readonly replicas: number;
  /**
   * Weight copies each replica holds on its core: its rounds use them in turn, so `copies`
   * consecutive rounds (a wave) drive distinct array groups and their MVMs overlap.
   */
  readonly copies: number;
  /** Core of each replica (distinct). */
  readonly cores: readonly number[];
  /** When consumers of this node's inputs may start. */
  readonly granularity: Granularity;
  /**
   * Further cores that compute the whole node too (a weightless scalar compute fed only by
   * host values, recomputed where it is read instead of broadcast; see `mirrorHostFedComputes`).
   */
  readonly mirrors?: readonly number[];
  /**
   * Replicas hold only what they need (`planning/windows.ts`): of every input with an
   * `InputWindow` the window their lanes read, of their results their own slots. Set where the
   * whole values would not fit a core's local memory.
   */
  readonly windows?: boolean;
  /**
   * Streaming windows (with `windows`, at window granularity through channels): a replica takes
   * its rounds in runs of `windowRounds` and holds, of every windowed input, only the window of
   * the current run, received afresh for each run (a fragment two runs read is sent twice).
   * Undefined: one window for all of the replica's rounds.
   */
  readonly windowRounds?: number;
  /**
   * Exact streaming windows (with `windowRounds`): a run's window is only what its lanes read,
   * with no line buffer, and every transfer into it moves a piece of a fragment (what the run
   * reads of that slot) instead of the whole fragment. Set where line-buffer windows (whole
   * fragments of the slots a run reads) do not fit a core even one round per run; overlapping
   * reads of neighbouring runs are moved again. The built-in planning sets it through host
   * slots only: through channels a producer would block on pieces of later runs (see
   * `placedFootprint`); materialization supports it there where that cannot happen (one run per
   * replica, or one replica per node).
   */
  readonly exactWindows?: boolean;
  /**
   * The node's results reach every reader on another core through host slots (READY/FREE),
   * whatever the plan's `transfer`: a spill, for a value that should not stay on chip or whose
   * readers run much later on cores it shares (readers on its own core take it as SSA). Each
   * replica stores its partial result once, after its body, and never waits for a reader.
   */
  readonly spill?: boolean;
  /**
   * The node's replicas load from host slots even what producer replicas on their own core
   * made (of producers read through host slots), instead of taking it as SSA: the producer's
   * partial result then does not stay live on the core until the reader runs (a layer-after-layer
   * schedule where no core has room for both). The writer signals READY to its own core.
   */
  readonly selfHostReads?: boolean;
  /**
   * In a host plan (`transfer: 'host'`): the node's results reach its readers through channels
   * instead of host slots, round by round (window granularity), for a value too large for host
   * memory. The node's replicas and its readers' replicas run side by side, each on a core no
   * other of them takes (see {@link streamGroups}).
   */
  readonly onChip?: boolean;
  /**
   * The replicas take the node's lanes round-robin in runs of this many consecutive lanes (lane
   * `l` on replica `floor(l / b) mod replicas`, a replica's rounds in lane order) instead of in
   * contiguous blocks; unset or 0: contiguous blocks. For a value streamed into readers that take
   * its fragments in lane order (`onChip`): with blocking sends, contiguous blocks reach the
   * readers one replica after another, interleaved lanes side by side. A run is the lanes that
   * read one row of the input (the channel chunks of a split lane, say), so a reader gets a row
   * from one replica.
   */
  readonly interleaved?: number;
}

/** A complete plan: one placement per workload node, in node order. */
export interface SchedulePlan {
  /** The strategy that made it (for reports). */
  readonly strategy: string;
  /** Per node. */
  readonly placements: readonly NodePlacement[];
  /** How payloads between cores move. */
  readonly transfer: TransferMode;
  /**
   * True when consecutive inferences overlap (a pipeline: the period is the busiest core's time);
   * false when an inference starts after the previous one finished (period = latency).
   */
  readonly pipelined: boolean;
  /**
   * Set when the strategy could not build its own kind of schedule and returns another kind (a
   * throughput or latency pipeline that does not fit the target, scheduled layer after layer):
   * why. The driver reports it as a warning and names it in any later refusal.
   */
  readonly fallback?: string;
  /**
   * Crossbars a layer-after-layer plan gives to weight replicas beyond `layer-sequential`'s own
   * (`planReplicatedLayers`; reported with the fallback).
   */
  readonly replicaCrossbars?: number;
}

/** True when readers of `producer` on other cores load its results from host slots (host plan, or a spilled node). */
export function readsThroughHost(plan: Pick<SchedulePlan, 'transfer' | 'placements'>, producer: number): boolean {
  const p = plan.placements[producer];
  return p?.spill === true || (plan.transfer === 'host' && p?.onChip !== true);
}

/**
 * The groups of nodes that run side by side in a host plan: a node kept on chip
 * ({@link NodePlacement.onChip}) with its readers, joined where they overlap. Every node maps to
 * the first and last node (in node order) of its group; a node in no group to itself. Host
 * slots read or written inside a group are live across the whole group.
 */
export function streamGroups(plan: Pick<SchedulePlan, 'placements'>, readersOf: (node: number) => readonly number[]): { first: number[]; last: number[] } {
  const n = plan.placements.length;
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  plan.placements.forEach((p, i) => {
    if (!p.onChip) return;
    for (const r of readersOf(i)) parent[find(r)] = find(i);
  });
  const first = Array.from({ length: n }, (_, i) => i);
  const last = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < n; i++) {
    const root = find(i);
    first[root] = Math.min(first[root]!, i);
    last[root] = Math.max(last[root]!, i);
  }
  for (let i = 0; i < n; i++) {
    first[i] = first[find(i)]!;
    last[i] = last[find(i)]!;
  }
  return { first, last };
}

/** True when the plan moves some payload through host slots. */
export function usesHostSlots(plan: Pick<SchedulePlan, 'transfer' | 'placements'>): boolean {
  return plan.transfer === 'host' || plan.placements.some((p) => p.spill === true);
}

/** Rounds (lanes per replica) of a placement of a node with `lanes` lanes. */
export function roundsOf(p: Pick<NodePlacement, 'replicas'>, lanes: number): number {
  return Math.ceil(lanes / p.replicas);
}

/** The replica that runs graph lane `lane`. */
export function replicaOfLane(p: Pick<NodePlacement, 'replicas' | 'interleaved'>, lanes: number, lane: number): number {
  return p.interleaved ? Math.floor(lane / p.interleaved) % p.replicas : Math.floor(lane / roundsOf(p, lanes));
}

/** The graph lanes of replica `replica`, in round order. */
export function lanesOfReplica(p: Pick<NodePlacement, 'replicas' | 'interleaved'>, lanes: number, replica: number): number[] {
  const out: number[] = [];
  if (p.interleaved) {
    const b = p.interleaved;
    for (let first = replica * b; first < lanes; first += p.replicas * b) for (let l = first; l < Math.min(lanes, first + b); l++) out.push(l);
    return out;
  }
  const rounds = roundsOf(p, lanes);
  for (let l = replica * rounds; l < Math.min(lanes, (replica + 1) * rounds); l++) out.push(l);
  return out;
}

/** The round in which graph lane `lane` runs on its replica (its slot in the replica's part of the results). */
export function roundOfLane(p: Pick<NodePlacement, 'replicas' | 'interleaved'>, lanes: number, lane: number): number {
  if (p.interleaved) {
    const b = p.interleaved;
    return Math.floor(lane / (b * p.replicas)) * b + (lane % b);
  }
  return lane - replicaOfLane(p, lanes, lane) * roundsOf(p, lanes);
}

/** The core that runs graph lane `lane` of a placement of a node with `lanes` lanes. */
export function coreOfLane(p: NodePlacement, lanes: number, lane: number): number {
  return p.cores[replicaOfLane(p, lanes, lane)]!;
}

/**
 * The replica counts a node may take: divisors of its lanes up to `cores`, multiples of its lane
 * groups where any are (a lane-grouped split keeps each replica within one group).
 */
export function replicaCounts(node: Pick<WorkloadNode, 'lanes' | 'laneGroups'>, cores: number): number[] {
  const all = divisors(node.lanes).filter((d) => d <= cores);
  const grouped = all.filter((d) => d % node.laneGroups === 0);
  return grouped.length ? grouped : all;
}

/** The divisors of `n` in increasing order. */
export function divisors(n: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) out.push(d);
  return out;
}
