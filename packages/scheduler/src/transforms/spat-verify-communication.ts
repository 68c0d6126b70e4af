/**
 * `spat-verify-communication`: checks the communication contracts of scheduled Spatial IR,
 * independently of the scheduler that produced it:
 *
 * - placement: every scheduled compute has a core (`coreId`, or `coreIds` with one distinct id
 *   per lane) inside the target, and endpoint operands name the core the op runs on;
 * - pairing: per (channel, source, target), sends and receives match in program order with
 *   equal byte counts; every host load reads a slot its writer stored with the same size;
 * - synchronization: per event register, the signals equal the awaited counts, no wait can see
 *   more signals than it awaits (overshoot), READY (`host_wait_load`) and FREE (`spat.wait`)
 *   roles never share a register, register ids are inside the target;
 * - deadlock freedom: the cross-core happens-before graph (core program order, SSA forwarding
 *   between scheduled computes, send/receive rendezvous, signal-before-wait) is acyclic.
 *
 * Each problem is one diagnostic at the op involved, with notes at the other ops.
 */
import { Diagnostic, Pass, type Operation, type Value } from '@raptor-pim/ir-core';
import {
  ChannelReceiveOp,
  ChannelSendOp,
  HostStoreSyncOp,
  HostWaitLoadOp,
  ScheduledComputeBatchOp,
  ScheduledComputeOp,
  SyncOp,
  WaitOp,
} from '@raptor-pim/spatial-dialect';
import { EVENT_REGISTER_COUNT, type Target } from '@raptor-pim/pim-target';
import { evaluateIndex } from '../analysis/fragment-needs';
import { byteSizeOfType } from '../analysis/workload';
import { LAYER_BARRIER_ATTR } from './layer-barriers';
import { SchedulerMessages as M } from '../diagnostics';
import { targetOf } from '../target';
import { functionsOf } from '../analysis/functions';

/** What {@link verifyCommunication} found. */
export interface CommunicationCheck {
  /** The problems (errors, with notes). */
  readonly diagnostics: Diagnostic[];
  /** Channel transfers matched. */
  readonly transfers: number;
  /** Event registers checked. */
  readonly registers: number;
  /** The ops of the first happens-before cycle found (a deadlock), in cycle order. */
  readonly deadlock?: readonly Operation[];
}

type EventKind = 'start' | 'end' | 'send' | 'recv' | 'signal' | 'wait' | 'store' | 'load';

interface Event {
  readonly id: number;
  readonly kind: EventKind;
  readonly op: Operation;
  readonly core: number;
  /** Channel key, register key or host-slot key. */
  readonly key: string;
  readonly bytes: number;
  readonly count: number;
  /** Host stores and loads: the writer core and the byte offset in host memory. */
  readonly slot?: { readonly writer: number; readonly offset: number };
  /** A signal or wait of a layer barrier's part (paired barrier by barrier, not by register counts). */
  readonly barrier?: true;
}

interface Task {
  readonly op: Operation;
  readonly lane: number | undefined;
  readonly core: number;
  start: number;
  end: number;
}

