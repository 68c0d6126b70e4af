/**
 * The multi-core run of the scheduling interpreter, on ir-core's concurrent-streams executor
 * (`runStreamsRoundRobin`, `FifoChannels`, `EventRegisters`, `deadlockFailure`). A run takes a group of consecutive
 * sibling ops (scheduled computes and batches, plus side-effect-free ops between them) and
 * executes them as concurrent core streams:
 *
 * - every `spat.scheduled_compute` is one task on core `coreId`; every lane of a
 *   `spat.scheduled_compute_batch` is one task on core `coreIds[lane]` (unplaced work gets a
 *   virtual core of its own); tasks of one core run in program order;
 * - a task starts when the values it binds are available (local SSA forwarding: a result of
 *   another scheduled op is available once that op finished on all its lanes);
 * - cores run round-robin until they block: `spat.channel_receive` blocks until a matching
 *   `spat.channel_send` (same channel, source and target: one FIFO queue per key) was
 *   executed; sends are buffered; `spat.wait` / `spat.host_wait_load` block until the event
 *   register equals the awaited count (then reset it); `spat.sync` / `spat.host_store_sync`
 *   increment the register of the target core;
 * - contract violations stop the run with a diagnostic naming the ops: mismatched
 *   send/receive sizes, a receive no remaining send can match, all cores blocked (every
 *   blocked core with its position and what it waits for, and a note at each blocked op), a
 *   wait that overshoots, a host read of bytes never stored, a send
 *   never received, overlapping writes of two lanes into a shared output.
 */
import {
  Branch,
  Diagnostic,
  EventRegisters,
  ExecutionFailure,
  FifoChannels,
  ShapedValue,
  Traits,
  Yield,
  deadlockFailure,
  isMemoryEffectFree,
  runStreamsRoundRobin,
  type Block,
  type ConcurrentStream,
  type StreamBlock,
  type ExecutionContext,
  type Interpreter,
  type Operation,
  type Region,
  type RuntimeValue,
  type SymbolRefAttr,
  type Value,
} from '@raptor-pim/ir-core';
import { applyPublications, publicationStack, type ParallelPublication } from '@raptor-pim/upstream-dialects';
import { SchedulingMessages as M } from './scheduling-messages';
import { bytesOf, byteSizeOf, valueFromBytes, zeroValueOf } from './scheduling-payload';

/** Names of the ops that run as scheduled tasks. */
export const SCHEDULED_OPS: ReadonlySet<string> = new Set(['spat.scheduled_compute', 'spat.scheduled_compute_batch']);
/** Names of the ops the multi-core run executes itself (they may block or touch shared state). */
export const COMMUNICATION_OPS: ReadonlySet<string> = new Set([
  'spat.channel_send',
  'spat.channel_receive',
  'spat.host_store_sync',
  'spat.host_wait_load',
  'spat.sync',
  'spat.wait',
]);

const STATE_KEY = Symbol('spat scheduling interpreter state');
const MAX_STEPS = 50_000_000;

/** Per-interpreter state: results of group members computed ahead, the task being run. */
interface SchedulingState {
  readonly results: Map<Operation, readonly RuntimeValue[]>;
  current: Task | null;
  run: ScheduledRun | null;
}

/** The scheduling state kept in the interpreter's per-run state. */
export function schedulingState(interpreter: Interpreter): SchedulingState {
  let s = interpreter.state.get(STATE_KEY) as SchedulingState | undefined;
  if (!s) {
    s = { results: new Map(), current: null, run: null };
    interpreter.state.set(STATE_KEY, s);
  }
  return s;
}

type StepOutcome = { kind: 'done'; results: readonly RuntimeValue[] } | Blocked | ExecutionFailure;

interface QueuedSend {
  readonly op: Operation;
  readonly bytes: Uint8Array;
}

/** One core stream element: a scheduled compute, one lane of a batch, or a host-side op. */
class Task implements ExecutionContext {
  readonly env = new Map<Value, RuntimeValue>();
  block: Block | null = null;
  next: Operation | null = null;
  started = false;
  done = false;
  blocked: StreamBlock | null = null;
  yielded: readonly RuntimeValue[] = [];
  readonly publications: ParallelPublication[] = [];

  constructor(
    readonly run: ScheduledRun,
    readonly op: Operation,
    readonly lane: number | undefined,
    readonly coreId: number | undefined,
    readonly coreLabel: string,
  ) {}

