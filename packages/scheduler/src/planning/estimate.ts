/**
 * The analytic estimate of a plan: a list-scheduling replay of every core stream with the
 * target's cost model, giving the latency of one inference, the pipeline period, and per core
 * its busy time by unit.
 *
 * Each lane is priced at the instruction level with the unit times pimsim-nn charges (the cost
 * model's `mvmUnitNs`, `vectorOpNs`, `localCopyNs`, `hostLoadNs`, `sendNs`, ...; see
 * {@link laneWorkOf}), and the global memory is one port that every core's host loads and
 * stores queue for, as in the simulator: graph inputs and outputs, constants, and host-slot
 * stores and loads (a slot's fragment is stored once, and loaded by each reader).
 */
import { DenseElementsAttr, type Operation, RankedTensorType, Traits, type Value } from '@raptor-pim/ir-core';
import { ExtractSliceOp, InsertSliceOp, ParallelInsertSliceOp, readSliceLists } from '@raptor-pim/upstream-dialects';
import { ConcatOp, ELEMENTWISE_OPS, ExtractRowsOp, GraphComputeBatchOp, GraphComputeOp, WvmmOp } from '@raptor-pim/spatial-dialect';
import type { CostModel } from '@raptor-pim/pim-target';
import { byteSizeOfType, type Workload } from '../analysis/workload';
import { lanesOfReplica, readsThroughHost, replicaOfLane, type SchedulePlan } from './schedule-plan';
import type { ReplicaInputReads } from './transfers';

/** Busy time of one core by unit, its crossbars and memory. */
export interface CoreUsage {
  /** Physical core id. */
  readonly core: number;
  /** MVM unit busy time (ns). */
  mvmNs: number;
  /** Vector unit busy time (ns). */
  vectorNs: number;
  /** Local copies and fills (`lmv`, `lldi`) (ns). */
  copyNs: number;
  /** Core-to-core transfers, sending and receiving (ns). */
  transferNs: number;
  /** Host loads and stores (ns). */
  hostNs: number;
  /** Sync/wait messages (ns). */
  syncNs: number;
  /** Sum of the above. */
  busyNs: number;
  /** Crossbars holding weights. */
  crossbars: number;
  /** Estimated peak live local memory (bytes). */
  peakLocalBytes: number;
  /** Replicas (scheduled lanes) it runs. */
  replicas: number;
}

/** The estimate of a plan. */
export interface ScheduleEstimate {
  /** Latency of one inference (ns). */
  readonly latencyNs: number;
  /** Time between two inferences in steady state (ns). */
  readonly periodNs: number;
  /** Inferences per second (1e9 / period). */
  readonly throughput: number;
  /** Per used core, by core id. */
  readonly cores: readonly CoreUsage[];
  /** Bytes moved between cores per inference. */
  readonly transferBytes: number;
  /** Bytes through host memory per inference other than graph inputs/outputs. */
  readonly spilledBytes: number;
  /** Graph input and output bytes per inference. */
  readonly ioBytes: number;
}