/** Checks the scheduled functions of `module` on `target` (see the file comment). */
export function verifyCommunication(module: Operation, target: Target): CommunicationCheck {
  const diagnostics: Diagnostic[] = [];
  const cores = target.config.chip_config.core_cnt;
  const error = (op: Operation, message: string): Diagnostic => {
    const d = new Diagnostic('error', op.location, message);
    diagnostics.push(d);
    return d;
  };
  let transfers = 0;
  let registers = 0;
  let deadlock: Operation[] | undefined;
  for (const func of functionsOf(module)) {
    const r = verifyFunction(func);
    transfers += r.transfers;
    registers += r.registers;
  }
  return deadlock ? { diagnostics, transfers, registers, deadlock } : { diagnostics, transfers, registers };

  function verifyFunction(func: Operation): { transfers: number; registers: number } {
    const body = func.regions[0]?.firstBlock;
    if (!body) return { transfers: 0, registers: 0 };
    // ---------------------------------------------------------------- tasks and placement
    const tasks: Task[] = [];
    const tasksOf = new Map<Operation, Task[]>();
    for (const op of body.operations) {
      const scalar = ScheduledComputeOp.match(op);
      const batch = ScheduledComputeBatchOp.match(op);
      if (!scalar && !batch) continue;
      const list: Task[] = [];
      if (scalar) {
        const id = scalar.coreId;
        if (!id) {
          error(op, M.placementMissing(op.name));
          continue;
        }
        const core = Number(id.value);
        if (core < 0 || core >= cores) error(op, M.placementOutOfRange(op.name, core, cores));
        list.push({ op, lane: undefined, core, start: -1, end: -1 });
      } else {
        const lanes = Number(batch!.laneCount.value);
        const ids = batch!.coreIds?.values.map((v) => Number(v));
        if (!ids || ids.length !== lanes) {
          error(op, M.placementMissing(op.name));
          continue;
        }
        const seen = new Set<number>();
        ids.forEach((core, lane) => {
          if (core < 0 || core >= cores) error(op, M.placementOutOfRange(op.name, core, cores));
          if (seen.has(core)) error(op, M.placementDuplicate(op.name, core));
          seen.add(core);
          list.push({ op, lane, core, start: -1, end: -1 });
        });
      }
      tasksOf.set(op, list);
      for (const t of list) tasks.push(t);
    }
    if (diagnostics.length) return { transfers: 0, registers: 0 };

    // ---------------------------------------------------------------- events per core stream
    const events: Event[] = [];
    const succ: number[][] = [];
    /** The signals and waits of every layer-barrier part, per part (in program order). */
    const barrierEvents = new Map<Task, Event[]>();
    let barrierTask: Task | undefined;
    const addEvent = (kind: EventKind, op: Operation, core: number, key = '', bytes = 0, count = 0, slot?: { writer: number; offset: number }): number => {
      const id = events.length;
      const barrier = barrierTask !== undefined && (kind === 'signal' || kind === 'wait');
      const e: Event = slot ? { id, kind, op, core, key, bytes, count, slot } : barrier ? { id, kind, op, core, key, bytes, count, barrier: true } : { id, kind, op, core, key, bytes, count };
      events.push(e);
      if (barrier) barrierEvents.get(barrierTask!)!.push(e);
      succ.push([]);
      return id;
    };
    const edge = (a: number, b: number): void => {
      succ[a]!.push(b);
    };
    const lastOnCore = new Map<number, number>();
    const chain = (core: number, id: number): void => {
      const prev = lastOnCore.get(core);
      if (prev !== undefined) edge(prev, id);
      lastOnCore.set(core, id);
    };
    let ok = true;
    for (const t of tasks) {
      barrierTask = t.lane === undefined && t.op.getAttr(LAYER_BARRIER_ATTR) !== undefined ? t : undefined;
      if (barrierTask) barrierEvents.set(t, []);
      t.start = addEvent('start', t.op, t.core);
      chain(t.core, t.start);
      const laneArg: Value | undefined = t.lane !== undefined ? t.op.regions[0]!.firstBlock!.arguments[0] : undefined;
      const ix = (op: Operation, i: number, what: string): number | undefined => {
        const v = evaluateIndex(op.getOperand(i), laneArg, t.lane ?? 0);
        if (v === undefined) {
          error(op, M.notStatic(op.name, what));
          ok = false;
        }
        return v;
      };
      const checkRegister = (op: Operation, reg: number): void => {
        if (reg < 0 || reg >= EVENT_REGISTER_COUNT) {
          error(op, M.registerOutOfRange(op.name, reg, EVENT_REGISTER_COUNT));
          ok = false;
        }
      };
      const checkSide = (op: Operation, side: string, declared: number): void => {
        if (declared !== t.core) {
          error(op, M.endpointMismatch(op.name, side, declared, t.core));
          ok = false;
        }
      };
      forEachNestedOp(t.op, (op: Operation) => {
        if (ChannelSendOp.isInstance(op)) {
          const [c, s, d] = [ix(op, 1, 'channel id'), ix(op, 2, 'source core'), ix(op, 3, 'target core')];
          if (c === undefined || s === undefined || d === undefined) return;
          checkSide(op, 'source', s);
          chain(t.core, addEvent('send', op, t.core, channelKey(c, s, d), byteSizeOfType(op.getOperand(0).type)));
        } else if (ChannelReceiveOp.isInstance(op)) {
          const [c, s, d] = [ix(op, 0, 'channel id'), ix(op, 1, 'source core'), ix(op, 2, 'target core')];
          if (c === undefined || s === undefined || d === undefined) return;
          checkSide(op, 'target', d);
          chain(t.core, addEvent('recv', op, t.core, channelKey(c, s, d), byteSizeOfType(op.getResult(0).type)));
        } else if (SyncOp.isInstance(op)) {
          const [d, reg] = [ix(op, 0, 'target core'), ix(op, 1, 'event register')];
          if (d === undefined || reg === undefined) return;
          checkRegister(op, reg);
          chain(t.core, addEvent('signal', op, t.core, registerKey(d, reg)));
        } else if (WaitOp.isInstance(op)) {
          const [reg, n] = [ix(op, 0, 'event register'), ix(op, 1, 'wait value')];
          if (reg === undefined || n === undefined) return;
          checkRegister(op, reg);
          chain(t.core, addEvent('wait', op, t.core, registerKey(t.core, reg), 0, n));
        } else if (HostStoreSyncOp.isInstance(op)) {
          const [s, d, o, reg] = [ix(op, 1, 'source core'), ix(op, 2, 'target core'), ix(op, 3, 'host offset'), ix(op, 4, 'event register')];
          if (s === undefined || d === undefined || o === undefined || reg === undefined) return;
          checkSide(op, 'source', s);
          checkRegister(op, reg);
          chain(t.core, addEvent('store', op, t.core, slotKey(s, o), byteSizeOfType(op.getOperand(0).type), 0, { writer: s, offset: o }));
          chain(t.core, addEvent('signal', op, t.core, registerKey(d, reg)));
        } else if (HostWaitLoadOp.isInstance(op)) {
          const [s, d, o, reg, n] = [ix(op, 0, 'source core'), ix(op, 1, 'target core'), ix(op, 2, 'host offset'), ix(op, 3, 'event register'), ix(op, 4, 'wait value')];
          if (s === undefined || d === undefined || o === undefined || reg === undefined || n === undefined) return;
          checkSide(op, 'target', d);
          checkRegister(op, reg);
          chain(t.core, addEvent('wait', op, t.core, registerKey(d, reg), 0, n));
          chain(t.core, addEvent('load', op, t.core, slotKey(s, o), byteSizeOfType(op.getResult(0).type), 0, { writer: s, offset: o }));
        }
      });
      t.end = addEvent('end', t.op, t.core);
      chain(t.core, t.end);
    }
    barrierTask = undefined;
    if (!ok) return { transfers: 0, registers: 0 };
    checkLayerBarriers();
    if (diagnostics.length) return { transfers: 0, registers: 0 };
    // SSA forwarding between scheduled computes: a task starts after every lane of its producers.
    for (const t of tasks) {
      for (const v of t.op.operands) {
        const producers = v.definingOp ? tasksOf.get(v.definingOp) : undefined;
        if (producers) for (const p of producers) edge(p.end, t.start);
      }
    }

    // ---------------------------------------------------------------- channel pairing
    const parent = events.map((e) => e.id);
    const find = (x: number): number => {
      while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
      return x;
    };
    const sends = new Map<string, Event[]>();
    const recvs = new Map<string, Event[]>();
    for (const e of events) {
      const m = e.kind === 'send' ? sends : e.kind === 'recv' ? recvs : undefined;
      if (!m) continue;
      let list = m.get(e.key);
      if (!list) m.set(e.key, (list = []));
      list.push(e);
    }
    let matched = 0;
    for (const key of [...new Set([...sends.keys(), ...recvs.keys()])].sort()) {
      const s = sends.get(key) ?? [];
      const r = recvs.get(key) ?? [];
      const n = Math.min(s.length, r.length);
      for (let i = 0; i < n; i++) {
        if (s[i]!.bytes !== r[i]!.bytes) error(r[i]!.op, M.sizeMismatch(key, s[i]!.bytes, r[i]!.bytes)).attachNote('the send', s[i]!.op.location);
        parent[find(s[i]!.id)] = find(r[i]!.id);
        matched++;
      }
      for (let i = n; i < s.length; i++) error(s[i]!.op, M.missingReceive(key));
      for (let i = n; i < r.length; i++) error(r[i]!.op, M.missingSend(key));
    }
    // Host slots: every load reads bytes its writer stored (the whole slot, or a part of it).
    const storesOf = new Map<number, Event[]>();
    for (const e of events) if (e.kind === 'store') (storesOf.get(e.slot!.writer) ?? storesOf.set(e.slot!.writer, []).get(e.slot!.writer)!).push(e);
    for (const list of storesOf.values()) list.sort((a, b) => a.slot!.offset - b.slot!.offset || a.id - b.id);
    for (const e of events) {
      if (e.kind !== 'load') continue;
      const list = storesOf.get(e.slot!.writer) ?? [];
      // The stores starting at or before the load's offset: the last such offset's stores.
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid]!.slot!.offset <= e.slot!.offset) lo = mid + 1;
        else hi = mid;
      }
      const start = lo > 0 ? list[lo - 1]!.slot!.offset : undefined;
      const st: Event[] = [];
      for (let k = lo - 1; k >= 0 && list[k]!.slot!.offset === start; k--) st.unshift(list[k]!);
      if (!st.length || (start! < e.slot!.offset && start! + st[0]!.bytes <= e.slot!.offset)) error(e.op, M.missingSend(e.key));
      else if (start! + st[0]!.bytes < e.slot!.offset + e.bytes) error(e.op, M.sizeMismatch(e.key, st[0]!.bytes - (e.slot!.offset - start!), e.bytes)).attachNote('the store', st[0]!.op.location);
      else for (const x of st) edge(x.id, e.id);
    }

    // ---------------------------------------------------------------- event registers
    const signals = new Map<string, Event[]>();
    const waits = new Map<string, Event[]>();
    for (const e of events) {
      if (e.barrier) continue;
      if (e.kind === 'signal') (signals.get(e.key) ?? signals.set(e.key, []).get(e.key)!).push(e);
      if (e.kind === 'wait') (waits.get(e.key) ?? waits.set(e.key, []).get(e.key)!).push(e);
    }
    const regKeys = [...new Set([...signals.keys(), ...waits.keys()])].sort();
    const multi: string[] = [];
    for (const key of regKeys) {
      const ws = waits.get(key) ?? [];
      const ss = signals.get(key) ?? [];
      const [core, reg] = key.split(':').map(Number) as [number, number];
      const kinds = new Set(ws.map((w) => (HostWaitLoadOp.isInstance(w.op) ? 'ready' : 'free')));
      if (kinds.size > 1) error(ws[0]!.op, M.roleMixed(core, reg));
      const awaited = ws.reduce((a, w) => a + w.count, 0);
      if (ws.length && awaited > ss.length) error(ws[ws.length - 1]!.op, M.waitNoSignals(core, reg, awaited, ss.length));
      else if (ss.length > awaited && ws.length !== 1) error(ss[ss.length - 1]!.op, M.leftoverSignals(core, reg, ss.length - awaited));
      if (ws.length === 1) for (const s of ss) edge(s.id, ws[0]!.id);
      else if (ws.length > 1) multi.push(key);
    }
    // Several waits on one register: signals that may arrive before wait j (not ordered after
    // wait j-1's reset) count against it. The waits of one core run in program order, so what a
    // later wait reaches every earlier one reaches too: per core, one search labels every event
    // with the latest of the core's waits that reaches it (each event visited once per core).
    const groups = new Map<number, number[]>();
    for (const e of events) {
      const r = find(e.id);
      (groups.get(r) ?? groups.set(r, []).get(r)!).push(e.id);
    }
    function members(root: number): number[] {
      return groups.get(root) ?? [root];
    }
    const waitsOnCore = new Map<number, Event[]>();
    for (const key of multi) for (const w of waits.get(key)!) (waitsOnCore.get(w.core) ?? waitsOnCore.set(w.core, []).get(w.core)!).push(w);
    // The searches below run once per core over most of the events: the roots and the members of
    // every root as typed arrays (the pairing above is final; edges added below still go to `succ`).
    const rootOf = new Int32Array(events.length);
    for (let i = 0; i < events.length; i++) rootOf[i] = find(i);
    const memberStart = new Int32Array(events.length + 1);
    for (let i = 0; i < events.length; i++) memberStart[rootOf[i]! + 1]!++;
    for (let i = 0; i < events.length; i++) memberStart[i + 1]! += memberStart[i]!;
    const memberList = new Int32Array(events.length);
    const filled = memberStart.slice(0, events.length);
    for (let i = 0; i < events.length; i++) memberList[filled[rootOf[i]!]!++] = i;
    let stack = new Int32Array(1024);
    // The cores' keys come one core after another: one array holds the labels of the current core.
    const labels = new Int32Array(events.length);
    let labelledCore = -1;
    /** Per event root, the id of the latest wait on `core` (of a register awaited several times) that reaches it, or -1. */
    const latestWaitReaching = (core: number): Int32Array => {
      if (labelledCore === core) return labels;
      labels.fill(-1);
      for (const w of [...waitsOnCore.get(core)!].sort((a, b) => b.id - a.id)) {
        let top = 0;
        stack[top++] = rootOf[w.id]!;
        while (top > 0) {
          const x = stack[--top]!;
          if (labels[x] !== -1) continue;
          labels[x] = w.id;
          for (let k = memberStart[x]!, end = memberStart[x + 1]!; k < end; k++) {
            const next = succ[memberList[k]!]!;
            for (let i = 0; i < next.length; i++) {
              const r = rootOf[next[i]!]!;
              if (labels[r] !== -1) continue;
              if (top === stack.length) {
                const grown = new Int32Array(stack.length * 2);
                grown.set(stack);
                stack = grown;
              }
              stack[top++] = r;
            }
          }
        }
      }
      labelledCore = core;
      return labels;
    };
    for (const key of multi) {
      const ws = waits.get(key)!;
      const ss = signals.get(key) ?? [];
      const [core, reg] = key.split(':').map(Number) as [number, number];
      const labels = latestWaitReaching(core);
      // The round of a signal: how many of the waits it is ordered after. The waits of one core
      // are in program order (increasing ids), and a signal ordered after a wait is ordered after
      // every earlier one: the round is the number of waits whose id is at most the signal's label.
      const ids = ws.map((w) => w.id);
      const roundOf = ss.map((s) => {
        const label = labels[rootOf[s.id]!]!;
        let lo = 0;
        let hi = ids.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (ids[mid]! <= label) lo = mid + 1;
          else hi = mid;
        }
        return lo;
      });
      // The signals of each round, in signal order; a signal may arrive before wait j when its round is at most j.
      const byRound: Event[][] = ws.map(() => []);
      ss.forEach((s, k) => byRound[roundOf[k]!]?.push(s));
      let consumed = 0;
      let earlyCount = 0;
      for (let j = 0; j < ws.length; j++) {
        earlyCount += byRound[j]!.length;
        if (earlyCount - consumed > ws[j]!.count) {
          const d = error(ws[j]!.op, M.waitOvershoot(core, reg, ws[j]!.count, earlyCount - consumed));
          ss.forEach((s, k) => {
            if (roundOf[k]! <= j) d.attachNote('a signal that may arrive first', s.op.location);
          });
        }
        for (const s of byRound[j]!) edge(s.id, ws[j]!.id);
        consumed += ws[j]!.count;
      }
    }
    for (const key of regKeys) {
      const ws = waits.get(key) ?? [];
      const ss = signals.get(key) ?? [];
      if (ws.length === 1 && ss.length > ws[0]!.count) {
        const [core, reg] = key.split(':').map(Number) as [number, number];
        const d = error(ws[0]!.op, M.waitOvershoot(core, reg, ws[0]!.count, ss.length));
        for (const s of ss) d.attachNote('a signal that may arrive first', s.op.location);
      }
    }
    registers += regKeys.length;

    // ---------------------------------------------------------------- deadlock freedom
    const cycle = findCycle(events.length, (x) => members(x).flatMap((m) => succ[m]!.map(find)), find);
    if (cycle) {
      const ops = cycle.map((root) => events[members(root).find((m) => events[m]!.kind !== 'start' && events[m]!.kind !== 'end') ?? root]!);
      const describe = (e: Event): string => `core ${e.core} '${e.op.name}'`;
      const first = ops.find((e) => e.kind !== 'start' && e.kind !== 'end') ?? ops[0]!;
      const d = error(first.op, M.deadlock(ops.map(describe).join(' -> ')));
      deadlock ??= ops.map((e) => e.op);
      for (const e of ops) if (e !== first) d.attachNote(M.cycleNote(describe(e)), e.op.location);
    }
    return { transfers: matched, registers };

    /**
     * Layer barriers: the k-th part of every core with parts belongs to barrier k; one part is the
     * coordinator's (`wait A, m` then one `sync X, R` per other core X), the m others each
     * `sync coordinator, A` then `wait R, 1`. Every core has as many parts, and the barrier
     * registers serve nothing else. Then the coordinator's wait of barrier k consumes exactly
     * the k-th arrival of every other core (each arrives again only after its release, which
     * follows that wait), and each release wait the coordinator's k-th signal: those pairs become
     * happens-before edges.
     */
    function checkLayerBarriers(): void {
      if (!barrierEvents.size) return;
      const partsOf = new Map<number, Task[]>();
      for (const t of barrierEvents.keys()) (partsOf.get(t.core) ?? partsOf.set(t.core, []).get(t.core)!).push(t);
      const counts = new Set([...partsOf.values()].map((l) => l.length));
      if (counts.size > 1) {
        const most = Math.max(...counts);
        for (const [core, list] of partsOf) if (list.length < most) error(list[list.length - 1]!.op, M.barrierMalformed(core, list.length, `the core has ${list.length} barrier parts but another has ${most}`));
        return;
      }
      const reserved = new Set<string>();
      const barriers = [...counts][0]!;
      for (let k = 0; k < barriers; k++) {
        const parts = [...partsOf.values()].map((l) => l[k]!);
        const kinds = (t: Task): string => barrierEvents.get(t)!.map((e) => e.kind).join(',');
        const coordinators = parts.filter((t) => barrierEvents.get(t)![0]?.kind === 'wait' && barrierEvents.get(t)!.length > 1);
        if (coordinators.length !== 1) {
          error(parts[0]!.op, M.barrierMalformed(parts[0]!.core, k, `${coordinators.length} parts coordinate it (one waits for the arrivals and releases the others)`));
          return;
        }
        const coordinator = coordinators[0]!;
        const [arrivals, ...releases] = barrierEvents.get(coordinator)!;
        const others = parts.filter((t) => t !== coordinator);
        if (arrivals!.count !== others.length || releases.some((e) => e.kind !== 'signal') || releases.length !== others.length) {
          error(coordinator.op, M.barrierMalformed(coordinator.core, k, `the coordinator must wait for ${others.length} arrivals and then release the ${others.length} other cores`));
          return;
        }
        reserved.add(arrivals!.key);
        const releaseOf = new Map(releases.map((e) => [e.key, e]));
        for (const t of others) {
          const list = barrierEvents.get(t)!;
          const release = list[1] ? releaseOf.get(list[1].key) : undefined;
          if (kinds(t) !== 'signal,wait' || list[0]!.key !== arrivals!.key || list[1]!.count !== 1 || !release) {
            error(t.op, M.barrierMalformed(t.core, k, `a part must signal the coordinator's arrival register (core ${coordinator.core}) and then wait once for its release`));
            return;
          }
          releaseOf.delete(list[1]!.key);
          reserved.add(list[1]!.key);
          edge(list[0]!.id, arrivals!.id);
          edge(release.id, list[1]!.id);
        }
      }
      for (const e of events) {
        if (e.barrier || (e.kind !== 'signal' && e.kind !== 'wait') || !reserved.has(e.key)) continue;
        const [core, reg] = e.key.split(':').map(Number) as [number, number];
        error(e.op, M.barrierRegisterShared(core, reg));
      }
    }
  }
}