  get interpreter(): Interpreter {
    return this.run.interpreter;
  }
  fail(op: Operation, message: string): ExecutionFailure {
    return this.run.interpreter.fail(op, message);
  }
  lookup(value: Value): RuntimeValue | undefined {
    return this.env.get(value) ?? this.run.produced.get(value) ?? this.run.interpreter.lookup(value);
  }
  call(from: Operation, callee: string | SymbolRefAttr, args: readonly RuntimeValue[]): readonly RuntimeValue[] | ExecutionFailure {
    return this.run.interpreter.call(from, callee, args);
  }

  /** Runs a nested region to completion (communication inside may not block). */
  runRegion(region: Region, args: readonly RuntimeValue[]): readonly RuntimeValue[] | ExecutionFailure {
    let block = region.firstBlock;
    if (!block) return [];
    let blockArgs = args;
    for (;;) {
      const bargs = block.arguments;
      if (bargs.length !== blockArgs.length) {
        const owner = region.parentOp ?? block.firstOp!;
        return this.fail(owner, `'${owner.name}' block expects ${bargs.length} arguments, got ${blockArgs.length}`);
      }
      for (let i = 0; i < bargs.length; i++) this.env.set(bargs[i]!, blockArgs[i]!);
      let next: Branch | null = null;
      for (let op = block.firstOp; op; op = op.next) {
        const operands = this.operandsOf(op);
        if (operands instanceof ExecutionFailure) return operands;
        const r = this.run.execute(this, op, operands, true);
        if (r instanceof ExecutionFailure) return r;
        if (isBlocked(r)) return this.fail(op, M.blockingInNestedRegion(op.name));
        if (r instanceof Yield) return r.values;
        if (r instanceof Branch) {
          next = r;
          break;
        }
        const results = op.results;
        if (r.length !== results.length) return this.fail(op, `'${op.name}' rule produced ${r.length} values for ${results.length} results`);
        for (let i = 0; i < results.length; i++) this.env.set(results[i]!, r[i]!);
      }
      if (!next) return [];
      block = next.target;
      blockArgs = next.args;
    }
  }

  operandsOf(op: Operation): RuntimeValue[] | ExecutionFailure {
    const n = op.numOperands;
    const out: RuntimeValue[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const v = this.lookup(op.getOperand(i));
      if (v === undefined) return this.fail(op, `'${op.name}' operand #${i} has no value`);
      out[i] = v;
    }
    return out;
  }
}

/** A group of sibling ops executed as concurrent core streams. */
export class ScheduledRun {
  /** Values produced by finished group members. */
  readonly produced = new Map<Value, RuntimeValue>();
  private readonly members: Operation[];
  private readonly memberSet: Set<Operation>;
  private readonly finished = new Set<Operation>();
  private readonly tasksOf = new Map<Operation, Task[]>();
  private readonly cores = new Map<string, CoreStream>();
  private readonly channels = new FifoChannels<QueuedSend>();
  private readonly registers = new EventRegisters();
  private hostBytes = new Uint8Array(0);
  private hostWritten = new Uint8Array(0);
  private steps = 0;

  constructor(
    readonly interpreter: Interpreter,
    first: Operation,
  ) {
    this.members = collectGroup(first);
    this.memberSet = new Set(this.members);
    let virtual = 0;
    for (const op of this.members) {
      const tasks: Task[] = [];
      if (op.name === 'spat.scheduled_compute') {
        const id = intAttr(op, 'coreId');
        tasks.push(new Task(this, op, undefined, id, id !== undefined ? `core ${id}` : `unplaced core #${virtual++}`));
      } else if (op.name === 'spat.scheduled_compute_batch') {
        const lanes = intAttr(op, 'laneCount') ?? 0;
        const ids = denseAttr(op, 'coreIds');
        for (let l = 0; l < lanes; l++) {
          const id = ids?.[l];
          tasks.push(new Task(this, op, l, id, id !== undefined ? `core ${id}` : `unplaced core #${virtual++}`));
        }
      } else {
        tasks.push(new Task(this, op, undefined, undefined, 'host'));
      }
      this.tasksOf.set(op, tasks);
      for (const t of tasks) {
        let q = this.cores.get(t.coreLabel);
        if (!q) this.cores.set(t.coreLabel, (q = new CoreStream(this, t.coreLabel)));
        q.tasks.push(t);
      }
    }
  }

  /** The group members (in program order). */
  get operations(): readonly Operation[] {
    return this.members;
  }

