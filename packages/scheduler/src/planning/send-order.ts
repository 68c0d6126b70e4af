/**
 * Where a window-granularity producer makes its channel sends, found by simulating the plan's
 * blocking transfers in one global order.
 *
 * By default a producer replica sends each fragment as soon as it is made, reader by reader in
 * the order each reader receives. With rendezvous sends that order can form a cycle: a producer
 * read by two computes with different look-ahead (a max pooling three rows ahead, a concatenation
 * of the same rows) blocks on the reader that is behind while the other waits for a row it has
 * not made. {@link planSendOrder} instead plays the plan's streams step by step, every core in
 * program order, and lets a producer keep computing while its made fragments wait for their
 * readers: each send is placed where the producer stood when its reader came to take it (before
 * one of the producer's own channel receives, or at the end of its body). The streams'
 * communication then follows one global order, which has no cycle.
 *
 * The model: a core runs, in node order, the send tasks of layer-granularity producers for each
 * consumer replica and its own replica bodies; a window-granularity body receives each round's
 * fragments (channels first, then host slots) and computes; a layer-granularity body receives
 * everything first. Host loads wait for the slot's round to be made and never block the writer.
 * Mirrors and batched replicas are not modelled: where the plan has them or the simulation
 * stalls, there is no schedule (the caller keeps the default order, and the checking pass stays
 * the judge of every order).
 */
import type { Workload } from '../analysis/workload';
import { lanesOfReplica, readsThroughHost, replicaOfLane, type SchedulePlan } from './schedule-plan';
import { readsByConsumerReplica, type FragmentRead, type ReplicaInputReads } from './transfers';

/** Where window-granularity producers send (`MaterializeOptions.sendSchedule`). */
export interface SendSchedule {
  /** Sends made just before a receive of the producer's own body (keyed by that receive). */
  readonly before: ReadonlyMap<FragmentRead, readonly FragmentRead[]>;
  /** Sends made at the end of a producer body (keyed `node:replica`), after its last round. */
  readonly atEnd: ReadonlyMap<string, readonly FragmentRead[]>;
  /** The order in which each body takes its channel receives within a round (ascending). */
  readonly receiveRank: ReadonlyMap<FragmentRead, number>;
  /**
   * Per core, the most bytes of made fragments a producer body holds at once for readers that
   * have not taken them yet (beyond what the local-memory model counts: a fragment is live there
   * only while its round runs).
   */
  readonly heldBytes: ReadonlyMap<number, number>;
}

/** One read of a body, in the order the body makes it. */
interface ReadEvent {
  readonly f: FragmentRead;
  readonly channel: boolean;
}

interface BodyItem {
  readonly kind: 'body';
  readonly node: number;
  readonly replica: number;
  /** Reads per round (layer granularity: all in round 0, before any compute). */
  readonly rounds: readonly (readonly ReadEvent[])[];
  /** Lanes computed per round (layer granularity: all after round 0's reads). */
  readonly lanes: readonly (readonly number[])[];
  readonly window: boolean;
}

interface SendTaskItem {
  readonly kind: 'sends';
  readonly sends: readonly FragmentRead[];
}

type Item = BodyItem | SendTaskItem;

/** Simulated steps allowed per event of the plan before giving up (a safety bound). */
const STEPS_PER_EVENT = 64;

/**
 * The send positions of `plan` (see the file comment), or undefined where its model does not
 * apply (mirrors, batched replicas, several replicas of a node on one core) or its streams stall.
 */
