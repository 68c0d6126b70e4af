/**
 * The local-memory model of a schedule: per core, the peak of live bytes that the core's stream
 * will hold once the plan is materialized and bufferized (every `tensor` value of a scheduled
 * body becomes one local allocation, live from its definition to its last use; computes placed
 * on one core run in program order in one stream, so a partial result forwarded to a later
 * compute on the same core stays live in between).
 *
 * What a replica of a graph compute allocates (the form `materializeSchedule` writes):
 * - one reconstruction buffer per input source read from other cores: the whole producer
 *   result (fragments are inserted into a full-size value), plus the received message while it
 *   is copied in;
 * - per round, the logical tensor of every `spat.blueprint` input (the blueprint is cloned into
 *   each round) and the round's temporaries (the two largest values alive around one op);
 * - the graph inputs and constants it reads, loaded from host memory;
 * - its partial result (a whole result value, for a batch also at window granularity); it stays
 *   live after the body when something reads it later on the core: a send task (layer
 *   granularity), a consumer on the same core; at window granularity the fragments are sent
 *   round by round and nothing stays live after the body.
 *
 * The model is conservative where the form is ambiguous (an input forwarded from the same core
 * that also receives fragments counts one more full copy). {@link replicaFootprint} is the
 * per-replica bound used while packing (no reads known yet); {@link planLocalMemory} replays a
 * complete plan core by core.
 */
import { enumOption } from '@raptor-pim/ir-core';
import { SchedulerMessages as M } from '../diagnostics';
import type { CostModel } from '@raptor-pim/pim-target';
import { byteSizeOfType, type Workload, type WorkloadNode } from '../analysis/workload';
import { divisors, readsThroughHost, replicaCounts, replicaOfLane, type Granularity, type SchedulePlan, type TransferMode } from './schedule-plan';
import { readsByConsumerReplica, type ReplicaInputReads } from './transfers';
import { largestReplicaWindowBytes, largestRunWindowBytes, partBytes } from './windows';

/** Bytes rounded up to the local allocation alignment. */
function aligned(bytes: number, cost: CostModel): number {
  return Math.ceil(bytes / cost.localAlignment) * cost.localAlignment;
}

/** What one replica of a node holds while it runs, before co-location with other computes. */
export interface ReplicaFootprint {
  /** Peak bytes of the replica's own body (inputs, round temporaries, partial results). */
  readonly bodyBytes: number;
  /** Bytes it leaves live after its body for later computes on its core (layer granularity: its partial results). */
  readonly retainedBytes: number;
  /** The parts of `bodyBytes`, for diagnostics. */
  readonly parts: MemoryParts;
}

/** The parts of a replica's peak. */
export interface MemoryParts {
  /** Reconstruction buffers of the inputs read from other computes. */
  readonly inputs: number;
  /** Graph inputs and constants loaded from host memory. */
  readonly hostData: number;
  /** Blueprint reconstructions of one round. */
  readonly blueprints: number;
  /** Partial results kept for readers after the body. */
  readonly results: number;
  /** Temporaries of one round, received and sent messages. */
  readonly round: number;
}

/** True when some other node reads a result of `node`. */
export function hasConsumers(workload: Workload, node: number): boolean {
  return workload.nodes.some((n) => n.inputs.some((i) => i.sources.some((s) => s.producer === node)));
}

/** Bytes of the whole producer value a source reads (the reconstruction buffer). */
function sourceBytes(workload: Workload, producer: number, resultIndex: number, cost: CostModel): number {
  return aligned(workload.nodes[producer]!.resultBytes[resultIndex] ?? 0, cost);
}

/**
 * The largest message one replica of `node` receives, without knowing its lanes: a window of a
 * whole value (a bounding box over the replica's lanes) or a run of a producer replica's
 * fragments at layer granularity may be as large as the whole value; otherwise one fragment.
 */
