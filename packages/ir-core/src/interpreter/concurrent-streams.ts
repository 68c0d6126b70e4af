/**
 * The concurrent-streams executor of the interpreter framework: what a multi-core dialect needs
 * to run several instruction streams of one block as concurrent cores (Spatial's scheduled
 * computes, PIM's core streams), so every dialect interprets concurrency the same way.
 *
 * - {@link runStreamsRoundRobin}: round-robin execution, each stream runs until it blocks or
 *   finishes; a round without progress is confirmed by a second one, then reported as a stall;
 * - {@link FifoChannels}: one first-in first-out queue per channel key (a core pair, or a
 *   channel id with its cores), so sends and receives match in program order;
 * - {@link EventRegisters}: per-core event registers with `sync` (increment the target core's
 *   register) and equal-reset `wait` (release when the register equals the awaited count, then
 *   reset it to zero; a register beyond the count is an overshoot);
 * - {@link LaneWriteLog}: the byte ranges lanes of one batch wrote into shared buffers, so two
 *   lanes writing the same bytes are reported;
 * - {@link deadlockFailure}: the deadlock report, in the manner of pim-sim's: every blocked
 *   stream, its position (the op, its index in its block, the enclosing op) and what it waits
 *   for, in the message and as one note per stream at the blocked op.
 */
import { Diagnostic } from '../diagnostics/diagnostic';
import type { Operation } from '../ir/operation';
import { ExecutionFailure } from './interpreter';
import { StreamMessages as M } from './stream-messages';

/** Where a blocked stream stopped and what it waits for. */
export interface StreamBlock {
  /** The op the stream cannot execute yet. */
  readonly op: Operation;
  /** What it waits for (`waits for data from core 1`). */
  readonly waitsFor: string;
}

/** One stream run by {@link runStreamsRoundRobin}. */
export interface ConcurrentStream {
  /** Name in reports (`core 3`, `core 3 (lane 1)`). */
  readonly label: string;
  /** True once the stream finished (it is not advanced again). */
  readonly done: boolean;
  /** Where the stream is blocked, when it is. */
  readonly blocked: StreamBlock | null | undefined;
  /** Runs the stream until it blocks or finishes; returns whether it made progress. */
  advance(): boolean | ExecutionFailure;
}

/**
 * Runs `streams` round-robin (in array order, each until it blocks or finishes) until all are
 * done. When a round and the confirming round after it make no progress, returns `onStall` of
 * the unfinished streams (a deadlock, or a dialect-specific diagnosis such as a receive no
 * remaining send can match). Returns undefined on success, or the first failure.
 */
export function runStreamsRoundRobin<S extends ConcurrentStream>(
  streams: readonly S[],
  onStall: (unfinished: readonly S[]) => ExecutionFailure,
): ExecutionFailure | undefined {
  let idleRounds = 0;
  for (;;) {
    let pending = false;
    let progressed = false;
    for (let i = 0; i < streams.length; i++) {
      const s = streams[i]!;
      if (s.done) continue;
      pending = true;
      const r = s.advance();
      if (r instanceof ExecutionFailure) return r;
      if (r || s.done) progressed = true;
    }
    if (!pending) return undefined;
    if (progressed) idleRounds = 0;
    else if (++idleRounds === 2) return onStall(streams.filter((s) => !s.done));
  }
}

/** The 1-based index of `op` in its block and the name of the op enclosing it. */
function positionOf(op: Operation): string {
  let index = 1;
  for (let o = op.prev; o; o = o.prev) index++;
  const parent = op.getParentOp();
  return M.position(index, parent ? parent.name : undefined);
}

/**
 * The deadlock report: a failure at the first blocked stream's op whose message is
 * `header: <stream>; <stream>; ...`, each stream as `core 0 at op 2 of 'pim.core' ('pim.receive'):
 * waits for data from core 1`, and one note per stream (`core 0 blocked: <waits for>`) at its
 * blocked op. `fallback` describes a stream without a recorded block.
 */