  /** Runs every core to completion; returns the members' results, or the failure. */
  runToCompletion(): Map<Operation, readonly RuntimeValue[]> | ExecutionFailure {
    const state = schedulingState(this.interpreter);
    const saved = { current: state.current, run: state.run };
    state.run = this;
    try {
      const stalled = runStreamsRoundRobin([...this.cores.values()], (cores) => this.diagnoseStall(cores));
      if (stalled) return stalled;
      const leftover = this.leftoverSend();
      if (leftover) return leftover;
      const out = new Map<Operation, readonly RuntimeValue[]>();
      for (const op of this.members) {
        const vals = op.results.map((r) => this.produced.get(r)!);
        out.set(op, vals);
      }
      return out;
    } finally {
      state.current = saved.current;
      state.run = saved.run;
    }
  }

  /** Runs `task` until it blocks or finishes; returns whether it made progress. */
  advance(task: Task): boolean | ExecutionFailure {
    schedulingState(this.interpreter).current = task;
    let progressed = false;
    if (!task.started) {
      const missing = this.missingInput(task.op);
      if (missing) {
        task.blocked = { op: task.op, waitsFor: M.blockedOnInput(`operand of '${task.op.name}'`, missing.name) };
        return false;
      }
      const started = this.start(task);
      if (started instanceof ExecutionFailure) return started;
      progressed = true;
      if (task.done) return this.finishTask(task) ?? true;
    }
    while (task.next) {
      const op = task.next;
      if (++this.steps > MAX_STEPS) return task.fail(op, M.stepLimit(MAX_STEPS));
      const operands = task.operandsOf(op);
      if (operands instanceof ExecutionFailure) return operands;
      if (op.name === 'spat.yield' && op.getParentOp() === task.op) {
        task.yielded = operands;
        task.next = null;
        task.done = true;
        break;
      }
      if (op.name === 'spat.in_parallel' && op.getParentOp() === task.op) {
        const stack = publicationStack(task);
        stack.push({ lane: [task.lane ?? 0], publications: task.publications });
        const r = task.runRegion(op.regions[0]!, []);
        stack.pop();
        if (r instanceof ExecutionFailure) return r;
        task.next = null;
        task.done = true;
        break;
      }
      const r = this.execute(task, op, operands, false);
      if (r instanceof ExecutionFailure) return r;
      if (isBlocked(r)) {
        task.blocked = { op, waitsFor: r.waitsFor };
        return progressed;
      }
      task.blocked = null;
      progressed = true;
      if (r instanceof Yield) {
        task.yielded = r.values;
        task.next = null;
        task.done = true;
        break;
      }
      if (r instanceof Branch) {
        const bargs = r.target.arguments;
        for (let i = 0; i < bargs.length; i++) task.env.set(bargs[i]!, r.args[i]!);
        task.block = r.target;
        task.next = r.target.firstOp;
        continue;
      }
      const values = r as readonly RuntimeValue[];
      for (let i = 0; i < op.numResults; i++) task.env.set(op.getResult(i), values[i]!);
      task.next = op.next;
    }
    if (!task.next && !task.done) {
      task.done = true;
    }
    return this.finishTask(task) ?? progressed;
  }

  /** Binds a task's block arguments (or runs a host op at once). */
  private start(task: Task): void | ExecutionFailure {
    task.started = true;
    const op = task.op;
    if (!SCHEDULED_OPS.has(op.name)) {
      const operands = task.operandsOf(op);
      if (operands instanceof ExecutionFailure) return operands;
      const r = this.execute(task, op, operands, true);
      if (r instanceof ExecutionFailure) return r;
      if (isBlocked(r) || r instanceof Branch || r instanceof Yield) return task.fail(op, M.communicationOutsideSchedule(op.name));
      task.yielded = r;
      task.done = true;
      return;
    }
    const block = op.regions[0]!.firstBlock!;
    const outer = op.operands.map((v) => task.lookup(v)!);
    const args: RuntimeValue[] = [];
    if (task.lane !== undefined) args.push(task.lane);
    args.push(...outer);
    if (op.name === 'spat.scheduled_compute_batch') {
      for (const t of op.resultTypes) {
        const z = zeroValueOf(t);
        if (typeof z === 'string') return task.fail(op, z);
        args.push(z);
      }
    }
    const bargs = block.arguments;
    for (let i = 0; i < bargs.length; i++) task.env.set(bargs[i]!, args[i]!);
    task.block = block;
    task.next = block.firstOp;
  }