function largestMessageBound(
  workload: Workload,
  node: WorkloadNode,
  granularity: Granularity,
  cost: CostModel,
  windowOf?: ReadonlyMap<number, number>,
  transfer: TransferMode = 'channel',
  exactWindows = false,
): number {
  let m = 0;
  for (const input of node.inputs) {
    // A windowed input receives single fragments, runs no larger than its window, or its box.
    const window = windowOf?.get(input.inputIndex) ?? Infinity;
    if (exactWindows && window !== Infinity) {
      // Exact windows: every transfer is a piece of one fragment inside the run's window.
      m = Math.max(m, Math.min(window, ...input.sources.map((s) => aligned(s.slotBytes, cost))));
      continue;
    }
    for (const s of input.sources) {
      const producer = workload.nodes[s.producer]!;
      if (transfer === 'host') {
        // A scalar producer's host slot is loaded whole; of a batch producer replica's part, what
        // one round reads (within the window of a windowed input, else at most the host part
        // budget, see minimumReplicas).
        const whole = sourceBytes(workload, s.producer, s.resultIndex, cost);
        const part = Math.min(whole, hostPartBudget(cost));
        const run = Math.max(aligned(s.slotBytes, cost), Math.min(window, hostRunBudget(cost)));
        m = Math.max(m, producer.isBatch ? Math.max(part, Math.min(whole, run)) : whole);
        continue;
      }
      // A whole value is received once per replica (the bounding box of its lanes' windows).
      const whole = s.boxesPerLane !== undefined || (granularity === 'layer' && producer.isBatch);
      // (a scalar producer's box is the window itself; a fragment may be larger than the window it is clipped to).
      const cap = s.boxesPerLane !== undefined ? window : Math.max(window, aligned(s.slotBytes, cost));
      m = Math.max(m, Math.min(cap, whole ? sourceBytes(workload, s.producer, s.resultIndex, cost) : aligned(s.slotBytes, cost)));
    }
  }
  return m;
}

/**
 * Peak bytes of one replica body: a batch lane body runs its rounds over the reconstruction
 * buffers (live throughout) and its partial result; a scalar body's values replace one another
 * op by op (the input buffer and the largest value, or the two largest values, at once, while a
 * message may still be live).
 */
function bodyBytes(node: WorkloadNode, inputs: number, message: number, kept: number, cost: CostModel, windowed?: ReadonlySet<number>): number {
  const blueprints = blueprintBytes(node, cost, windowed);
  const t = node.largestTemporaryBytes;
  if (node.isBatch) return inputs + node.hostDataBytes + blueprints + kept + 2 * t + message;
  return node.hostDataBytes + blueprints + Math.max(inputs, t) + t + message;
}

/** Bytes of the blueprints cloned into every round (a windowed input is assembled into its window instead). */
function blueprintBytes(node: WorkloadNode, cost: CostModel, windowed?: ReadonlySet<number>): number {
  let b = 0;
  for (const input of node.inputs) if (input.blueprint && !windowed?.has(input.inputIndex)) b += aligned(byteSizeOfType(input.blueprint.getResult(0).type), cost);
  return b;
}

/**
 * The footprint of one replica of `node` at `granularity`, assuming every input is read from
 * another core (the bound used while packing; the replay of a plan is exact about locality).
 */
export function replicaFootprint(
  workload: Workload,
  node: WorkloadNode,
  granularity: Granularity,
  cost: CostModel,
  transfer: TransferMode = 'channel',
  replicas = 1,
  windows = false,
  windowRounds?: number,
  keepsResults = false,
  exactWindows = false,
  interleaved = 0,
): ReplicaFootprint {
  let inputs = 0;
  const windowOf = new Map<number, number>();
  for (const input of node.inputs) {
    const w = windows ? largestReplicaWindowBytes(node, input, replicas, windowRounds, exactWindows, interleaved) : undefined;
    if (w !== undefined) {
      windowOf.set(input.inputIndex, aligned(w, cost));
      inputs += aligned(w, cost);
      continue;
    }
    // Host slots are read slice by slice into the base (spat-to-pim loads the fragments straight from host memory).
    for (const s of input.sources) inputs += sourceBytes(workload, s.producer, s.resultIndex, cost);
  }
  const windowed = new Set(windowOf.keys());
  const message = largestMessageBound(workload, node, transfer === 'host' ? 'window' : granularity, cost, windowOf, transfer, exactWindows && windowRounds !== undefined);
  const consumers = hasConsumers(workload, node.index);
  const results = node.resultBytes.reduce((a, b, k) => a + aligned(windows ? partBytes(node, k, replicas) : b, cost), 0);
  // A batch replica assembles its partial result (the whole value, or with windows its own
  // slots) unless it streams it: at window granularity through channels each round's fragments
  // are sent as they are made and nothing is assembled (unless the host reads the result; a
  // consumer on the same core is the replay's concern). A scalar compute's result is its body's
  // last value, counted with the temporaries.
  // A replica storing its results to host slots round by round holds one store's piece.
  const storesToHost = transfer === 'host' || keepsResults;
  const kept = streamsResults(node, granularity, transfer) ? (storesToHost ? heldForHostStores(results, cost) : 0) : results;
  const body = bodyBytes(node, inputs, message, node.isBatch ? kept : 0, cost, windowed);
  const hostData = node.hostDataBytes;
  const blueprints = blueprintBytes(node, cost, windowed);
  const parts: MemoryParts = { inputs, hostData, blueprints, results: node.isBatch ? kept : 0, round: body - inputs - hostData - blueprints - (node.isBatch ? kept : 0) };
  // With host slots a partial result is stored inside its producer's body: nothing stays live after it.
  return { bodyBytes: body, retainedBytes: granularity === 'layer' && consumers && transfer !== 'host' ? results : 0, parts };
}

