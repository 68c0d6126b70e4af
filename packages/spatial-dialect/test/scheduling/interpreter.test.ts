// The scheduling interpreter: reference examples on concrete data (hand-checked results),
// multi-core runs with channels, host slots and event registers, and one test per contract
// violation the interpreter detects.
import { ShapedValue, printOperation, renderDiagnostic, type MLIRContext } from '@raptor-pim/ir-core';
import { makeContext, parse, run, tensor } from './support/context';

const T = 'tensor<1x4xf32>';

function compile(text: string): { ctx: MLIRContext; module: NonNullable<ReturnType<typeof parse>['module']> } {
  const ctx = makeContext();
  const { module, errors } = parse(ctx, text);
  if (!module) throw new Error(errors.join('\n'));
  return { ctx, module };
}

function values(v: unknown): number[] {
  return Array.from((v as ShapedValue).toContiguousArray() as Float32Array);
}

function runOk(text: string, fn: string, args: (ctx: MLIRContext) => unknown[]): unknown[] {
  const { ctx, module } = compile(text);
  const r = run(module, fn, args(ctx));
  if (!r.ok) throw new Error(renderDiagnostic(r.diagnostic));
  return [...r.values];
}

function runFail(text: string, fn: string, args: (ctx: MLIRContext) => unknown[]): { message: string; op: string; notes: string[] } {
  const { ctx, module } = compile(text);
  const r = run(module, fn, args(ctx));
  if (r.ok) throw new Error('expected the run to fail');
  return { message: r.diagnostic.message, op: r.op.name, notes: r.diagnostic.notes.map((n) => n.message) };
}

