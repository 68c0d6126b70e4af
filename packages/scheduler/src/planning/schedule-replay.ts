/**
 * The replay of a materialized schedule: every core's program, as the scheduled computes of the
 * function give it (the computes placed on a core, in function order; each lane of a batch on
 * its core), is priced op by op with the target's cost model and run in a discrete-event
 * simulation with the synchronization pim-sim implements: a `send` waits for its receiver to
 * post the matching `recv` (per channel: its id, source and target core; in program order), the receiver waits
 * for the data, `wait` blocks until the signals it awaits have arrived, and every host load and
 * store queues at the global memory's single port.
 *
 * The plan's analytic estimate ({@link estimateSchedule}) prices whole lanes and approximates
 * the coupling between cores by a cycle analysis of its instances; here the rendezvous happen
 * where the program has them, so a producer whose sends are ordered one way and consumers that
 * run another (a core blocked on its first consumer while the others wait for it) cost what
 * they cost in the simulator. The latency is one run of every program (pim-sim's latency mode);
 * the period is the steady state of every program looping (its throughput mode).
 */
import { type Operation, ReturnOp, RankedTensorType, Traits, type Value, BlockArgument, WalkOrder } from '@raptor-pim/ir-core';
import { ExtractSliceOp, ParallelInsertSliceOp, readSliceLists } from '@raptor-pim/upstream-dialects';
import { ChannelReceiveOp, ChannelSendOp, HostStoreSyncOp, HostWaitLoadOp, ScheduledComputeBatchOp, ScheduledComputeOp, SyncOp, WaitOp } from '@raptor-pim/spatial-dialect';
import type { CostModel } from '@raptor-pim/pim-target';
import { evaluateIndex } from '../analysis/fragment-needs';
import { byteSizeOfType } from '../analysis/workload';
import { isZeroSplatConstant, priceBodyOp, sliceRunsOf } from './estimate';

/** What {@link replaySchedule} measured. */
export interface ScheduleReplay {
  /** One inference with every program run once (ns). */
  readonly latencyNs: number;
  /** Time between two inferences with every program looping (ns). */
  readonly periodNs: number;
  /** Inferences per second (1e9 / period). */
  readonly throughput: number;
  /** Inferences the steady state was measured over. */
  readonly inferences: number;
  /** Steps (priced instruction runs and synchronizations) of one inference over all cores. */
  readonly steps: number;
  /** With {@link ScheduleReplayOptions.timeline}: when each scheduled compute (a batch: each lane) ran in the latency run. */
  readonly timeline?: readonly ReplayedTask[];
}

/** One scheduled compute (or one lane of a batch) in the latency run of a replay. */
export interface ReplayedTask {
  /** The `spat.scheduled_compute` or `spat.scheduled_compute_batch`. */
  readonly op: Operation;
  /** The lane of a batch (0 for a scalar compute). */
  readonly lane: number;
  readonly core: number;
  /** When its core reached it and when it finished (ns). */
  readonly startNs: number;
  readonly endNs: number;
}

/** Options of {@link replaySchedule}. */
export interface ScheduleReplayOptions {
  /**
   * Upper bound on the steps simulated for the steady state (all inferences together); the
   * number of inferences is chosen within it (at least 3, at most 12). Default 600,000.
   */
  readonly stepBudget?: number;
  /** Also return when every scheduled compute ran ({@link ScheduleReplay.timeline}). */
  readonly timeline?: boolean;
}

// Step kinds of a core program.
const COMPUTE = 0;
const HOST_LOAD = 1;
const HOST_STORE = 2;
const SEND = 3;
const RECV = 4;
const SIGNAL = 5;
const WAIT = 6;
/** A template item: a communication op, its endpoints evaluated per lane. */
const COMMUNICATION = 7;
/** Timeline markers (no time): a task starts or ends (`b`: the task index). */
const TASK_START = 8;
const TASK_END = 9;

/** A core's program: parallel arrays, one entry per step. */
interface Program {
  readonly core: number;
  readonly kind: number[];
  /** COMPUTE: ns; HOST_LOAD/HOST_STORE: the core's own ns; SEND/RECV: bytes; SIGNAL: target core; WAIT: count. */
  readonly a: number[];
  /** HOST_LOAD/HOST_STORE: port ns; SEND/RECV: the peer core; SIGNAL/WAIT: register key id. */
  readonly b: number[];
  /** SEND/RECV: the channel key id. */
  readonly c: number[];
}