export function deadlockFailure(
  header: string,
  blocked: readonly Pick<ConcurrentStream, 'label' | 'blocked'>[],
  fallback: (stream: Pick<ConcurrentStream, 'label' | 'blocked'>) => StreamBlock,
): ExecutionFailure {
  const entries: string[] = [];
  const blocks: StreamBlock[] = [];
  for (const s of blocked) {
    const b = s.blocked ?? fallback(s);
    blocks.push(b);
    entries.push(M.blockedStream(s.label, positionOf(b.op), b.op.name, b.waitsFor));
  }
  const first = blocks[0]!.op;
  const d = new Diagnostic('error', first.location, M.deadlock(header, entries));
  for (let i = 0; i < blocked.length; i++) d.attachNote(M.blockedNote(blocked[i]!.label, blocks[i]!.waitsFor), blocks[i]!.op.location);
  return new ExecutionFailure(d, first);
}

/** One first-in first-out queue per channel key; items are received in the order they were sent. */
export class FifoChannels<T> {
  private readonly queues = new Map<string, { items: T[]; head: number }>();

  /** Appends `item` to the queue of `key`. */
  send(key: string, item: T): void {
    let q = this.queues.get(key);
    if (!q) this.queues.set(key, (q = { items: [], head: 0 }));
    q.items.push(item);
  }

  /** The oldest item of `key` not yet received. */
  peek(key: string): T | undefined {
    const q = this.queues.get(key);
    return q && q.head < q.items.length ? q.items[q.head] : undefined;
  }

  /** Removes and returns the oldest item of `key`. */
  receive(key: string): T | undefined {
    const q = this.queues.get(key);
    if (!q || q.head >= q.items.length) return undefined;
    const item = q.items[q.head]!;
    if (++q.head === q.items.length) {
      q.items.length = 0;
      q.head = 0;
    }
    return item;
  }

  /** The first channel (in order of first use) with an item never received, or undefined. */
  firstPending(): { readonly key: string; readonly item: T } | undefined {
    for (const [key, q] of this.queues) if (q.head < q.items.length) return { key, item: q.items[q.head]! };
    return undefined;
  }
}

/** What an equal-reset wait found: released (and reset), still short, or beyond the count. */
export type WaitOutcome = 'released' | 'pending' | 'overshoot';

interface EventRegister {
  value: number;
  readonly signals: Operation[];
}

/**
 * Event registers of every core (all start at zero). `signal` increments one; `wait` releases
 * when it equals the awaited count and resets it. The ops that signalled since the last reset
 * are kept for overshoot reports.
 */
export class EventRegisters {
  private readonly cores = new Map<number, Map<number, EventRegister>>();

  private register(core: number, event: number): EventRegister {
    let c = this.cores.get(core);
    if (!c) this.cores.set(core, (c = new Map()));
    let r = c.get(event);
    if (!r) c.set(event, (r = { value: 0, signals: [] }));
    return r;
  }

  /** The value of register `event` of `core`. */
  value(core: number, event: number): number {
    return this.cores.get(core)?.get(event)?.value ?? 0;
  }

  /** Increments register `event` of `core` (`from` signalled it). */
  signal(core: number, event: number, from: Operation): void {
    const r = this.register(core, event);
    r.value++;
    r.signals.push(from);
  }

  /** The equal-reset wait for `count` on register `event` of `core`. */
  wait(core: number, event: number, count: number): WaitOutcome {
    const r = this.register(core, event);
    if (r.value === count) {
      r.value = 0;
      r.signals.length = 0;
      return 'released';
    }
    return r.value > count ? 'overshoot' : 'pending';
  }

  /** The ops that signalled register `event` of `core` since it was last reset. */
  signalsOf(core: number, event: number): readonly Operation[] {
    return this.cores.get(core)?.get(event)?.signals ?? [];
  }
}

/** A byte range one lane wrote into a buffer shared by the lanes of a batch. */
export interface LaneWrite {
  /** The lane. */
  readonly lane: number;
  /** The op that wrote. */
  readonly op: Operation;
  /** The storage written. */
  readonly buffer: ArrayBufferLike;
  /** First byte written. */
  readonly start: number;
  /** One past the last byte written. */
  readonly end: number;
}

/** The writes of the lanes of each batch (keyed by the batch op) into shared buffers. */
export class LaneWriteLog {
  private readonly writes = new Map<Operation, LaneWrite[]>();

  /** Records `write` of a lane of `batch`; returns an earlier write of another lane it overlaps, if any. */
  record(batch: Operation, write: LaneWrite): LaneWrite | undefined {
    let list = this.writes.get(batch);
    if (!list) this.writes.set(batch, (list = []));
    for (const o of list) {
      if (o.lane !== write.lane && o.buffer === write.buffer && o.start < write.end && write.start < o.end) return o;
    }
    list.push(write);
    return undefined;
  }
}