/**
 * True when replicas of `node` pass their fragments on round by round and assemble no partial
 * result (window granularity, no result read on the host): through channels each fragment is
 * sent as it is made, into host slots stored in pieces of {@link hostRunBudget}.
 */
export function streamsResults(node: WorkloadNode, granularity: Granularity, _transfer: TransferMode): boolean {
  return node.isBatch && granularity === 'window' && !node.hostUse;
}

/** The model's view of one core. */
export interface CoreMemory {
  /** Core id. */
  readonly core: number;
  /** Peak live bytes. */
  readonly peakBytes: number;
  /** The compute running at the peak (`#3 conv_1 replica 2`, `send task of ...`). */
  readonly peakAt: string;
  /** Bytes of partial results of earlier computes still live at the peak. */
  readonly forwardedBytes: number;
}

interface StreamItem {
  readonly label: string;
  readonly body: number;
  /** Values this item produces that later items on the core read (key -> bytes). */
  readonly produces: Map<string, number>;
  /** Values of earlier items it reads. */
  readonly reads: Set<string>;
}

function partialKey(node: number, replica: number, resultIndex: number): string {
  return `${node}:${replica}:${resultIndex}`;
}

/**
 * Replays `plan` (with its {@link planReads}) core by core in program order and returns every
 * used core's peak live bytes.
 */