/**
 * Replays the scheduled function `func` (after `spat-schedule`'s materialization) with `cost`;
 * undefined when it has no scheduled compute or an endpoint is not static (the checking pass
 * reports that).
 */
export function replaySchedule(func: Operation, cost: CostModel, options: ScheduleReplayOptions = {}): ScheduleReplay | undefined {
  const tasks: TaskOf[] | undefined = options.timeline ? [] : undefined;
  const programs = buildPrograms(func, cost, tasks);
  if (!programs) return undefined;
  const list = [...programs.values()].sort((x, y) => x.core - y.core);
  const steps = list.reduce((n, p) => n + p.kind.length, 0);
  if (steps === 0) return undefined;
  const marks = tasks ? new Float64Array(2 * tasks.length) : undefined;
  const latency = simulate(list, cost, 1, marks);
  if (latency === undefined) return undefined;
  const budget = options.stepBudget ?? 600_000;
  const inferences = Math.max(3, Math.min(12, Math.floor(budget / steps)));
  const looping = simulate(list, cost, inferences);
  if (looping === undefined) return undefined;
  // The steady state: the later half of the inferences.
  const first = Math.floor(inferences / 2);
  const periodNs = (looping[inferences - 1]! - looping[first - 1]!) / (inferences - first);
  const timeline = tasks && marks ? tasks.map((t, i) => ({ ...t, startNs: marks[2 * i]!, endNs: marks[2 * i + 1]! })) : undefined;
  return { latencyNs: latency[0]!, periodNs, throughput: periodNs > 0 ? 1e9 / periodNs : Infinity, inferences, steps, ...(timeline ? { timeline } : {}) };
}

/** Which scheduled compute (and lane) a timeline entry is, before its times are known. */
type TaskOf = Pick<ReplayedTask, 'op' | 'lane' | 'core'>;

/** Interns string keys as small integers. */
class Keys {
  private readonly ids = new Map<string, number>();
  id(key: string): number {
    let k = this.ids.get(key);
    if (k === undefined) this.ids.set(key, (k = this.ids.size));
    return k;
  }
}

/** A step template of a compute body: priced once, endpoints evaluated per lane. */
type Item =
  | { readonly kind: typeof COMPUTE; readonly ns: number }
  | { readonly kind: typeof HOST_LOAD | typeof HOST_STORE; readonly runs: number; readonly bytes: number }
  | { readonly kind: typeof COMMUNICATION; readonly op: Operation };

