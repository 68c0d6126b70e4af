/**
 * Writes a {@link SchedulePlan} into a function: every replica of a graph compute becomes one
 * `spat.scheduled_compute` on its core, running the replica's graph lanes (rounds) one after
 * another; data between cores moves through `spat.channel_send`/`spat.channel_receive` pairs
 * (channel mode) or through host slots with the READY/FREE protocol of scheduling.md (host
 * mode: `spat.sync` FREE at the reader's stream entry, `spat.wait` + `spat.host_store_sync` on
 * the writer, `spat.host_wait_load` on the reader). Data produced on the consumer's own core is
 * forwarded as SSA. Results still used on the host (function results) are reassembled there
 * from the replicas' partial collections.
 */
import {
  ConstantOp,
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
import { createEmpty, EmptyOp, ParallelInsertSliceOp, readSliceLists } from '@raptor-pim/upstream-dialects';
import { SliceBuilder } from './slice-builder';
import {
  BlueprintOp,
  ChannelReceiveOp,
  ChannelSendOp,
  GraphComputeBatchOp,
  GraphComputeOp,
  HostStoreSyncOp,
  HostWaitLoadOp,
  InParallelOp,
  ScheduledComputeOp,
  SyncOp,
  WaitOp,
  YieldOp,
} from '@raptor-pim/spatial-dialect';
import type { CostModel } from '@raptor-pim/pim-target';
import { EVENT_REGISTER_COUNT } from '@raptor-pim/pim-target';
import type { Workload, WorkloadNode } from '../analysis/workload';
import { byteSizeOfType } from '../analysis/workload';
import { lanesOfReplica, replicaOfLane, type SchedulePlan } from '../planning/schedule-plan';
import type { FragmentRead, ReplicaInputReads } from '../planning/transfers';
import { allocateEventRegisters, type EventRegisterRequest } from './event-registers';

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
}

/** One host slot: a replica's partial result stored once, loaded by its remote readers. */
interface HostSlot {
  readonly producer: number;
  readonly replica: number;
  readonly resultIndex: number;
  readonly writer: number;
  /** Reader instances: one per consumer replica (core and `consumer:replica` key). */
  readonly readers: { readonly core: number; readonly key: string }[];
  readonly offset: number;
  readonly bytes: number;
  freeRegister: number;
  /** READY register per reader key. */
  readonly readyRegisters: Map<string, number>;
}

function readerKey(consumer: number, replica: number): string {
  return `${consumer}:${replica}`;
}

function slotKey(producer: number, replica: number, resultIndex: number): string {
  return `${producer}:${replica}:${resultIndex}`;
}