export function planLocalMemory(workload: Workload, plan: SchedulePlan, reads: readonly ReplicaInputReads[], cost: CostModel): CoreMemory[] {
  const host = (producer: number): boolean => readsThroughHost(plan, producer);
  /** Bytes of a replica's host slot of `producer`'s result: its part, or the whole value. */
  const writerPartBytes = (producer: number, resultIndex: number): number => {
    const pp = plan.placements[producer]!;
    return pp.windows ? partBytes(workload.nodes[producer]!, resultIndex, pp.replicas) : sourceBytes(workload, producer, resultIndex, cost);
  };
  const readsOf = readsByConsumerReplica(reads);
  // Partial results read after their producer's body, per core: by send tasks or local consumers.
  const keptOn = new Map<string, number>();
  const keep = (node: number, replica: number, resultIndex: number, core: number): void => {
    keptOn.set(partialKey(node, replica, resultIndex), core);
  };
  for (const r of reads) {
    const pp = plan.placements[r.producer]!;
    const pn = workload.nodes[r.producer]!;
    const consumerCore = plan.placements[r.consumer]!.cores[r.replica]!;
    if (r.hasLocal) {
      const rep = pp.cores.indexOf(consumerCore);
      if (rep >= 0) keep(r.producer, rep, r.resultIndex, consumerCore);
      else keep(r.producer, -1 - consumerCore, r.resultIndex, consumerCore); // a mirror's value
    }
    for (const f of r.remote) {
      const storedAtEnd = host(f.producer) && !(pn.isBatch && pp.granularity === 'window' && movesInPieces(writerPartBytes(f.producer, f.resultIndex), cost));
      if (storedAtEnd || pp.granularity === 'layer' || f.count > 1) keep(f.producer, replicaOfLane(pp, pn.lanes, f.slot), f.resultIndex, f.fromCore);
    }
  }
  const streams = new Map<number, StreamItem[]>();
  const push = (core: number, item: StreamItem): void => {
    let s = streams.get(core);
    if (!s) streams.set(core, (s = []));
    s.push(item);
  };
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    const results = n.resultBytes.map((b, k) => aligned(pl.windows ? partBytes(n, k, pl.replicas) : b, cost));
    for (let j = 0; j < pl.replicas; j++) {
      const core = pl.cores[j]!;
      const mine = readsOf.get(`${n.index}:${j}`) ?? [];
      // Send tasks for this consumer replica on the producers' cores (layer-granularity producers).
      const sendsByCore = new Map<number, { bytes: number; reads: Set<string> }>();
      for (const r of mine) {
        const pp = plan.placements[r.producer]!;
        if (host(r.producer) || pp.granularity !== 'layer') continue;
        for (const f of r.remote) {
          let t = sendsByCore.get(f.fromCore);
          if (!t) sendsByCore.set(f.fromCore, (t = { bytes: 0, reads: new Set() }));
          t.reads.add(partialKey(f.producer, replicaOfLane(pp, workload.nodes[f.producer]!.lanes, f.slot), f.resultIndex));
          if (workload.nodes[f.producer]!.isBatch || f.box) t.bytes = Math.max(t.bytes, aligned(f.bytes, cost));
        }
      }
      for (const [c, t] of [...sendsByCore].sort((a, b) => a[0] - b[0])) push(c, { label: `send task for ${n.name} replica ${j}`, body: t.bytes, produces: new Map(), reads: t.reads });
      // The replica's body.
      let inputs = 0;
      let message = 0;
      const readKeys = new Set<string>();
      const windowed = new Set<number>();
      for (const r of mine) {
        const pp = plan.placements[r.producer]!;
        if (r.hasLocal) {
          const rep = pp.cores.indexOf(core);
          readKeys.add(rep >= 0 ? partialKey(r.producer, rep, r.resultIndex) : partialKey(r.producer, -1 - core, r.resultIndex));
        }
        const input = n.inputs.find((i) => i.inputIndex === r.inputIndex);
        const box = pl.windows && input ? largestRunWindowBytes(n, input, pl, j) : undefined;
        if (box !== undefined && input) {
          if (!windowed.has(r.inputIndex)) inputs += aligned(box, cost);
          windowed.add(r.inputIndex);
        } else if (r.remote.length > 0 || (r.hasLocal && pp.windows)) inputs += sourceBytes(workload, r.producer, r.resultIndex, cost);
        const part = writerPartBytes(r.producer, r.resultIndex);
        if (pl.exactWindows && box !== undefined && workload.nodes[r.producer]!.isBatch) {
          // Exact windows: each piece is one receive or load, placed at once.
          for (const f of r.remote) message = Math.max(message, aligned(f.bytes, cost));
        } else if (host(r.producer) && workload.nodes[r.producer]!.isBatch && !movesInPieces(part, cost)) {
          // A slot within the host part budget is loaded whole, once.
          if (r.remote.length) message = Math.max(message, aligned(part, cost));
        } else if (host(r.producer) && workload.nodes[r.producer]!.isBatch) {
          // Host slots of a batch producer: what one round reads of one slot is one load (runs of consecutive fragments).
          const perRound = new Map<string, number>();
          for (const f of r.remote) {
            const k = `${f.round}:${replicaOfLane(pp, workload.nodes[r.producer]!.lanes, f.slot)}`;
            perRound.set(k, (perRound.get(k) ?? 0) + f.bytes);
          }
          const fragment = Math.max(0, ...r.remote.map((f) => f.bytes));
          for (const b of perRound.values()) message = Math.max(message, aligned(Math.min(b, Math.max(fragment, hostRunBudget(cost))), cost));
        } else {
          // A scalar producer's host slot is loaded whole.
          for (const f of r.remote) message = Math.max(message, aligned(host(r.producer) ? sourceBytes(workload, r.producer, r.resultIndex, cost) : f.bytes, cost));
        }
      }
      const produces = new Map<string, number>();
      let kept = 0;
      n.resultBytes.forEach((_, k) => {
        const key = partialKey(n.index, j, k);
        const needed = keptOn.get(key) === core;
        if (needed) produces.set(key, results[k]!);
        // A streamed result is assembled only where something reads it whole (as materialization does).
        if (n.isBatch && (keptOn.has(key) || !streamsResults(n, pl.granularity, plan.transfer))) kept += results[k]!;
        // Stored to host slots round by round: one store's piece at a time (a small part at once).
        else if (n.isBatch && host(n.index) && hasConsumers(workload, n.index)) kept += aligned(heldForHostStores(results[k]!, cost), cost);
      });
      push(core, { label: `${n.name} replica ${j}`, body: bodyBytes(n, inputs, message, kept, cost, windowed), produces, reads: readKeys });
    }
    for (const m of pl.mirrors ?? []) {
      const produces = new Map<string, number>();
      n.resultBytes.forEach((_, k) => {
        const key = partialKey(n.index, -1 - m, k);
        if (keptOn.get(key) === m) produces.set(key, results[k]!);
      });
      push(m, { label: `${n.name} (mirror)`, body: bodyBytes(n, 0, 0, 0, cost), produces, reads: new Set() });
    }
  }
  const out: CoreMemory[] = [];
  for (const [core, items] of [...streams].sort((a, b) => a[0] - b[0])) {
    // Last reader of every forwarded value on this core.
    const lastUse = new Map<string, number>();
    items.forEach((it, i) => {
      for (const k of it.reads) lastUse.set(k, i);
    });
    const live = new Map<string, number>();
    let peak = 0;
    let peakAt = '';
    let forwardedAtPeak = 0;
    items.forEach((it, i) => {
      let forwarded = 0;
      for (const b of live.values()) forwarded += b;
      const total = forwarded + it.body;
      if (total > peak) {
        peak = total;
        peakAt = it.label;
        forwardedAtPeak = forwarded;
      }
      for (const k of [...live.keys()]) if ((lastUse.get(k) ?? -1) <= i) live.delete(k);
      for (const [k, b] of it.produces) if ((lastUse.get(k) ?? -1) > i) live.set(k, b);
    });
    out.push({ core, peakBytes: peak, peakAt, forwardedBytes: forwardedAtPeak });
  }
  return out;
}

