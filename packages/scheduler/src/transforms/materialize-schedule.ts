/**
 * Writes a {@link SchedulePlan} into a function: every replica of a graph compute becomes one
 * `spat.scheduled_compute` on its core, running the replica's graph lanes (rounds) one after
 * another; data between cores moves through `spat.channel_send`/`spat.channel_receive` pairs
 * (channel mode) or through host slots with the READY/FREE protocol of scheduling.md (host
 * mode: `spat.sync` FREE at the reader's stream entry, `spat.wait` + `spat.host_store_sync` on
 * the writer, `spat.host_wait_load` on the reader). Data produced on the consumer's own core is
 * forwarded as SSA. Results still used on the host (function results) are reassembled there
 * from the replicas' partial collections.
 *
 * Equivalent replicas (same rounds, transfers and payload shapes; see `replicaSignature`) whose
 * sends keep their order on their cores become one `spat.scheduled_compute_batch`: per-lane
 * numbers are lane expressions (`lane-values.ts`), the sends are made at the end of the body.
 * Host-slot event registers are reused across slots whose lifetimes do not overlap
 * (`assignEventRegisters`; a reused READY register's FREE is sent after the previous load).
 * The rounds of a replica are unrolled (spatial-to-pim takes no nested regions); the graph lane
 * of a round is a number there, so its index arithmetic folds to constants.
 */