/** Writes `plan` into the function of `workload`. */
export function materializeSchedule(workload: Workload, plan: SchedulePlan, reads: readonly ReplicaInputReads[], cost: CostModel): MaterializeResult {
  const ctx = workload.func.context;
  const index = IndexType.get(ctx);
  const i32 = IntegerType.get(ctx, 32);
  const host = plan.transfer === 'host';
  const slices = new SliceBuilder(ctx);

  // ------------------------------------------------------------------ host slots and registers
  const slots = new Map<string, HostSlot>();
  let hostFallbacks = 0;
  let hostBytes = 0;
  if (host) {
    const requests: EventRegisterRequest[] = [];
    const ordered: HostSlot[] = [];
    for (const r of reads) {
      for (const f of r.remote) {
        const pp = plan.placements[f.producer]!;
        const replica = replicaOfLane(pp, workload.nodes[f.producer]!.lanes, f.slot);
        const key = slotKey(f.producer, replica, f.resultIndex);
        let s = slots.get(key);
        if (!s) {
          const bytes = byteSizeOfType(workload.nodes[f.producer]!.op.getResult(f.resultIndex).type);
          const aligned = Math.ceil(bytes / cost.localAlignment) * cost.localAlignment;
          if (hostBytes + aligned > cost.hostMemoryBytes) continue;
          s = { producer: f.producer, replica, resultIndex: f.resultIndex, writer: f.fromCore, readers: [], offset: hostBytes, bytes, freeRegister: -1, readyRegisters: new Map() };
          hostBytes += aligned;
          slots.set(key, s);
          ordered.push(s);
        }
        const rk = readerKey(r.consumer, r.replica);
        if (!s.readers.some((x) => x.key === rk)) s.readers.push({ core: f.toCore, key: rk });
      }
    }
    // Every register is live from stream entry (FREE signals are sent there) to its wait: one per role and slot.
    for (const s of ordered) {
      requests.push({ core: s.writer, role: 'free', start: 0, end: Infinity, key: slotKey(s.producer, s.replica, s.resultIndex) });
      for (const rd of s.readers) requests.push({ core: rd.core, role: 'ready', start: 0, end: Infinity, key: `${slotKey(s.producer, s.replica, s.resultIndex)}@${rd.key}` });
    }
    const regs = allocateEventRegisters(requests, EVENT_REGISTER_COUNT);
    for (const s of ordered) {
      const key = slotKey(s.producer, s.replica, s.resultIndex);
      const free = regs.get(key);
      const ready = s.readers.map((rd) => regs.get(`${key}@${rd.key}`));
      if (free === undefined || ready.some((x) => x === undefined)) {
        slots.delete(key);
        hostFallbacks++;
        continue;
      }
      s.freeRegister = free;
      s.readers.forEach((rd, k) => s.readyRegisters.set(rd.key, ready[k]!));
    }
  }
  const viaHost = (f: FragmentRead): HostSlot | undefined => {
    if (!host) return undefined;
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
  const readsOf = new Map<string, ReplicaInputReads[]>();
  for (const r of reads) {
    const k = `${r.consumer}:${r.replica}`;
    let list = readsOf.get(k);
    if (!list) readsOf.set(k, (list = []));
    list.push(r);
  }

  // Partial results a replica must assemble: read on the host, forwarded to a consumer on the
  // same core, stored in a host slot, or sliced into grouped messages.
  const nodeOps = new Set(workload.nodes.map((n) => n.op));
  const neededPartials = new Set<string>();
  for (const n of workload.nodes) {
    n.op.results.forEach((res, k) => {
      const hostUse = res.users.some((u) => !nodeOps.has(u) && !(BlueprintOp.isInstance(u) && u.getResult(0).users.every((x) => nodeOps.has(x))));
      if (hostUse) for (let j = 0; j < plan.placements[n.index]!.replicas; j++) neededPartials.add(slotKey(n.index, j, k));
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
  for (const key of slots.keys()) neededPartials.add(key);

  // ------------------------------------------------------------------ scheduled ops
  const constants = new Map<Block, Map<number, Value>>();
  const scheduled: Operation[][] = workload.nodes.map(() => []);
  const firstOnCore = new Map<number, Operation>();
  const mirrorOps = new Map<string, Operation>();
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    for (let j = 0; j < pl.replicas; j++) {
      const op = buildReplica(n, j);
      scheduled[n.index]!.push(op);
      const core = pl.cores[j]!;
      if (!firstOnCore.has(core)) firstOnCore.set(core, op);
    }
    for (const m of pl.mirrors ?? []) {
      const op = buildReplica(n, 0, m);
      mirrorOps.set(`${n.index}:${m}`, op);
      if (!firstOnCore.has(m)) firstOnCore.set(m, op);
    }
  }
  buildSendTasks();
  // FREE signals at every reader's stream entry.
  if (host) {
    const entries = [...slots.values()];
    for (const s of entries) {
      for (const rd of s.readers) {
        const first = firstOnCore.get(rd.core)!;
        const block = first.regions[0]!.firstBlock!;
        const b = new OpBuilder(ctx);
        // After the block's index constants, before its first real op.
        let at = block.firstOp;
        while (at && ConstantOp.isInstance(at)) at = at.next;
        if (at) b.setInsertionPoint(at);
        else b.setInsertionPointToEnd(block);
        SyncOp.build(b, { targetCoreId: constant(b, s.writer, first.location), eventRegister: constant(b, s.freeRegister, first.location) }, first.location);
      }
    }
  }
  // Host uses of graph results: reassemble from the replicas' partial results.
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    const b = OpBuilder.before(n.op);
    n.op.results.forEach((res, k) => {
      if (res.useEmpty) return;
      let value: Value;
      if (pl.replicas === 1) value = scheduled[n.index]![0]!.getResult(k);
      else {
        const type = res.type as RankedTensorType;
        value = createEmpty(b, n.op.location, type);
        for (let lane = 0; lane < n.lanes; lane++) {
          const part = scheduled[n.index]![replicaOfLane(pl, n.lanes, lane)]!.getResult(k);
          const sizes = [1, ...type.shape.slice(1)];
          const offsets = [lane, ...type.shape.slice(1).map(() => 0)];
          const frag = slices.extract(b, n.op.location, part, offsets, sizes);
          value = slices.insert(b, n.op.location, frag, value, offsets, sizes);
        }
      }
      res.replaceAllUsesWith(value);
    });
  }
  // Erase the graph computes and the blueprints nobody reads any more.
  for (let i = workload.nodes.length - 1; i >= 0; i--) workload.nodes[i]!.op.erase();
  for (const n of workload.nodes) for (const input of n.inputs) if (input.blueprint && input.blueprint.parent && input.blueprint.getResult(0).useEmpty) input.blueprint.erase();
  // Partial results nobody reads: drop them (resultless scheduled computes).
  for (const list of scheduled) {
    for (let j = 0; j < list.length; j++) {
      const op = list[j]!;
      if (op.numResults > 0 && op.results.every((r) => r.useEmpty)) list[j] = dropResults(op);
    }
  }
  return { scheduled, channels, hostSlots: slots.size, hostBytes, hostFallbacks };

  // ------------------------------------------------------------------ helpers

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

  /** Receives `f` at the builder's point: the received payload (fragment or whole value). */
  function receive(b: OpBuilder, f: FragmentRead, reader: string, type: RankedTensorType, loc: Location): Value {
    const slot = viaHost(f);
    if (slot) {
      return HostWaitLoadOp.build(
        b,
        {
          sourceCoreId: constant(b, f.fromCore, loc),
          targetCoreId: constant(b, f.toCore, loc),
          hostOffset: constant(b, slot.offset, loc),
          eventRegister: constant(b, slot.readyRegisters.get(reader)!, loc),
          waitValue: constant(b, 1, loc),
          output: type,
        },
        loc,
      ).output;
    }
    return ChannelReceiveOp.build(
      b,
      { channelId: constant(b, channelOf.get(f)!, loc), sourceCoreId: constant(b, f.fromCore, loc), targetCoreId: constant(b, f.toCore, loc), output: type },
      loc,
    ).output;
  }

  /** Builds the scheduled compute of replica `j` of node `n` before the graph compute. */
  function buildReplica(n: WorkloadNode, j: number, mirrorCore?: number): Operation {
    const g = n.op;
    const pl = plan.placements[n.index]!;
    const core = mirrorCore ?? pl.cores[j]!;
    const loc = g.location;
    const view = n.isBatch ? GraphComputeBatchOp.get(g) : GraphComputeOp.get(g);
    const weights = view.weights as readonly Value[];
    const inputs = view.inputs as readonly Value[];
    const gEntry = g.regions[0]!.firstBlock!;
    const firstWeightArg = n.isBatch ? 1 : 0;
    const myReads = readsOf.get(`${n.index}:${j}`) ?? [];
    const nodeInputs = new Map(n.inputs.map((i) => [i.inputIndex, i]));

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
    const resultTypes = g.resultTypes;
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
        bases.set(key, v);
      }
      return v;
    };
    // Host slots carry a writer replica's whole partial result: this replica loads each slot once.
    const loaded = new Map<HostSlot, Value>();
    const me = readerKey(n.index, j);
    const receiveRound = (round: number | null): void => {
      for (const r of myReads) {
        const input = nodeInputs.get(r.inputIndex)!;
        const src = input.sources[r.sourceIndex]!;
        const producer = workload.nodes[src.producer]!;
        const collection = producer.op.getResult(src.resultIndex).type as RankedTensorType;
        const key = `${r.inputIndex}:${r.sourceIndex}`;
        for (const f of r.remote) {
          if (round !== null && f.round !== round) continue;
          const slot = viaHost(f);
          const whole = (): Value => {
            let v = loaded.get(slot!);
            if (!v) loaded.set(slot!, (v = receive(bb, f, me, collection, loc)));
            return v;
          };
          if (!producer.isBatch) {
            if (slot || !f.box) bases.set(key, slot ? whole() : receive(bb, f, me, collection, loc));
            else {
              // Only the window this replica reads was sent: place it in an otherwise unread value.
              const window = receive(bb, f, me, RankedTensorType.get(ctx, [...f.box.sizes], collection.elementType), loc);
              bases.set(key, slices.insert(bb, loc, window, createEmpty(bb, loc, collection), f.box.offsets, f.box.sizes));
            }
            continue;
          }
          const base = baseOf(r.inputIndex, r.sourceIndex, collection);
          const sizes = [f.count, ...collection.shape.slice(1)];
          const offsets = [f.slot, ...collection.shape.slice(1).map(() => 0)];
          const type = f.count > 1 ? RankedTensorType.get(ctx, sizes, collection.elementType) : fragmentType(collection);
          let frag: Value;
          if (slot) frag = slices.extract(bb, loc, whole(), offsets, sizes, type);
          else frag = receive(bb, f, me, type, loc);
          bases.set(key, slices.insert(bb, loc, frag, base, offsets, sizes));
        }
      }
    };
    const inputValue = (inputIndex: number): Value => {
      const input = nodeInputs.get(inputIndex)!;
      if (!input.blueprint) {
        const src = input.sources[0]!;
        return baseOf(inputIndex, 0, workload.nodes[src.producer]!.op.getResult(src.resultIndex).type as RankedTensorType);
      }
      const m = new IRMapping();
      input.sources.forEach((src, k) => m.map(input.blueprint!.getOperand(k), baseOf(inputIndex, k, workload.nodes[src.producer]!.op.getResult(src.resultIndex).type as RankedTensorType)));
      return bb.clone(input.blueprint, m).getResult(0);
    };
    const windows = new Map<string, Value>();
    const send = (v: Value, lane: number, resultIndex: number): void => {
      if (mirrorCore !== undefined) return; // the main copy sends; mirrors only serve their own core
      for (const f of sendsOf.get(`${n.index}:${lane}:${resultIndex}`) ?? []) {
        let payload = v;
        if (f.count > 1) {
          // A run of this replica's slots: one slice of its (complete) partial result.
          const collection = resultTypes[resultIndex] as RankedTensorType;
          const sizes = [f.count, ...collection.shape.slice(1)];
          const offsets = [f.slot, ...collection.shape.slice(1).map(() => 0)];
          payload = slices.extract(bb, loc, partialOf(resultIndex), offsets, sizes);
        } else if (f.box) {
          const key = `${resultIndex}:${f.box.offsets.join(',')}:${f.box.sizes.join(',')}`;
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
    };

    // Partial results (for SSA forwarding and host reassembly).
    const partial: Value[] = [];
    const window = pl.granularity === 'window';
    if (!window) receiveRound(null);

    for (const [round, lane] of lanesOfReplica(pl, n.lanes, j).entries()) {
      if (window) receiveRound(round);
      const mapping = new IRMapping();
      if (n.isBatch) mapping.map(gEntry.arguments[0]!, constant(bb, lane, loc));
      const copy = round % pl.copies;
      weights.forEach((_, k) => mapping.map(gEntry.arguments[firstWeightArg + k]!, wArgs[copy * weights.length + k]!));
      inputs.forEach((_, k) => {
        const arg = gEntry.arguments[firstWeightArg + weights.length + k]!;
        if (nodeInputs.has(k)) mapping.map(arg, inputValue(k));
        else mapping.map(arg, iArgs[argOfInput.get(k)!]!);
      });
      if (n.isBatch) gEntry.arguments.slice(firstWeightArg + weights.length + inputs.length).forEach((out, k) => mapping.map(out, partialOf(k)));
      for (let o = gEntry.firstOp; o; o = o.next) {
        if (o === gEntry.lastOp) break;
        bb.clone(o, mapping);
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
          const dyn = ins.operands.slice(2).map((x) => mapping.lookupOrDefault(x));
          let d = 0;
          const offsets = lists.offsets.map((x) => (x === DYNAMIC ? dyn[d++]! : x));
          const sizes = lists.sizes.map((x) => x);
          if (neededPartials.has(slotKey(n.index, j, outIndex))) partial[outIndex] = slices.insert(bb, loc, value, partialOf(outIndex), offsets, sizes);
          if (window) send(value, lane, outIndex);
        }
      }
    }
    // Host slots: store each partial result once for its remote readers.
    for (let k = 0; k < resultTypes.length; k++) {
      const slot = slots.get(slotKey(n.index, j, k));
      if (!slot) continue;
      WaitOp.build(bb, { eventRegister: constant(bb, slot.freeRegister, loc), waitValue: constant(bb, slot.readers.length, loc) }, loc);
      const [first, ...rest] = slot.readers;
      HostStoreSyncOp.build(
        bb,
        {
          input: partialOf(k),
          sourceCoreId: constant(bb, core, loc),
          targetCoreId: constant(bb, first!.core, loc),
          hostOffset: constant(bb, slot.offset, loc),
          eventRegister: constant(bb, slot.readyRegisters.get(first!.key)!, loc),
        },
        loc,
      );
      for (const rd of rest) SyncOp.build(bb, { targetCoreId: constant(bb, rd.core, loc), eventRegister: constant(bb, slot.readyRegisters.get(rd.key)!, loc) }, loc);
    }
    YieldOp.build(bb, { outputs: resultTypes.map((_, k) => partialOf(k)) }, loc);
    return s;

    function partialOf(k: number): Value {
      let v = partial[k];
      if (!v) partial[k] = v = createEmpty(bb, loc, resultTypes[k] as RankedTensorType);
      return v;
    }
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
            if (viaHost(f) || plan.placements[f.producer]!.granularity !== 'layer') continue;
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
            else if (!workload.nodes[f.producer]!.isBatch) payload = whole;
            else {
              const sizes = [f.count, ...collection.shape.slice(1)];
              const offsets = [f.slot, ...collection.shape.slice(1).map(() => 0)];
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