  /** After a task finished: completes its op when all its tasks are done. */
  private finishTask(task: Task): ExecutionFailure | undefined {
    if (!task.done || this.finished.has(task.op)) return undefined;
    const tasks = this.tasksOf.get(task.op)!;
    if (!tasks.every((t) => t.done)) return undefined;
    const op = task.op;
    this.finished.add(op);
    let values: readonly RuntimeValue[];
    if (op.name === 'spat.scheduled_compute_batch' && op.numResults > 0) {
      const block = op.regions[0]!.firstBlock!;
      const outArgs = block.arguments.slice(block.arguments.length - op.numResults);
      const outputs: ShapedValue[] = [];
      for (const t of op.resultTypes) {
        const z = zeroValueOf(t);
        if (typeof z === 'string') return task.fail(op, z);
        outputs.push(z);
      }
      const pubs = tasks.flatMap((t) => t.publications);
      const r = applyPublications(task, op, outputs, (p) => outArgs.indexOf(p.dest as (typeof outArgs)[number]), pubs);
      if (r instanceof ExecutionFailure) return r;
      values = r;
    } else if (op.name === 'spat.scheduled_compute_batch') {
      values = [];
    } else {
      values = task.yielded;
    }
    for (let i = 0; i < op.numResults; i++) this.produced.set(op.getResult(i), values[i]!);
    return undefined;
  }

  /** The group member producing an operand of `op` that has not finished yet. */
  private missingInput(op: Operation): Operation | undefined {
    for (let i = 0; i < op.numOperands; i++) {
      const def = op.getOperand(i).definingOp;
      if (def && this.memberSet.has(def) && !this.finished.has(def)) return def;
    }
    return undefined;
  }