describe('reference examples on concrete data', () => {
  it('spat.scheduled_compute applies ReLU on its core', () => {
    const text = `func.func @main(%x: ${T}) -> ${T} {
  %y = spat.scheduled_compute [] = [] (%arg) = (%x) crossbarWeights 0 : [] (${T}) -> ${T} {
    %v = spat.relu(%arg) : ${T} -> ${T}
    spat.yield %v : ${T}
  }
  return %y : ${T}
}`;
    const [y] = runOk(text, 'main', (ctx) => [tensor(ctx, [1, 4], [-1, 2, -3, 4])]);
    expect(values(y)).toEqual([0, 2, 0, 4]);
  });

  it('spat.scheduled_compute_batch: each lane publishes its ReLU fragment', () => {
    const text = `func.func @main(%x: tensor<2x1x4xf32>) -> tensor<2x1x4xf32> {
  %y = spat.scheduled_compute_batch %lane = 0 to 2 [] = [] (%arg) = (%x) shared_outs(%out) crossbarWeights 0 : [] (tensor<2x1x4xf32>) -> tensor<2x1x4xf32> {
    %fragment = tensor.extract_slice %arg[%lane, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<2x1x4xf32> to ${T}
    %v = spat.relu(%fragment) : ${T} -> ${T}
    spat.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, 1, 4] [1, 1, 1] : ${T} into tensor<2x1x4xf32>
    }
  }
  return %y : tensor<2x1x4xf32>
}`;
    const [y] = runOk(text, 'main', (ctx) => [tensor(ctx, [2, 1, 4], [-1, 2, -3, 4, 5, -6, 7, -8])]);
    expect(values(y)).toEqual([0, 2, 0, 4, 5, 0, 7, 0]);
    expect((y as ShapedValue).shape).toEqual([2, 1, 4]);
  });

  it('spat.deferred_communication forwards its source (nested form names its body arguments)', () => {
    const text = `func.func @main(%x: ${T}) -> ${T} {
  %y = spat.deferred_communication %x : (${T}) -> ${T} (%s) {
    spat.yield %s : ${T}
  }
  return %y : ${T}
}`;
    const [y] = runOk(text, 'main', (ctx) => [tensor(ctx, [1, 4], [1, 2, 3, 4])]);
    expect(values(y)).toEqual([1, 2, 3, 4]);
    // inside a function the printer numbers the body argument %arg1 and names it explicitly
    const { module } = compile(text);
    const printed = printOperation(module);
    expect(printed).toContain(`spat.deferred_communication %arg0 : (${T}) -> ${T} (%arg1) {`);
    const again = parse(makeContext(), printed);
    expect(again.errors).toEqual([]);
    expect(printOperation(again.module!)).toBe(printed);
  });

  it('spat.deferred_communication with two specialization cases stacks sources [a; b]', () => {
    const text = `func.func @main(%a: ${T}, %b: ${T}) -> tensor<2x1x4xf32> {
  %cases = "spat.deferred_communication"(%a, %b) ({
  ^bb0(%a0: ${T}, %b0: ${T}, %case: index):
    %selected = spat.deferred_source_select %case of %a0, %b0 : ${T}
    spat.yield %selected : ${T}
  }) {specialization_count = 2 : i64} : (${T}, ${T}) -> tensor<2x1x4xf32>
  return %cases : tensor<2x1x4xf32>
}`;
    const [y] = runOk(text, 'main', (ctx) => [tensor(ctx, [1, 4], [1, 2, 3, 4]), tensor(ctx, [1, 4], [5, 6, 7, 8])]);
    expect(values(y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('spat.deferred_source_select picks sources[selector] inside a scheduled compute', () => {
    const text = `func.func @main(%sel: index, %a: ${T}, %b: ${T}) -> ${T} {
  %r = spat.scheduled_compute [] = [] (%s, %p, %q) = (%sel, %a, %b) crossbarWeights 0 : [] (index, ${T} x2) -> ${T} {
    %y = spat.deferred_source_select %s of %p, %q : ${T}
    spat.yield %y : ${T}
  }
  return %r : ${T}
}`;
    const args = (ctx: MLIRContext): unknown[] => [1, tensor(ctx, [1, 4], [1, 2, 3, 4]), tensor(ctx, [1, 4], [5, 6, 7, 8])];
    expect(values(runOk(text, 'main', args)[0])).toEqual([5, 6, 7, 8]);
    const bad = runFail(text, 'main', (ctx) => [2, ...args(ctx).slice(1)]);
    expect(bad).toMatchObject({ op: 'spat.deferred_source_select', message: 'selector 2 is out of range for 2 source(s)' });
  });
});

/** Two placed computes: core 1 receives x+relu(x) ... written receiver first to exercise blocking. */
const PIPELINE = (recvType = T, extra = '') => `func.func @main(%x: ${T}) -> ${recvType} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %y = spat.scheduled_compute [] = [] (%b) = (%x) coreId 1 crossbarWeights 0 : [] (${T}) -> ${recvType} {
    "test.keep"(%b) : (${T}) -> ()
    %got = spat.channel_receive channel %c0 from %c0 to %c1 : ${recvType}
    spat.yield %got : ${recvType}
  }
  spat.scheduled_compute [] = [] (%a) = (%x) coreId 0 crossbarWeights 0 : [] (${T}) -> () {
    %r = spat.relu(%a) : ${T} -> ${T}
    spat.channel_send %r channel %c0 from %c0 to %c1 : ${T}
    ${extra}
    spat.yield
  }
  return %y : ${recvType}
}`;

const x4 = (ctx: MLIRContext): unknown[] => [tensor(ctx, [1, 4], [-1, 2, -3, 4])];

describe('multi-core runs', () => {
  it('a receive blocks until the matching send ran on another core', () => {
    expect(values(runOk(PIPELINE(), 'main', x4)[0])).toEqual([0, 2, 0, 4]);
  });

  it('host slots and event registers: store+signal, then wait+load; sync/wait with exact counts', () => {
    const text = `func.func @main(%x: ${T}) -> ${T} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %y = spat.scheduled_compute [] = [] (%b) = (%x) coreId 1 crossbarWeights 0 : [] (${T}) -> ${T} {
    "test.keep"(%b) : (${T}) -> ()
    spat.wait %c1 value %c2
    %got = spat.host_wait_load from %c0 to %c1 host_offset %c16 event %c0 count %c1 : ${T}
    spat.yield %got : ${T}
  }
  spat.scheduled_compute [] = [] (%a) = (%x) coreId 0 crossbarWeights 0 : [] (${T}) -> () {
    spat.sync %c1 event %c1
    %r = spat.relu(%a) : ${T} -> ${T}
    spat.host_store_sync %r from %c0 to %c1 host_offset %c16 event %c0 : ${T}
    spat.sync %c1 event %c1
    spat.yield
  }
  return %y : ${T}
}`;
    expect(values(runOk(text, 'main', x4)[0])).toEqual([0, 2, 0, 4]);
  });

  it('a batch places lanes on cores and lanes talk to each other through channels', () => {
    // lane 0 (core 5) sends its relu to lane 1 (core 6); lane 1 sends x back; both publish.
    const text = `func.func @main(%x: ${T}) -> tensor<2x1x4xf32> {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %y = spat.scheduled_compute_batch %lane = 0 to 2 [] = [] (%arg) = (%x) shared_outs(%out) coreIds [5 to 6] crossbarWeights 0 : [] (${T}) -> tensor<2x1x4xf32> {
    %r = spat.relu(%arg) : ${T} -> ${T}
    %isLane0 = arith.cmpi eq, %lane, %c0 : index
    %v = scf.if %isLane0 -> (${T}) {
      spat.channel_send %r channel %c0 from %c5 to %c6 : ${T}
      scf.yield %arg : ${T}
    } else {
      scf.yield %r : ${T}
    }
    spat.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, 1, 4] [1, 1, 1] : ${T} into tensor<2x1x4xf32>
    }
  }
  %z = spat.scheduled_compute [] = [] (%b) = (%x) coreId 6 crossbarWeights 0 : [] (${T}) -> ${T} {
    "test.keep"(%b) : (${T}) -> ()
    %got = spat.channel_receive channel %c0 from %c5 to %c6 : ${T}
    spat.yield %got : ${T}
  }
  return %y : tensor<2x1x4xf32>
}`;
    expect(values(runOk(text, 'main', x4)[0])).toEqual([-1, 2, -3, 4, 0, 2, 0, 4]);
  });
});

describe('contract violations stop the run with a diagnostic naming the ops', () => {
  it('mismatched send/receive sizes', () => {
    const r = runFail(PIPELINE('tensor<1x2xf32>'), 'main', x4);
    expect(r).toEqual({
      op: 'spat.channel_receive',
      message: 'mismatched transfer on channel 0 from core 0 to core 1: the send carries 16 bytes but the receive expects 8 bytes',
      notes: ['the matching spat.channel_send'],
    });
  });

  it('a receive with no sender', () => {
    const text = `func.func @main(%x: ${T}) -> ${T} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %y = spat.scheduled_compute [] = [] (%b) = (%x) coreId 1 crossbarWeights 0 : [] (${T}) -> ${T} {
    "test.keep"(%b) : (${T}) -> ()
    %got = spat.channel_receive channel %c0 from %c2 to %c1 : ${T}
    spat.yield %got : ${T}
  }
  spat.scheduled_compute [] = [] (%a) = (%x) coreId 0 crossbarWeights 0 : [] (${T}) -> () {
    spat.channel_send %a channel %c0 from %c0 to %c1 : ${T}
    spat.yield
  }
  return %y : ${T}
}`;
    const r = runFail(text, 'main', x4);
    expect(r.op).toBe('spat.channel_receive');
    expect(r.message).toBe('receive on channel 0 from core 2 to core 1 has no sender: no remaining spat.channel_send can match it');
  });

  it('all cores blocked (deadlock) names each core and its blocked op', () => {
    const text = `func.func @main(%x: ${T}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  spat.scheduled_compute [] = [] (%a) = (%x) coreId 0 crossbarWeights 0 : [] (${T}) -> () {
    %got = spat.channel_receive channel %c0 from %c1 to %c0 : ${T}
    spat.channel_send %a channel %c0 from %c0 to %c1 : ${T}
    spat.yield
  }
  spat.scheduled_compute [] = [] (%b) = (%x) coreId 1 crossbarWeights 0 : [] (${T}) -> () {
    %got = spat.channel_receive channel %c0 from %c0 to %c1 : ${T}
    spat.channel_send %b channel %c0 from %c1 to %c0 : ${T}
    spat.yield
  }
  return
}`;
    const r = runFail(text, 'main', x4);
    expect(r.message).toBe("all cores blocked (deadlock): core 0 at op 1 of 'spat.scheduled_compute' ('spat.channel_receive'): waits for data on channel 0 from core 1 to core 0; core 1 at op 1 of 'spat.scheduled_compute' ('spat.channel_receive'): waits for data on channel 0 from core 0 to core 1");
    expect(r.notes).toEqual([
      'core 0 blocked: waits for data on channel 0 from core 1 to core 0',
      'core 1 blocked: waits for data on channel 0 from core 0 to core 1',
    ]);
  });

  it('a wait that never gets its signals is a deadlock naming the wait', () => {
    const text = `func.func @main(%x: ${T}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  spat.scheduled_compute [] = [] (%a) = (%x) coreId 0 crossbarWeights 0 : [] (${T}) -> () {
    "test.keep"(%a) : (${T}) -> ()
    spat.wait %c0 value %c1
    spat.yield
  }
  return
}`;
    const r = runFail(text, 'main', x4);
    expect(r.message).toBe("all cores blocked (deadlock): core 0 at op 2 of 'spat.scheduled_compute' ('spat.wait'): waits for event register 0 on core 0 to reach 1 (has 0)");
    expect(r.notes).toEqual(['core 0 blocked: waits for event register 0 on core 0 to reach 1 (has 0)']);
  });

  it('a wait that overshoots', () => {
    const text = `func.func @main(%x: ${T}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  spat.scheduled_compute [] = [] (%a) = (%x) coreId 1 crossbarWeights 0 : [] (${T}) -> () {
    "test.keep"(%a) : (${T}) -> ()
    spat.wait %c0 value %c1
    spat.yield
  }
  spat.scheduled_compute [] = [] (%a) = (%x) coreId 0 crossbarWeights 0 : [] (${T}) -> () {
    "test.keep"(%a) : (${T}) -> ()
    spat.sync %c1 event %c0
    spat.sync %c1 event %c0
    spat.yield
  }
  return
}`;
    const r = runFail(text, 'main', x4);
    expect(r).toEqual({
      op: 'spat.wait',
      message: 'wait overshoots: event register 0 on core 1 holds 2 signals, more than the awaited 1',
      notes: ["signal from 'spat.sync'", "signal from 'spat.sync'"],
    });
  });

  it('an out-of-bounds host read (bytes never stored)', () => {
    const text = `func.func @main(%x: ${T}) -> ${T} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %y = spat.scheduled_compute [] = [] (%b) = (%x) coreId 1 crossbarWeights 0 : [] (${T}) -> ${T} {
    "test.keep"(%b) : (${T}) -> ()
    %got = spat.host_wait_load from %c0 to %c1 host_offset %c8 event %c0 count %c1 : ${T}
    spat.yield %got : ${T}
  }
  spat.scheduled_compute [] = [] (%a) = (%x) coreId 0 crossbarWeights 0 : [] (${T}) -> () {
    spat.host_store_sync %a from %c0 to %c1 host_offset %c0 event %c0 : ${T}
    spat.yield
  }
  return %y : ${T}
}`;
    const r = runFail(text, 'main', x4);
    expect(r).toMatchObject({ op: 'spat.host_wait_load', message: 'host byte range [8, 24) was never stored (out-of-bounds host read)' });
  });

  it('overlapping writes by two lanes', () => {
    const text = `func.func @main(%x: ${T}) -> tensor<2x1x4xf32> {
  %y = spat.scheduled_compute_batch %lane = 0 to 2 [] = [] (%arg) = (%x) shared_outs(%out) crossbarWeights 0 : [] (${T}) -> tensor<2x1x4xf32> {
    %slot = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%lane)
    spat.in_parallel {
      tensor.parallel_insert_slice %arg into %out[%slot, 0, 0] [1, 1, 4] [1, 1, 1] : ${T} into tensor<2x1x4xf32>
    }
  }
  return %y : tensor<2x1x4xf32>
}`;
    const r = runFail(text, 'main', x4);
    expect(r.op).toBe('tensor.parallel_insert_slice');
    expect(r.message).toMatch(/lane \[0\]/);
    expect(r.message).toMatch(/lane \[1\]/);
  });

  it('a send that is never received', () => {
    const text = `func.func @main(%x: ${T}) {
  %c0 = arith.constant 0 : index
  spat.scheduled_compute [] = [] (%a) = (%x) coreId 0 crossbarWeights 0 : [] (${T}) -> () {
    spat.channel_send %a channel %c0 from %c0 to %c0 : ${T}
    spat.yield
  }
  return
}`;
    expect(runFail(text, 'main', x4)).toMatchObject({
      op: 'spat.channel_send',
      message: 'send on channel 0 from core 0 to core 0 was never received (sends and receives must match in program order)',
    });
  });

  it('a wait on an unplaced core, and communication outside a scheduled compute', () => {
    const unplaced = `func.func @main(%x: ${T}) {
  %c0 = arith.constant 0 : index
  spat.scheduled_compute [] = [] (%a) = (%x) crossbarWeights 0 : [] (${T}) -> () {
    "test.keep"(%a) : (${T}) -> ()
    spat.wait %c0 value %c0
    spat.yield
  }
  return
}`;
    expect(runFail(unplaced, 'main', x4).message).toMatch(/need a placed core/);
    const outside = `func.func @main(%c: index) {
  spat.sync %c event %c
  return
}`;
    expect(runFail(outside, 'main', () => [0]).message).toBe("'spat.sync' executes outside a scheduled compute; communication ops run on scheduled cores");
  });
});