/** Calls `fn` on every op nested in `op`'s regions, in pre-order (program order), iteratively. */
function forEachNestedOp(op: Operation, fn: (op: Operation) => void): void {
  const stack: Operation[] = [];
  const pushRegions = (o: Operation): void => {
    for (let r = o.numRegions - 1; r >= 0; r--) {
      const blocks: Operation[] = [];
      for (let b = o.regions[r]!.firstBlock; b; b = b.next) if (b.firstOp) blocks.push(b.firstOp);
      for (let i = blocks.length - 1; i >= 0; i--) stack.push(blocks[i]!);
    }
  };
  pushRegions(op);
  while (stack.length) {
    for (let o: Operation | null = stack.pop()!; o; o = o.next) {
      fn(o);
      if (o.numRegions > 0) {
        // Visit the nested ops before the rest of this block: remember where to resume.
        if (o.next) stack.push(o.next);
        pushRegions(o);
        break;
      }
    }
  }
}

/** A cycle of graph roots, or undefined (iterative DFS in id order, deterministic). */
function findCycle(n: number, next: (x: number) => number[], find: (x: number) => number): number[] | undefined {
  const color = new Uint8Array(n);
  for (let s = 0; s < n; s++) {
    const root = find(s);
    if (color[root]) continue;
    const stack: { node: number; succ: number[]; i: number }[] = [{ node: root, succ: next(root), i: 0 }];
    color[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (top.i >= top.succ.length) {
        color[top.node] = 2;
        stack.pop();
        continue;
      }
      const y = top.succ[top.i++]!;
      if (y === top.node) continue;
      if (color[y] === 1) {
        const at = stack.findIndex((f) => f.node === y);
        return stack.slice(at).map((f) => f.node);
      }
      if (color[y] === 0) {
        color[y] = 1;
        stack.push({ node: y, succ: next(y), i: 0 });
      }
    }
  }
  return undefined;
}

