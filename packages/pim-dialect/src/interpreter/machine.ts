/**
 * Execution of PIM core streams. A group of consecutive `pim.core` / `pim.core_batch` ops of
 * one block (side-effect-free ops such as constants may sit between them) runs as one machine on ir-core's concurrent-streams executor: every stream (one per
 * core, one per batch lane with its core from `coreIds`) executes concurrently, round-robin
 * (`runStreamsRoundRobin`); `pim.send`/`pim.receive`
 * rendezvous per (sender core, receiver core) pair in program order; `pim.sync` increments an
 * event register of the target core and `pim.wait` blocks until the local register equals the
 * expected count, then resets it (registers start at zero and persist across groups of the
 * same interpreter run). Contract violations stop the run with a diagnostic naming the ops:
 * mismatched transfer sizes, a receive whose sender finished, all cores blocked (every blocked
 * stream with its position and what it waits for), a wait that overshoots, out-of-bounds byte
 * ranges and overlapping host writes by two lanes.
 */
import {
  Branch,
  EventRegisters,
  ExecutionFailure,
  FifoChannels,
  IntegerAttr,
  DenseArrayAttr,
  LaneWriteLog,
  Traits,
  Yield,
  isMemoryEffectFree,
  deadlockFailure,
  runStreamsRoundRobin,
  type ConcurrentStream,
  type StreamBlock,
  type Block,
  type ExecutionContext,
  type Interpreter,
  type Operation,
  type Region,
  type RuntimeValue,
  type ShapedValue,
  type SymbolRefAttr,
  type Value,
} from '@raptor-pim/ir-core';
import { PimMessages as M } from '../diagnostics';
import { byteSize, bytesOf, inBounds, isShaped, writable } from './storage';

const STEP_LIMIT = 10_000_000;

/** Why a stream is blocked (for the deadlock diagnostic). */
type BlockReason = StreamBlock;

interface PendingSend {
  readonly op: Operation;
  readonly bytes: Uint8Array;
  consumed: boolean;
}

/** One executing stream. */
class Stream implements ConcurrentStream {
  readonly env = new Map<Value, RuntimeValue>();
  done = false;
  steps = 0;
  blocked: BlockReason | undefined;
  run: Generator<BlockReason, readonly RuntimeValue[] | ExecutionFailure> | undefined;
  constructor(readonly core: number, readonly owner: Operation, readonly lane: number | undefined) {}

  get label(): string {
    return `core ${this.core}`;
  }

  /** Resumes the stream until it blocks or halts; progress is an executed op or a completed block. */
  advance(): boolean | ExecutionFailure {
    const before = this.steps;
    const r = this.run!.next();
    if (r.done) {
      if (r.value instanceof ExecutionFailure) return r.value;
      this.done = true;
      return true;
    }
    return this.steps !== before || !this.blocked;
  }
}

const REGISTERS = Symbol('pim.eventRegisters');
const EXECUTED = Symbol('pim.executedCoreOps');

function describe(op: Operation): string {
  return `'${op.name}'`;
}

/** The machine running one group of core ops. */
class Machine {
  readonly streams: Stream[] = [];
  readonly byCore = new Map<number, Stream>();
  readonly queues = new FifoChannels<PendingSend>();
  readonly hostWrites = new LaneWriteLog();
  readonly registers: EventRegisters;
  steps = 0;

  /** Results of the side-effect-free ops between the group's core ops, evaluated ahead. */
  readonly ahead = new Map<Value, RuntimeValue>();

  /** A value defined outside the streams (the enclosing region, or an op evaluated ahead). */
  lookupOuter(v: Value): RuntimeValue | undefined {
    return this.outer.lookup(v) ?? this.ahead.get(v);
  }