/** Replays `plan` with `cost`; `reads` is {@link planReads} of the same plan. */
export function estimateSchedule(workload: Workload, plan: SchedulePlan, reads: readonly ReplicaInputReads[], cost: CostModel): ScheduleEstimate {
  const usage = new Map<number, CoreUsage>();
  const use = (core: number): CoreUsage => {
    let u = usage.get(core);
    if (!u) usage.set(core, (u = { core, mvmNs: 0, vectorNs: 0, copyNs: 0, transferNs: 0, hostNs: 0, syncNs: 0, busyNs: 0, crossbars: 0, peakLocalBytes: 0, replicas: 0 }));
    return u;
  };
  const host = plan.transfer === 'host';
  /** Readers of `producer` load host slots (a host plan, or a spilled producer). */
  const hostOf = (producer: number): boolean => readsThroughHost(plan, producer);
  // The global memory's single port: loads and stores of every core queue for it (FIFO).
  let portFree = 0;
  let portBusy = 0;
  /** Time spent waiting for the port since the last reset (not part of an instance's own duration). */
  let queueWait = 0;
  /**
   * A host access of `bytes` by `core` requested at `at`: charges the core's own time to `u`
   * (not the wait for the port, which other cores hold) and returns when it completes.
   */
  const hostAccess = (u: CoreUsage, at: number, bytes: number, write: boolean): number => {
    if (bytes <= 0) return at;
    const start = Math.max(at, portFree);
    queueWait += start - at;
    const port = cost.hostPortNs(bytes, write);
    portFree = start + port;
    portBusy += port;
    const own = write ? cost.hostStoreNs(bytes, u.core) : cost.hostLoadNs(bytes, u.core);
    u.hostNs += own;
    return start + own;
  };
  // A fragment from core a to core b: the sender's part (the copy into the send buffer, then
  // the handshake and read, or a host store and a sync) and the receiver's part after it (the
  // data flits and the write, or a host load, then the copy into the consumer's input).
  const moveNs = (bytes: number, a: number, b: number, gather: boolean, scatter: boolean, viaHost: boolean): { send: number; recv: number } => {
    const sendCopy = gather ? cost.localCopyNs(bytes) : 0;
    const recvCopy = scatter ? cost.localCopyNs(bytes) : 0;
    return viaHost
      ? { send: sendCopy + cost.hostStoreNs(bytes, a) + cost.syncNs(a, b), recv: cost.hostLoadNs(bytes, b) + recvCopy }
      : { send: sendCopy + cost.sendNs(bytes, a, b), recv: cost.deliverNs(bytes, a, b) + recvCopy };
  };
  /** A received fragment is copied into the consumer's input unless it is the whole input. */
  const scatters = (r: ReplicaInputReads, bytes: number): boolean => {
    if (r.remote.length !== 1 || r.hasLocal) return true;
    const op = workload.nodes[r.consumer]!.op;
    const view = GraphComputeBatchOp.isInstance(op) ? GraphComputeBatchOp.get(op) : GraphComputeOp.get(op);
    const input = (view.inputs as readonly Value[])[r.inputIndex];
    return !input || byteSizeOfType(input.type) !== bytes;
  };

  /**
   * Port time of the current node's host-slot stores and loads. A node's replicas run side by
   * side and take turns at the port, so the node lasts at least that long from its first start
   * (a fluid model: queueing the accesses one by one in the order this replay visits them would
   * serialize replicas that the simulator interleaves).
   */
  let nodePortNs = 0;
  const slotPort = (bytes: number, write: boolean): void => {
    if (bytes <= 0) return;
    const port = cost.hostPortNs(bytes, write);
    nodePortNs += port;
    portBusy += port;
  };

  // Reads grouped by consumer replica; outgoing transfer time per producer fragment.
  const readsOf = new Map<string, ReplicaInputReads[]>();
  const sendNsOf = new Map<string, number>();
  /** Bytes a host-slot producer lane stores (its fragment, stored once whatever its readers). */
  const storeBytesOf = new Map<string, number>();
  let transferBytes = 0;
  let spilledBytes = 0;
  for (const r of reads) {
    const key = `${r.consumer}:${r.replica}`;
    let list = readsOf.get(key);
    if (!list) readsOf.set(key, (list = []));
    list.push(r);
    for (const f of r.remote) {
      const k = `${f.producer}:${f.slot}`;
      sendNsOf.set(k, (sendNsOf.get(k) ?? 0) + moveNs(f.bytes, f.fromCore, f.toCore, f.box !== undefined || f.piece !== undefined, false, hostOf(f.producer)).send);
      if (hostOf(f.producer)) storeBytesOf.set(k, Math.max(storeBytesOf.get(k) ?? 0, f.bytes));
      transferBytes += f.bytes;
      if (hostOf(f.producer)) spilledBytes += f.bytes;
    }
  }

  const finish: number[][] = workload.nodes.map((n) => new Array<number>(n.lanes).fill(0));
  const coreFree = new Map<number, number>();
  // Every (node, core) instance: when it starts (its inputs arrived) and ends, in core order.
  const instances = new Map<string, Instance>();
  const instanceKey = (node: number, core: number): string => `${node}:${core}`;
  const record = (node: number, core: number, start: number, end: number): void => {
    // The wait for the global memory port is not the instance's own: cores drift apart in the
    // steady state and take turns at the port (its total busy time bounds the period).
    end -= queueWait;
    queueWait = 0;
    const k = instanceKey(node, core);
    const x = instances.get(k);
    if (x) {
      x.start = Math.min(x.start, start);
      x.end = Math.max(x.end, end);
    } else instances.set(k, { node, core, start, end, order: instances.size });
  };
  const replicaDone = new Map<string, number>();
  let latencyNs = 0;
  let ioBytes = 0;
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    const full = laneWorkOf(n.op, cost);
    // A window lane sends its result as it is: no copy into the node's result.
    const work = pl.granularity === 'window' ? { ...full, copyNs: full.copyNs - full.resultCopyNs } : full;
    const laneNs = work.mvmNs + work.vectorNs + work.copyNs;
    // A core loads a scalar compute's graph inputs whole, a batch lane its share; constants once.
    const loadBytes = (n.isBatch ? 0 : n.hostInputBytes) + work.constantLoadBytes;
    const laneLoadBytes = n.isBatch ? n.hostInputBytes / n.lanes : 0;
    const outBytesPerLane = n.hostOutputBytes / n.lanes;
    ioBytes += n.hostInputBytes + n.hostOutputBytes;
    nodePortNs = 0;
    let nodeStart = Infinity;
    let nodeEnd = 0;
    for (let j = 0; j < pl.replicas; j++) {
      const core = pl.cores[j]!;
      const u = use(core);
      u.replicas++;
      u.crossbars += n.crossbars * pl.copies;
      const rounds = Math.ceil(n.lanes / pl.replicas);
      u.peakLocalBytes = Math.max(u.peakLocalBytes, n.localBytesPerLane * (pl.granularity === 'layer' ? rounds : 1));
      const myReads = readsOf.get(`${n.index}:${j}`) ?? [];
      // Arrival of every remote fragment, and the receive time per round.
      const arrivalByRound = new Array<number>(rounds).fill(0);
      const recvByRound = new Array<number>(rounds).fill(0);
      /** Per round (where any), the host-slot loads (bytes each): their port time counts toward the node's. */
      const hostLoadsByRound: (number[] | undefined)[] = new Array<number[] | undefined>(rounds);
      let arrivalAll = 0;
      for (const r of myReads) {
        const producer = plan.placements[r.producer]!;
        // A producer read through host slots stores its partial result after its last round.
        const prodLayer = producer.granularity === 'layer' || hostOf(r.producer);
        const producerDone = (slot: number): number => {
          if (!prodLayer) return finish[r.producer]![slot]!;
          // Layer granularity: sends happen after the replica's last round.
          const rep = replicaOfLane(producer, workload.nodes[r.producer]!.lanes, slot);
          const key = `${r.producer}:${rep}`;
          let t = replicaDone.get(key);
          if (t === undefined) {
            t = 0;
            for (const l of lanesOfReplica(producer, workload.nodes[r.producer]!.lanes, rep)) t = Math.max(t, finish[r.producer]![l]!);
            replicaDone.set(key, t);
          }
          return t;
        };
        for (const f of r.remote) {
          // A layer producer sends from a send task placed right before this consumer replica in
          // program order: after everything its core runs before this replica.
          const at = producer.granularity === 'layer' ? Math.max(producerDone(f.slot), coreFree.get(f.fromCore) ?? 0) : producerDone(f.slot);
          const round = pl.granularity === 'layer' ? 0 : f.round;
          arrivalByRound[round] = Math.max(arrivalByRound[round]!, at);
          arrivalAll = Math.max(arrivalAll, at);
          if (hostOf(r.producer)) {
            // The load is charged in its round (its port time is the node's); the copy into the input here.
            (hostLoadsByRound[round] ??= []).push(f.bytes);
            const copy = scatters(r, f.bytes) ? cost.localCopyNs(f.bytes) : 0;
            recvByRound[round]! += copy;
            u.hostNs += copy;
          } else {
            const m = moveNs(f.bytes, f.fromCore, f.toCore, f.box !== undefined || f.piece !== undefined, scatters(r, f.bytes), false);
            recvByRound[round]! += m.recv;
            u.transferNs += m.recv;
          }
        }
        if (r.hasLocal) {
          // Local forwarding: the producer result must be complete (SSA binding).
          let t = 0;
          for (const x of finish[r.producer]!) t = Math.max(t, x);
          arrivalByRound[0] = Math.max(arrivalByRound[0]!, t);
          arrivalAll = Math.max(arrivalAll, t);
        }
      }
      let t = coreFree.get(core) ?? 0;
      const start = Math.max(t, pl.granularity === 'layer' ? arrivalAll : arrivalByRound[0]!);
      queueWait = 0;
      // Graph inputs and constants are loaded when the first round starts (after its inputs arrived).
      if (loadBytes > 0) {
        t = Math.max(t, pl.granularity === 'layer' ? arrivalAll : arrivalByRound[0]!);
        t = hostAccess(u, t, loadBytes, false);
      }
      const lanesOf = lanesOfReplica(pl, n.lanes, j);
      // Layer granularity sends from send tasks, and a scalar compute stores its host slot once: after the last round.
      const storesAtEnd = pl.granularity === 'layer' || (hostOf(n.index) && !n.isBatch);
      let arrived = 0;
      for (let k = 0; k < lanesOf.length; k++) {
        const lane = lanesOf[k]!;
        arrived = Math.max(arrived, arrivalByRound[k]!);
        const ready = pl.granularity === 'layer' ? arrivalAll : arrived;
        if (laneLoadBytes > 0) {
          t = hostAccess(u, t, laneLoadBytes, false);
        }
        t = Math.max(t, ready);
        for (const bytes of hostLoadsByRound[k] ?? []) {
          const own = cost.hostLoadNs(bytes, core);
          u.hostNs += own;
          t += own;
          slotPort(bytes, false);
        }
        t += recvByRound[k]! + laneNs;
        u.mvmNs += work.mvmNs;
        u.vectorNs += work.vectorNs;
        u.copyNs += work.copyNs;
        if (outBytesPerLane > 0) {
          t = hostAccess(u, t, outBytesPerLane, true);
        }
        const send = sendNsOf.get(`${n.index}:${lane}`) ?? 0;
        if (!storesAtEnd) t += send;
        slotPort(storeBytesOf.get(`${n.index}:${lane}`) ?? 0, true);
        if (hostOf(n.index)) u.hostNs += send;
        else u.transferNs += send;
        finish[n.index]![lane] = t;
      }
      if (storesAtEnd) {
        let send = 0;
        for (const lane of lanesOf) send += sendNsOf.get(`${n.index}:${lane}`) ?? 0;
        t += send;
        for (const lane of lanesOf) finish[n.index]![lane] = t;
      }
      coreFree.set(core, t);
      record(n.index, core, start, t);
      latencyNs = Math.max(latencyNs, t);
      nodeStart = Math.min(nodeStart, start);
      nodeEnd = Math.max(nodeEnd, t);
    }
    // The node's host-slot traffic takes the port at least that long: what it still needs when
    // its replicas are done delays its results (and its cores) by the difference.
    const portDelay = nodeStart === Infinity ? 0 : nodeStart + nodePortNs - nodeEnd;
    if (portDelay > 0) {
      const lanes = finish[n.index]!;
      for (let l = 0; l < lanes.length; l++) lanes[l]! += portDelay;
      for (const core of new Set(pl.cores)) coreFree.set(core, (coreFree.get(core) ?? 0) + portDelay);
      latencyNs = Math.max(latencyNs, nodeEnd + portDelay);
    }
    // Mirrors compute the whole (scalar, weightless, host-fed) node again on their cores.
    for (const m of pl.mirrors ?? []) {
      const u = use(m);
      u.replicas++;
      u.peakLocalBytes = Math.max(u.peakLocalBytes, n.localBytesPerLane);
      let t = coreFree.get(m) ?? 0;
      const start = t;
      queueWait = 0;
      t = hostAccess(u, t, n.hostInputBytes + work.constantLoadBytes, false) + laneNs;
      u.mvmNs += work.mvmNs;
      u.vectorNs += work.vectorNs;
      u.copyNs += work.copyNs;
      coreFree.set(m, t);
      record(n.index, m, start, t);
      finish[n.index]![0] = Math.max(finish[n.index]![0]!, t);
      latencyNs = Math.max(latencyNs, t);
    }
  }
  const cores = [...usage.values()].sort((a, b) => a.core - b.core);
  for (const u of cores) {
    if (host) u.syncNs = 0;
    u.busyNs = u.mvmNs + u.vectorNs + u.copyNs + u.transferNs + u.hostNs + u.syncNs;
  }
  // The period needs the cycle analysis; computed when first read (strategies that compare
  // latencies only never pay for it).
  let period: number | undefined;
  // Without a pipeline the next inference waits at most for the previous one: the cycle
  // analysis (cores restart their streams as they finish) is capped by the latency.
  const periodOf = (): number => {
    if (period !== undefined) return period;
    const cycles = Math.max(cycleSpanNs(instances, reads, plan), steadyPeriodNs(instances, reads, plan, workload));
    return (period = Math.max(plan.pipelined ? cycles : Math.min(cycles, latencyNs), ...cores.map((c) => c.busyNs), portBusy));
  };
  return {
    latencyNs,
    get periodNs(): number {
      return periodOf();
    },
    get throughput(): number {
      const p = periodOf();
      return p > 0 ? 1e9 / p : Infinity;
    },
    cores,
    transferBytes,
    spilledBytes,
    ioBytes,
  };
}