/** Values of {@link localMemoryOption}. */
export const LOCAL_MEMORY_MODES = ['enforce', 'report'] as const;

/**
 * The `local-memory` option of the built-in strategies: `enforce` (default) makes every core's
 * modelled peak fit its local memory (a schedule that cannot is refused with a diagnostic);
 * `report` only warns, for exploring schedules whose data later stages would have to tile.
 */
export const localMemoryOption = enumOption('local-memory', LOCAL_MEMORY_MODES, 'enforce', 'enforce or only report that every core fits its local memory');

/** True unless `options` select `local-memory=report`. */
export function enforcesLocalMemory(options: { readonly [name: string]: unknown }): boolean {
  return options['local-memory'] !== 'report';
}

/** The smallest footprint any core running one replica of `node` needs (alone on its core, through channels or, where those fit nowhere, host slots). */
export function minimumFootprint(workload: Workload, node: WorkloadNode, cost: CostModel): ReplicaFootprint & { readonly replicas: number } {
  // Channel transfers first; through host slots only exact windows can hold less (a run's own
  // reads instead of whole fragments), so those are tried where channels fit nowhere.
  let best: (ReplicaFootprint & { readonly replicas: number }) | undefined;
  const counts = divisors(node.lanes).filter((d) => d <= cost.cores);
  for (const r of counts) {
    for (const g of ['window', 'layer'] as const) {
      const f = placedFootprint(workload, node, r, g, cost);
      if (!best || f.bodyBytes < best.bodyBytes) best = { ...f, replicas: r };
    }
    if (best && best.bodyBytes <= cost.localMemoryBytes) return best;
  }
  for (const r of counts) {
    const f = placedFootprint(workload, node, r, 'window', cost, 'host');
    if (f.bodyBytes < best!.bodyBytes) best = { ...f, replicas: r };
    if (best!.bodyBytes <= cost.localMemoryBytes) break;
  }
  return best!;
}

/**
 * Per node, `preferred` unless one replica's body does not fit a core's local memory at that
 * granularity and does at the other (window granularity keeps no partial result for send tasks:
 * the fragments stream out round by round).
 */
export function granularityForMemory(workload: Workload, cost: CostModel, preferred: Granularity, transfer: TransferMode = 'channel', replicas?: readonly number[]): Granularity[] {
  const other: Granularity = preferred === 'layer' ? 'window' : 'layer';
  return workload.nodes.map((n) => {
    const r = replicas?.[n.index] ?? 1;
    if (placedFootprint(workload, n, r, preferred, cost, transfer).bodyBytes <= cost.localMemoryBytes) return preferred;
    if (placedFootprint(workload, n, r, other, cost, transfer).bodyBytes <= cost.localMemoryBytes) return other;
    // Neither fits at these replicas: the granularity that fits with fewer replicas.
    const fewest = (g: Granularity): number => divisors(n.lanes).find((d) => d >= r && d <= cost.cores && placedFootprint(workload, n, d, g, cost, transfer).bodyBytes <= cost.localMemoryBytes) ?? Infinity;
    return fewest(other) < fewest(preferred) ? other : preferred;
  });
}

/**
 * True when replicas of `node` (with `replicas` replicas) must hold only their windows and parts
 * (`NodePlacement.windows`): one replica's whole values do not fit a core's local memory, or
 * several replicas write host slots (each stores its part).
 */
export function needsWindows(workload: Workload, node: WorkloadNode, replicas: number, granularity: Granularity, cost: CostModel, transfer: TransferMode = 'channel'): boolean {
  if (!node.isBatch) return false;
  // A host slot holds what its writer stores: with several replicas, their parts, not whole-size values.
  if (transfer === 'host' && replicas > 1) return true;
  return replicaFootprint(workload, node, granularity, cost, transfer, replicas, false).bodyBytes > cost.localMemoryBytes;
}

/** A replica's footprint with the window choices that give it. */
export interface PlacedFootprint extends ReplicaFootprint {
  /** Replicas hold only their windows and parts (`NodePlacement.windows`). */
  readonly windows: boolean;
  /** Streaming windows: rounds per window (`NodePlacement.windowRounds`), when one window per replica does not fit. */
  readonly windowRounds?: number;
  /** Exact streaming windows (`NodePlacement.exactWindows`), when line-buffer windows do not fit even one round per run. */
  readonly exactWindows?: boolean;
}

/**
 * True when replicas of `node` may take streaming windows (window granularity, a windowed input;
 * through channels each run receives its fragments, through host slots each run loads them).
 */
export function canStreamWindows(node: WorkloadNode, granularity: Granularity, _transfer: TransferMode): boolean {
  return node.isBatch && granularity === 'window' && node.inputs.some((i) => i.window !== undefined);
}