  /**
   * Evaluates a side-effect-free op between two core ops of the group (a constant, index
   * math) so the later core ops see its results; the enclosing interpreter evaluates it again
   * when it reaches it, with the same results.
   */
  evaluateAhead(op: Operation): ExecutionFailure | undefined {
    const rule = this.outer.interpreter.registry.lookup(op.name);
    if (!rule) return this.outer.fail(op, M.unsupportedInCore(op.name));
    const operands: RuntimeValue[] = [];
    for (let i = 0; i < op.numOperands; i++) {
      const v = this.lookupOuter(op.getOperand(i));
      if (v === undefined) return this.outer.fail(op, M.shape(op.name, `operand #${i} has no value`));
      operands.push(v);
    }
    let r;
    try {
      r = rule(this.outer, op, operands);
    } catch (e) {
      return this.outer.fail(op, M.shape(op.name, e instanceof Error ? e.message : String(e)));
    }
    if (r instanceof ExecutionFailure) return r;
    if (!Array.isArray(r)) return this.outer.fail(op, M.shape(op.name, 'expected result values'));
    for (let i = 0; i < op.numResults; i++) this.ahead.set(op.getResult(i), (r as readonly RuntimeValue[])[i]!);
    return undefined;
  }

  constructor(readonly outer: ExecutionContext) {
    const state = outer.interpreter.state;
    let regs = state.get(REGISTERS) as EventRegisters | undefined;
    if (!regs) {
      regs = new EventRegisters();
      state.set(REGISTERS, regs);
    }
    this.registers = regs;
  }

  /** A stream's execution context: its own environment over the outer one. */
  contextFor(stream: Stream): ExecutionContext {
    const outer = this.outer;
    const self = this;
    return {
      get interpreter(): Interpreter {
        return outer.interpreter;
      },
      fail: (op: Operation, message: string) => outer.fail(op, message),
      lookup: (v: Value) => stream.env.get(v) ?? self.lookupOuter(v),
      call: (from: Operation, callee: string | SymbolRefAttr, args: readonly RuntimeValue[]) => outer.call(from, callee, args),
      runRegion(region: Region, args: readonly RuntimeValue[]) {
        const gen = self.runRegion(stream, region, args, true);
        const r = gen.next();
        if (!r.done) return outer.fail(r.value.op, M.blockingInNestedRegion(r.value.op.name));
        return r.value;
      },
    };
  }

  /** Runs `region` of `stream`; yields when an op blocks (top level only). */
  *runRegion(
    stream: Stream,
    region: Region,
    args: readonly RuntimeValue[],
    nested: boolean
  ): Generator<BlockReason, readonly RuntimeValue[] | ExecutionFailure> {
    let block: Block | null = region.firstBlock;
    let blockArgs = args;
    const ctx = this.contextFor(stream);
    while (block) {
      block.arguments.forEach((a, i) => stream.env.set(a, blockArgs[i]!));
      let next: Branch | undefined;
      for (let op = block.firstOp; op; op = op.next) {
        if (++this.steps > STEP_LIMIT) return this.outer.fail(op, M.stepLimit(STEP_LIMIT));
        stream.steps++;
        const operands: RuntimeValue[] = [];
        for (let i = 0; i < op.numOperands; i++) {
          const v = ctx.lookup(op.getOperand(i));
          if (v === undefined) return this.outer.fail(op, M.shape(op.name, `operand #${i} has no value`));
          operands.push(v);
        }
        if (op.name === 'pim.halt') {
          if (nested) return this.outer.fail(op, M.blockingInNestedRegion(op.name));
          stream.done = true;
          return [];
        }
        let r: readonly RuntimeValue[] | Yield | Branch | ExecutionFailure;
        switch (op.name) {
          case 'pim.send':
            r = yield* this.send(stream, op, operands);
            break;
          case 'pim.receive':
            r = yield* this.receive(stream, op, operands);
            break;
          case 'pim.sync':
            r = this.sync(stream, op, operands);
            break;
          case 'pim.wait':
            r = yield* this.wait(stream, op, operands);
            break;
          default: {
            const rule = this.outer.interpreter.registry.lookup(op.name);
            if (!rule) return this.outer.fail(op, M.unsupportedInCore(op.name));
            try {
              r = rule(ctx, op, operands);
            } catch (e) {
              return this.outer.fail(op, M.shape(op.name, e instanceof Error ? e.message : String(e)));
            }
            if (!(r instanceof ExecutionFailure) && op.name === 'pim.memcp_dh') {
              const f = this.recordHostWrite(stream, op, operands);
              if (f) return f;
            }
          }
        }
        if (r instanceof ExecutionFailure) return r;
        if (r instanceof Yield) return r.values;
        if (r instanceof Branch) {
          if (!nested) return this.outer.fail(op, M.branchInStream(op.name));
          next = r;
          break;
        }
        op.results.forEach((res, i) => stream.env.set(res, r[i]!));
      }
      if (!next) {
        if (!nested) return this.outer.fail(stream.owner, M.noHalt(stream.core));
        return [];
      }
      block = next.target;
      blockArgs = next.args;
    }
    return [];
  }

