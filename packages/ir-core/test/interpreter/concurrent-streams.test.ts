import fc from 'fast-check';
import {
  Block,
  Diagnostic,
  EventRegisters,
  ExecutionFailure,
  FifoChannels,
  LaneWriteLog,
  StringAttr,
  deadlockFailure,
  runStreamsRoundRobin,
  type ConcurrentStream,
  type Operation,
  type StreamBlock,
} from '../../src';
import { ConstOp, FuncOp, testContext } from '../ir/test-dialect';

/** A function with `n` ops in its body, for positions in reports. */
function ops(n: number): Operation[] {
  const t = testContext();
  const f = FuncOp.build(t.b, { sym_name: StringAttr.get(t.ctx, 'f') }, t.loc());
  const body = new Block();
  f.body.push(body);
  t.b.setInsertionPointToEnd(body);
  const out: Operation[] = [];
  for (let k = 0; k < n; k++) out.push(ConstOp.build(t.b, { value: t.int(k), result: t.i32 }, t.loc()).op);
  return out;
}

/** A stream of `steps` unit steps; step k runs only once `gate(k)` holds. */
class ScriptStream implements ConcurrentStream {
  pc = 0;
  blocked: StreamBlock | undefined;
  constructor(
    readonly label: string,
    private readonly steps: number,
    private readonly gate: (k: number) => boolean,
    private readonly at: Operation,
    readonly trace: string[],
  ) {}
  get done(): boolean {
    return this.pc >= this.steps;
  }
  advance(): boolean {
    let progressed = false;
    while (this.pc < this.steps) {
      if (!this.gate(this.pc)) {
        this.blocked = { op: this.at, waitsFor: `waits at step ${this.pc}` };
        return progressed;
      }
      this.trace.push(`${this.label}:${this.pc}`);
      this.pc++;
      this.blocked = undefined;
      progressed = true;
    }
    return progressed;
  }
}

const failAt = (op: Operation): ExecutionFailure => new ExecutionFailure(new Diagnostic('error', op.location, 'stalled'), op);

describe('runStreamsRoundRobin', () => {
  it('runs streams in order, each until it blocks, and finishes when all are done', () => {
    const [op] = ops(1);
    const trace: string[] = [];
    const a = new ScriptStream('a', 2, () => true, op!, trace);
    const b = new ScriptStream('b', 2, (k) => k === 0 || a.done, op!, trace);
    const c = new ScriptStream('c', 1, () => b.done, op!, trace);
    expect(runStreamsRoundRobin([c, b, a], () => failAt(op!))).toBeUndefined();
    expect(trace).toEqual(['b:0', 'a:0', 'a:1', 'b:1', 'c:0']);
  });

  it('reports a stall through onStall with the unfinished streams only', () => {
    const [op] = ops(1);
    const trace: string[] = [];
    const a = new ScriptStream('a', 1, () => true, op!, trace);
    const b = new ScriptStream('b', 1, () => false, op!, trace);
    let seen: string[] = [];
    const r = runStreamsRoundRobin([a, b], (unfinished) => {
      seen = unfinished.map((s) => s.label);
      return failAt(op!);
    });
    expect(r).toBeInstanceOf(ExecutionFailure);
    expect(seen).toEqual(['b']);
  });

  it('finishes exactly when the gates allow an order (property: chains of waits across streams)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 }), fc.boolean(), (lengths, cyclic) => {
        const [op] = ops(1);
        const trace: string[] = [];
        const streams: ScriptStream[] = [];
        // stream k waits (before its last step) for stream k-1 to finish; cyclic: stream 0 waits for the last.
        for (let k = 0; k < lengths.length; k++) {
          const n = lengths[k]! + 1;
          streams.push(new ScriptStream(`s${k}`, n, (step) => step < n - 1 || (k > 0 ? streams[k - 1]!.done : !cyclic || streams[lengths.length - 1]!.done), op!, trace));
        }
        const r = runStreamsRoundRobin(streams, () => failAt(op!));
        const deadlocks = cyclic && lengths.length > 0;
        expect(r === undefined).toBe(!deadlocks || lengths.length === 0);
        if (!r) expect(trace.length).toBe(lengths.reduce((a, b) => a + b + 1, 0));
      }),
      { numRuns: 100 },
    );
  });
});