/**
 * The footprint one replica of `node` has at `replicas` replicas, with windows where
 * {@link needsWindows}; where one window per replica still does not fit a core, with streaming
 * windows of the most rounds that fit (one round when none does).
 */
export function placedFootprint(
  workload: Workload,
  node: WorkloadNode,
  replicas: number,
  granularity: Granularity,
  cost: CostModel,
  transfer: TransferMode = 'channel',
  keepsResults = false,
  interleaved = 0,
): PlacedFootprint {
  const windows = needsWindows(workload, node, replicas, granularity, cost, transfer) || (keepsResults && node.isBatch && replicas > 1) || (interleaved > 0 && replicas > 1);
  const whole = replicaFootprint(workload, node, granularity, cost, transfer, replicas, windows, undefined, keepsResults, false, interleaved);
  const rounds = Math.ceil(node.lanes / replicas);
  if (!windows || whole.bodyBytes <= cost.localMemoryBytes || rounds < 2 || !canStreamWindows(node, granularity, transfer)) return { ...whole, windows };
  const at = (span: number): ReplicaFootprint => replicaFootprint(workload, node, granularity, cost, transfer, replicas, true, span, keepsResults, false, interleaved);
  if (interleaved > 0 && transfer === 'host') {
    // An interleaved replica's lanes are spread over the whole input: a line buffer would hold (and
    // load) nearly all of it. Exact windows of one round load only what each lane reads (resnet18's
    // stem: 125.6 instead of 130.0 ms, its input loaded once instead of by every replica).
    const exact = replicaFootprint(workload, node, granularity, cost, transfer, replicas, true, 1, keepsResults, true, interleaved);
    if (exact.bodyBytes <= cost.localMemoryBytes) return { ...exact, windows, windowRounds: 1, exactWindows: true };
  }
  const one = at(1);
  if (one.bodyBytes > cost.localMemoryBytes) {
    // Line buffers hold whole fragments of the slots a run reads: without them a run holds only
    // what its lanes read, and its loads move the pieces of fragments it reads. Through host slots
    // only: a producer sending pieces through channels would send later runs' pieces ahead of
    // other readers' and block on them (a cycle with more than one replica per node).
    if (transfer !== 'host') return { ...one, windows, windowRounds: 1 };
    const exactAt = (span: number): ReplicaFootprint => replicaFootprint(workload, node, granularity, cost, transfer, replicas, true, span, keepsResults, true, interleaved);
    const exactOne = exactAt(1);
    if (exactOne.bodyBytes > cost.localMemoryBytes) return { ...one, windows, windowRounds: 1 };
    return { ...longestRun(exactAt, exactOne, rounds, cost), windows, exactWindows: true };
  }
  // (An interleaved replica's runs take runs of lanes dealt round-robin: no rows of lanes to align to.)
  const run = longestRun(at, one, rounds, cost);
  return { ...(interleaved ? run : rowAlignedRun(node, at, run)), windows };
}

/**
 * The lanes of a row of `node`'s windows: how many leading lanes read boxes at the same offset
 * of the windowed input's leading dimension (a convolution's lanes of one output row read the
 * same input rows), or 1 when the windows give no such period.
 */
function windowRowLanes(node: WorkloadNode): number {
  for (const input of node.inputs) {
    const boxes = input.window?.boxesPerLane;
    if (!boxes || boxes.length < 2 || !boxes[0]!.offsets.length) continue;
    const first = boxes[0]!.offsets[0]!;
    let n = 1;
    while (n < boxes.length && boxes[n]!.offsets[0] === first) n++;
    return n < boxes.length ? n : 1;
  }
  return 1;
}

/**
 * `run` shortened to whole rows of lanes (a multiple of a row, or a divisor of it) when that keeps
 * at least half its length: runs that cross row boundaries at varying points alternate between
 * windows of different heights (resnet18's stem: 7 and 9 input rows), which fragments the core's
 * memory plan; row-aligned runs all take windows of one size. A shorter run still fits (the
 * footprint grows with the run length).
 */
function rowAlignedRun(node: WorkloadNode, at: (span: number) => ReplicaFootprint, run: ReplicaFootprint & { windowRounds: number }): ReplicaFootprint & { windowRounds: number } {
  const row = windowRowLanes(node);
  const span = run.windowRounds;
  if (row <= 1 || span <= 1) return run;
  const aligned = span >= row ? Math.floor(span / row) * row : Math.max(...divisors(row).filter((d) => d <= span));
  if (aligned === span || aligned * 2 < span) return run;
  return { ...at(aligned), windowRounds: aligned };
}

/** The longest run of rounds (and its footprint) whose footprint fits, given that one round fits: the footprint grows with the run length. */
function longestRun(at: (span: number) => ReplicaFootprint, one: ReplicaFootprint, rounds: number, cost: CostModel): ReplicaFootprint & { windowRounds: number } {
  let lo = 1;
  let hi = rounds - 1;
  let best = one;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    const f = at(mid);
    if (f.bodyBytes <= cost.localMemoryBytes) {
      lo = mid;
      best = f;
    } else hi = mid - 1;
  }
  return { ...best, windowRounds: lo };
}