function buildPrograms(func: Operation, cost: CostModel, tasks?: TaskOf[]): Map<number, Program> | undefined {
  const body = func.regions[0]?.firstBlock;
  if (!body) return undefined;
  const programs = new Map<number, Program>();
  const channels = new Keys();
  const registers = new Keys();
  const programOf = (core: number): Program => {
    let p = programs.get(core);
    if (!p) programs.set(core, (p = { core, kind: [], a: [], b: [], c: [] }));
    return p;
  };
  const push = (p: Program, kind: number, a: number, b = 0, c = 0): void => {
    // Consecutive compute steps are one step.
    const last = p.kind.length - 1;
    if (kind === COMPUTE && last >= 0 && p.kind[last] === COMPUTE) {
      p.a[last] = p.a[last]! + a;
      return;
    }
    p.kind.push(kind);
    p.a.push(a);
    p.b.push(b);
    p.c.push(c);
  };
  let scheduled = 0;
  for (const op of body.operations) {
    const scalar = ScheduledComputeOp.match(op);
    const batch = ScheduledComputeBatchOp.match(op);
    if (!scalar && !batch) continue;
    scheduled++;
    const items = templateOf(op, cost);
    const cores = scalar ? [Number(scalar.coreId?.value ?? -1)] : batch!.coreIds?.values.map((v) => Number(v)) ?? [];
    const laneArg: Value | undefined = batch ? op.regions[0]!.firstBlock!.arguments[0] : undefined;
    for (let lane = 0; lane < cores.length; lane++) {
      const core = cores[lane]!;
      if (core < 0) return undefined;
      const p = programOf(core);
      const ix = (o: Operation, i: number): number | undefined => evaluateIndex(o.getOperand(i), laneArg, lane);
      const task = tasks ? tasks.push({ op, lane, core }) - 1 : -1;
      if (tasks) push(p, TASK_START, 0, task);
      for (const it of items) {
        if (it.kind === COMPUTE) {
          push(p, COMPUTE, it.ns);
          continue;
        }
        if ('runs' in it) {
          for (let r = 0; r < it.runs; r++)
            push(p, it.kind, it.kind === HOST_LOAD ? cost.hostLoadNs(it.bytes, core) : cost.hostStoreNs(it.bytes, core), cost.hostPortNs(it.bytes, it.kind === HOST_STORE));
          continue;
        }
        const o = it.op;
        if (ChannelSendOp.isInstance(o) || ChannelReceiveOp.isInstance(o)) {
          const send = ChannelSendOp.isInstance(o);
          const base = send ? 1 : 0;
          const [ch, s, d] = [ix(o, base), ix(o, base + 1), ix(o, base + 2)];
          if (ch === undefined || s === undefined || d === undefined) return undefined;
          const bytes = byteSizeOfType(send ? o.getOperand(0).type : o.getResult(0).type);
          push(p, send ? SEND : RECV, bytes, send ? d : s, channels.id(`${ch}:${s}:${d}`));
        } else if (SyncOp.isInstance(o)) {
          const [d, reg] = [ix(o, 0), ix(o, 1)];
          if (d === undefined || reg === undefined) return undefined;
          push(p, SIGNAL, d, registers.id(`${d}:${reg}`));
        } else if (WaitOp.isInstance(o)) {
          const [reg, n] = [ix(o, 0), ix(o, 1)];
          if (reg === undefined || n === undefined) return undefined;
          push(p, WAIT, n, registers.id(`${core}:${reg}`));
        } else if (HostStoreSyncOp.isInstance(o)) {
          const [d, reg] = [ix(o, 2), ix(o, 4)];
          if (d === undefined || reg === undefined) return undefined;
          const bytes = byteSizeOfType(o.getOperand(0).type);
          push(p, HOST_STORE, cost.hostStoreNs(bytes, core), cost.hostPortNs(bytes, true));
          push(p, SIGNAL, d, registers.id(`${d}:${reg}`));
        } else if (HostWaitLoadOp.isInstance(o)) {
          const [reg, n] = [ix(o, 3), ix(o, 4)];
          if (reg === undefined || n === undefined) return undefined;
          const bytes = byteSizeOfType(o.getResult(0).type);
          push(p, WAIT, n, registers.id(`${core}:${reg}`));
          push(p, HOST_LOAD, cost.hostLoadNs(bytes, core), cost.hostPortNs(bytes, false));
        }
      }
      if (tasks) push(p, TASK_END, 0, task);
    }
  }
  return scheduled > 0 ? programs : undefined;
}

/** The ops that synchronize cores (their endpoints are evaluated per lane). */
const COMMUNICATION_OPS: ReadonlySet<unknown> = new Set([ChannelSendOp, ChannelReceiveOp, SyncOp, WaitOp, HostStoreSyncOp, HostWaitLoadOp]);

/** The tensor bytes of `t` (0 when not a static tensor). */
function tensorBytes(t: unknown, eb: number): number {
  return t instanceof RankedTensorType && t.shape.every((d) => d >= 0) ? t.shape.reduce((a, b) => a * b, 1) * eb : 0;
}

/**
 * The steps of one scheduled compute's body, as spatial-to-pim lowers it: graph inputs and
 * constant tensors are loaded from host memory at their first use (a slice of one: a load per
 * contiguous run), zero constants are filled, the other ops priced by {@link priceBodyOp}, and
 * results that are graph outputs stored to host memory (a batch's publications: per run).
 */