export function planSendOrder(workload: Workload, plan: SchedulePlan, reads: readonly ReplicaInputReads[]): SendSchedule | undefined {
  if (plan.placements.some((p) => p.mirrors?.length)) return undefined;
  const host = (producer: number): boolean => readsThroughHost(plan, producer);
  const readsOf = readsByConsumerReplica(reads);
  const bodyKey = (node: number, replica: number): string => `${node}:${replica}`;
  const producerBodyOf = (f: FragmentRead): string => bodyKey(f.producer, replicaOfLane(plan.placements[f.producer]!, workload.nodes[f.producer]!.lanes, f.slot));
  // Items per core, in program order.
  const items = new Map<number, Item[]>();
  const push = (core: number, item: Item): void => {
    let list = items.get(core);
    if (!list) items.set(core, (list = []));
    list.push(item);
  };
  let events = 0;
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    if (new Set(pl.cores).size !== pl.cores.length) return undefined;
    for (let j = 0; j < pl.replicas; j++) {
      const mine = readsOf.get(bodyKey(n.index, j)) ?? [];
      // Send tasks of layer-granularity producers for this replica, per producer core.
      const tasks = new Map<number, FragmentRead[]>();
      for (const r of mine) {
        for (const f of r.remote) {
          if (host(f.producer) || plan.placements[f.producer]!.granularity !== 'layer') continue;
          let list = tasks.get(f.fromCore);
          if (!list) tasks.set(f.fromCore, (list = []));
          list.push(f);
        }
      }
      for (const [core, sends] of [...tasks].sort((a, b) => a[0] - b[0])) push(core, { kind: 'sends', sends });
      const window = pl.granularity === 'window';
      const lanes = lanesOfReplica(pl, n.lanes, j);
      // The reads per round in the body's order (channels, then host loads; reads, then fragments),
      // bucketed in one pass; at layer granularity every read comes before the first round.
      const rounds: ReadEvent[][] = window ? lanes.map(() => []) : [[]];
      for (const pass of [false, true]) {
        for (const r of mine) {
          for (const f of r.remote) {
            if (host(f.producer) !== pass) continue;
            rounds[window ? f.round : 0]!.push({ f, channel: !pass });
          }
        }
      }
      events += rounds.reduce((a, r) => a + r.length, 0) + lanes.length;
      push(pl.cores[j]!, { kind: 'body', node: n.index, replica: j, rounds, lanes: window ? lanes.map((l) => [l]) : [lanes], window });
    }
  }
  // Simulation state.
  const cores = [...items.keys()].sort((a, b) => a - b);
  const at = new Map<number, { item: number; round: number; event: number }>(cores.map((c) => [c, { item: 0, round: 0, event: 0 }]));
  /** Fragments made and not yet taken, per producer body. */
  const pending = new Map<string, Set<FragmentRead>>();
  /** Slots made (`producer:slot:result`), for host loads. */
  const made = new Set<string>();
  const before = new Map<FragmentRead, FragmentRead[]>();
  const receiveRank = new Map<FragmentRead, number>();
  let rank = 0;
  /** The channel receives of the current round a body has not taken yet, per core. */
  const remaining = new Map<number, Set<ReadEvent>>();
  const atEnd = new Map<string, FragmentRead[]>();
  const current = (core: number): Item | undefined => items.get(core)![at.get(core)!.item];
  /** Sends taken from a producer core since its last channel receive: made just before its next one, or at the end of its body. */
  const waitingSends = new Map<number, FragmentRead[]>();
  const wait = (f: FragmentRead): void => {
    let list = waitingSends.get(f.fromCore);
    if (!list) waitingSends.set(f.fromCore, (list = []));
    list.push(f);
  };
  /** Attaches the sends waiting on `core` to entry `key` of `target` (emptying them). */
  function flushTo<K>(core: number, target: Map<K, FragmentRead[]>, key: K): void {
    const sends = waitingSends.get(core);
    if (!sends?.length) return;
    let into = target.get(key);
    if (!into) target.set(key, (into = []));
    for (const f of sends) into.push(f);
    waitingSends.set(core, []);
  }
  /** True when read `f` can complete now (and completes it). */
  const take = (f: FragmentRead, channel: boolean): boolean => {
    if (!channel) return made.has(`${f.producer}:${f.slot}:${f.resultIndex}`);
    const pp = plan.placements[f.producer]!;
    if (pp.granularity === 'layer') {
      // The producer core's send task must stand at this send.
      const item = current(f.fromCore);
      const state = at.get(f.fromCore)!;
      if (!item || item.kind !== 'sends' || item.sends[state.event] !== f) return false;
      state.event++;
      if (state.event >= item.sends.length) {
        state.item++;
        state.event = 0;
        state.round = 0;
      }
      return true;
    }
    const waiting = pending.get(producerBodyOf(f));
    if (!waiting?.has(f)) return false;
    waiting.delete(f);
    release(producerBodyOf(f), f);
    wait(f);
    return true;
  };
  // Fragments held by producer bodies: bytes per slot, sends still to make, and the total per core.
  const heldBytes = new Map<number, number>();
  const holding = new Map<string, { core: number; bytes: number; bySlot: Map<string, { bytes: number; left: number }> }>();
  const hold = (key: string, core: number, slot: string, bytes: number, sends: number): void => {
    let h = holding.get(key);
    if (!h) holding.set(key, (h = { core, bytes: 0, bySlot: new Map() }));
    h.bySlot.set(slot, { bytes, left: sends });
    h.bytes += bytes;
    heldBytes.set(core, Math.max(heldBytes.get(core) ?? 0, h.bytes));
  };
  const release = (key: string, f: FragmentRead): void => {
    const h = holding.get(key)!;
    const s = h.bySlot.get(`${f.slot}:${f.resultIndex}`)!;
    if (--s.left > 0) return;
    h.bytes -= s.bytes;
    h.bySlot.delete(`${f.slot}:${f.resultIndex}`);
  };
  const outgoing = new Map<string, Map<string, FragmentRead[]>>();
  for (const r of reads) {
    for (const f of r.remote) {
      if (host(f.producer) || plan.placements[f.producer]!.granularity !== 'window') continue;
      const key = producerBodyOf(f);
      let bySlot = outgoing.get(key);
      if (!bySlot) outgoing.set(key, (bySlot = new Map()));
      const slotKey = `${f.slot}:${f.resultIndex}`;
      let list = bySlot.get(slotKey);
      if (!list) bySlot.set(slotKey, (list = []));
      list.push(f);
    }
  }
  /** Runs core `core` as far as it can; true when it moved. */
  const step = (core: number): boolean => {
    let moved = false;
    for (;;) {
      const item = current(core);
      if (!item) return moved;
      const state = at.get(core)!;
      if (item.kind === 'sends') return moved; // its sends complete from the readers' side
      const key = bodyKey(item.node, item.replica);
      if (state.round < item.rounds.length) {
        const list = item.rounds[state.round]!;
        if (state.event < list.length) {
          // Within a round any receive may come first: take every one that is ready (channels
          // before host loads, as the body makes them), then wait for the rest.
          const left = remaining.get(core) ?? new Set(list.filter((e) => e.channel));
          remaining.set(core, left);
          let took = false;
          for (const e of left) {
            if (!take(e.f, true)) continue;
            // Sends taken from this core so far are made before this receive.
            flushTo(core, before, e.f);
            left.delete(e);
            receiveRank.set(e.f, rank++);
            took = true;
          }
          if (left.size > 0) {
            if (took) moved = true;
            return moved;
          }
          for (const e of list) if (!e.channel && !take(e.f, false)) return moved || took;
          remaining.delete(core);
          state.event = list.length;
          moved = true;
          continue;
        }
        // The round's compute: its lanes' fragments are made.
        const n = workload.nodes[item.node]!;
        for (const lane of item.lanes[state.round]!) {
          n.resultBytes.forEach((_, k) => {
            made.add(`${item.node}:${lane}:${k}`);
            const out = outgoing.get(key)?.get(`${lane}:${k}`);
            if (!out || !item.window) return;
            let set = pending.get(key);
            if (!set) pending.set(key, (set = new Set()));
            for (const f of out) set.add(f);
            hold(key, core, `${lane}:${k}`, n.resultBytes[k]! / Math.max(1, n.lanes), out.length);
          });
        }
        state.round++;
        state.event = 0;
        moved = true;
        continue;
      }
      // End of the body: every made fragment must be taken before the core moves on.
      if (pending.get(key)?.size) return moved;
      flushTo(core, atEnd, key);
      state.item++;
      state.round = 0;
      state.event = 0;
      moved = true;
    }
  };
  const budget = STEPS_PER_EVENT * Math.max(1, events);
  for (let sweep = 0; sweep < budget; sweep++) {
    let moved = false;
    for (const c of cores) if (step(c)) moved = true;
    if (!moved) break;
  }
  if (cores.some((c) => current(c) !== undefined)) return undefined;
  return { before, atEnd, receiveRank, heldBytes };
}