/** One (node, core) instance of the replay: when it starts (its inputs arrived) and ends. */
interface Instance {
  readonly node: number;
  readonly core: number;
  start: number;
  end: number;
  /** Position in the replay (node order: a topological order of the instances). */
  readonly order: number;
}

/**
 * The steady-state period the cores' dependency cycles impose. Every core runs its program again
 * as soon as it is done (there is no barrier between inferences: the simulator's throughput
 * mode), so waits for inputs that the rest of the pipeline produces ahead are hidden; but when a
 * later instance on a core reads data derived (through other cores) from an earlier instance on
 * the same core, that dependency path is walked in every inference. For each instance `a` this
 * replays, relative to `a`'s start, the instances that depend on `a` (each taking its duration in
 * the replay, starting when its predecessors that depend on `a` are done) and the instances of
 * `a`'s core after it (in program order); the core is busy until the last of them ends. Returns
 * the largest such time (0 when no core has such a cycle).
 */
function cycleSpanNs(instances: ReadonlyMap<string, Instance>, reads: readonly ReplicaInputReads[], plan: SchedulePlan): number {
  const list = [...instances.values()].sort((x, y) => x.order - y.order);
  const index = new Map<string, number>();
  list.forEach((x, i) => index.set(`${x.node}:${x.core}`, i));
  const preds: Set<number>[] = list.map(() => new Set<number>());
  const edge = (from: string, to: string): void => {
    const f = index.get(from);
    const t = index.get(to);
    if (f !== undefined && t !== undefined && f !== t) preds[t]!.add(f);
  };
  for (const r of reads) {
    const core = plan.placements[r.consumer]!.cores[r.replica]!;
    const to = `${r.consumer}:${core}`;
    for (const f of r.remote) edge(`${r.producer}:${f.fromCore}`, to);
    if (r.hasLocal) edge(`${r.producer}:${core}`, to);
  }
  const duration = list.map((x) => Math.max(0, x.end - x.start));
  let span = 0;
  const relEnd = new Float64Array(list.length);
  const reached = new Uint8Array(list.length);
  for (let a = 0; a < list.length; a++) {
    const core = list[a]!.core;
    // The core's instances before `a` run in every inference too.
    let before = 0;
    for (let x = 0; x < a; x++) if (list[x]!.core === core) before += duration[x]!;
    reached.fill(0);
    reached[a] = 1;
    relEnd[a] = duration[a]!;
    let coreEnd = relEnd[a]!;
    let cycle = false;
    for (let b = a + 1; b < list.length; b++) {
      let startAt = -1;
      for (const p of preds[b]!) if (reached[p]) startAt = Math.max(startAt, relEnd[p]!);
      const onCore = list[b]!.core === core;
      if (startAt < 0 && !onCore) continue;
      if (onCore) {
        if (startAt >= 0) cycle = true;
        startAt = Math.max(startAt, coreEnd);
      }
      reached[b] = 1;
      relEnd[b] = startAt + duration[b]!;
      if (onCore) coreEnd = relEnd[b]!;
    }
    if (cycle) span = Math.max(span, before + coreEnd);
  }
  return span;
}