/**
 * Per node, the fewest replicas (a divisor of its lanes, at most the target's cores) with which
 * one replica fits a core's local memory at `granularity[node]` (whole values, or windows and
 * parts where those do not fit); the largest such divisor where none fits (the driver's check
 * names the compute). With host transfers, more where that keeps a part within the host part
 * budget, unless the weights of those extra replicas would not fit the target's crossbars.
 */
export function minimumReplicas(workload: Workload, cost: CostModel, granularity?: readonly Granularity[], transfer: TransferMode = 'channel'): number[] {
  return replicasWithinCrossbars(workload, replicaChoices(workload, cost, granularity, transfer), cost.crossbars);
}

/** Per node, the replicas {@link minimumReplicas} prefers and the fewest that fit a core's local memory. */
export interface ReplicaChoice {
  /** With host transfers, enough that a part stays within the host part budget (where one fits). */
  readonly preferred: number;
  /** The fewest that fit (through channels: the window pipeline, without room for its layer-granularity fallback). */
  readonly fewest: number;
}

/** The replica counts {@link minimumReplicas} chooses between, per node. */
export function replicaChoices(workload: Workload, cost: CostModel, granularity?: readonly Granularity[], transfer: TransferMode = 'channel'): ReplicaChoice[] {
  return workload.nodes.map((n) => {
    const g = granularity?.[n.index] ?? 'layer';
    // A lane-grouped split takes multiples of its groups (each replica within one group), where any fit the cores.
    const options = replicaCounts(n, cost.cores);
    // With host slots, parts stay within an eighth of a core (more replicas, each storing a
    // smaller part: the yardstick's layers keep their parallelism).
    const partFits = (r: number): boolean =>
      transfer !== 'host' || !n.isBatch || !hasConsumers(workload, n.index) || n.resultBytes.every((_, k) => partBytes(n, k, r) <= hostPartBudget(cost) || r === options[options.length - 1]);
    const fits = (r: number, gr: Granularity): boolean => placedFootprint(workload, n, r, gr, cost, transfer).bodyBytes <= cost.localMemoryBytes;
    // Where no replica count keeps the part within the budget and fits, a larger part (moved in pieces).
    const fewest = (gr: Granularity, budget: boolean): number | undefined => (budget ? options.find((r) => partFits(r) && fits(r, gr)) : undefined) ?? options.find((r) => fits(r, gr));
    // A window pipeline through channels that deadlocks falls back to layer granularity with the
    // same replicas: prefer the replicas that would fit there too, where any do (host slots never
    // block a writer on its readers: no such fallback). The fewest fit the window pipeline only.
    const pick = (budget: boolean, layerFallback: boolean): number => {
      const r = fewest(g, budget);
      const layer = layerFallback && g === 'window' && transfer !== 'host' ? fewest('layer', budget) : undefined;
      return r !== undefined ? Math.max(r, layer ?? r) : (options[options.length - 1] ?? 1);
    };
    return { preferred: pick(true, true), fewest: pick(false, false) };
  });
}

/**
 * The preferred replicas of `choices`, except that where they take more than `crossbars`
 * crossbars, the nodes that gain most crossbars drop to their fewest (larger parts, moved in
 * pieces) until they fit (0: every weighted node at its fewest).
 */
export function replicasWithinCrossbars(workload: Workload, choices: readonly ReplicaChoice[], crossbars: number): number[] {
  const replicas = choices.map((c) => c.preferred);
  let used = workload.nodes.reduce((a, n) => a + replicas[n.index]! * n.crossbars, 0);
  if (used <= crossbars) return replicas;
  const gain = (n: WorkloadNode): number => (replicas[n.index]! - choices[n.index]!.fewest) * n.crossbars;
  const byGain = workload.nodes.filter((n) => gain(n) > 0).sort((a, b) => gain(b) - gain(a) || a.index - b.index);
  for (const n of byGain) {
    if (used <= crossbars) break;
    used -= gain(n);
    replicas[n.index] = choices[n.index]!.fewest;
  }
  return replicas;
}

/**
 * The largest part (a replica's result slots) a batch read through host slots may have: a
 * reader loads a whole host slot before it takes its window, so parts stay an eighth of a core's
 * local memory (needsWindows splits the producer over enough replicas).
 */
export function hostPartBudget(cost: CostModel): number {
  return Math.floor(cost.localMemoryBytes / 8);
}

/** True when a host slot of `bytes` moves in pieces and runs (beyond the host part budget); else it is stored and loaded whole. */
export function movesInPieces(bytes: number, cost: CostModel): boolean {
  return bytes > hostPartBudget(cost);
}