describe('deadlockFailure', () => {
  it('lists every blocked stream with its position and what it waits for, one note each', () => {
    const [, second, third] = ops(3);
    const f = deadlockFailure(
      'all cores are blocked',
      [
        { label: 'core 0', blocked: { op: second!, waitsFor: 'waits for data from core 1' } },
        { label: 'core 1', blocked: undefined },
      ],
      () => ({ op: third!, waitsFor: 'waits for core 0 to receive' }),
    );
    expect(f.op).toBe(second);
    expect(f.diagnostic.message).toBe(
      "all cores are blocked: core 0 at op 2 of 'test.func' ('test.const'): waits for data from core 1; core 1 at op 3 of 'test.func' ('test.const'): waits for core 0 to receive",
    );
    expect(f.diagnostic.notes.map((n) => n.message)).toEqual(['core 0 blocked: waits for data from core 1', 'core 1 blocked: waits for core 0 to receive']);
  });
});

describe('FifoChannels', () => {
  it('delivers per key in send order and names the first undelivered item', () => {
    const c = new FifoChannels<number>();
    c.send('0->1', 1);
    c.send('1->0', 10);
    c.send('0->1', 2);
    expect(c.peek('0->1')).toBe(1);
    expect(c.receive('0->1')).toBe(1);
    expect(c.receive('0->1')).toBe(2);
    expect(c.receive('0->1')).toBeUndefined();
    expect(c.firstPending()).toEqual({ key: '1->0', item: 10 });
    expect(c.receive('1->0')).toBe(10);
    expect(c.firstPending()).toBeUndefined();
  });

  it('is a queue per key (property: any interleaving of sends and receives)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 2 })), { maxLength: 60 }), (script) => {
        const c = new FifoChannels<number>();
        const model = new Map<number, number[]>();
        let n = 0;
        for (const [isSend, k] of script) {
          const q = model.get(k) ?? [];
          model.set(k, q);
          if (isSend) {
            c.send(String(k), n);
            q.push(n++);
          } else expect(c.receive(String(k))).toBe(q.shift());
        }
      }),
    );
  });
});

describe('EventRegisters', () => {
  it('equal-reset waits: pending below the count, released (and reset) at it, overshoot beyond it', () => {
    const [op] = ops(1);
    const r = new EventRegisters();
    expect(r.wait(0, 3, 2)).toBe('pending');
    r.signal(0, 3, op!);
    expect(r.wait(0, 3, 2)).toBe('pending');
    r.signal(0, 3, op!);
    expect(r.value(0, 3)).toBe(2);
    expect(r.wait(0, 3, 2)).toBe('released');
    expect(r.value(0, 3)).toBe(0);
    for (let k = 0; k < 3; k++) r.signal(0, 3, op!);
    expect(r.wait(0, 3, 2)).toBe('overshoot');
    expect(r.signalsOf(0, 3)).toHaveLength(3);
    expect(r.value(1, 3)).toBe(0);
  });
});

describe('LaneWriteLog', () => {
  it('reports an overlap of two lanes of one batch, not of one lane or of different buffers', () => {
    const [batch, w] = ops(2);
    const log = new LaneWriteLog();
    const buf = new ArrayBuffer(64);
    expect(log.record(batch!, { lane: 0, op: w!, buffer: buf, start: 0, end: 16 })).toBeUndefined();
    expect(log.record(batch!, { lane: 0, op: w!, buffer: buf, start: 8, end: 24 })).toBeUndefined();
    expect(log.record(batch!, { lane: 1, op: w!, buffer: new ArrayBuffer(64), start: 0, end: 16 })).toBeUndefined();
    expect(log.record(batch!, { lane: 1, op: w!, buffer: buf, start: 16, end: 32 })?.start).toBe(8);
    expect(log.record(batch!, { lane: 2, op: w!, buffer: buf, start: 40, end: 48 })).toBeUndefined();
  });
});