  staticInt(op: Operation, v: RuntimeValue | undefined, what: string): number | ExecutionFailure {
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    if (typeof v === 'bigint') return Number(v);
    return this.outer.fail(op, M.notStatic(op.name, what));
  }

  size(op: Operation): number {
    const a = op.getProperty('size');
    return a instanceof IntegerAttr ? Number(a.value) : NaN;
  }

  *send(
    stream: Stream,
    op: Operation,
    operands: readonly RuntimeValue[]
  ): Generator<BlockReason, readonly RuntimeValue[] | ExecutionFailure> {
    const x = operands[0];
    const target = this.staticInt(op, operands[1], 'the target core id');
    if (typeof target !== 'number') return target;
    if (!this.byCore.has(target)) return this.outer.fail(op, M.unknownCore(op.name, target));
    if (!isShaped(x)) return this.outer.fail(op, M.shape(op.name, 'the payload is not a tensor or memref'));
    const size = this.size(op);
    if (size < 0) return this.outer.fail(op, M.negative(op.name, 'size', size));
    if (!inBounds(0, size, byteSize(x))) return this.outer.fail(op, M.outOfBounds(op.name, 'payload', 0, size, byteSize(x)));
    const bytes = bytesOf(x);
    if (!bytes) return this.outer.fail(op, M.shape(op.name, 'storage is not contiguous'));
    const item: PendingSend = {
      op,
      bytes: bytes.slice(0, size),
      consumed: false,
    };
    this.queues.send(`${stream.core}->${target}`, item);
    // Synchronous send: completes once the matching receive took the payload.
    while (!item.consumed) {
      const peer = this.byCore.get(target)!;
      if (peer.done) return this.outer.fail(op, M.noReceiver(describe(op), stream.core, target));
      stream.blocked = { op, waitsFor: M.waitsForReceiver(target) };
      yield stream.blocked;
    }
    stream.blocked = undefined;
    return [];
  }

  *receive(
    stream: Stream,
    op: Operation,
    operands: readonly RuntimeValue[]
  ): Generator<BlockReason, readonly RuntimeValue[] | ExecutionFailure> {
    const dst = operands[0];
    const offset = this.staticInt(op, operands[1], 'the destination offset');
    if (typeof offset !== 'number') return offset;
    const source = this.staticInt(op, operands[2], 'the source core id');
    if (typeof source !== 'number') return source;
    if (!this.byCore.has(source)) return this.outer.fail(op, M.unknownCore(op.name, source));
    if (!isShaped(dst)) return this.outer.fail(op, M.shape(op.name, 'the destination is not a tensor or memref'));
    const size = this.size(op);
    if (offset < 0) return this.outer.fail(op, M.negative(op.name, 'destination offset', offset));
    if (!inBounds(offset, size, byteSize(dst)))
      return this.outer.fail(op, M.outOfBounds(op.name, 'destination', offset, size, byteSize(dst)));
    const key = `${source}->${stream.core}`;
    for (;;) {
      const item = this.queues.receive(key);
      if (item) {
        if (item.bytes.length !== size)
          return this.outer.fail(op, M.transferSize(describe(item.op), describe(op), item.bytes.length, size));
        item.consumed = true;
        const out = writable(dst);
        bytesOf(out)!.set(item.bytes, offset);
        stream.blocked = undefined;
        return [out];
      }
      const peer = this.byCore.get(source)!;
      if (peer.done) return this.outer.fail(op, M.noSender(describe(op), stream.core, source));
      stream.blocked = { op, waitsFor: M.waitsForData(source) };
      yield stream.blocked;
    }
  }