/** Bytes a replica holds of a result of `bytes` that it stores to host slots round by round: the part, or one piece of it. */
function heldForHostStores(bytes: number, cost: CostModel): number {
  return movesInPieces(bytes, cost) ? Math.min(bytes, hostRunBudget(cost)) : bytes;
}

/**
 * The largest run of consecutive fragments one host load moves (a sixteenth of a core's local
 * memory, at least one fragment): longer runs a reader takes in one round are loaded in pieces,
 * so the loaded piece and the window it is placed into are never both large.
 */
export function hostRunBudget(cost: CostModel): number {
  return Math.floor(cost.localMemoryBytes / 16);
}

/** How a replica's footprint is modelled: {@link placedFootprint}'s `transfer` and `keepsResults`. */
export interface FootprintMode {
  readonly transfer: TransferMode;
  readonly keepsResults: boolean;
  /** The replicas take their lanes round-robin in runs of this many (`NodePlacement.interleaved`). */
  readonly interleaved?: number;
}

/**
 * How one replica's footprint of `node` is modelled in `plan` ({@link placedFootprint}'s
 * `transfer` and `keepsResults`): a spilled compute keeps its part for its slot (its readers'
 * loads stream like receives); in a host plan, the readers of a node kept on chip receive
 * through channels, and store their own results to host slots unless kept on chip too.
 */
export function footprintMode(plan: Pick<SchedulePlan, 'transfer' | 'placements'>, node: WorkloadNode): FootprintMode {
  const p = plan.placements[node.index];
  // A node kept on chip that reads host slots only is modelled through host slots: what it holds
  // to store pieces bounds what it holds to send fragments.
  const interleaved = p?.interleaved ? { interleaved: p.interleaved } : {};
  if (plan.transfer === 'host' && node.inputs.some((i) => i.sources.some((s) => plan.placements[s.producer]?.onChip === true))) {
    return { transfer: 'channel', keepsResults: p?.onChip !== true, ...interleaved };
  }
  return { transfer: plan.transfer, keepsResults: p?.spill === true, ...interleaved };
}

/** `plan` with {@link NodePlacement.windows} set on every node whose replicas need them. */
export function withWindows(workload: Workload, plan: SchedulePlan, cost: CostModel): SchedulePlan {
  return {
    ...plan,
    placements: plan.placements.map((p, i) => {
      const n = workload.nodes[i]!;
      const mode = footprintMode(plan, n);
      const f = placedFootprint(workload, n, p.replicas, p.granularity, cost, mode.transfer, mode.keepsResults, mode.interleaved);
      const { windowRounds: _dropped, exactWindows: _exact, ...rest } = p;
      if (f.windowRounds === undefined) return { ...rest, windows: f.windows };
      return { ...rest, windows: f.windows, windowRounds: f.windowRounds, ...(f.exactWindows ? { exactWindows: true } : {}) };
    }),
  };
}

/**
 * Why the fewest replicas local memory asks for cannot be placed at all, when it is their
 * crossbars: the message, or undefined when they fit the target's crossbars (the cores may still
 * not take them: packing decides).
 */
export function replicaCrossbarShortfall(
  workload: Workload,
  cost: CostModel,
  granularity?: readonly Granularity[],
  transfer: TransferMode = 'channel',
  replicas: readonly number[] = minimumReplicas(workload, cost, granularity, transfer),
): string | undefined {
  let needed = 0;
  let largest: WorkloadNode | undefined;
  for (const n of workload.nodes) {
    needed += replicas[n.index]! * n.crossbars;
    if (!largest || replicas[n.index]! * n.crossbars > replicas[largest.index]! * largest.crossbars) largest = n;
  }
  if (needed <= cost.crossbars || !largest) return undefined;
  return M.replicaCrossbars(needed, cost.crossbars, largest.name, replicas[largest.index]!, largest.crossbars);
}

/**
 * The detail of a packing that fails on local memory alone (the caller found packings without
 * that constraint): the fewest replicas local memory allows and the largest replica body.
 */
export function localMemoryPackingDetail(workload: Workload, cost: CostModel, granularity: readonly Granularity[], transfer: TransferMode = 'channel'): string {
  const replicas = minimumReplicas(workload, cost, granularity, transfer);
  let largest = workload.nodes[0]!;
  let bytes = 0;
  for (const n of workload.nodes) {
    const b = placedFootprint(workload, n, replicas[n.index]!, granularity[n.index]!, cost, transfer).bodyBytes;
    if (b > bytes) {
      bytes = b;
      largest = n;
    }
  }
  return M.localMemoryPacking(
    replicas.reduce((a, b) => a + b, 0),
    largest.name,
    bytes,
    cost.localMemoryBytes,
  );
}