function templateOf(op: Operation, cost: CostModel): Item[] {
  const eb = cost.programElementBytes;
  const entry = op.regions[0]!.firstBlock!;
  const batch = ScheduledComputeBatchOp.isInstance(op);
  const view = batch ? ScheduledComputeBatchOp.get(op) : ScheduledComputeOp.get(op);
  const args = entry.arguments;
  let k = batch ? 1 : 0;
  k += (view.weights as readonly Value[]).length;
  /** Values read from host memory, not yet loaded. */
  const host = new Set<Value>();
  for (const input of view.inputs as readonly Value[]) {
    const arg = args[k++]!;
    if (input instanceof BlockArgument || (input.type instanceof RankedTensorType && input.definingOp?.hasTrait(Traits.ConstantLike))) host.add(arg);
  }
  const outputArgs = args.slice(k);
  const returned = (i: number): boolean => op.getResult(i).users.some((u) => ReturnOp.isInstance(u) || (!ScheduledComputeOp.isInstance(u) && !ScheduledComputeBatchOp.isInstance(u)));
  const items: Item[] = [];
  let ns = 0;
  const flush = (): void => {
    if (ns > 0) items.push({ kind: COMPUTE, ns });
    ns = 0;
  };
  const load = (bytes: number, runs = 1): void => {
    if (bytes <= 0 || runs <= 0) return;
    flush();
    items.push({ kind: HOST_LOAD, runs, bytes });
  };
  const store = (bytes: number, runs = 1): void => {
    if (bytes <= 0 || runs <= 0) return;
    flush();
    items.push({ kind: HOST_STORE, runs, bytes });
  };
  const visit = (o: Operation): void => {
    if (o.definition && COMMUNICATION_OPS.has(o.definition)) {
      flush();
      items.push({ kind: COMMUNICATION, op: o });
      return;
    }
    if (o.hasTrait(Traits.ConstantLike) && o.numResults === 1 && o.getResult(0).type instanceof RankedTensorType) {
      if (isZeroSplatConstant(o)) ns += cost.localFillNs(tensorBytes(o.getResult(0).type, eb));
      else host.add(o.getResult(0));
      return;
    }
    if (ExtractSliceOp.isInstance(o) && host.has(o.getOperand(0))) {
      // A slice of a host input: read straight from host memory, one load per contiguous run.
      const src = o.getOperand(0).type;
      const lists = readSliceLists(o);
      if (src instanceof RankedTensorType && lists.sizes.every((d) => d >= 0)) {
        const { runs, elements } = sliceRunsOf(src.shape, lists.sizes, lists.strides);
        load(elements * eb, runs);
      }
      return;
    }
    for (const v of o.operands) {
      if (!host.has(v)) continue;
      host.delete(v);
      load(tensorBytes(v.type, eb));
    }
    if (ParallelInsertSliceOp.isInstance(o)) {
      const dest = o.getOperand(1);
      const i = (outputArgs as readonly Value[]).indexOf(dest);
      if (i >= 0 && returned(i) && dest.type instanceof RankedTensorType) {
        // A publication of a graph output: stored to host memory per contiguous run.
        const lists = readSliceLists(o);
        const { runs, elements } = sliceRunsOf(dest.type.shape, lists.sizes, lists.strides);
        store(elements * eb, runs);
        return;
      }
    }
    const p = priceBodyOp(o, cost);
    if (p) ns += p.mvmNs + p.vectorNs + p.copyNs;
  };
  entry.walk(visit, WalkOrder.PreOrder);
  // A scalar compute's results that are graph outputs: stored when it yields.
  if (!batch) for (let i = 0; i < op.numResults; i++) if (returned(i)) store(tensorBytes(op.getResult(i).type, eb));
  flush();
  return items;
}

/**
 * Runs every program `rounds` times (each core starts its next round as soon as it finishes
 * one) and returns, per round, when the last core finished it; undefined on a deadlock.
 */