import {
  ConstantOp,
  type AffineMap,
  DenseArrayAttr,
  DYNAMIC,
  IndexType,
  IntegerAttr,
  IntegerType,
  IRMapping,
  OpBuilder,
  RankedTensorType,
  type Block,
  type Location,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import { AffineApplyOp, createEmpty, EmptyOp, ExtractSliceOp, ParallelInsertSliceOp, rankReductionMask, readSliceLists } from '@raptor-pim/upstream-dialects';
import { SliceBuilder } from './slice-builder';
import { sinkViewsToFirstUse } from './sink-views';
import {
  BlueprintOp,
  ChannelReceiveOp,
  ChannelSendOp,
  GraphComputeBatchOp,
  GraphComputeOp,
  HostStoreSyncOp,
  HostWaitLoadOp,
  InParallelOp,
  ScheduledComputeBatchOp,
  ScheduledComputeOp,
  SyncOp,
  WaitOp,
  YieldOp,
} from '@raptor-pim/spatial-dialect';
import type { CostModel } from '@raptor-pim/pim-target';
import { EVENT_REGISTER_COUNT } from '@raptor-pim/pim-target';
import type { Workload, WorkloadNode } from '../analysis/workload';
import { byteSizeOfType } from '../analysis/workload';
import { coreOfLane, lanesOfReplica, readsThroughHost, replicaOfLane, roundOfLane, streamGroups, usesHostSlots, type SchedulePlan } from '../planning/schedule-plan';
import { intersectBoxes, streamingWindows, windowRunsOf } from '../planning/windows';
import { hostRunBudget, movesInPieces } from '../planning/local-memory';
import { hostSlotBudget as hostSlotBudgetOf, placeSharedSlots, readersOfNodes } from '../planning/host-slots';
import type { Box } from '../analysis/fragment-needs';
import { LaneValues } from './lane-values';
import { readsByConsumerReplica, type FragmentPiece, type FragmentRead, type ReplicaInputReads } from '../planning/transfers';
import type { SendSchedule } from '../planning/send-order';
import { assignEventRegisters, type EventRegisterAssignment, type EventRegisterRequest } from './event-registers';
import { BARRIER_REGISTER_COUNT, insertLayerBarrier, layerStages, type LayerStages } from './layer-barriers';

/** What materialization did (for the report). */
export interface MaterializeResult {
  /** Scheduled ops created, per node and replica. */
  readonly scheduled: Operation[][];
  /** Channel pairs inserted. */
  readonly channels: number;
  /** Host slots (READY/FREE transfers) inserted. */
  readonly hostSlots: number;
  /** Host bytes used by the slots. */
  readonly hostBytes: number;
  /** Transfers that fell back from host slots to channels (registers or host memory exhausted). */
  readonly hostFallbacks: number;
  /**
   * Set, and nothing materialized, when a plan that moves every activation through host slots
   * (`transfer: 'host'`) has slots host memory cannot hold: the bytes they need and the room.
   */
  readonly hostOverflow?: { readonly neededBytes: number; readonly budgetBytes: number };
  /** True when the slots took one READY register per producer result (`groupReadyRegisters`, where one per slot and reader ran out). */
  readonly readyRegistersGrouped?: boolean;
  /** Barriers inserted between the plan's stages (see `layerBarriers`), where its slots' registers ran out. */
  readonly barriers?: number;
}

/** How {@link materializeSchedule} places host slots. */
export interface MaterializeOptions {
  /**
   * Where one READY register per slot and reader runs out, give each reader one READY register
   * per producer result (a barrier on the producer) instead of letting those slots fall back to
   * channels. Off by default: the fallback keeps the transfers on chip, and the driver turns
   * this on only where the fallback channels deadlock.
   */
  readonly groupReadyRegisters?: boolean;
  /**
   * Where window-granularity producers make their channel sends ({@link planSendOrder}): before a
   * receive of their own body or at its end, instead of as soon as each fragment is made. The
   * driver passes it where the default order deadlocks.
   */
  readonly sendSchedule?: SendSchedule;
  /**
   * Only place the host slots and return (`hostSlots`, `hostBytes`, and `hostOverflow` where they
   * do not fit): nothing is built, the function is left as it was. Strategies use it to check a
   * plan's host memory before they return it.
   */
  readonly hostSlotsOnly?: boolean;
  /**
   * Like `hostSlotsOnly`, but also assign the slots' event registers: `hostFallbacks` then counts
   * every slot that would fall back to channels (no host memory or no register).
   */
  readonly slotRegistersOnly?: boolean;
  /**
   * Where the slots' FREE and READY registers run out even with `groupReadyRegisters`, in a plan
   * that runs one layer after another (not pipelined, every transfer between stages through host
   * slots), order the stages by barriers instead (transforms/layer-barriers.ts): the slots then
   * need no FREE register and READY registers pass between stages without a FREE hand-over. On
   * by default (with `groupReadyRegisters`).
   */
  readonly layerBarriers?: boolean;
}

/** One host slot: a replica's partial result stored once, loaded by its remote readers. */
interface HostSlot {
  readonly producer: number;
  readonly replica: number;
  readonly resultIndex: number;
  readonly writer: number;
  /** Reader instances: one per consumer replica (core, consumer node and `consumer:replica` key). */
  readonly readers: { readonly core: number; readonly consumer: number; readonly key: string }[];
  /** Byte offset in the host slot region (bytes another slot used earlier in the inference when slots are reused). */
  offset: number;
  /**
   * FREE signals the writer waits for beyond one per reader: where the slot reuses the bytes of
   * slots read earlier in the inference, their readers' (after their last load of them), and
   * where later slots reuse this one's bytes, their readers' (at stream entry).
   */
  extraFrees: number;
  readonly bytes: number;
  /** Readers load the runs of fragments they read (a part beyond the host part budget), else the whole slot once. */
  readonly inRuns: boolean;
  /** The writer replica's first lane and lanes (a scalar producer: 0 and 1). */
  readonly first: number;
  readonly lanes: number;
  /**
   * True when the writer stores its fragments round by round (a batch at window granularity),
   * in stores of `chunk` consecutive lanes; else one store of its partial result after its body.
   */
  readonly streams: boolean;
  readonly chunk: number;
  /** Stores into the slot (each signals READY to every reader, who waits for all of them). */
  readonly stores: number;
  freeRegister: number;
  /** READY register per reader key. */
  readonly readyRegisters: Map<string, number>;
  /** The READY register group per reader key (see {@link readyGroupKey}). */
  readonly readyGroups: Map<string, string>;
}

/**
 * The READY register request of reader `reader` for slot `slot`: one per slot, or, where the
 * registers per slot run out, one per producer result (every replica's slot of that result
 * signals the same register and the reader waits once, for all their stores, before its first
 * load of any of them: a barrier on the producer, as a layer-after-layer schedule has anyway).
 */
function readyGroupKey(slot: Pick<HostSlot, 'producer' | 'replica' | 'resultIndex'>, reader: string, grouped: boolean): string {
  return grouped ? `${slot.producer}:*:${slot.resultIndex}@${reader}` : `${slotKey(slot.producer, slot.replica, slot.resultIndex)}@${reader}`;
}

function readerKey(consumer: number, replica: number): string {
  return `${consumer}:${replica}`;
}

function slotKey(producer: number, replica: number, resultIndex: number): string {
  return `${producer}:${replica}:${resultIndex}`;
}

/** Writes `plan` into the function of `workload`. */
export function materializeSchedule(workload: Workload, plan: SchedulePlan, reads: readonly ReplicaInputReads[], cost: CostModel, options: MaterializeOptions = {}): MaterializeResult {
  /** Scheduled sends of the body being built, made just before one of its receives (`MaterializeOptions.sendSchedule`). */
  let beforeReceive: ((f: FragmentRead) => void) | undefined;

  const ctx = workload.func.context;
  const index = IndexType.get(ctx);
  const i32 = IntegerType.get(ctx, 32);
  /** Readers of `producer` on other cores load host slots (a host plan, or a spilled producer). */
  const hostRead = (producer: number): boolean => readsThroughHost(plan, producer);
  const slices = new SliceBuilder(ctx);
  /**
   * Where slot `slot` of node `p`'s results lies in the value its replica holds: its round in the
   * replica's part where the replica holds only its slots, else the slot itself.
   */
  const partIndex = (p: number, slot: number): number => {
    const pp = plan.placements[p]!;
    const pn = workload.nodes[p]!;
    return pp.windows && pn.isBatch ? roundOfLane(pp, pn.lanes, slot) : slot;
  };
  /** Positions of slots in a collection holding consecutive slots from `first` on. */
  const from =
    (first: number): ((slot: number) => number) =>
    (slot) =>
      slot - first;
  /** Positions of slots of node `p` in the value a replica of `p` holds ({@link partIndex}). */
  const inPart =
    (p: number): ((slot: number) => number) =>
    (slot) =>
      partIndex(p, slot);
  /** The type of result `k` of replica `j` of `n`: its part (its own slots) where placed with windows. */
  const partType = (n: WorkloadNode, j: number, k: number): RankedTensorType => {
    const t = n.op.getResult(k).type as RankedTensorType;
    const pl = plan.placements[n.index]!;
    if (!pl.windows || !n.isBatch) return t;
    return RankedTensorType.get(ctx, [lanesOfReplica(pl, n.lanes, j).length, ...t.shape.slice(1)], t.elementType);
  };

  // ------------------------------------------------------------------ host slots and registers
  const slots = new Map<string, HostSlot>();
  /** FREE signals (writer core, register) a reader sends right after its load of a slot (`slot@reader`). */
  const freeAfterLoad = new Map<string, { writer: number; register: number }[]>();
  /** Reader requests (`slot@reader`) whose FREE is sent after a load, not at stream entry. */
  const freeSentAfterLoad = new Set<string>();
  /** FREE signals sent at a core's stream entry for slots sharing bytes (see the shared pairs). */
  const entryFrees: { core: number; writer: number; register: number }[] = [];
  /** Stores a reader's first load of a READY group waits for (`group` keys of {@link readyGroupKey}). */
  const readyGroupStores = new Map<string, number>();
  let hostFallbacks = 0;
  let hostBytes = 0;
  /** The stages barriers order (see `MaterializeOptions.layerBarriers`), where the registers ran out. */
  let layerBarriers: LayerStages | undefined;
  // Host memory also holds the graph's inputs and outputs and the constants computes load from it.
  const hostSlotBudget = hostSlotBudgetOf(workload, cost);
  if (usesHostSlots(plan)) {
    const ordered: HostSlot[] = [];
    /** Slots sharing bytes: (earlier, later), the later written after every reader of the earlier loaded it. */
    let sharedPairs: [HostSlot, HostSlot][] = [];
    /** Slots host memory had no room for. */
    let refused = 0;
    // Slots some reader replica reads in more than one of its rounds: loaded in runs, round by
    // round, even when small (a whole-slot load stays live until the last round that reads it:
    // resnet18's global average pool held seven 7 KiB slots across its rounds).
    const readAcrossRounds = new Set<string>();
    for (const r of reads) {
      if (!hostRead(r.producer)) continue;
      const roundsOf = new Map<string, number>();
      for (const f of r.remote) {
        const key = slotKey(f.producer, replicaOfLane(plan.placements[f.producer]!, workload.nodes[f.producer]!.lanes, f.slot), f.resultIndex);
        const seen = roundsOf.get(key);
        if (seen === undefined) roundsOf.set(key, f.round);
        else if (seen !== f.round) readAcrossRounds.add(key);
      }
    }
    for (const r of reads) {
      if (!hostRead(r.producer)) continue;
      for (const f of r.remote) {
        const pp = plan.placements[f.producer]!;
        const replica = replicaOfLane(pp, workload.nodes[f.producer]!.lanes, f.slot);
        const key = slotKey(f.producer, replica, f.resultIndex);
        let s = slots.get(key);
        if (!s) {
          const pn = workload.nodes[f.producer]!;
          const bytes = byteSizeOfType(partType(pn, replica, f.resultIndex));
          const writerLanes = pn.isBatch ? lanesOfReplica(pp, pn.lanes, replica) : [0];
          // A part within the host part budget is stored once and loaded whole (few, large
          // transfers); a larger one streams in pieces and is loaded in runs.
          const streams = pn.isBatch && pp.granularity === 'window' && movesInPieces(bytes, cost);
          const fragBytes = pn.isBatch ? byteSizeOfType(fragmentType(pn.op.getResult(f.resultIndex).type as RankedTensorType)) : bytes;
          const chunk = streams ? Math.max(1, Math.floor(hostRunBudget(cost) / Math.max(1, fragBytes))) : writerLanes.length;
          const stores = Math.ceil(writerLanes.length / chunk);
          s = {
            producer: f.producer,
            replica,
            resultIndex: f.resultIndex,
            writer: f.fromCore,
            readers: [],
            offset: -1,
            extraFrees: 0,
            bytes,
            inRuns: pn.isBatch && (movesInPieces(bytes, cost) || readAcrossRounds.has(key)),
            first: writerLanes[0]!,
            lanes: writerLanes.length,
            streams,
            chunk,
            stores,
            freeRegister: -1,
            readyRegisters: new Map(),
            readyGroups: new Map(),
          };
          slots.set(key, s);
          ordered.push(s);
        }
        const rk = readerKey(r.consumer, r.replica);
        if (!s.readers.some((x) => x.key === rk)) s.readers.push({ core: f.toCore, consumer: r.consumer, key: rk });
      }
    }
    // Positions in node order (2p+1: node p stores, 2c: node c loads). A FREE register lives
    // from stream entry to its writer's wait (never shared); a READY register from the store of
    // its slot to the reader's load, so it can pass to a slot written at or after that load.
    // Host memory: the slots one after another where they fit; else slots whose lifetimes do not
    // overlap share bytes (see placeSharedSlots); else the slots beyond the room fall back to
    // channels, in the order they were made.
    const alignedOf = (x: HostSlot): number => Math.ceil(x.bytes / cost.localAlignment) * cost.localAlignment;
    const total = ordered.reduce((a, x) => a + alignedOf(x), 0);
    const readersOf = readersOfNodes(workload);
    const groups = streamGroups(plan, (i) => readersOf[i]!);
    const shared = total > hostSlotBudget ? placeSharedSlots(ordered, alignedOf, groups) : undefined;
    if (total <= hostSlotBudget || !shared || shared.peak > hostSlotBudget) {
      let running = 0;
      for (const x of [...ordered]) {
        const bytes = alignedOf(x);
        if (running + bytes > hostSlotBudget) {
          // No room in host memory: this slot's readers receive through channels instead.
          const key = slotKey(x.producer, x.replica, x.resultIndex);
          slots.delete(key);
          refused++;
          hostFallbacks++;
          ordered.splice(ordered.indexOf(x), 1);
          continue;
        }
        x.offset = running;
        running += bytes;
      }
      hostBytes = running;
    } else {
      ordered.forEach((x, i) => (x.offset = shared.offsets[i]!));
      hostBytes = shared.peak;
      sharedPairs = shared.pairs.map(([a, b]) => [ordered[a]!, ordered[b]!]);
    }
    // A plan of host transfers only would fall back to channels for most of its activations, in
    // an order planned for slots: refuse it before anything is built.
    if (plan.transfer === 'host' && refused > 0) {
      return { scheduled: [], channels: 0, hostSlots: 0, hostBytes: 0, hostFallbacks: refused, hostOverflow: { neededBytes: shared ? shared.peak : total, budgetBytes: hostSlotBudget } };
    }
    if (options.hostSlotsOnly) return { scheduled: [], channels: 0, hostSlots: ordered.length, hostBytes, hostFallbacks: refused };
    /**
     * Registers for every slot: a FREE register on the writer (unless `stages`: barriers order
     * them) and a READY register per reader, or per producer result where `grouped`. With
     * `stages`, a READY register lives from its writer's stage to its reader's, and barriers leave
     * the last two registers of every core.
     */
    const allocate = (grouped: boolean, stages?: LayerStages): Map<string, EventRegisterAssignment> => {
      const requests: EventRegisterRequest[] = [];
      const seen = new Set<string>();
      const from = stages?.first ?? groups.first;
      const until = stages?.last ?? groups.last;
      for (const s of ordered) {
        const key = slotKey(s.producer, s.replica, s.resultIndex);
        if (!stages) requests.push({ core: s.writer, role: 'free', start: -1, end: Infinity, key });
        // A READY register ends after its reader's whole node (2c + 1): a slot written by that node
        // cannot take it over, so no replica waits for its own node's FREE (a streaming writer
        // waits for FREE in the middle of its body, where its sibling might still be loading).
        for (const rd of s.readers) {
          const group = readyGroupKey(s, rd.key, grouped);
          if (seen.has(group)) continue;
          seen.add(group);
          // Nodes streaming into one another run side by side: their group's first and last node.
          requests.push({ core: rd.core, role: 'ready', start: 2 * from[s.producer]! + 1, end: 2 * until[rd.consumer]! + 1, key: group });
        }
      }
      return assignEventRegisters(requests, stages ? EVENT_REGISTER_COUNT - BARRIER_REGISTER_COUNT : EVENT_REGISTER_COUNT);
    };
    /** Slots whose FREE (unless `barriers`) and READY registers all found a register. */
    const placed = (regs: Map<string, EventRegisterAssignment>, grouped: boolean, barriers = false): number =>
      ordered.filter((s) => (barriers || regs.has(slotKey(s.producer, s.replica, s.resultIndex))) && s.readers.every((rd) => regs.has(readyGroupKey(s, rd.key, grouped)))).length;
    // One READY register per slot and reader; per producer result where those run out (when asked).
    let grouped = false;
    let regs = allocate(false);
    const perSlot = placed(regs, false);
    if (options.groupReadyRegisters === true && perSlot < ordered.length) {
      const byGroup = allocate(true);
      if (placed(byGroup, true) > perSlot) {
        grouped = true;
        regs = byGroup;
      }
    }
    // Registers still short with READY registers per producer result, in a plan that runs one
    // stage after another, with every transfer between stages through a host slot and every pair
    // of slots sharing bytes in different stages: barriers order the stages instead of FREE
    // signals (READY registers per slot where those fit, else per producer result).
    if (options.groupReadyRegisters === true && options.layerBarriers !== false && placed(regs, grouped) < ordered.length && !plan.pipelined && refused === 0) {
      const stages = layerStages(groups, workload.nodes.length);
      const crossesStages = reads.some((r) => r.remote.some((f) => !hostRead(f.producer) && stages.first[f.producer] !== stages.first[r.consumer]));
      const lastReaderStage = (x: HostSlot): number => Math.max(...x.readers.map((rd) => stages.last[rd.consumer]!));
      const sharesWithinStage = sharedPairs.some(([early, late]) => lastReaderStage(early) >= stages.first[late.producer]!);
      if (!crossesStages && !sharesWithinStage) {
        for (const g of [false, true]) {
          const staged = allocate(g, stages);
          if (placed(staged, g, true) === ordered.length) {
            layerBarriers = stages;
            regs = staged;
            grouped = g;
            break;
          }
        }
      }
    }
    if (options.slotRegistersOnly) {
      const placedSlots = placed(regs, grouped, layerBarriers !== undefined);
      return { scheduled: [], channels: 0, hostSlots: placedSlots, hostBytes, hostFallbacks: refused + ordered.length - placedSlots, readyRegistersGrouped: grouped };
    }
    for (const s of ordered) {
      const key = slotKey(s.producer, s.replica, s.resultIndex);
      const free = layerBarriers ? { register: -1 } : regs.get(key);
      const ready = s.readers.map((rd) => regs.get(readyGroupKey(s, rd.key, grouped)));
      if (free === undefined || ready.some((x) => x === undefined)) {
        slots.delete(key);
        hostFallbacks++;
        continue;
      }
      s.freeRegister = free.register;
      s.readers.forEach((rd, k) => {
        s.readyRegisters.set(rd.key, ready[k]!.register);
        s.readyGroups.set(rd.key, readyGroupKey(s, rd.key, grouped));
      });
    }
    // A reader signals FREE for a slot whose READY register it took over right after its last
    // load of the register's previous (kept) group of slots; for a fresh register at its stream entry.
    const liveGroups = new Set<string>();
    for (const s of slots.values()) for (const g of s.readyGroups.values()) liveGroups.add(g);
    // (With barriers the stages order every hand-over.)
    for (const s of layerBarriers ? [] : slots.values()) {
      for (const rd of s.readers) {
        let prev = regs.get(s.readyGroups.get(rd.key)!)!.after;
        while (prev !== undefined && !liveGroups.has(prev)) prev = regs.get(prev)!.after;
        if (prev === undefined) continue;
        let list = freeAfterLoad.get(prev);
        if (!list) freeAfterLoad.set(prev, (list = []));
        list.push({ writer: s.writer, register: s.freeRegister });
        freeSentAfterLoad.add(`${slotKey(s.producer, s.replica, s.resultIndex)}@${rd.key}`);
      }
    }
    // A reader's first load of a group waits for every store of the group's slots it reads.
    for (const s of slots.values()) for (const g of s.readyGroups.values()) readyGroupStores.set(g, (readyGroupStores.get(g) ?? 0) + s.stores);
    // Shared bytes: the later slot's writer waits for the earlier slot's readers (FREE after
    // their last load of it, this inference), and the earlier slot's writer, next inference, for
    // the later slot's readers (FREE at their stream entry). Each such reader sends one FREE per
    // inference, counted in the writer's wait, so no register exceeds its awaited count; a reader
    // on the writer's own core is ordered by its stream already.
    for (const [early, late] of layerBarriers ? [] : sharedPairs) {
      if (!slots.has(slotKey(early.producer, early.replica, early.resultIndex)) || !slots.has(slotKey(late.producer, late.replica, late.resultIndex))) continue;
      for (const rd of early.readers) {
        if (rd.core === late.writer) continue;
        const group = early.readyGroups.get(rd.key)!;
        let list = freeAfterLoad.get(group);
        if (!list) freeAfterLoad.set(group, (list = []));
        list.push({ writer: late.writer, register: late.freeRegister });
        late.extraFrees++;
      }
      for (const rd of late.readers) {
        if (rd.core === early.writer) continue;
        entryFrees.push({ core: rd.core, writer: early.writer, register: early.freeRegister });
        early.extraFrees++;
      }
    }
  }
  if (options.hostSlotsOnly || options.slotRegistersOnly) return { scheduled: [], channels: 0, hostSlots: 0, hostBytes: 0, hostFallbacks: 0 };
  const viaHost = (f: FragmentRead): HostSlot | undefined => {
    if (!hostRead(f.producer)) return undefined;
    const pp = plan.placements[f.producer]!;
    return slots.get(slotKey(f.producer, replicaOfLane(pp, workload.nodes[f.producer]!.lanes, f.slot), f.resultIndex));
  };

  // ------------------------------------------------------------------ channel ids
  const channelOf = new Map<FragmentRead, number>();
  let channels = 0;
  for (const r of reads) for (const f of r.remote) if (!viaHost(f)) channelOf.set(f, channels++);

  // Sends grouped by producer node and slot, in consumer order.
  const sendsOf = new Map<string, FragmentRead[]>();
  for (const r of reads) {
    for (const f of r.remote) {
      if (viaHost(f)) continue;
      const k = `${f.producer}:${f.slot}:${f.resultIndex}`;
      let list = sendsOf.get(k);
      if (!list) sendsOf.set(k, (list = []));
      list.push(f);
    }
  }
  // Sends of every producer replica in the order their consumer replicas receive them (round,
  // then read order), and the consumer replica of each.
  const consumerOf = new Map<FragmentRead, string>();
  const sendOrder = new Map<string, FragmentRead[]>();
  {
    const ordered: { f: FragmentRead; key: string; round: number; seq: number }[] = [];
    let seq = 0;
    for (const r of reads) {
      for (const f of r.remote) {
        if (viaHost(f)) continue;
        ordered.push({ f, key: `${r.consumer}:${r.replica}`, round: f.round, seq: seq++ });
      }
    }
    // Stable by consumer replica, then round, then the order of the reads (what receiveRound does).
    const consumerRank = new Map<string, number>();
    for (const o of ordered) if (!consumerRank.has(o.key)) consumerRank.set(o.key, consumerRank.size);
    ordered.sort((a, b) => consumerRank.get(a.key)! - consumerRank.get(b.key)! || a.round - b.round || a.seq - b.seq);
    for (const o of ordered) {
      consumerOf.set(o.f, o.key);
      const pp = plan.placements[o.f.producer]!;
      const pkey = `${o.f.producer}:${replicaOfLane(pp, workload.nodes[o.f.producer]!.lanes, o.f.slot)}`;
      let list = sendOrder.get(pkey);
      if (!list) sendOrder.set(pkey, (list = []));
      list.push(o.f);
    }
  }
  const feedsStreaming = new Set<number>();
  for (const r of reads) if (plan.placements[r.consumer]!.windowRounds !== undefined) feedsStreaming.add(r.producer);
  const readsOf = readsByConsumerReplica(reads);

  // Partial results a replica must assemble: read on the host, forwarded to a consumer on the
  // same core, stored in a host slot, or sliced into grouped messages.
  const nodeOps = new Set(workload.nodes.map((n) => n.op));
  /** A user of a graph result that stays on the host (not a graph compute, nor a blueprint only they read). */
  const isHostUser = (u: Operation): boolean => !nodeOps.has(u) && !(BlueprintOp.isInstance(u) && u.getResult(0).users.every((x) => nodeOps.has(x)));
  const neededPartials = new Set<string>();
  const hostUsed = new Set<number>();
  for (const n of workload.nodes) {
    n.op.results.forEach((res, k) => {
      const hostUse = res.users.some(isHostUser);
      if (hostUse) {
        hostUsed.add(n.index);
        for (let j = 0; j < plan.placements[n.index]!.replicas; j++) neededPartials.add(slotKey(n.index, j, k));
      }
    });
  }
  for (const r of reads) {
    const pp = plan.placements[r.producer]!;
    if (r.hasLocal) neededPartials.add(slotKey(r.producer, pp.cores.indexOf(plan.placements[r.consumer]!.cores[r.replica]!), r.resultIndex));
    for (const f of r.remote) {
      const sendTask = pp.granularity === 'layer' && !viaHost(f);
      if (f.count > 1 || sendTask) neededPartials.add(slotKey(f.producer, replicaOfLane(pp, workload.nodes[f.producer]!.lanes, f.slot), f.resultIndex));
    }
  }
  for (const [key, slot] of slots) if (!slot.streams) neededPartials.add(key);

  // ------------------------------------------------------------------ batches of equivalent replicas
  // Sends of layer-granularity producers, per producer replica, in the order the send tasks
  // would perform them (consumer, replica, receive position).
  const layerSends = new Map<string, FragmentRead[]>();
  /** The last consumer node each producer replica's layer sends go to. */
  const lastLayerConsumer = new Map<string, number>();
  /** Per core, the consumer nodes that core's send tasks serve. */
  const sendTaskConsumers = new Map<number, number[]>();
  /** Producer replicas (`node:replica`) a consumer on their core reads through SSA. */
  const locallyRead = new Set<string>();
  /** The consumer nodes that read each mirror (`node:core`). */
  const mirrorReaders = new Map<string, Set<number>>();
  for (const r of reads) {
    if (r.hasLocal) {
      const pp = plan.placements[r.producer]!;
      const core = plan.placements[r.consumer]!.cores[r.replica]!;
      const replica = pp.cores.indexOf(core);
      if (replica >= 0) locallyRead.add(`${r.producer}:${replica}`);
      else {
        const key = `${r.producer}:${core}`;
        let set = mirrorReaders.get(key);
        if (!set) mirrorReaders.set(key, (set = new Set()));
        set.add(r.consumer);
      }
    }
    for (const f of r.remote) {
      const pp = plan.placements[f.producer]!;
      if (viaHost(f) || pp.granularity !== 'layer') continue;
      const k = `${f.producer}:${replicaOfLane(pp, workload.nodes[f.producer]!.lanes, f.slot)}`;
      let list = layerSends.get(k);
      if (!list) layerSends.set(k, (list = []));
      list.push(f);
      lastLayerConsumer.set(k, Math.max(lastLayerConsumer.get(k) ?? -1, r.consumer));
      let cs = sendTaskConsumers.get(f.fromCore);
      if (!cs) sendTaskConsumers.set(f.fromCore, (cs = []));
      cs.push(r.consumer);
    }
  }
  /** Mirrors (`node:core`) that batches compute in their body instead. */
  const inlinedMirrors = new Set<string>();
  const groups = planBatches();
  /** Replicas emitted inside a batch (`node:replica`): their sends are in the batch body, not in send tasks. */
  const inBatch = new Set<string>();
  for (const [node, list] of groups) for (const g of list) if (g.length > 1) for (const j of g) inBatch.add(`${node}:${j}`);

  // ------------------------------------------------------------------ scheduled ops
  const constants = new Map<Block, Map<number, Value>>();
  /** The map of every graph-body `affine.apply` folded so far. */
  const applyMaps = new Map<Operation, AffineMap>();
  const scheduled: Operation[][] = workload.nodes.map(() => []);
  const firstOnCore = new Map<number, Operation>();
  const mirrorOps = new Map<string, Operation>();
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    const nodeGroups = groups.get(n.index) ?? Array.from({ length: pl.replicas }, (_, j) => [j]);
    const opOf: Operation[] = [];
    for (const g of nodeGroups) {
      const op = g.length > 1 ? buildBatch(n, g) : buildReplica(n, g[0]!);
      for (const j of g) opOf[j] = op;
    }
    for (let j = 0; j < pl.replicas; j++) {
      const op = opOf[j]!;
      scheduled[n.index]!.push(op);
      const core = pl.cores[j]!;
      if (!firstOnCore.has(core)) firstOnCore.set(core, op);
    }
    for (const m of pl.mirrors ?? []) {
      if (inlinedMirrors.has(`${n.index}:${m}`)) continue;
      const op = buildReplica(n, 0, m);
      mirrorOps.set(`${n.index}:${m}`, op);
      if (!firstOnCore.has(m)) firstOnCore.set(m, op);
    }
  }
  buildSendTasks();
  // FREE signals at every reader's stream entry.
  {
    /**
     * Per stream block, its first op after the index constants (null: none): the last FREE
     * signal placed there, once there is one. Constants are only added at the block's start, so
     * the scan past them runs once per block, not once per signal.
     */
    const entryOf = new Map<Block, Operation | null>();
    /** `sync writer, register` at the start of `core`'s stream (after its block's index constants, before its first real op). */
    const freeAtEntry = (core: number, writer: number, register: number): void => {
      const first = firstOnCore.get(core)!;
      const block = first.regions[0]!.firstBlock!;
      const b = new OpBuilder(ctx);
      let at = entryOf.get(block);
      if (at === undefined) {
        at = block.firstOp;
        while (at && ConstantOp.isInstance(at)) at = at.next;
      }
      if (at) b.setInsertionPoint(at);
      else b.setInsertionPointToEnd(block);
      entryOf.set(block, SyncOp.build(b, { targetCoreId: constant(b, writer, first.location), eventRegister: constant(b, register, first.location) }, first.location).op);
    };
    for (const s of slots.values()) {
      if (s.freeRegister < 0) continue;
      for (const rd of s.readers) {
        if (freeSentAfterLoad.has(`${slotKey(s.producer, s.replica, s.resultIndex)}@${rd.key}`)) continue;
        freeAtEntry(rd.core, s.writer, s.freeRegister);
      }
    }
    for (const e of entryFrees) freeAtEntry(e.core, e.writer, e.register);
  }
  // Barriers after every stage, on every core with a stream (the last one ends the inference).
  if (layerBarriers) {
    // Every core with a stream has a first scheduled op (send tasks run on their producers' cores).
    const cores = [...firstOnCore.keys()].sort((a, b) => a - b);
    for (const end of layerBarriers.ends) insertLayerBarrier(workload.nodes[end]!.op, cores, workload.nodes[end]!.op.location);
  }
  // Host uses of graph results: reassemble from the replicas' partial results.
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    const b = OpBuilder.before(n.op);
    n.op.results.forEach((res, k) => {
      if (!res.users.some(isHostUser)) return;
      let value: Value;
      if (pl.replicas === 1) value = scheduled[n.index]![0]!.getResult(k);
      else {
        const type = res.type as RankedTensorType;
        value = createEmpty(b, n.op.location, type);
        for (let lane = 0; lane < n.lanes; lane++) {
          const replica = replicaOfLane(pl, n.lanes, lane);
          const part = scheduled[n.index]![replica]!.getResult(k);
          const sizes = [1, ...type.shape.slice(1)];
          const offsets = [lane, ...type.shape.slice(1).map(() => 0)];
          const frag = slices.extract(b, n.op.location, part, [partIndex(n.index, lane), ...offsets.slice(1)], sizes);
          value = slices.insert(b, n.op.location, frag, value, offsets, sizes);
        }
      }
      res.replaceUsesWithIf(value, (use) => isHostUser(use.owner));
    });
  }
  // Erase the graph computes (consumers first) and the blueprints between them.
  for (let i = workload.nodes.length - 1; i >= 0; i--) {
    const op = workload.nodes[i]!.op;
    for (const res of op.results) for (const u of res.users) if (BlueprintOp.isInstance(u) && u.getResult(0).useEmpty) u.erase();
    op.erase();
  }
  // Partial results nobody reads: drop them (resultless scheduled computes).
  for (const list of scheduled) {
    for (let j = 0; j < list.length; j++) {
      const op = list[j]!;
      if (op.numResults > 0 && op.results.every((r) => r.useEmpty)) list[j] = dropResults(op);
    }
  }
  // Slices and reshapes next to their users, as the local-memory model counts them.
  for (const op of workload.func.regions[0]?.firstBlock?.operations ?? []) {
    if (ScheduledComputeOp.isInstance(op) || ScheduledComputeBatchOp.isInstance(op)) for (const r of op.regions) for (const b of r.blocks) sinkViewsToFirstUse(b);
  }
  return { scheduled, channels, hostSlots: slots.size, hostBytes, hostFallbacks, ...(layerBarriers ? { barriers: layerBarriers.ends.length } : {}) };

  // ------------------------------------------------------------------ helpers

  /**
   * Clones body op `o` of one unrolled round at the builder's point, folding what the known
   * index `numbers` of the round decide: an `affine.apply` of known operands becomes a number
   * (no op); any other op gets a (block-shared) index constant for each known operand it reads.
   * Offsets stay dynamic operands on purpose: a static offset list per lane would be one more
   * uniqued attribute per slice, which costs more than the shared constants.
   */
  function cloneFolding(b: OpBuilder, o: Operation, mapping: IRMapping, numbers: Map<Value, number>, rebase?: ReadonlyMap<Value, readonly number[]>): void {
    const known = (v: Value): number | undefined => numbers.get(v) ?? indexConstantOf(mapping.lookupOrDefault(v));
    const origin = rebase && o.numOperands > 0 ? rebase.get(o.getOperand(0)) : undefined;
    if (origin && ExtractSliceOp.isInstance(o)) {
      // A read of a windowed input: the same slice of the window, its offsets moved by the window's origin.
      const lists = readSliceLists(o);
      const dyn = ExtractSliceOp.get(o).offsets as readonly Value[];
      let d = 0;
      const offsets = lists.offsets.map((x, i) => {
        const v = x === DYNAMIC ? known(dyn[d++]!) : x;
        if (v === undefined) throw new Error(`materializeSchedule: a windowed read has an offset that is not static for its lane (${o.name})`);
        return constant(b, v - origin[i]!, o.location);
      });
      const r = slices.extractStrided(b, o.location, mapping.lookup(o.getOperand(0)), offsets, lists.sizes, lists.strides, o.getResult(0).type as RankedTensorType);
      mapping.map(o.getResult(0), r);
      return;
    }
    if (AffineApplyOp.isInstance(o)) {
      const args: number[] = [];
      for (const v of o.operands) {
        const x = known(v);
        if (x === undefined) break;
        args.push(x);
      }
      if (args.length === o.numOperands) {
        let map = applyMaps.get(o);
        if (!map) applyMaps.set(o, (map = AffineApplyOp.get(o).map.value));
        const r = map.evaluate(args.slice(0, map.numDims), args.slice(map.numDims));
        if (r && r.length === 1) {
          numbers.set(o.getResult(0), r[0]!);
          return;
        }
      }
    }
    for (const v of o.operands) {
      const x = numbers.get(v);
      if (x !== undefined && !mapping.contains(v)) mapping.map(v, constant(b, x, o.location));
    }
    b.clone(o, mapping);
  }

  /** The number of an `index` constant, or undefined. */
  function indexConstantOf(v: Value): number | undefined {
    const def = v.definingOp;
    if (!def || !ConstantOp.isInstance(def) || !(v.type instanceof IndexType)) return undefined;
    const a = def.getAttr('value');
    return a instanceof IntegerAttr ? Number(a.value) : undefined;
  }

  /** An index constant at the start of the builder's block (one per value and block). */
  function constant(b: OpBuilder, n: number, loc: Location): Value {
    const block = b.insertionBlock!;
    let cache = constants.get(block);
    if (!cache) constants.set(block, (cache = new Map()));
    let v = cache.get(n);
    if (!v) {
      const cb = new OpBuilder(ctx);
      const first = block.firstOp;
      if (first) cb.setInsertionPoint(first);
      else cb.setInsertionPointToEnd(block);
      v = ConstantOp.build(cb, { result: index, value: IntegerAttr.get(index, n) }, loc).result;
      cache.set(n, v);
    }
    return v;
  }

  function fragmentType(collection: RankedTensorType): RankedTensorType {
    return RankedTensorType.get(ctx, collection.shape.slice(1), collection.elementType);
  }

  /** The type a piece of a fragment travels as (exact windows): its sizes without unit dimensions. */
  function pieceType(sizes: readonly number[], elementType: RankedTensorType['elementType']): RankedTensorType {
    const kept = sizes.filter((x) => x !== 1);
    return RankedTensorType.get(ctx, kept.length ? kept : [1], elementType);
  }

  /** Piece `p` of the fragment value `v` (of the fragment's shape `fragment`, or with unit dimensions dropped) as it travels. */
  function extractPiece(b: OpBuilder, loc: Location, v: Value, fragment: readonly number[], p: FragmentPiece): Value {
    const type = v.type as RankedTensorType;
    const travel = pieceType(p.sizes, type.elementType);
    if (type === travel) return v;
    const dropped = type.shape.length === fragment.length ? new Set<number>() : rankReductionMask(fragment, type.shape);
    if (!dropped) throw new Error(`materializeSchedule: a fragment value ${type.shape.join('x')} does not match its fragment ${fragment.join('x')}`);
    const offsets = p.offsets.filter((_, d) => !dropped.has(d));
    const sizes = p.sizes.filter((_, d) => !dropped.has(d));
    return slices.extract(b, loc, v, offsets, sizes, travel);
  }

  /** Receives `f` at the builder's point: the received payload (fragment or whole value). */
  function receive(b: OpBuilder, f: FragmentRead, reader: string, type: RankedTensorType, loc: Location): Value {
    if (viaHost(f)) throw new Error(`materializeSchedule: a host slot read by ${reader} outside its replica body`);
    beforeReceive?.(f);
    return ChannelReceiveOp.build(
      b,
      { channelId: constant(b, channelOf.get(f)!, loc), sourceCoreId: constant(b, f.fromCore, loc), targetCoreId: constant(b, f.toCore, loc), output: type },
      loc,
    ).output;
  }

  /** What building a replica or a batch reads of node `n`'s graph compute. */
  function graphParts(n: WorkloadNode) {
    const g = n.op;
    const view = n.isBatch ? GraphComputeBatchOp.get(g) : GraphComputeOp.get(g);
    return {
      g,
      loc: g.location,
      weights: view.weights as readonly Value[],
      inputs: view.inputs as readonly Value[],
      gEntry: g.regions[0]!.firstBlock!,
      firstWeightArg: n.isBatch ? 1 : 0,
      nodeInputs: new Map(n.inputs.map((i) => [i.inputIndex, i])),
    };
  }

  /** Builds the scheduled compute of replica `j` of node `n` before the graph compute. */
  function buildReplica(n: WorkloadNode, j: number, mirrorCore?: number): Operation {
    const { g, loc, weights, inputs, gEntry, firstWeightArg, nodeInputs } = graphParts(n);
    const pl = plan.placements[n.index]!;
    const core = mirrorCore ?? pl.cores[j]!;
    const myReads = readsOf.get(`${n.index}:${j}`) ?? [];
    /** The schedule orders this body's channel receives within each round (`SendSchedule.receiveRank`). */
    const scheduledReceives = mirrorCore === undefined && options.sendSchedule !== undefined;

    // Operands: weights, non-graph inputs, and the local partial results of producers.
    const newInputs: Value[] = [];
    const argOfInput = new Map<number, number>();
    const localOf = new Map<string, number>();
    inputs.forEach((v, k) => {
      if (nodeInputs.has(k)) return;
      argOfInput.set(k, newInputs.length);
      newInputs.push(v);
    });
    for (const r of myReads) {
      if (!r.hasLocal) continue;
      const src = nodeInputs.get(r.inputIndex)!.sources[r.sourceIndex]!;
      const pp = plan.placements[src.producer]!;
      const replica = pp.cores.indexOf(core);
      const local = replica >= 0 ? scheduled[src.producer]![replica]! : mirrorOps.get(`${src.producer}:${core}`)!;
      localOf.set(`${r.inputIndex}:${r.sourceIndex}`, newInputs.length);
      newInputs.push(local.getResult(src.resultIndex));
    }
    const resultTypes = g.resultTypes.map((_, k) => partType(n, j, k));
    /** Where a slot of this replica lies in its partial result (a mirror holds the whole value). */
    const own = (slot: number): number => (mirrorCore === undefined ? partIndex(n.index, slot) : slot);
    /** `own` moves slots: this replica holds only its part, which does not start at lane 0 or is interleaved. */
    const shifted = mirrorCore === undefined && pl.windows === true && n.isBatch && (j > 0 || (pl.interleaved ?? 0) > 0);
    const b = OpBuilder.before(g);
    // `copies` bindings of every weight: round k computes on copy k % copies.
    const copiedWeights: Value[] = [];
    for (let c = 0; c < pl.copies; c++) copiedWeights.push(...weights);
    const s = ScheduledComputeOp.build(b, { weights: copiedWeights, inputs: newInputs, outputs: [...resultTypes], coreId: IntegerAttr.get(i32, core) }, loc).op;
    const block: Block = s.regions[0]!.addBlock();
    const wArgs = copiedWeights.map((w) => block.addArgument(w.type, loc));
    const iArgs = newInputs.map((v) => block.addArgument(v.type, loc));
    const bb = OpBuilder.atBlockEnd(block, ctx);

    // The reconstructed value of every graph input, updated round by round.
    const bases = new Map<string, Value>();
    const baseOf = (inputIndex: number, sourceIndex: number, type: RankedTensorType): Value => {
      const key = `${inputIndex}:${sourceIndex}`;
      let v = bases.get(key);
      if (!v) {
        const local = localOf.get(key);
        v = local !== undefined ? iArgs[local]! : createEmpty(bb, loc, type);
        if (local !== undefined && v.type !== type) {
          // The local producer replica holds only its slots: place them in a whole value.
          const part = v.type as RankedTensorType;
          const src = nodeInputs.get(inputIndex)!.sources[sourceIndex]!;
          const pp = plan.placements[src.producer]!;
          const pn = workload.nodes[src.producer]!;
          const replica = pp.cores.indexOf(core);
          const zeros = part.shape.slice(1).map(() => 0);
          if (!pp.interleaved) v = slices.insert(bb, loc, v, createEmpty(bb, loc, type), [lanesOfReplica(pp, pn.lanes, replica)[0] ?? 0, ...zeros], part.shape);
          else {
            // Every replicas-th slot: one insert per slot.
            const sizes = [1, ...part.shape.slice(1)];
            let whole = createEmpty(bb, loc, type);
            for (const [round, lane] of lanesOfReplica(pp, pn.lanes, replica).entries()) {
              whole = slices.insert(bb, loc, slices.extract(bb, loc, v, [round, ...zeros], sizes), whole, [lane, ...zeros], sizes);
            }
            v = whole;
          }
        }
        bases.set(key, v);
      }
      return v;
    };
    // Windowed inputs: the window this replica's lanes read (origin and current value).
    const windowsOf = new Map<number, { box: Box; value: Value }>();
    /** Logical coordinates `offsets` inside the window `w`. */
    const inWindow = (w: { box: Box }, offsets: readonly number[]): number[] => offsets.map((o, d) => o - w.box.offsets[d]!);
    // Streaming windows: runs of rounds each hold the window of their own lanes.
    const runs = mirrorCore === undefined && pl.windows ? windowRunsOf(pl, n.lanes, j) : [];
    /** Opens the windows of the run of lanes `runLanes` (every windowed input) and places their local slots. */
    const openWindows = (run: number): void => {
      for (const input of n.inputs) {
        const box = streamingWindows(n, input, pl, j)?.[run];
        if (!box) continue;
        let value = createEmpty(bb, loc, RankedTensorType.get(ctx, [...box.sizes], input.window!.logical.elementType));
        // A later run starts from what the previous window holds of it (planReads receives only the rest).
        const previous = windowsOf.get(input.inputIndex);
        const overlap = previous ? intersectBoxes(previous.box, box) : undefined;
        if (previous && overlap) {
          const kept = slices.extract(bb, loc, previous.value, inWindow(previous, overlap.offsets), overlap.sizes);
          value = slices.insert(bb, loc, kept, value, overlap.offsets.map((o, d) => o - box.offsets[d]!), overlap.sizes);
        }
        windowsOf.set(input.inputIndex, { box, value });
      }
      placeLocalSlots(runs[run]!);
    };
    /**
     * Places what falls in the window of `inputIndex` of slot `slot` of source `sourceIndex`, read
     * from `source`: that slot's fragment (`at` undefined) or a collection holding it at position
     * `at(slot)`. A fragment larger than the window is clipped to it.
     */
    const placeSlot = (inputIndex: number, sourceIndex: number, slot: number, source: Value, at?: (slot: number) => number): void => {
      const w = windowsOf.get(inputIndex)!;
      const region = nodeInputs.get(inputIndex)!.window!.regions[sourceIndex]![slot]!;
      const piece = intersectBoxes(region, w.box);
      if (!piece) return;
      const type = source.type as RankedTensorType;
      const fragShape = at === undefined ? type.shape : type.shape.slice(1);
      const dropped = rankReductionMask(region.sizes, fragShape)!;
      const kept = (xs: readonly number[]): number[] => xs.filter((_, d) => !dropped.has(d));
      const fo = kept(piece.offsets.map((o, d) => o - region.offsets[d]!));
      const fs = kept(piece.sizes);
      const whole = fs.every((x, i) => x === fragShape[i]);
      let frag: Value;
      if (at === undefined) frag = whole ? source : slices.extract(bb, loc, source, fo, fs);
      else frag = slices.extract(bb, loc, source, [at(slot), ...fo], [1, ...fs], RankedTensorType.get(ctx, fs, type.elementType));
      w.value = slices.insert(bb, loc, frag, w.value, inWindow(w, piece.offsets), piece.sizes);
    };
    /** Places slots `slots` of `source`, a collection holding slot `q` at position `at(q)`, into a window. */
    const placeSlots = (inputIndex: number, sourceIndex: number, source: Value, at: (slot: number) => number, slots: readonly number[]): void => {
      const input = nodeInputs.get(inputIndex)!;
      if (input.blueprint) {
        for (const q of slots) placeSlot(inputIndex, sourceIndex, q, source, at);
        return;
      }
      // A direct collection's consecutive slots are one box: one slice moves what the window takes of them.
      const collection = source.type as RankedTensorType;
      const w = windowsOf.get(inputIndex)!;
      for (let i = 0; i < slots.length; ) {
        let count = 1;
        while (i + count < slots.length && slots[i + count] === slots[i]! + count && at(slots[i + count]!) === at(slots[i]!) + count) count++;
        const q = slots[i]!;
        i += count;
        const run: Box = { offsets: [q, ...collection.shape.slice(1).map(() => 0)], sizes: [count, ...collection.shape.slice(1)] };
        const piece = intersectBoxes(run, w.box);
        if (!piece) continue;
        const whole = piece.sizes.every((x, d) => x === collection.shape[d]) && at(q) === 0;
        const part = whole ? source : slices.extract(bb, loc, source, [at(piece.offsets[0]!), ...piece.offsets.slice(1)], piece.sizes);
        w.value = slices.insert(bb, loc, part, w.value, inWindow(w, piece.offsets), piece.sizes);
      }
    };
    /** Local sources of windowed inputs: their slots come from this core's producer replica. */
    function placeLocalSlots(runLanes: readonly number[]): void {
      for (const r of myReads) {
        const w = windowsOf.get(r.inputIndex);
        if (!w || !r.hasLocal) continue;
        const input = nodeInputs.get(r.inputIndex)!;
        const src = input.sources[r.sourceIndex]!;
        const producer = workload.nodes[src.producer]!;
        const pp = plan.placements[src.producer]!;
        const local = iArgs[localOf.get(`${r.inputIndex}:${r.sourceIndex}`)!]!;
        if (!input.window!.regions[r.sourceIndex]) {
          w.value = slices.extract(bb, loc, local, w.box.offsets, w.box.sizes);
          continue;
        }
        const need = new Set<number>();
        for (const lane of runLanes) for (const q of src.slotsPerLane[lane] ?? []) need.add(q);
        const mine = [...need].filter((q) => !producer.isBatch || coreOfLane(pp, producer.lanes, q) === core || pp.mirrors?.includes(core)).sort((a, b2) => a - b2);
        placeSlots(r.inputIndex, r.sourceIndex, local, producer.isBatch ? inPart(src.producer) : from(0), mine);
      }
    }
    if (runs.length) openWindows(0);
    // Host slots carry a writer replica's whole partial result. A replica loads what it reads of
    // a slot (runs of consecutive fragments, a scalar producer's whole value once): the first load
    // waits for READY, later ones (count 0) find the register already reset; the FREE signals of
    // the slots that take over the register follow the last load.
    const loaded = new Map<HostSlot, Value>();
    /** The last load of each READY group this replica loads (its FREE signals for the next group follow it). */
    const lastLoadOf = new Map<string, Operation>();
    const me = readerKey(n.index, j);
    const loadSlot = (f: FragmentRead, slot: HostSlot, type: RankedTensorType, byteOffset: number): Value => {
      const group = slot.readyGroups.get(me)!;
      const first = !lastLoadOf.has(group);
      const op = HostWaitLoadOp.build(
        bb,
        {
          sourceCoreId: constant(bb, f.fromCore, loc),
          targetCoreId: constant(bb, f.toCore, loc),
          hostOffset: constant(bb, slot.offset + byteOffset, loc),
          eventRegister: constant(bb, slot.readyRegisters.get(me)!, loc),
          waitValue: constant(bb, first ? readyGroupStores.get(group)! : 0, loc),
          output: type,
        },
        loc,
      ).op;
      lastLoadOf.set(group, op);
      return op.getResult(0);
    };
    /** Fragments of one batch producer's slot read in one round: loaded as runs of consecutive slots, each when first placed. */
    interface HostRun {
      readonly f: FragmentRead;
      readonly slot: HostSlot;
      readonly first: number;
      readonly type: RankedTensorType;
      readonly byteOffset: number;
      value?: Value;
    }
    const hostRuns = new Map<FragmentRead, HostRun>();
    const runOf = (f: FragmentRead): { value: Value; first: number } => {
      const run = hostRuns.get(f)!;
      run.value ??= loadSlot(run.f, run.slot, run.type, run.byteOffset);
      return { value: run.value, first: run.first };
    };
    /** Plans the host runs of `reads` (one read's fragments of one round, or of every round). */
    const loadRuns = (reads: readonly FragmentRead[], collection: RankedTensorType): void => {
      const frag = fragmentType(collection);
      const fragBytes = byteSizeOfType(frag);
      const fs = reads.filter((f) => viaHost(f)?.inRuns === true);
      for (let i = 0; i < fs.length; ) {
        const slot = viaHost(fs[i]!)!;
        let k = i + 1;
        const most = Math.max(1, Math.floor(hostRunBudget(cost) / Math.max(1, fragBytes)));
        // A load never spans two stores of a streaming writer.
        const storeOf = (q: number): number => Math.floor((q - slot.first) / slot.chunk);
        while (
          k < fs.length &&
          k - i < most &&
          viaHost(fs[k]!) === slot &&
          fs[k]!.slot === fs[k - 1]!.slot + fs[k - 1]!.count &&
          storeOf(fs[k]!.slot) === storeOf(fs[i]!.slot)
        )
          k++;
        const first = fs[i]!.slot;
        const count = fs[k - 1]!.slot + fs[k - 1]!.count - first;
        const type = RankedTensorType.get(ctx, [count, ...frag.shape], frag.elementType);
        const run: HostRun = { f: fs[i]!, slot, first, type, byteOffset: partIndex(slot.producer, first) * fragBytes };
        for (let x = i; x < k; x++) hostRuns.set(fs[x]!, run);
        i = k;
      }
    };
    /**
     * Places piece `f.piece` of a fragment into the run's window (exact windows): received as it
     * travels, or loaded from its host slot as the runs of consecutive bytes it covers in the
     * stored fragment (one load when only its first partial dimension is cut).
     */
    const placePiece = (inputIndex: number, sourceIndex: number, f: FragmentRead, collection: RankedTensorType, slot: HostSlot | undefined): void => {
      const w = windowsOf.get(inputIndex)!;
      const p = f.piece!;
      if (!slot) {
        const msg = receive(bb, f, me, pieceType(p.sizes, collection.elementType), loc);
        w.value = slices.insert(bb, loc, msg, w.value, inWindow(w, p.box.offsets), p.box.sizes);
        return;
      }
      const fragment = collection.shape.slice(1);
      const region = nodeInputs.get(inputIndex)!.window!.regions[sourceIndex]![f.slot]!;
      const dropped = rankReductionMask(region.sizes, fragment)!;
      // Dimensions after `cut` are whole in the piece: each segment is contiguous in the fragment.
      let cut = fragment.length - 1;
      while (cut >= 0 && p.sizes[cut] === fragment[cut]) cut--;
      const strides = fragment.map((_, d) => fragment.slice(d + 1).reduce((a, x) => a * x, 1));
      const fragmentBytes = byteSizeOfType(fragmentType(collection));
      const elementBytes = fragmentBytes / Math.max(1, fragment.reduce((a, x) => a * x, 1));
      const base = partIndex(slot.producer, f.slot) * fragmentBytes;
      const outer = p.sizes.slice(0, Math.max(0, cut));
      const count = outer.reduce((a, x) => a * x, 1);
      for (let i = 0; i < count; i++) {
        let rest = i;
        const at = [...p.offsets];
        for (let d = outer.length - 1; d >= 0; d--) {
          at[d] = p.offsets[d]! + (rest % outer[d]!);
          rest = Math.floor(rest / outer[d]!);
        }
        const sizes = fragment.map((x, d) => (d < cut ? 1 : d === cut ? p.sizes[d]! : x));
        const offsets = fragment.map((_, d) => (d <= cut ? at[d]! : 0));
        const byteOffset = base + elementBytes * offsets.reduce((a, o, d) => a + o * strides[d]!, 0);
        const segment = loadSlot(f, slot, pieceType(sizes, collection.elementType), byteOffset);
        // Back to the input's coordinates: the region's rank-reduced dimensions are its own.
        let k = 0;
        const logicalOffsets = region.offsets.map((o, d) => (dropped.has(d) ? o : o + offsets[k++]!));
        k = 0;
        const logicalSizes = region.sizes.map((_, d) => (dropped.has(d) ? 1 : sizes[k++]!));
        w.value = slices.insert(bb, loc, segment, w.value, inWindow(w, logicalOffsets), logicalSizes);
      }
    };
    // Channel receives first, host loads after them: a producer upstream of a spilled one never
    // waits (blocked in a send) for a reader that waits for the spilled producer's slot.
    /** The reads of each pass in order (made once per body): the schedule's receive order for channels where it has one. */
    const pairs: [ReplicaInputReads, FragmentRead][] = [];
    for (const r of myReads) for (const f of r.remote) pairs.push([r, f]);
    const rank = scheduledReceives ? options.sendSchedule!.receiveRank : undefined;
    const channelPairs = rank ? [...pairs].sort((x, y) => (rank.get(x[1]) ?? Number.MAX_SAFE_INTEGER) - (rank.get(y[1]) ?? Number.MAX_SAFE_INTEGER)) : pairs;
    /** Receives or loads one read fragment of round `f.round` (channels in the first pass, host slots in the second). */
    const receiveOne = (r: ReplicaInputReads, f: FragmentRead, hostPass: boolean): void => {
      const input = nodeInputs.get(r.inputIndex)!;
      const src = input.sources[r.sourceIndex]!;
      const producer = workload.nodes[src.producer]!;
      const collection = producer.op.getResult(src.resultIndex).type as RankedTensorType;
      const key = `${r.inputIndex}:${r.sourceIndex}`;
      const w = windowsOf.get(r.inputIndex);
      const slot = viaHost(f);
      if ((slot !== undefined) !== hostPass) return;
      const whole = (): Value => {
        let v = loaded.get(slot!);
        if (!v) loaded.set(slot!, (v = loadSlot(f, slot!, partType(producer, slot!.replica, src.resultIndex), 0)));
        return v;
      };
      if (w) {
        if (!input.window!.regions[r.sourceIndex]) {
          // A scalar producer read directly: the window itself (sent alone, or cut from the value).
          if (f.box && !slot) {
            const window = receive(bb, f, me, RankedTensorType.get(ctx, [...f.box.sizes], collection.elementType), loc);
            w.value = f.box.sizes.every((x, d) => x === w.box.sizes[d] && f.box!.offsets[d] === w.box.offsets[d])
              ? window
              : slices.insert(bb, loc, window, w.value, inWindow(w, f.box.offsets), f.box.sizes);
          } else w.value = slices.extract(bb, loc, slot ? whole() : receive(bb, f, me, collection, loc), w.box.offsets, w.box.sizes);
          return;
        }
        if (f.piece) {
          placePiece(r.inputIndex, r.sourceIndex, f, collection, slot);
          return;
        }
        const runSlots = Array.from({ length: f.count }, (_, i) => f.slot + i);
        if (slot?.inRuns) {
          const run = runOf(f);
          placeSlots(r.inputIndex, r.sourceIndex, run.value, from(run.first), runSlots);
        } else if (slot) placeSlots(r.inputIndex, r.sourceIndex, whole(), producer.isBatch ? inPart(src.producer) : from(0), runSlots);
        else if (!producer.isBatch) placeSlots(r.inputIndex, r.sourceIndex, receive(bb, f, me, collection, loc), from(0), [f.slot]);
        else {
          const type = f.count > 1 ? RankedTensorType.get(ctx, [f.count, ...collection.shape.slice(1)], collection.elementType) : fragmentType(collection);
          const msg = receive(bb, f, me, type, loc);
          if (f.count > 1) placeSlots(r.inputIndex, r.sourceIndex, msg, from(f.slot), runSlots);
          else placeSlot(r.inputIndex, r.sourceIndex, f.slot, msg);
        }
        return;
      }
      if (!producer.isBatch) {
        if (slot || !f.box) bases.set(key, slot ? whole() : receive(bb, f, me, collection, loc));
        else {
          // Only the window this replica reads was sent: place it in an otherwise unread value.
          const window = receive(bb, f, me, RankedTensorType.get(ctx, [...f.box.sizes], collection.elementType), loc);
          bases.set(key, slices.insert(bb, loc, window, createEmpty(bb, loc, collection), f.box.offsets, f.box.sizes));
        }
        return;
      }
      const base = baseOf(r.inputIndex, r.sourceIndex, collection);
      const sizes = [f.count, ...collection.shape.slice(1)];
      const offsets = [f.slot, ...collection.shape.slice(1).map(() => 0)];
      const type = f.count > 1 ? RankedTensorType.get(ctx, sizes, collection.elementType) : fragmentType(collection);
      let frag: Value;
      if (slot && !slot.inRuns) frag = slices.extract(bb, loc, whole(), [partIndex(src.producer, f.slot), ...offsets.slice(1)], sizes, type);
      else if (slot) {
        const run = runOf(f);
        frag = run.first === f.slot && run.value.type === type ? run.value : slices.extract(bb, loc, run.value, [f.slot - run.first, ...offsets.slice(1)], sizes, type);
      }
      else frag = receive(bb, f, me, type, loc);
      bases.set(key, slices.insert(bb, loc, frag, base, offsets, sizes));
    };
    // The pairs of every round, in the order of each pass (made once per body: a body of many
    // rounds would otherwise scan every pair once per round).
    const channelByRound = new Map<number, [ReplicaInputReads, FragmentRead][]>();
    for (const pair of channelPairs) {
      let b = channelByRound.get(pair[1].round);
      if (!b) channelByRound.set(pair[1].round, (b = []));
      b.push(pair);
    }
    const hostReads = myReads
      .filter((r) => r.remote.length > 0)
      .map((r) => {
        const byRound = new Map<number, FragmentRead[]>();
        for (const f of r.remote) {
          let b = byRound.get(f.round);
          if (!b) byRound.set(f.round, (b = []));
          b.push(f);
        }
        return { r, byRound };
      });
    const receiveRound = (round: number | null): void => {
      for (const [r, f] of round === null ? channelPairs : (channelByRound.get(round) ?? [])) receiveOne(r, f, false);
      for (const { r, byRound } of hostReads) {
        const src = nodeInputs.get(r.inputIndex)!.sources[r.sourceIndex]!;
        const producer = workload.nodes[src.producer]!;
        // A batch producer's runs for this round are loaded before the round's fragments are placed.
        const reads = round === null ? r.remote : (byRound.get(round) ?? []);
        if (producer.isBatch) loadRuns(reads, producer.op.getResult(src.resultIndex).type as RankedTensorType);
        for (const f of reads) receiveOne(r, f, true);
      }
    };
    const inputValue = (inputIndex: number): Value => {
      const input = nodeInputs.get(inputIndex)!;
      const w = windowsOf.get(inputIndex);
      if (w) return w.value;
      if (!input.blueprint) {
        const src = input.sources[0]!;
        return baseOf(inputIndex, 0, workload.nodes[src.producer]!.op.getResult(src.resultIndex).type as RankedTensorType);
      }
      const m = new IRMapping();
      input.sources.forEach((src, k) => m.map(input.blueprint!.getOperand(k), baseOf(inputIndex, k, workload.nodes[src.producer]!.op.getResult(src.resultIndex).type as RankedTensorType)));
      return bb.clone(input.blueprint, m).getResult(0);
    };
    const windows = new Map<string, Value>();
    // Window granularity: each consumer replica receives in its own order (round, then its
    // reads); a fragment a streaming consumer reads in two runs goes twice, the second time only
    // after what the first run needs. Sends to one consumer replica are queued in that order and
    // made as soon as their slot exists, so sender and receiver never wait on each other in a cycle.
    const made = new Map<string, Value>();
    // Per consumer replica: its sends in order, and the first not made yet (no shift: a queue may
    // hold tens of thousands of fragments).
    const queues = new Map<string, { readonly items: FragmentRead[]; head: number }>();
    for (const f of sendOrder.get(`${n.index}:${j}`) ?? []) {
      const key = consumerOf.get(f)!;
      let q = queues.get(key);
      if (!q) queues.set(key, (q = { items: [], head: 0 }));
      q.items.push(f);
    }
    // A send schedule places this body's sends itself (before its receives, or at its end).
    const scheduledSends = mirrorCore === undefined && options.sendSchedule !== undefined && pl.granularity === 'window' && queues.size > 0;
    const sent = new Set<FragmentRead>();
    beforeReceive = scheduledSends
      ? (f: FragmentRead): void => {
          for (const s of options.sendSchedule!.before.get(f) ?? []) sendScheduled(s);
        }
      : undefined;
    function sendScheduled(f: FragmentRead): void {
      const v = made.get(`${f.slot}:${f.resultIndex}`);
      if (!v) throw new Error(`materializeSchedule: ${n.name} replica ${j} is scheduled to send slot ${f.slot} before making it`);
      sent.add(f);
      sendOne(v, f);
    }
    const send = (v: Value, lane: number, resultIndex: number): void => {
      if (mirrorCore !== undefined) return; // the main copy sends; mirrors only serve their own core
      made.set(`${lane}:${resultIndex}`, v);
      if (scheduledSends) return;
      for (const q of queues.values()) {
        while (q.head < q.items.length && made.has(`${q.items[q.head]!.slot}:${q.items[q.head]!.resultIndex}`)) {
          const f = q.items[q.head++]!;
          sendOne(made.get(`${f.slot}:${f.resultIndex}`)!, f);
        }
      }
    };
    function sendOne(v: Value, f: FragmentRead): void {
      let payload = v;
      if (f.count > 1) {
        // A run of this replica's slots: one slice of its (complete) partial result.
        const collection = resultTypes[f.resultIndex] as RankedTensorType;
        const sizes = [f.count, ...collection.shape.slice(1)];
        const offsets = [own(f.slot), ...collection.shape.slice(1).map(() => 0)];
        payload = slices.extract(bb, loc, partialOf(f.resultIndex), offsets, sizes);
      } else if (f.piece) {
        payload = extractPiece(bb, loc, v, (resultTypes[f.resultIndex] as RankedTensorType).shape.slice(1), f.piece);
      } else if (f.box) {
        const key = `${f.resultIndex}:${f.box.offsets.join(',')}:${f.box.sizes.join(',')}`;
        let w = windows.get(key);
        if (!w) windows.set(key, (w = slices.extract(bb, loc, v, f.box.offsets, f.box.sizes)));
        payload = w;
      }
      ChannelSendOp.build(
        bb,
        { input: payload, channelId: constant(bb, channelOf.get(f)!, loc), sourceCoreId: constant(bb, f.fromCore, loc), targetCoreId: constant(bb, f.toCore, loc) },
        loc,
      );
    }

    // Partial results (for SSA forwarding and host reassembly).
    const partial: Value[] = [];
    /** Streaming host slots: the store being filled, and the stores made. */
    const staged = new Map<HostSlot, { value: Value; first: number; filled: number }>();
    const storesMade = new Map<HostSlot, number>();
    const window = pl.granularity === 'window';
    if (!window) receiveRound(null);

    // Every run but the last has `span` rounds (windowRunsOf).
    const span = runs[0]?.length ?? 0;
    for (const [round, lane] of lanesOfReplica(pl, n.lanes, j).entries()) {
      // The next run of a streaming replica: a fresh window (the previous one is dead).
      if (runs.length > 1 && round > 0 && round % span === 0) openWindows(round / span);
      if (window) receiveRound(round);
      const mapping = new IRMapping();
      // Index values of this round known as numbers (the graph lane and what folds from it):
      // they become static slice offsets, or index constants where an op needs an SSA value.
      const numbers = new Map<Value, number>();
      if (n.isBatch) numbers.set(gEntry.arguments[0]!, lane);
      const copy = round % pl.copies;
      weights.forEach((_, k) => mapping.map(gEntry.arguments[firstWeightArg + k]!, wArgs[copy * weights.length + k]!));
      const rebase = new Map<Value, readonly number[]>();
      inputs.forEach((_, k) => {
        const arg = gEntry.arguments[firstWeightArg + weights.length + k]!;
        if (nodeInputs.has(k)) mapping.map(arg, inputValue(k));
        else mapping.map(arg, iArgs[argOfInput.get(k)!]!);
        const w = windowsOf.get(k);
        if (w) rebase.set(arg, w.box.offsets);
      });
      if (n.isBatch) gEntry.arguments.slice(firstWeightArg + weights.length + inputs.length).forEach((out, k) => mapping.map(out, partialOf(k)));
      for (let o = gEntry.firstOp; o; o = o.next) {
        if (o === gEntry.lastOp) break;
        cloneFolding(bb, o, mapping, numbers, rebase.size ? rebase : undefined);
      }
      const term = gEntry.lastOp!;
      if (!n.isBatch) {
        term.operands.forEach((v, k) => {
          const value = mapping.lookupOrDefault(v);
          partial[k] = value;
          if (window) send(value, lane, k);
        });
      } else if (InParallelOp.isInstance(term)) {
        for (let ins = term.regions[0]!.firstBlock?.firstOp ?? null; ins; ins = ins.next) {
          if (!ParallelInsertSliceOp.isInstance(ins)) continue;
          const outIndex = gEntry.arguments.indexOf(ins.getOperand(1) as never) - (firstWeightArg + weights.length + inputs.length);
          const value = mapping.lookupOrDefault(ins.getOperand(0));
          const lists = readSliceLists(ins);
          const dynOperands = ins.operands.slice(2);
          let d = 0;
          // The slot (leading offset) is the lane's position in this replica's partial result.
          const offsets = lists.offsets.map((x, i) => {
            if (x !== DYNAMIC) return i === 0 ? own(x) : x;
            const v = dynOperands[d++]!;
            if (numbers.has(v)) return i === 0 ? constant(bb, own(numbers.get(v)!), loc) : constant(bb, numbers.get(v)!, loc);
            if (i === 0 && shifted) throw new Error(`materializeSchedule: the slot of a publication of ${n.name} is not static for its lane`);
            return mapping.lookupOrDefault(v);
          });
          const sizes = lists.sizes.map((x) => x);
          if (neededPartials.has(slotKey(n.index, j, outIndex))) partial[outIndex] = slices.insert(bb, loc, value, partialOf(outIndex), offsets, sizes);
          if (window) send(value, lane, outIndex);
          const streamed = mirrorCore === undefined ? slots.get(slotKey(n.index, j, outIndex)) : undefined;
          if (streamed?.streams) stage(streamed, value, lane, offsets.slice(1), sizes);
        }
      }
    }
    if (scheduledSends) {
      beforeReceive = undefined;
      for (const f of options.sendSchedule!.atEnd.get(`${n.index}:${j}`) ?? []) sendScheduled(f);
      // Anything the schedule did not place goes last, in the default order.
      for (const q of queues.values()) for (const f of q.items) if (!sent.has(f)) sendScheduled(f);
      queues.clear();
    }
    if (window && mirrorCore === undefined) {
      for (const q of queues.values()) if (q.head < q.items.length) throw new Error(`materializeSchedule: ${n.name} replica ${j} never made slot ${q.items[q.head]!.slot} that a consumer waits for`);
    }
    // Host slots: store each partial result once for its remote readers (streaming slots are stored already).
    for (let k = 0; k < resultTypes.length; k++) {
      const slot = slots.get(slotKey(n.index, j, k));
      if (!slot) continue;
      if (slot.streams) {
        if (storesMade.get(slot) !== slot.stores) throw new Error(`materializeSchedule: ${n.name} replica ${j} stored ${storesMade.get(slot) ?? 0} of the ${slot.stores} pieces of its host slot`);
        continue;
      }
      storeToSlot(slot, partialOf(k), 0);
    }
    // FREE for the slots that take over a READY register of this replica, after its last load of the slot before.
    for (const [group, op] of lastLoadOf) {
      const fb = new OpBuilder(ctx);
      let at = op;
      for (const next of freeAfterLoad.get(group) ?? []) {
        fb.setInsertionPointAfter(at);
        at = SyncOp.build(fb, { targetCoreId: constant(fb, next.writer, loc), eventRegister: constant(fb, next.register, loc) }, loc).op;
      }
    }
    YieldOp.build(bb, { outputs: resultTypes.map((_, k) => partialOf(k)) }, loc);
    return s;

    /** Stores `value` at `byteOffset` in `slot` (after waiting for every reader's FREE before the first store) and signals READY. */
    function storeToSlot(slot: HostSlot, value: Value, byteOffset: number): void {
      const made = storesMade.get(slot) ?? 0;
      if (made === 0 && slot.freeRegister >= 0) WaitOp.build(bb, { eventRegister: constant(bb, slot.freeRegister, loc), waitValue: constant(bb, slot.readers.length + slot.extraFrees, loc) }, loc);
      storesMade.set(slot, made + 1);
      const [first, ...rest] = slot.readers;
      HostStoreSyncOp.build(
        bb,
        {
          input: value,
          sourceCoreId: constant(bb, core, loc),
          targetCoreId: constant(bb, first!.core, loc),
          hostOffset: constant(bb, slot.offset + byteOffset, loc),
          eventRegister: constant(bb, slot.readyRegisters.get(first!.key)!, loc),
        },
        loc,
      );
      for (const rd of rest) SyncOp.build(bb, { targetCoreId: constant(bb, rd.core, loc), eventRegister: constant(bb, slot.readyRegisters.get(rd.key)!, loc) }, loc);
    }

    /** Adds the fragment of `lane` to the current store of a streaming slot; stores it when complete. */
    function stage(slot: HostSlot, value: Value, lane: number, inner: readonly (number | Value)[], sizes: readonly number[]): void {
      // Chunks of consecutive lanes: an interleaved replica's lanes are not (its values stream on chip).
      if (pl.interleaved) throw new Error(`materializeSchedule: ${n.name} is interleaved and streams a host slot`);
      const index = lane - slot.first;
      const chunkFirst = slot.first + Math.floor(index / slot.chunk) * slot.chunk;
      const count = Math.min(slot.chunk, slot.first + slot.lanes - chunkFirst);
      let st = staged.get(slot);
      if (!st || st.first !== chunkFirst) {
        const collection = resultTypes[slot.resultIndex] as RankedTensorType;
        st = { value: createEmpty(bb, loc, RankedTensorType.get(ctx, [count, ...collection.shape.slice(1)], collection.elementType)), first: chunkFirst, filled: 0 };
        staged.set(slot, st);
      }
      st.value = slices.insert(bb, loc, value, st.value, [lane - chunkFirst, ...inner], sizes);
      st.filled++;
      if (st.filled === count) {
        const fragBytes = slot.bytes / Math.max(1, (resultTypes[slot.resultIndex] as RankedTensorType).shape[0]!);
        storeToSlot(slot, st.value, own(chunkFirst) * fragBytes);
      }
    }

    function partialOf(k: number): Value {
      let v = partial[k];
      if (!v) partial[k] = v = createEmpty(bb, loc, resultTypes[k] as RankedTensorType);
      return v;
    }
  }

  /**
   * The replica groups of every node: replicas that may share one `spat.scheduled_compute_batch`
   * end up in one group (in replica order), the others alone. A node's replicas may be batched
   * when they run on cores of their own (no other node or mirror there: spatial-to-pim keeps such
   * a batch as one `pim.core_batch`, and the batch's sends, made in its body, keep the order the
   * send tasks would give them on those cores), none of their results is read on the host, the
   * transfers are channels, and their work is the same up to lane expressions
   * ({@link replicaSignature}).
   */
  function planBatches(): Map<number, number[][]> {
    const out = new Map<number, number[][]>();
    if (plan.transfer === 'host') return out;
    // The nodes with a replica on each core (mirrors aside: a batch computes them itself).
    const users = new Map<number, Set<number>>();
    for (const nd of workload.nodes) {
      for (const c of plan.placements[nd.index]!.cores) {
        let set = users.get(c);
        if (!set) users.set(c, (set = new Set()));
        set.add(nd.index);
      }
    }
    for (const n of workload.nodes) {
      const pl = plan.placements[n.index]!;
      // Batches are channelized: no host slot written (a spilled node) or read (a spilled producer's reader).
      if (pl.replicas < 2 || pl.mirrors?.length || hostUsed.has(n.index) || pl.spill || n.inputs.some((i) => i.sources.some((x) => plan.placements[x.producer]!.spill))) continue;
      const bySignature = new Map<string, number[]>();
      const alone: number[][] = [];
      for (let j = 0; j < pl.replicas; j++) {
        const sig = batchable(n, j, users.get(pl.cores[j]!)!) ? replicaSignature(n, j) : undefined;
        if (sig === undefined) {
          alone.push([j]);
          continue;
        }
        let g = bySignature.get(sig);
        if (!g) bySignature.set(sig, (g = []));
        g.push(j);
      }
      const list = [...bySignature.values(), ...alone].sort((a, b) => a[0]! - b[0]!);
      out.set(n.index, list);
      // Mirrors on cores of batched replicas that no other node reads are computed inside the batch only.
      for (const g of list) {
        if (g.length < 2) continue;
        for (const j of g) {
          for (const r of readsOf.get(`${n.index}:${j}`) ?? []) {
            const key = `${r.producer}:${pl.cores[j]}`;
            if (r.hasLocal && [...(mirrorReaders.get(key) ?? [])].every((c) => c === n.index)) inlinedMirrors.add(key);
          }
        }
      }
    }
    return out;
  }

  /**
   * True when replica `j` of `n` may be a batch lane: no consumer reads it through SSA, its core
   * makes no send task for another replica of `n`, and its sends, made at the end of the batch
   * body, keep the order the send tasks would give them on its core: no other node runs on that
   * core between `n` and the last consumer it sends to, and no other send task of that core
   * serves a consumer in between.
   */
  function batchable(n: WorkloadNode, j: number, onCore: ReadonlySet<number>): boolean {
    const key = `${n.index}:${j}`;
    if (locallyRead.has(key)) return false;
    // (A batch body numbers a replica's rounds from its first lane on: interleaved lanes are not consecutive.)
    if (plan.placements[n.index]!.interleaved) return false;
    if (onCore.size === 1) return true;
    const core = plan.placements[n.index]!.cores[j]!;
    const servedByCore = sendTaskConsumers.get(core) ?? [];
    // The send tasks serving a batch's lanes all precede the batch: a lane whose core also sends
    // to another lane would send before it receives its own inputs (a cross-core cycle).
    if (servedByCore.includes(n.index)) return false;
    const last = lastLayerConsumer.get(key) ?? n.index;
    for (const m of onCore) if (m !== n.index && m > n.index && m <= last) return false;
    const own = layerSends.get(key)?.length ?? 0;
    const served = servedByCore.filter((c) => c > n.index && c <= last).length;
    return served === own;
  }

  /**
   * What decides the shape of replica `j`'s body (rounds, the transfers of each round with their
   * payload shapes, the partial results it assembles, the sends it makes), without the numbers a
   * lane expression can carry (lanes, slots, cores, channels, window offsets); undefined when the
   * replica reads a local value (SSA forwarding, never batched).
   */
  function replicaSignature(n: WorkloadNode, j: number): string | undefined {
    const pl = plan.placements[n.index]!;
    // Windows and parts are per replica (origins, part bases): such replicas stay scheduled computes;
    // so do producers of streaming consumers (their sends follow each consumer's runs).
    if (pl.windows || feedsStreaming.has(n.index)) return undefined;
    const lanes = lanesOfReplica(pl, n.lanes, j);
    const parts: string[] = [String(lanes.length)];
    for (const r of readsOf.get(`${n.index}:${j}`) ?? []) {
      if (r.hasLocal) {
        // Only a mirror (a host-fed scalar compute) read whole on this core: the batch inlines it.
        const pp = plan.placements[r.producer]!;
        if (pp.cores.includes(pl.cores[j]!) || !pp.mirrors?.includes(pl.cores[j]!) || r.remote.length || workload.nodes[r.producer]!.inputs.length) return undefined;
        parts.push(`m${r.inputIndex}.${r.sourceIndex}`);
        continue;
      }
      parts.push(`r${r.inputIndex}.${r.sourceIndex}`);
      for (const f of r.remote) parts.push(`f${f.round}.${f.count}.${f.resultIndex}.${f.box ? f.box.sizes.join('x') : '-'}`);
    }
    if (pl.granularity === 'window') {
      lanes.forEach((lane, round) => {
        n.op.results.forEach((_, k) => {
          for (const f of sendsOf.get(`${n.index}:${lane}:${k}`) ?? []) parts.push(`s${round}.${k}.${f.count}.${f.box ? f.box.sizes.join('x') : '-'}`);
        });
      });
    }
    n.op.results.forEach((_, k) => parts.push(neededPartials.has(slotKey(n.index, j, k)) ? 'p' : '-'));
    for (const f of layerSends.get(`${n.index}:${j}`) ?? []) parts.push(`l${f.resultIndex}.${f.count}.${f.box ? f.box.sizes.join('x') : '-'}`);
    return parts.join(' ');
  }

  /**
   * Builds replicas `js` of node `n` (equal {@link replicaSignature}s) as one
   * `spat.scheduled_compute_batch` before the graph compute: scheduled lane `k` is replica
   * `js[k]` on core `cores[js[k]]`; the body is the replica body of {@link buildReplica} with the
   * per-lane numbers (graph lane of a round, peers, channels, slots, window offsets) as lane
   * expressions, and the layer-granularity sends at its end (the send tasks' order). Batches
   * are resultless: their replicas' results are only read by other cores.
   */
  function buildBatch(n: WorkloadNode, js: readonly number[]): Operation {
    const { g, loc, weights, inputs, gEntry, firstWeightArg, nodeInputs } = graphParts(n);
    const pl = plan.placements[n.index]!;
    const laneReads = js.map((j) => readsOf.get(`${n.index}:${j}`) ?? []);
    const newInputs: Value[] = [];
    const argOfInput = new Map<number, number>();
    inputs.forEach((v, k) => {
      if (nodeInputs.has(k)) return;
      argOfInput.set(k, newInputs.length);
      newInputs.push(v);
    });
    // Mirrors read on the lanes' cores: their host inputs become the batch's inputs.
    const mirrored = [...new Set(laneReads[0]!.filter((r) => r.hasLocal).map((r) => r.producer))];
    for (const m of mirrored) for (const v of GraphComputeOp.get(workload.nodes[m]!.op).inputs as readonly Value[]) if (!newInputs.includes(v)) newInputs.push(v);
    const resultTypes = g.resultTypes;
    const copiedWeights: Value[] = [];
    for (let c = 0; c < pl.copies; c++) copiedWeights.push(...weights);
    const s = ScheduledComputeBatchOp.build(
      OpBuilder.before(g),
      {
        weights: copiedWeights,
        inputs: newInputs,
        outputs: [],
        laneCount: IntegerAttr.get(i32, js.length),
        coreIds: DenseArrayAttr.i32(ctx, js.map((j) => pl.cores[j]!)),
      },
      loc,
    ).op;
    const block: Block = s.regions[0]!.addBlock();
    const laneArg = block.addArgument(index, loc);
    const wArgs = copiedWeights.map((w) => block.addArgument(w.type, loc));
    const iArgs = newInputs.map((v) => block.addArgument(v.type, loc));
    const bb = OpBuilder.atBlockEnd(block, ctx);
    const lv = new LaneValues(ctx, block, laneArg, constant);
    const laneIndex = (values: readonly number[]): Value => lv.index(bb, values, loc);
    const offsetsOf = (lead: readonly number[], rest: readonly (readonly number[])[]): (number | Value)[] => [lv.offset(bb, lead, loc), ...rest.map((v) => lv.offset(bb, v, loc))];
    /** Per-lane numbers of one field of per-lane records. */
    const per = <T>(items: readonly T[], f: (x: T) => number): number[] => items.map(f);
    const receiveAll = (fs: readonly FragmentRead[], type: RankedTensorType): Value =>
      ChannelReceiveOp.build(
        bb,
        { channelId: laneIndex(per(fs, (f) => channelOf.get(f)!)), sourceCoreId: laneIndex(per(fs, (f) => f.fromCore)), targetCoreId: laneIndex(per(fs, (f) => f.toCore)), output: type },
        loc,
      ).output;
    const sendAll = (payload: Value, fs: readonly FragmentRead[]): void => {
      ChannelSendOp.build(
        bb,
        { input: payload, channelId: laneIndex(per(fs, (f) => channelOf.get(f)!)), sourceCoreId: laneIndex(per(fs, (f) => f.fromCore)), targetCoreId: laneIndex(per(fs, (f) => f.toCore)) },
        loc,
      );
    };
    /** A window box's offsets, per dimension, as lane offsets. */
    const boxOffsets = (fs: readonly FragmentRead[]): (number | Value)[] => fs[0]!.box!.offsets.map((_, d) => lv.offset(bb, per(fs, (f) => f.box!.offsets[d]!), loc));

    const bases = new Map<string, Value>();
    const baseOf = (inputIndex: number, sourceIndex: number, type: RankedTensorType): Value => {
      const key = `${inputIndex}:${sourceIndex}`;
      let v = bases.get(key);
      if (!v) bases.set(key, (v = createEmpty(bb, loc, type)));
      return v;
    };
    // The mirrored computes, once each, at the body's start.
    const mirrorResults = new Map<number, Value[]>();
    for (const m of mirrored) {
      const mop = workload.nodes[m]!.op;
      const entry = mop.regions[0]!.firstBlock!;
      const mapping = new IRMapping();
      (GraphComputeOp.get(mop).inputs as readonly Value[]).forEach((v, k) => mapping.map(entry.arguments[k]!, iArgs[newInputs.indexOf(v)]!));
      for (let o = entry.firstOp; o && o !== entry.lastOp; o = o.next) bb.clone(o, mapping);
      mirrorResults.set(m, entry.lastOp!.operands.map((v) => mapping.lookupOrDefault(v)));
    }
    for (const r of laneReads[0]!) if (r.hasLocal) bases.set(`${r.inputIndex}:${r.sourceIndex}`, mirrorResults.get(r.producer)![r.resultIndex]!);
    const receiveRound = (round: number | null): void => {
      laneReads[0]!.forEach((r0, ri) => {
        const input = nodeInputs.get(r0.inputIndex)!;
        const src = input.sources[r0.sourceIndex]!;
        const producer = workload.nodes[src.producer]!;
        const collection = producer.op.getResult(src.resultIndex).type as RankedTensorType;
        const key = `${r0.inputIndex}:${r0.sourceIndex}`;
        r0.remote.forEach((f0, fi) => {
          if (round !== null && f0.round !== round) return;
          const fs = laneReads.map((rs) => rs[ri]!.remote[fi]!);
          if (!producer.isBatch) {
            if (!f0.box) bases.set(key, receiveAll(fs, collection));
            else {
              const window = receiveAll(fs, RankedTensorType.get(ctx, [...f0.box.sizes], collection.elementType));
              bases.set(key, slices.insert(bb, loc, window, createEmpty(bb, loc, collection), boxOffsets(fs), f0.box.sizes));
            }
            return;
          }
          const base = baseOf(r0.inputIndex, r0.sourceIndex, collection);
          const sizes = [f0.count, ...collection.shape.slice(1)];
          const offsets = offsetsOf(per(fs, (f) => f.slot), collection.shape.slice(1).map(() => [0]));
          const type = f0.count > 1 ? RankedTensorType.get(ctx, sizes, collection.elementType) : fragmentType(collection);
          bases.set(key, slices.insert(bb, loc, receiveAll(fs, type), base, offsets, sizes));
        });
      });
    };
    const inputValue = (inputIndex: number): Value => {
      const input = nodeInputs.get(inputIndex)!;
      const typeOf = (k: number): RankedTensorType => workload.nodes[input.sources[k]!.producer]!.op.getResult(input.sources[k]!.resultIndex).type as RankedTensorType;
      if (!input.blueprint) return baseOf(inputIndex, 0, typeOf(0));
      const m = new IRMapping();
      input.sources.forEach((_, k) => m.map(input.blueprint!.getOperand(k), baseOf(inputIndex, k, typeOf(k))));
      return bb.clone(input.blueprint, m).getResult(0);
    };
    const partial: Value[] = [];
    const partialOf = (k: number): Value => {
      let v = partial[k];
      if (!v) partial[k] = v = createEmpty(bb, loc, resultTypes[k] as RankedTensorType);
      return v;
    };
    /** The payload of send `f0` (lane 0's record) of a value `v` / the partial result. */
    const payloadOf = (v: Value, fs: readonly FragmentRead[], resultIndex: number): Value => {
      const f0 = fs[0]!;
      if (f0.count > 1 || (pl.granularity === 'layer' && n.isBatch && !f0.box)) {
        const collection = resultTypes[resultIndex] as RankedTensorType;
        const sizes = [f0.count, ...collection.shape.slice(1)];
        const offsets = offsetsOf(per(fs, (f) => f.slot), collection.shape.slice(1).map(() => [0]));
        return slices.extract(bb, loc, partialOf(resultIndex), offsets, sizes, f0.count > 1 ? undefined : fragmentType(collection));
      }
      if (f0.box) return slices.extract(bb, loc, v, boxOffsets(fs), f0.box.sizes);
      return v;
    };

    const window = pl.granularity === 'window';
    if (!window) receiveRound(null);
    const laneLists = js.map((j) => lanesOfReplica(pl, n.lanes, j));
    const firstLanes = laneLists.map((l) => l[0]!);
    for (let round = 0; round < laneLists[0]!.length; round++) {
      if (window) receiveRound(round);
      const graphLanes = laneLists.map((l) => l[round]!);
      const mapping = new IRMapping();
      if (n.isBatch) mapping.map(gEntry.arguments[0]!, lv.shifted(bb, firstLanes, round, loc));
      const copy = round % pl.copies;
      weights.forEach((_, k) => mapping.map(gEntry.arguments[firstWeightArg + k]!, wArgs[copy * weights.length + k]!));
      inputs.forEach((_, k) => {
        const arg = gEntry.arguments[firstWeightArg + weights.length + k]!;
        mapping.map(arg, nodeInputs.has(k) ? inputValue(k) : iArgs[argOfInput.get(k)!]!);
      });
      if (n.isBatch) gEntry.arguments.slice(firstWeightArg + weights.length + inputs.length).forEach((out, k) => mapping.map(out, partialOf(k)));
      for (let o = gEntry.firstOp; o && o !== gEntry.lastOp; o = o.next) bb.clone(o, mapping);
      const term = gEntry.lastOp!;
      const windowSends = (value: Value, k: number): void => {
        if (!window) return;
        const lists = graphLanes.map((lane) => sendsOf.get(`${n.index}:${lane}:${k}`) ?? []);
        lists[0]!.forEach((_, si) => {
          const fs = lists.map((l) => l[si]!);
          sendAll(payloadOf(value, fs, k), fs);
        });
      };
      if (!n.isBatch) {
        term.operands.forEach((v, k) => {
          const value = mapping.lookupOrDefault(v);
          partial[k] = value;
          windowSends(value, k);
        });
      } else if (InParallelOp.isInstance(term)) {
        for (let ins = term.regions[0]!.firstBlock?.firstOp ?? null; ins; ins = ins.next) {
          if (!ParallelInsertSliceOp.isInstance(ins)) continue;
          const outIndex = gEntry.arguments.indexOf(ins.getOperand(1) as never) - (firstWeightArg + weights.length + inputs.length);
          const value = mapping.lookupOrDefault(ins.getOperand(0));
          const lists = readSliceLists(ins);
          const dyn = ins.operands.slice(2).map((x) => mapping.lookupOrDefault(x));
          let d = 0;
          const offsets = lists.offsets.map((x) => (x === DYNAMIC ? dyn[d++]! : x));
          if (neededPartials.has(slotKey(n.index, js[0]!, outIndex))) partial[outIndex] = slices.insert(bb, loc, value, partialOf(outIndex), offsets, lists.sizes);
          windowSends(value, outIndex);
        }
      }
    }
    // Layer-granularity sends, in the order the send tasks would make them.
    if (!window) {
      const lists = js.map((j) => layerSends.get(`${n.index}:${j}`) ?? []);
      lists[0]!.forEach((_, si) => {
        const fs = lists.map((l) => l[si]!);
        const f0 = fs[0]!;
        const whole = partialOf(f0.resultIndex);
        let payload: Value;
        if (f0.box) payload = slices.extract(bb, loc, whole, boxOffsets(fs), f0.box.sizes);
        else if (!n.isBatch) payload = whole;
        else payload = payloadOf(whole, fs, f0.resultIndex);
        sendAll(payload, fs);
      });
    }
    YieldOp.build(bb, { outputs: [] }, loc);
    return s;
  }

  /**
   * Sends of producers working at layer granularity go into send tasks: a scheduled compute
   * on the producer's core, right before the consumer replica in program order, that binds the
   * producer replica's (complete) partial result and sends what that consumer replica reads, in
   * the order it receives. Every core then performs its transfers in one global order
   * (consumer, replica, receive position), so blocking sends and receives cannot deadlock.
   */
  function buildSendTasks(): void {
    for (const n of workload.nodes) {
      const pl = plan.placements[n.index]!;
      for (let j = 0; j < pl.replicas; j++) {
        const consumerOp = scheduled[n.index]![j]!;
        const byCore = new Map<number, FragmentRead[]>();
        for (const r of readsOf.get(`${n.index}:${j}`) ?? []) {
          for (const f of r.remote) {
            const pp = plan.placements[f.producer]!;
            if (viaHost(f) || pp.granularity !== 'layer' || inBatch.has(`${f.producer}:${replicaOfLane(pp, workload.nodes[f.producer]!.lanes, f.slot)}`)) continue;
            let list = byCore.get(f.fromCore);
            if (!list) byCore.set(f.fromCore, (list = []));
            list.push(f);
          }
        }
        for (const [core, sends] of [...byCore].sort((a, b) => a[0] - b[0])) {
          const loc = consumerOp.location;
          // The partial results sent, bound as inputs (local forwarding on the producer core).
          const sources: Value[] = [];
          const sourceOf = (f: FragmentRead): number => {
            const pp = plan.placements[f.producer]!;
            const v = scheduled[f.producer]![replicaOfLane(pp, workload.nodes[f.producer]!.lanes, f.slot)]!.getResult(f.resultIndex);
            let k = sources.indexOf(v);
            if (k < 0) k = sources.push(v) - 1;
            return k;
          };
          const indices = sends.map(sourceOf);
          const b = OpBuilder.before(consumerOp);
          const task = ScheduledComputeOp.build(b, { weights: [], inputs: sources, outputs: [], coreId: IntegerAttr.get(i32, core) }, loc).op;
          const block = task.regions[0]!.addBlock();
          const args = sources.map((v) => block.addArgument(v.type, loc));
          const tb = OpBuilder.atBlockEnd(block, ctx);
          sends.forEach((f, i) => {
            const whole = args[indices[i]!]!;
            const collection = whole.type as RankedTensorType;
            let payload: Value;
            if (f.box) payload = slices.extract(tb, loc, whole, f.box.offsets, f.box.sizes);
            else if (f.piece) {
              const offsets = [partIndex(f.producer, f.slot), ...f.piece.offsets];
              payload = slices.extract(tb, loc, whole, offsets, [1, ...f.piece.sizes], pieceType(f.piece.sizes, collection.elementType));
            } else if (!workload.nodes[f.producer]!.isBatch) payload = whole;
            else {
              const sizes = [f.count, ...collection.shape.slice(1)];
              const offsets = [partIndex(f.producer, f.slot), ...collection.shape.slice(1).map(() => 0)];
              payload = slices.extract(tb, loc, whole, offsets, sizes, f.count > 1 ? undefined : fragmentType(collection));
            }
            ChannelSendOp.build(
              tb,
              { input: payload, channelId: constant(tb, channelOf.get(f)!, loc), sourceCoreId: constant(tb, f.fromCore, loc), targetCoreId: constant(tb, f.toCore, loc) },
              loc,
            );
          });
          YieldOp.build(tb, { outputs: [] }, loc);
        }
      }
    }
  }

  function dropResults(op: Operation): Operation {
    const view = ScheduledComputeOp.get(op);
    const b = OpBuilder.before(op);
    const s = ScheduledComputeOp.build(
      b,
      { weights: [...(view.weights as readonly Value[])], inputs: [...(view.inputs as readonly Value[])], outputs: [], coreId: op.getAttr('coreId') as IntegerAttr },
      op.location,
    ).op;
    s.regions[0]!.takeBody(op.regions[0]!);
    const term = s.regions[0]!.firstBlock!.lastOp!;
    const tb = OpBuilder.before(term);
    YieldOp.build(tb, { outputs: [] }, term.location);
    const yielded = term.operands.map((v) => v.definingOp);
    term.erase();
    // Partial results nobody assembled are empty tensors: drop them with the results.
    for (const d of yielded) if (d && EmptyOp.isInstance(d) && d.getResult(0).useEmpty) d.erase();
    op.erase();
    return s;
  }
}