function channelKey(c: number, s: number, d: number): string {
  return `channel ${c} from core ${s} to core ${d}`;
}

function registerKey(core: number, reg: number): string {
  return `${core}:${reg}`;
}

function slotKey(writer: number, offset: number): string {
  return `host slot at offset ${offset} written by core ${writer}`;
}

/**
 * An analysis of a module: the functions whose scheduled IR was checked by
 * {@link verifyCommunication} on `target` and found without a problem, in their current state.
 * `spat-schedule` records the functions its scheduler checked last (and preserves the analysis);
 * any later pass that changes the module drops it, so `spat-verify-communication` skips only
 * functions checked since their last change.
 */
export class CommunicationVerified {
  /** The target the functions were checked on. */
  target: Target | undefined;
  /** The functions checked clean. */
  readonly functions = new Set<Operation>();
  constructor(_module: Operation) {}
}

/** The `spat-verify-communication` pass. */
export class SpatVerifyCommunicationPass extends Pass {
  override readonly argument = 'spat-verify-communication';
  override readonly description = 'Checks placement, send/receive pairing, event-register counts and deadlock freedom of scheduled Spatial IR';
  override readonly opName = 'builtin.module';
  private readonly checked = this.statistic('functions-checked', 'functions checked');
  private readonly alreadyChecked = this.statistic('functions-checked-by-scheduler', 'functions spat-schedule checked in their final form (not checked again)');

  runOnOperation(module: Operation): void {
    const target = targetOf(this);
    const verified = this.getCachedAnalysis(CommunicationVerified);
    const funcs = functionsOf(module);
    if (verified && verified.target === target && funcs.every((f) => verified.functions.has(f))) {
      this.alreadyChecked.value += funcs.length;
      this.markAllAnalysesPreserved();
      return;
    }
    this.checked.value += funcs.length;
    const r = verifyCommunication(module, target);
    for (const d of r.diagnostics) module.context.diagnostics.emit(d);
    if (r.diagnostics.length) this.signalPassFailure();
    else this.markAllAnalysesPreserved();
  }
}