  sync(_stream: Stream, op: Operation, operands: readonly RuntimeValue[]): readonly RuntimeValue[] | ExecutionFailure {
    const target = this.staticInt(op, operands[0], 'the target core id');
    if (typeof target !== 'number') return target;
    const reg = this.staticInt(op, operands[1], 'the event register');
    if (typeof reg !== 'number') return reg;
    if (!this.byCore.has(target)) return this.outer.fail(op, M.unknownCore(op.name, target));
    this.registers.signal(target, reg, op);
    return [];
  }

  *wait(
    stream: Stream,
    op: Operation,
    operands: readonly RuntimeValue[]
  ): Generator<BlockReason, readonly RuntimeValue[] | ExecutionFailure> {
    const reg = this.staticInt(op, operands[0], 'the event register');
    if (typeof reg !== 'number') return reg;
    const count = this.staticInt(op, operands[1], 'the wait value');
    if (typeof count !== 'number') return count;
    if (count === 0) return []; // zero-count waits are omitted by emission
    for (;;) {
      const v = this.registers.value(stream.core, reg);
      const w = this.registers.wait(stream.core, reg, count);
      if (w === 'released') {
        stream.blocked = undefined;
        return [];
      }
      if (w === 'overshoot') return this.outer.fail(op, M.waitOvershoot(describe(op), stream.core, reg, v, count));
      stream.blocked = { op, waitsFor: M.waitsForEvent(reg, count, v) };
      yield stream.blocked;
    }
  }

  recordHostWrite(stream: Stream, op: Operation, operands: readonly RuntimeValue[]): ExecutionFailure | undefined {
    if (stream.lane === undefined) return undefined;
    const dst = operands[0] as ShapedValue;
    if (stream.env.has(op.getOperand(0)) || dst.kind !== 'buffer') return undefined; // not a host buffer
    const eb = dst.data.BYTES_PER_ELEMENT;
    const base = dst.data.byteOffset + dst.offset * eb + (operands[2] as number);
    const w = { lane: stream.lane, op, buffer: dst.data.buffer, start: base, end: base + this.size(op) };
    const o = this.hostWrites.record(stream.owner, w);
    if (o) {
      return this.outer.fail(
        op,
        M.laneOverlap(describe(o.op), describe(op), o.lane, w.lane, Math.max(o.start, w.start), Math.min(o.end, w.end))
      );
    }
    return undefined;
  }

  /** Adds the streams of one core op. */
  addStreams(op: Operation): ExecutionFailure | undefined {
    const outer = this.outer;
    const values = op.operands.map((v) => this.lookupOuter(v)!);
    if (op.name === 'pim.core') {
      const a = op.getProperty('coreId');
      const core = a instanceof IntegerAttr ? Number(a.value) : 0;
      return this.addStream(new Stream(core, op, undefined), values);
    }
    const lanes = Number((op.getProperty('laneCount') as IntegerAttr).value);
    const ids = op.getProperty('coreIds');
    const cores = ids instanceof DenseArrayAttr ? (ids.values as readonly (number | bigint)[]).map(Number) : [];
    if (cores.length !== lanes) return outer.fail(op, M.coreIdsLength(cores.length, lanes));
    for (let lane = 0; lane < lanes; lane++) {
      const f = this.addStream(new Stream(cores[lane]!, op, lane), [lane, ...values]);
      if (f) return f;
    }
    return undefined;
  }

  private readonly starts = new Map<Stream, readonly RuntimeValue[]>();