function simulate(programs: readonly Program[], cost: CostModel, rounds: number, marks?: Float64Array): number[] | undefined {
  const n = programs.length;
  const time = new Float64Array(n);
  const pc = new Int32Array(n);
  const round = new Int32Array(n);
  const roundEnd = new Array<number>(rounds).fill(0);
  // Per channel: the posted and not yet matched send or receive (a core waits in at most one).
  const pendingSend = new Map<number, { core: number; at: number }>();
  const pendingRecv = new Map<number, { core: number; at: number }>();
  // Per register: arrival times of the signals not yet consumed, and the core waiting on it.
  const signals = new Map<number, number[]>();
  const waiting = new Map<number, number>();
  let portFree = 0;
  // Ready cores ordered by their time (a binary heap of core indices).
  const heap: number[] = [];
  const less = (x: number, y: number): boolean => time[x]! < time[y]! || (time[x] === time[y] && x < y);
  const pushHeap = (i: number): void => {
    heap.push(i);
    let k = heap.length - 1;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!less(heap[k]!, heap[parent]!)) break;
      [heap[k], heap[parent]] = [heap[parent]!, heap[k]!];
      k = parent;
    }
  };
  const popHeap = (): number => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
        if (m === k) break;
        [heap[k], heap[m]] = [heap[m]!, heap[k]!];
        k = m;
      }
    }
    return top;
  };
  let done = 0;
  /** Moves core `i` past its current step to `at`; a finished program starts its next round. */
  const advance = (i: number, at: number): void => {
    time[i] = at;
    pc[i]!++;
    if (pc[i]! >= programs[i]!.kind.length) {
      roundEnd[round[i]!] = Math.max(roundEnd[round[i]!]!, at);
      pc[i] = 0;
      round[i]!++;
      if (round[i]! >= rounds) {
        done++;
        return;
      }
    }
    pushHeap(i);
  };
  for (let i = 0; i < n; i++) {
    if (programs[i]!.kind.length === 0) {
      done++;
      continue;
    }
    pushHeap(i);
  }
  // A `sync` occupies its core one cycle: the cost model's sync to the core itself.
  const period = (core: number): number => cost.syncNs(core, core);
  while (heap.length > 0) {
    const i = popHeap();
    const p = programs[i]!;
    const k = pc[i]!;
    const t = time[i]!;
    const kind = p.kind[k]!;
    if (kind === COMPUTE) advance(i, t + p.a[k]!);
    else if (kind === TASK_START || kind === TASK_END) {
      if (marks && round[i] === 0) marks[2 * p.b[k]! + (kind === TASK_END ? 1 : 0)] = t;
      advance(i, t);
    } else if (kind === HOST_LOAD || kind === HOST_STORE) {
      const start = Math.max(t, portFree);
      portFree = start + p.b[k]!;
      advance(i, start + p.a[k]!);
    } else if (kind === SEND || kind === RECV) {
      const ch = p.c[k]!;
      const bytes = p.a[k]!;
      const mine = { core: i, at: t };
      const other = kind === SEND ? pendingRecv.get(ch) : pendingSend.get(ch);
      if (!other) {
        (kind === SEND ? pendingSend : pendingRecv).set(ch, mine);
        continue;
      }
      (kind === SEND ? pendingRecv : pendingSend).delete(ch);
      const s = kind === SEND ? mine : other;
      const r = kind === SEND ? other : mine;
      const a = programs[s.core]!.core;
      const b = programs[r.core]!.core;
      // The receiver-ready message leaves when both are posted (the sender-ready one has
      // arrived); the sender reads its data when it returns, then the data flits travel.
      const link = cost.transferNs(1, a, b);
      const sent = Math.max(s.at + link, r.at) + cost.sendNs(bytes, a, b) - link;
      const received = sent + cost.deliverNs(bytes, a, b);
      if (s.core === i) {
        advance(i, sent);
        advance(r.core, received);
      } else {
        advance(i, received);
        advance(s.core, sent);
      }
    } else if (kind === SIGNAL) {
      const target = p.a[k]!;
      const reg = p.b[k]!;
      let q = signals.get(reg);
      if (!q) signals.set(reg, (q = []));
      q.push(t + cost.syncNs(p.core, target));
      advance(i, t + period(p.core));
      const w = waiting.get(reg);
      if (w !== undefined && tryWait(w)) waiting.delete(reg);
    } else if (kind === WAIT) {
      if (!tryWait(i)) waiting.set(p.b[k]!, i);
    }
  }
  return done === n ? roundEnd : undefined;

  /** Core `i` at a WAIT: completes it when the awaited signals have arrived. */
  function tryWait(i: number): boolean {
    const p = programs[i]!;
    const k = pc[i]!;
    const q = signals.get(p.b[k]!) ?? [];
    const count = p.a[k]!;
    if (q.length < count) return false;
    let at = time[i]!;
    for (const x of q.splice(0, count)) at = Math.max(at, x);
    advance(i, at);
    return true;
  }
}