/** Lane works already computed, per cost model and graph compute (strategies estimate many plans of one workload). */
const laneWorkCache = new WeakMap<CostModel, WeakMap<Operation, LaneWork>>();

/**
 * What one lane of the graph compute `op` costs on its core once lowered to instructions (a
 * scalar compute: its whole body); see {@link computeLaneWork}. Cached per cost model and op.
 */
export function laneWorkOf(op: Operation, cost: CostModel): LaneWork {
  let byOp = laneWorkCache.get(cost);
  if (!byOp) laneWorkCache.set(cost, (byOp = new WeakMap()));
  let w = byOp.get(op);
  if (!w) byOp.set(op, (w = computeLaneWork(op, cost)));
  return w;
}

/**
 * The steady-state period as the maximum cycle mean of the inference's instance graph (every
 * core loops its program; blocking transfers couple them). Each (node, core) instance takes its
 * duration in the replay; its successors wait for it: the instances that read it (data, same
 * inference), the next instance on its core (program order; the core's first instance of the
 * next inference after its last: one inference later), and — because a `send` blocks until its
 * receiver posts the `recv` — the producer side of every transfer waits for the instance
 * before the consumer on the consumer's core: a window producer (it sends from its first round)
 * as a whole, a layer producer (it sends at its end) before the next instance on its core.
 * The period is the smallest T for which no cycle has more duration than T times the
 * inferences it spans (Bellman-Ford on duration - T x inferences, binary search on T).
 */
