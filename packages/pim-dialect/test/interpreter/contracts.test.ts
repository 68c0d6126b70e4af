/** Contract violations the interpreter can see stop the run with a diagnostic naming the ops. */
import { f32, failure, run } from './support';

const M = 'memref<1x4xf32>';

function twoCores(core0: string, core1: string, args = ''): string {
  return `func.func @main(${args}) {
  pim.core [] = [] coreId 0 : [] -> () {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %b = memref.alloc() : ${M}
${core0}
    pim.halt
  }
  pim.core [] = [] coreId 1 : [] -> () {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %b = memref.alloc() : ${M}
${core1}
    pim.halt
  }
  return
}`;
}

describe('pim interpreter contract violations', () => {
  it('mismatched send/receive sizes name both ops', () => {
    const text = twoCores(
      `    pim.send(%b, %c1) {size = 16 : i32} : ${M} -> ()`,
      `    %y = pim.receive[%c0](%b, %c0) {size = 8 : i32} : ${M} -> ${M}`
    );
    expect(failure(run(text, 'main', []))).toBe("transfer size mismatch: 'pim.send' sends 16 bytes, 'pim.receive' expects 8");
  });

  it('a receive with no sender', () => {
    const text = twoCores('', `    %y = pim.receive[%c0](%b, %c0) {size = 16 : i32} : ${M} -> ${M}`);
    expect(failure(run(text, 'main', []))).toBe(
      "'pim.receive' on core 1 waits for core 0, which has no matching send (finished or halted)"
    );
  });

  it('a send with no receiver', () => {
    const text = twoCores(`    pim.send(%b, %c1) {size = 16 : i32} : ${M} -> ()`, '');
    expect(failure(run(text, 'main', []))).toBe("'pim.send' on core 0 sends to core 1, which finished without a matching receive");
  });

  it('all cores blocked (receive/receive cycle)', () => {
    const text = twoCores(
      `    %y = pim.receive[%c0](%b, %c1) {size = 16 : i32} : ${M} -> ${M}\n    pim.send(%b, %c1) {size = 16 : i32} : ${M} -> ()`,
      `    %y = pim.receive[%c0](%b, %c0) {size = 16 : i32} : ${M} -> ${M}\n    pim.send(%b, %c0) {size = 16 : i32} : ${M} -> ()`
    );
    expect(failure(run(text, 'main', []))).toBe(
      "all cores are blocked: core 0 at op 4 of 'pim.core' ('pim.receive'): waits for data from core 1; core 1 at op 4 of 'pim.core' ('pim.receive'): waits for data from core 0"
    );
  });

  it('the deadlock report has one note per blocked stream at its blocked op (a send nobody receives)', () => {
    const text = twoCores(
      `    pim.send(%b, %c1) {size = 16 : i32} : ${M} -> ()`,
      `    pim.wait %c0 value %c1`
    );
    const r = run(text, 'main', []);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic.message).toBe(
      "all cores are blocked: core 0 at op 4 of 'pim.core' ('pim.send'): waits for core 1 to receive; core 1 at op 4 of 'pim.core' ('pim.wait'): waits for event register 0 to reach 1 (now 0)"
    );
    expect(r.diagnostic.notes.map((n) => n.message)).toEqual([
      'core 0 blocked: waits for core 1 to receive',
      'core 1 blocked: waits for event register 0 to reach 1 (now 0)',
    ]);
    expect(r.op.name).toBe('pim.send');
  });

  it('all cores blocked (a wait that is never signalled)', () => {
    const text = twoCores(`    pim.wait %c0 value %c1`, `    pim.wait %c0 value %c1`);
    expect(failure(run(text, 'main', []))).toBe(
      "all cores are blocked: core 0 at op 4 of 'pim.core' ('pim.wait'): waits for event register 0 to reach 1 (now 0); core 1 at op 4 of 'pim.core' ('pim.wait'): waits for event register 0 to reach 1 (now 0)"
    );
  });

  it('a wait that overshoots', () => {
    const text = twoCores(`    pim.sync %c1 event %c0\n    pim.sync %c1 event %c0`, `    pim.wait %c0 value %c1`);
    expect(failure(run(text, 'main', []))).toBe("'pim.wait' on core 1: event register 0 holds 2, beyond the expected count 1");
  });

  it('out-of-bounds byte range (memcp source)', () => {
    const text = `func.func @main(%dst: ${M}, %src: ${M}) {
  %c8 = arith.constant 8 : index
  %y = pim.memcp[%c8, %c8](%dst, %src) {size = 16 : i32} : ${M}, ${M} -> ${M}
  return
}`;
    expect(failure(run(text, 'main', [f32([1, 4], [0, 0, 0, 0], 'buffer'), f32([1, 4], [0, 0, 0, 0], 'buffer')]))).toBe(
      "'pim.memcp': source byte range [8, 24) is out of bounds of a 16-byte buffer"
    );
  });

  it('out-of-bounds byte range (receive destination)', () => {
    const text = twoCores(
      `    pim.send(%b, %c1) {size = 16 : i32} : ${M} -> ()`,
      `    %c4 = arith.constant 4 : index\n    %y = pim.receive[%c4](%b, %c0) {size = 16 : i32} : ${M} -> ${M}`
    );
    expect(failure(run(text, 'main', []))).toBe("'pim.receive': destination byte range [4, 20) is out of bounds of a 16-byte buffer");
  });

  it('out-of-bounds byte range (vmv strided source)', () => {
    const text = `func.func @main(%dst: ${M}, %src: ${M}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %y = pim.vmv[%c0, %c0, %c2](%dst, %src) {length = 3 : i32} : ${M}, ${M} -> ${M}
  return
}`;
    expect(failure(run(text, 'main', [f32([1, 4], [0, 0, 0, 0], 'buffer'), f32([1, 4], [0, 0, 0, 0], 'buffer')]))).toBe(
      "'pim.vmv': source byte range [0, 20) is out of bounds of a 16-byte buffer"
    );
  });

  it('overlapping host writes by two lanes', () => {
    const text = `func.func @main(%out: ${M}) {
  pim.core_batch %lane = 0 to 2 [] = [] () = () coreIds [0, 1] : [] () -> () {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %off = arith.muli %lane, %c4 : index
    %b = memref.alloc() : ${M}
    %o = pim.memcp_dh[%off, %c0](%out, %b) {size = 8 : i32} : ${M}, ${M} -> ${M}
    pim.halt
  }
  return
}`;
    expect(failure(run(text, 'main', [f32([1, 4], [0, 0, 0, 0], 'buffer')]))).toBe(
      "lanes 0 ('pim.memcp_dh') and 1 ('pim.memcp_dh') both write host bytes [4, 8)"
    );
  });

  it('disjoint host writes by two lanes are fine', () => {
    const text = `func.func @main(%out: ${M}) {
  pim.core_batch %lane = 0 to 2 [] = [] () = () coreIds [0, 1] : [] () -> () {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %off = arith.muli %lane, %c8 : index
    %b = memref.alloc() : ${M}
    %o = pim.memcp_dh[%off, %c0](%out, %b) {size = 8 : i32} : ${M}, ${M} -> ${M}
    pim.halt
  }
  return
}`;
    expect(run(text, 'main', [f32([1, 4], [1, 1, 1, 1], 'buffer')]).ok).toBe(true);
  });

  it('a transfer to a core that runs no stream', () => {
    const text = twoCores(`    %c7 = arith.constant 7 : index\n    pim.sync %c7 event %c0`, '');
    expect(failure(run(text, 'main', []))).toBe("'pim.sync' targets core 7, which runs no stream");
  });

  it('two streams on one core', () => {
    const text = `func.func @main() {
  pim.core [] = [] coreId 0 : [] -> () {
    pim.halt
  }
  pim.core_batch %lane = 0 to 2 [] = [] () = () coreIds [1, 0] : [] () -> () {
    pim.halt
  }
  return
}`;
    expect(failure(run(text, 'main', []))).toBe('core 0 runs more than one stream');
  });

  it('a stream op outside a core', () => {
    const text = `func.func @main() {
  %c0 = arith.constant 0 : index
  pim.sync %c0 event %c0
  return
}`;
    expect(failure(run(text, 'main', []))).toBe("'pim.sync' executes only inside a pim.core or pim.core_batch stream");
  });

  it('a core batch without coreIds cannot be placed', () => {
    const text = `func.func @main() {
  pim.core_batch %lane = 0 to 2 [] = [] () = () : [] () -> () {
    pim.halt
  }
  return
}`;
    expect(failure(run(text, 'main', []))).toBe('coreIds has 0 entries for 2 lanes');
  });

  it('constants between core ops do not split a group: cores on both sides communicate', () => {
    // Regression: after canonicalize/cse, host constants sit between the pim.core ops of a group;
    // the group used to end at the first of them, so a send to a core after it had no receiver.
    const text = `func.func @main() {
  %n = arith.constant 0 : index
  pim.core [] = [] coreId 0 : [] -> () {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    pim.sync %c1 event %c0
    pim.halt
  }
  %m = arith.constant 1 : index
  pim.core [] = [] coreId 1 : [] -> () {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    pim.wait %c0 value %c1
    pim.halt
  }
  return
}`;
    expect(run(text, 'main', []).ok).toBe(true);
  });

  it('event registers persist across core groups: a second wait sees no stale count', () => {
    // Group 1 signals core 0 twice and waits for 2 (reset to 0); group 2 waits again and deadlocks.
    const text = `func.func @main() {
  pim.core [] = [] coreId 0 : [] -> () {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    pim.sync %c0 event %c0
    pim.sync %c0 event %c0
    pim.wait %c0 value %c2
    pim.halt
  }
  %x = arith.constant 0 : index
  pim.core [] = [] coreId 0 : [] -> () {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    pim.wait %c0 value %c1
    pim.halt
  }
  return
}`;
    expect(failure(run(text, 'main', []))).toBe("all cores are blocked: core 0 at op 3 of 'pim.core' ('pim.wait'): waits for event register 0 to reach 1 (now 0)");
  });

  it('vector rules: an input wider than the vmm weight', () => {
    const text = `func.func @main(%w: tensor<2x3xf32>, %x: tensor<1x4xf32>, %dst: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %y = pim.vmm[%w](%x, %dst) : (tensor<2x3xf32>, tensor<1x4xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}`;
    expect(failure(run(text, 'main', [f32([2, 3], [0, 0, 0, 0, 0, 0]), f32([1, 4], [0, 0, 0, 0]), f32([1, 3], [0, 0, 0])]))).toBe(
      "'pim.vmm': input width 4 exceeds the 2 weight rows"
    );
  });
});