  private addStream(s: Stream, args: readonly RuntimeValue[]): ExecutionFailure | undefined {
    if (this.byCore.has(s.core)) return this.outer.fail(s.owner, M.duplicateCore(s.core));
    this.byCore.set(s.core, s);
    this.streams.push(s);
    this.starts.set(s, args);
    return undefined;
  }

  /** Runs every stream to its `pim.halt`. */
  run(): ExecutionFailure | undefined {
    for (const s of this.streams) s.run = this.runRegion(s, s.owner.regions[0]!, this.starts.get(s)!, false);
    return runStreamsRoundRobin(this.streams, (blocked) =>
      deadlockFailure(M.deadlockHeader, blocked, (s) => ({ op: (s as Stream).owner, waitsFor: M.blockedStream }))
    );
  }
}

/** True for the ops that start core streams. */
function isCoreOp(op: Operation | null): op is Operation {
  return op !== null && (op.name === 'pim.core' || op.name === 'pim.core_batch');
}

/** True for the ops a group may span: side-effect-free, region-less non-terminators (constants, index math). */
function isPureBetweenCores(op: Operation): boolean {
  return op.numRegions === 0 && !op.hasTrait(Traits.IsTerminator) && (isMemoryEffectFree(op) || op.hasTrait(Traits.ConstantLike));
}

/** The core ids a core op runs on. */
function coreIdsOf(op: Operation): number[] {
  if (op.name === 'pim.core') {
    const a = op.getProperty('coreId');
    return [a instanceof IntegerAttr ? Number(a.value) : 0];
  }
  const ids = op.getProperty('coreIds');
  return ids instanceof DenseArrayAttr ? (ids.values as readonly (number | bigint)[]).map(Number) : [];
}

/**
 * The core ops executed together with `first`: following core ops, also across side-effect-free
 * ops between them (the Spatial multi-core run groups the same way), and those ops. A core op
 * after such ops that reuses a core of the group starts the next group (it runs after it).
 */
function coreGroup(first: Operation): { cores: Operation[]; between: Operation[] } {
  const cores: Operation[] = [first];
  const between: Operation[] = [];
  const pending: Operation[] = [];
  const used = new Set(coreIdsOf(first));
  for (let o = first.next; o; o = o.next) {
    if (isCoreOp(o)) {
      const ids = coreIdsOf(o);
      if (pending.length > 0 && ids.some((c) => used.has(c))) break;
      for (const c of ids) used.add(c);
      between.push(...pending);
      pending.length = 0;
      cores.push(o);
    } else if (isPureBetweenCores(o)) pending.push(o);
    else break;
  }
  return { cores, between };
}

/**
 * The rule of `pim.core` and `pim.core_batch`: the first core op of a group (consecutive core
 * ops, possibly with side-effect-free ops between them) executes the whole group as one
 * machine; the others were executed with it.
 */
export function coreGroupRule(ctx: ExecutionContext, op: Operation): readonly RuntimeValue[] | ExecutionFailure {
  const state = ctx.interpreter.state;
  let executed = state.get(EXECUTED) as Set<Operation> | undefined;
  if (!executed) state.set(EXECUTED, (executed = new Set()));
  if (executed.delete(op)) return [];
  const machine = new Machine(ctx);
  const { cores, between } = coreGroup(op);
  const betweenSet = new Set(between);
  let f: ExecutionFailure | undefined;
  const last = cores[cores.length - 1]!;
  for (let o: Operation | null = op; o; o = o.next) {
    f = betweenSet.has(o) ? machine.evaluateAhead(o) : machine.addStreams(o);
    if (f) return f;
    if (o === last) break;
  }
  for (let k = 1; k < cores.length; k++) executed.add(cores[k]!);
  f = machine.run();
  if (f) {
    for (let k = 1; k < cores.length; k++) executed.delete(cores[k]!);
    return f;
  }
  return [];
}

/** The rule of the stream-only ops (`pim.send`, `pim.receive`, `pim.sync`, `pim.wait`, `pim.halt`) outside a core. */
export function outsideCoreRule(ctx: ExecutionContext, op: Operation): ExecutionFailure {
  return ctx.fail(op, M.outsideCore(op.name));
}