function steadyPeriodNs(instances: ReadonlyMap<string, Instance>, reads: readonly ReplicaInputReads[], plan: SchedulePlan, workload: Workload): number {
  const list = [...instances.values()].sort((x, y) => x.order - y.order);
  const n = list.length;
  if (n === 0 || n > 1500) return 0;
  const index = new Map<string, number>();
  list.forEach((x, i) => index.set(`${x.node}:${x.core}`, i));
  const duration = list.map((x) => Math.max(0, x.end - x.start));
  // Program order per core.
  const byCore = new Map<number, number[]>();
  list.forEach((x, i) => {
    let l = byCore.get(x.core);
    if (!l) byCore.set(x.core, (l = []));
    l.push(i);
  });
  const prevOnCore = new Array<number>(n).fill(-1);
  const prevToken = new Array<number>(n).fill(0);
  const nextOnCore = new Array<number>(n).fill(-1);
  const nextToken = new Array<number>(n).fill(0);
  const from: number[] = [];
  const to: number[] = [];
  const tokens: number[] = [];
  const extra: number[] = [];
  const seen = new Set<string>();
  /** `v` starts `dur(u) + shift` after `u` starts, `t` inferences later. */
  const edge = (u: number, v: number, t: number, shift = 0): void => {
    const k = `${u}>${v}>${t}>${shift}`;
    if (seen.has(k)) return;
    seen.add(k);
    from.push(u);
    to.push(v);
    tokens.push(t);
    extra.push(shift);
  };
  for (const l of byCore.values()) {
    for (let k = 0; k < l.length; k++) {
      const u = l[k]!;
      const v = l[(k + 1) % l.length]!;
      const t = k + 1 === l.length ? 1 : 0;
      nextOnCore[u] = v;
      nextToken[u] = t;
      prevOnCore[v] = u;
      prevToken[v] = t;
      edge(u, v, t);
    }
  }
  for (const r of reads) {
    const core = plan.placements[r.consumer]!.cores[r.replica]!;
    const c = index.get(`${r.consumer}:${core}`);
    if (c === undefined) continue;
    if (r.hasLocal) {
      const p = index.get(`${r.producer}:${core}`);
      if (p !== undefined && p !== c) edge(p, c, 0);
    }
    const window = plan.placements[r.producer]!.granularity === 'window';
    for (const f of r.remote) {
      const p = index.get(`${r.producer}:${f.fromCore}`);
      if (p === undefined || p === c) continue;
      // The send waits for the receiver to reach its recv: after the instance before c (c
      // itself one inference earlier when it is its core's only instance).
      const q: number = prevOnCore[c]!;
      if (window) {
        edge(p, c, 0);
        // Its first round runs before the first send blocks: the rest waits.
        const pl = plan.placements[r.producer]!;
        const rounds = Math.max(1, Math.ceil(workload.nodes[r.producer]!.lanes / pl.replicas));
        if (q >= 0) edge(q, p, prevToken[c]!, -duration[p]! / rounds);
        continue;
      }
      // A layer producer sends from a task placed before c in program order: after the last
      // instance its core runs before c, and before the next one.
      const line = byCore.get(f.fromCore)!;
      let src = p;
      for (const x of line) if (x < c && x > src) src = x;
      edge(src, c, 0);
      if (q >= 0 && nextOnCore[src]! >= 0) edge(q, nextOnCore[src]!, prevToken[c]! + nextToken[src]!);
    }
  }
  const m = from.length;
  // Edges relaxed in the order of their source instance: instances are listed in program order
  // (producers before consumers, a core's instances in its order), so one round carries a value
  // along every path of edges within one inference; only the edges to a later inference need
  // further rounds. The answer does not depend on the order.
  const order = Int32Array.from({ length: m }, (_, e) => e).sort((a, b) => from[a]! - from[b]! || a - b);
  const eFrom = Int32Array.from(order, (e) => from[e]!);
  const eTo = Int32Array.from(order, (e) => to[e]!);
  const eTokens = Float64Array.from(order, (e) => tokens[e]!);
  const eExtra = Float64Array.from(order, (e) => extra[e]!);
  // No path without a cycle is longer than every duration and every positive shift together:
  // a longer distance proves a cycle of positive weight.
  let longestPath = 0;
  for (let u = 0; u < n; u++) longestPath += duration[u]!;
  for (let e = 0; e < m; e++) longestPath += Math.max(0, extra[e]!);
  // Each core's program is a cycle of one inference: below its total duration, that cycle alone
  // is positive (the relaxation below would find it; with a clear margin, no need to run it).
  let busiestCore = 0;
  for (const l of byCore.values()) {
    let total = 0;
    for (const u of l) total += duration[u]!;
    busiestCore = Math.max(busiestCore, total);
  }
  const dist = new Float64Array(n);
  /** True when some cycle has more duration than T per inference. */
  const positiveCycle = (T: number): boolean => {
    if (busiestCore - T > 1e-3) return true;
    dist.fill(0);
    for (let round = 0; round < n; round++) {
      let changed = false;
      for (let e = 0; e < m; e++) {
        const u = eFrom[e]!;
        const v = eTo[e]!;
        const d = dist[u]! + duration[u]! + eExtra[e]! - T * eTokens[e]!;
        if (d > dist[v]! + 1e-6) {
          dist[v] = d;
          changed = true;
          if (d > longestPath + 1e-6) return true;
        }
      }
      if (!changed) return false;
    }
    return true;
  };
  let lo = 0;
  let hi = duration.reduce((a, b) => a + b, 0);
  if (!positiveCycle(lo)) return 0;
  for (let it = 0; it < 40 && hi - lo > Math.max(1, hi * 1e-4); it++) {
    const mid = (lo + hi) / 2;
    if (positiveCycle(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The instruction-level cost of one lane (ns), by unit. */
export interface LaneWork {
  /** `mvmul`s: array-group occupancy, one after another. */
  readonly mvmNs: number;
  /** Vector instructions (including `vmv` gathers). */
  readonly vectorNs: number;
  /** Local copies (`lmv`) and fills (`lldi`). */
  readonly copyNs: number;
  /** The part of {@link LaneWork.copyNs} that copies the lane's result into the node's result (`parallel_insert_slice`). */
  readonly resultCopyNs: number;
  /** Bytes of non-zero constants the node loads from host memory (once per core). */
  readonly constantLoadBytes: number;
}

const ELEMENTWISE = new Set(ELEMENTWISE_OPS);


function shapeOf(t: unknown): readonly number[] | undefined {
  return t instanceof RankedTensorType && t.shape.every((d) => d >= 0) ? t.shape : undefined;
}

function count(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/**
 * The copies of a slice of `sizes` (strides `strides`) of a tensor of shape `shape`: one `lmv`
 * per contiguous run, or `vmv` gathers when the innermost non-unit dimension is strided.
 */
function sliceCopyNs(cost: CostModel, shape: readonly number[], sizes: readonly number[], strides: readonly number[]): { copy: number; vector: number } {
  const eb = cost.programElementBytes;
  const { runs, elements } = sliceRunsOf(shape, sizes, strides);
  if (runs === 0) return { copy: 0, vector: 0 };
  if (elements > 1) return { copy: runs * cost.localCopyNs(elements * eb), vector: 0 };
  // Element runs: a gather along the largest dimension per outer coordinate.
  const len = Math.max(1, ...sizes);
  return { copy: 0, vector: (count(sizes) / len) * cost.vectorOpNs(len, 1) };
}

/** A constant's bytes are all zero (lowered to a local fill). */
export function isZeroSplatConstant(op: Operation): boolean {
  const v = op.getAttr('value');
  return v instanceof DenseElementsAttr && v.isSplat && v.data[0] === 0;
}

/**
 * The {@link LaneWork} of one lane of the graph compute `op`, priced with the cost model's
 * instruction-level functions as spatial-to-pim lowers the body: one `mvmul` per `spat.wvmm`
 * (input read, crossbar compute, output write), one vector instruction per element-wise op, one
 * `lmv` per contiguous run of every slice the lane extracts or inserts (a `vmv` gather per row
 * when the innermost dimension is strided), one per concatenation, none for reshapes (views), an
 * `lldi` fill for zero constants, a host load for the other constants. The lowered code reuses
 * its buffers, so each instruction depends on the one before (RAW or WAR) and a lane's
 * instructions run one after another.
 */
function computeLaneWork(op: Operation, cost: CostModel): LaneWork {
  let mvmNs = 0;
  let vectorNs = 0;
  let copyNs = 0;
  let resultCopyNs = 0;
  let constantLoadBytes = 0;
  const eb = cost.programElementBytes;
  const view = GraphComputeBatchOp.isInstance(op) ? GraphComputeBatchOp.get(op) : GraphComputeOp.isInstance(op) ? GraphComputeOp.get(op) : undefined;
  const weights = new Set(view ? (view.weights as readonly unknown[]) : []);
  if (view) {
    for (const v of view.inputs) {
      const def = v.definingOp;
      if (!def || weights.has(v) || !def.hasTrait(Traits.ConstantLike)) continue;
      const s = shapeOf(v.type);
      if (s && !isZeroSplatConstant(def)) constantLoadBytes += count(s) * eb;
    }
  }
  op.regions[0]?.walk((o: Operation) => {
    const p = priceBodyOp(o, cost);
    if (p) {
      mvmNs += p.mvmNs;
      vectorNs += p.vectorNs;
      copyNs += p.copyNs;
      if (ParallelInsertSliceOp.isInstance(o)) resultCopyNs += p.copyNs;
      return;
    }
    if (o.hasTrait(Traits.ConstantLike) && o.numResults === 1) {
      const s = shapeOf(o.getResult(0).type);
      if (!s) return;
      if (isZeroSplatConstant(o)) copyNs += cost.localFillNs(count(s) * eb);
      else constantLoadBytes += count(s) * eb;
    }
  });
  return { mvmNs, vectorNs, copyNs, resultCopyNs, constantLoadBytes };
}

/** What one op of a compute body costs once lowered, by unit (ns); see {@link priceBodyOp}. */
export interface OpPrice {
  readonly mvmNs: number;
  readonly vectorNs: number;
  readonly copyNs: number;
}

/**
 * The instruction-level cost of one op of a compute body as spatial-to-pim lowers it (see
 * {@link computeLaneWork}): an `mvmul` per `spat.wvmm`, a vector instruction per element-wise
 * op, the copies of slices, concatenations and row extractions; undefined for ops that lower to
 * nothing priced here (views, constants, terminators, communication).
 */
export function priceBodyOp(o: Operation, cost: CostModel): OpPrice | undefined {
  const eb = cost.programElementBytes;
  if (WvmmOp.isInstance(o)) {
    const w = shapeOf(o.getOperand(0).type);
    return { mvmNs: cost.mvmUnitNs(w && w.length === 2 ? Math.ceil(w[1]! / cost.crossbarCols) : 1), vectorNs: 0, copyNs: 0 };
  }
  if (ConcatOp.isInstance(o) || ExtractRowsOp.isInstance(o)) {
    const s = shapeOf(o.getResult(0).type);
    return s ? { mvmNs: 0, vectorNs: 0, copyNs: cost.localCopyNs(count(s) * eb) } : undefined;
  }
  if (o.definition && ELEMENTWISE.has(o.definition)) {
    const s = shapeOf(o.getResult(0)?.type);
    return s ? { mvmNs: 0, vectorNs: cost.vectorOpNs(count(s), o.numOperands >= 2 ? 2 : 1), copyNs: 0 } : undefined;
  }
  if (ExtractSliceOp.isInstance(o)) {
    const src = shapeOf(o.getOperand(0).type);
    const lists = readSliceLists(o);
    if (!src || !lists.sizes.every((d) => d >= 0)) return undefined;
    const c = sliceCopyNs(cost, src, lists.sizes, lists.strides);
    return { mvmNs: 0, vectorNs: c.vector, copyNs: c.copy };
  }
  if (InsertSliceOp.isInstance(o) || ParallelInsertSliceOp.isInstance(o)) {
    const dst = shapeOf(o.getOperand(1).type);
    const lists = readSliceLists(o);
    if (!dst || !lists.sizes.every((d) => d >= 0)) return undefined;
    const c = sliceCopyNs(cost, dst, lists.sizes, lists.strides);
    return { mvmNs: 0, vectorNs: c.vector, copyNs: c.copy };
  }
  return undefined;
}

/**
 * The contiguous runs a slice of `sizes` (strides `strides`) of a tensor of shape `shape`
 * reads: how many and how many elements each (one run per element when the innermost non-unit
 * dimension is strided).
 */
export function sliceRunsOf(shape: readonly number[], sizes: readonly number[], strides: readonly number[]): { readonly runs: number; readonly elements: number } {
  const total = count(sizes);
  if (total === 0) return { runs: 0, elements: 0 };
  let run = 1;
  for (let k = shape.length - 1; k >= 0; k--) {
    const size = sizes[k] ?? 1;
    if (size > 1 && (strides[k] ?? 1) !== 1) break;
    run *= size;
    if (size !== shape[k]) break;
  }
  return { runs: total / run, elements: run };
}