  /**
   * Executes one op for `task`: communication ops through the run (a block becomes a
   * failure when `nested`), everything else through the interpreter's rules.
   */
  execute(
    task: Task,
    op: Operation,
    operands: readonly RuntimeValue[],
    nested: boolean,
  ): readonly RuntimeValue[] | Branch | Yield | ExecutionFailure | Blocked {
    if (COMMUNICATION_OPS.has(op.name)) {
      const r = this.communicate(task, op, operands);
      if (r instanceof ExecutionFailure) return r;
      if (r.kind === 'blocked') return nested ? task.fail(op, M.blockingInNestedRegion(op.name)) : r;
      return r.results;
    }
    const rule = this.interpreter.registry.lookup(op.name);
    if (!rule) return task.fail(op, `no interpreter rule for '${op.name}'`);
    try {
      return rule(task, op, operands);
    } catch (e) {
      return task.fail(op, `'${op.name}' failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  // ---------------------------------------------------------------- communication

  private communicate(task: Task, op: Operation, operands: readonly RuntimeValue[]): StepOutcome {
    switch (op.name) {
      case 'spat.channel_send': {
        const ids = this.ids(task, op, operands, 1, ['channel', 'source core', 'target core']);
        if (ids instanceof ExecutionFailure) return ids;
        const payload = operands[0];
        if (!(payload instanceof ShapedValue)) return task.fail(op, M.notAShapedValue('the payload'));
        this.channels.send(channelKey(ids[0]!, ids[1]!, ids[2]!), { op, bytes: bytesOf(payload) });
        return { kind: 'done', results: [] };
      }
      case 'spat.channel_receive': {
        const ids = this.ids(task, op, operands, 0, ['channel', 'source core', 'target core']);
        if (ids instanceof ExecutionFailure) return ids;
        const key = channelKey(ids[0]!, ids[1]!, ids[2]!);
        const sent = this.channels.peek(key);
        if (!sent) return { kind: 'blocked', waitsFor: M.blockedOnReceive(key) };
        const want = byteSizeOf(op.resultTypes[0]!);
        if (want === undefined) return task.fail(op, M.unsupportedElementType(String(op.resultTypes[0])));
        if (sent.bytes.length !== want) {
          const f = task.fail(op, M.sizeMismatch(sent.bytes.length, want, key));
          f.diagnostic.attachNote(M.sendOpNote, sent.op.location);
          return f;
        }
        this.channels.receive(key);
        const v = valueFromBytes(op.resultTypes[0]!, sent.bytes);
        if (typeof v === 'string') return task.fail(op, v);
        return { kind: 'done', results: [v] };
      }
      case 'spat.sync': {
        const ids = this.ids(task, op, operands, 0, ['target core', 'event register']);
        if (ids instanceof ExecutionFailure) return ids;
        this.registers.signal(ids[0]!, ids[1]!, op);
        return { kind: 'done', results: [] };
      }
      case 'spat.wait': {
        const ids = this.ids(task, op, operands, 0, ['event register', 'wait value']);
        if (ids instanceof ExecutionFailure) return ids;
        if (task.coreId === undefined) return task.fail(op, M.waitNeedsPlacedCore);
        const w = this.wait(task, op, task.coreId, ids[0]!, ids[1]!);
        return w instanceof ExecutionFailure || w.kind === 'blocked' ? w : { kind: 'done', results: [] };
      }
      case 'spat.host_store_sync': {
        const ids = this.ids(task, op, operands, 1, ['source core', 'target core', 'host offset', 'event register']);
        if (ids instanceof ExecutionFailure) return ids;
        const payload = operands[0];
        if (!(payload instanceof ShapedValue)) return task.fail(op, M.notAShapedValue('the payload'));
        this.storeHost(ids[2]!, bytesOf(payload));
        this.registers.signal(ids[1]!, ids[3]!, op);
        return { kind: 'done', results: [] };
      }
      case 'spat.host_wait_load': {
        const ids = this.ids(task, op, operands, 0, ['source core', 'target core', 'host offset', 'event register', 'wait value']);
        if (ids instanceof ExecutionFailure) return ids;
        const w = this.wait(task, op, ids[1]!, ids[3]!, ids[4]!);
        if (w instanceof ExecutionFailure || w.kind === 'blocked') return w;
        const size = byteSizeOf(op.resultTypes[0]!);
        if (size === undefined) return task.fail(op, M.unsupportedElementType(String(op.resultTypes[0])));
        const bytes = this.loadHost(ids[2]!, size);
        if (!bytes) return task.fail(op, M.hostRangeUnwritten(ids[2]!, size));
        const v = valueFromBytes(op.resultTypes[0]!, bytes);
        if (typeof v === 'string') return task.fail(op, v);
        return { kind: 'done', results: [v] };
      }
    }
    return task.fail(op, M.communicationOutsideSchedule(op.name));
  }

  private ids(task: Task, op: Operation, operands: readonly RuntimeValue[], first: number, names: readonly string[]): number[] | ExecutionFailure {
    const out: number[] = [];
    for (let k = 0; k < names.length; k++) {
      const v = operands[first + k];
      const n = typeof v === 'bigint' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return task.fail(op, M.idNotInteger(names[k]!, String(v)));
      out.push(n);
    }
    return out;
  }

  private wait(task: Task, op: Operation, core: number, event: number, count: number): StepOutcome {
    const value = this.registers.value(core, event);
    const outcome = this.registers.wait(core, event, count);
    if (outcome === 'released') return { kind: 'done', results: [] };
    if (outcome === 'overshoot') {
      const f = task.fail(op, M.waitOvershoot(`core ${core}`, event, value, count));
      for (const s of this.registers.signalsOf(core, event)) f.diagnostic.attachNote(M.signalNote(s.name), s.location);
      return f;
    }
    return { kind: 'blocked', waitsFor: M.blockedOnWait(`core ${core}`, event, value, count) };
  }

  private storeHost(offset: number, bytes: Uint8Array): void {
    const end = offset + bytes.length;
    if (end > this.hostBytes.length) {
      const size = Math.max(end, this.hostBytes.length * 2);
      const b = new Uint8Array(size);
      b.set(this.hostBytes);
      const w = new Uint8Array(size);
      w.set(this.hostWritten);
      this.hostBytes = b;
      this.hostWritten = w;
    }
    this.hostBytes.set(bytes, offset);
    this.hostWritten.fill(1, offset, end);
  }

  private loadHost(offset: number, size: number): Uint8Array | undefined {
    const end = offset + size;
    if (end > this.hostBytes.length) return undefined;
    for (let k = offset; k < end; k++) if (!this.hostWritten[k]) return undefined;
    return this.hostBytes.slice(offset, end);
  }

  // ---------------------------------------------------------------- end of run checks

  private leftoverSend(): ExecutionFailure | undefined {
    const pending = this.channels.firstPending();
    return pending && this.interpreter.fail(pending.item.op, M.sendNeverReceived(pending.key));
  }

  /** No core can progress: a receive nobody can serve, or a deadlock. */
  private diagnoseStall(cores: readonly CoreStream[]): ExecutionFailure {
    const blocked: Task[] = [];
    for (const c of cores) {
      const t = c.front;
      if (t) blocked.push(t);
    }
    // A receive that no remaining send can match.
    for (const t of blocked) {
      const b = t.blocked;
      if (!b || b.op.name !== 'spat.channel_receive') continue;
      const key = this.keyOf(t, b.op, 0);
      if (key !== undefined && !this.couldStillSend(key)) {
        return t.fail(b.op, M.receiveNoSender(key));
      }
    }
    return deadlockFailure(M.deadlockHeader, cores, (c) => {
      const t = (c as CoreStream).front!;
      return { op: t.op, waitsFor: M.blockedOnCoreOrder(t.op.name) };
    });
  }

  private keyOf(task: Task, op: Operation, first: number): string | undefined {
    const vals: number[] = [];
    for (let k = 0; k < 3; k++) {
      const v = task.lookup(op.getOperand(first + k));
      const n = typeof v === 'bigint' ? Number(v) : v;
      if (typeof n !== 'number') return undefined;
      vals.push(n);
    }
    return channelKey(vals[0]!, vals[1]!, vals[2]!);
  }

  /** True when an unexecuted `spat.channel_send` of an unfinished task may send on `key`. */
  private couldStillSend(key: string): boolean {
    for (const q of this.cores.values()) {
      for (const t of q.tasks) {
        if (t.done) continue;
        const remaining: Operation[] = [];
        if (!t.started) {
          t.op.walk((o) => {
            if (o.name === 'spat.channel_send') remaining.push(o);
          });
        } else {
          for (let o = t.next; o; o = o.next) {
            o.walk((x) => {
              if (x.name === 'spat.channel_send') remaining.push(x);
            });
          }
        }
        for (const s of remaining) {
          const k = t.started ? this.keyOf(t, s, 1) : undefined;
          if (k === undefined || k === key) return true;
        }
      }
    }
    return false;
  }
}

type Blocked = { kind: 'blocked'; waitsFor: string };

/** The stream of one core: its tasks in program order, run front first. */
class CoreStream implements ConcurrentStream {
  readonly tasks: Task[] = [];
  private head = 0;

  constructor(
    private readonly run: ScheduledRun,
    private readonly core: string,
  ) {}

  /** The core, and the lane of its running task when that is a batch lane. */
  get label(): string {
    const lane = this.front?.lane;
    return lane === undefined ? this.core : `${this.core} (lane ${lane})`;
  }

  /** The first unfinished task. */
  get front(): Task | undefined {
    while (this.head < this.tasks.length && this.tasks[this.head]!.done) this.head++;
    return this.tasks[this.head];
  }

  get done(): boolean {
    return this.front === undefined;
  }

  get blocked(): StreamBlock | null | undefined {
    return this.front?.blocked;
  }

  advance(): boolean | ExecutionFailure {
    return this.run.advance(this.front!);
  }
}

function isBlocked(r: unknown): r is Blocked {
  return typeof r === 'object' && r !== null && !Array.isArray(r) && (r as { kind?: unknown }).kind === 'blocked';
}

function channelKey(channel: number, source: number, target: number): string {
  return `channel ${channel} from core ${source} to core ${target}`;
}

function intAttr(op: Operation, name: string): number | undefined {
  const a = op.getAttr(name) as { value?: unknown } | undefined;
  return a && typeof a.value === 'bigint' ? Number(a.value) : undefined;
}

function denseAttr(op: Operation, name: string): number[] | undefined {
  const a = op.getAttr(name) as { values?: readonly (number | bigint)[] } | undefined;
  return a?.values ? a.values.map((v) => Number(v)) : undefined;
}

/**
 * The group of ops executed together starting at `first`: following siblings that are
 * scheduled ops, or side-effect-free region-less non-terminators (constants, index math);
 * stops at anything else.
 */
function collectGroup(first: Operation): Operation[] {
  const out: Operation[] = [];
  for (let op: Operation | null = first; op; op = op.next) {
    if (SCHEDULED_OPS.has(op.name)) out.push(op);
    else if (
      op.numRegions === 0 &&
      !op.hasTrait(Traits.IsTerminator) &&
      !COMMUNICATION_OPS.has(op.name) &&
      (isMemoryEffectFree(op) || op.hasTrait(Traits.ConstantLike))
    )
      out.push(op);
    else break;
  }
  return out;
}

/** Makes a diagnostic-carrying failure at `op` (for rules outside a run). */
export function failureAt(op: Operation, message: string): ExecutionFailure {
  return new ExecutionFailure(new Diagnostic('error', op.location, message), op);
}

