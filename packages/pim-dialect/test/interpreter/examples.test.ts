/**
 * Every reference example executes on concrete data with a hand-checked result (tensor and
 * memref forms; the example line is used verbatim inside a function that returns its result).
 */
import { f32, ok, run, valuesOf } from './support';

const T = 'tensor<1x4xf32>';

function fn(args: string, body: string, ret: string): string {
  return `func.func @main(${args}) -> ${ret} {\n${body}\n}`;
}

describe('pim vector ops (reference examples)', () => {
  const unaryCase = (op: string, x: number[], expected: number[], dstType = T, dst = [9, 9, 9, 9]) => {
    const text = fn(
      `%x: ${T}, %dst: ${dstType}`,
      `%y = pim.${op}(%x, %dst) : (${T}, ${dstType}) -> ${dstType}\nreturn %y : ${dstType}`,
      dstType
    );
    const shape = dstType === T ? [1, 4] : [1, 1];
    const [y] = ok(run(text, 'main', [f32([1, 4], x), f32(shape, dst.slice(0, shape[1]))]));
    expect(valuesOf(y)).toEqual(expected.map(Math.fround));
  };
  it('vrelu', () => unaryCase('vrelu', [-1, 0, 2, -3.5], [0, 0, 2, 0]));
  it('vsigm', () => unaryCase('vsigm', [0, 1, -1, 2], [0.5, 1 / (1 + Math.exp(-1)), 1 / (1 + Math.exp(1)), 1 / (1 + Math.exp(-2))]));
  it('vtanh', () => unaryCase('vtanh', [0, 1, -1, 0.5], [0, Math.tanh(1), Math.tanh(-1), Math.tanh(0.5)]));
  it('vsoftmax', () => {
    const e = [1, 2, 3, 4].map((v) => Math.exp(v - 4));
    const s = e.reduce((a, b) => a + b, 0);
    unaryCase(
      'vsoftmax',
      [1, 2, 3, 4],
      e.map((v) => v / s)
    );
  });
  it('vavg writes the mean into the 1x1 destination', () => unaryCase('vavg', [1, 2, 3, 6], [3], 'tensor<1x1xf32>'));

  const binaryCase = (op: string, expected: number[], dstType = T) => {
    const text = fn(
      `%a: ${T}, %b: ${T}, %dst: ${dstType}`,
      `%y = pim.${op}(%a, %b, %dst) : (${T}, ${T}, ${dstType}) -> ${dstType}\nreturn %y : ${dstType}`,
      dstType
    );
    const shape = dstType === T ? [1, 4] : [1, 1];
    const [y] = ok(
      run(text, 'main', [f32([1, 4], [1, -2, 3, 0.5]), f32([1, 4], [4, 5, -6, 2]), f32(shape, [7, 7, 7, 7].slice(0, shape[1]))])
    );
    expect(valuesOf(y)).toEqual(expected);
  };
  it('vvadd', () => binaryCase('vvadd', [5, 3, -3, 2.5]));
  it('vvsub', () => binaryCase('vvsub', [-3, -7, 9, -1.5]));
  it('vvmul', () => binaryCase('vvmul', [4, -10, -18, 1]));
  it('vvmax', () => binaryCase('vvmax', [4, 5, 3, 2]));
  it('vvdmul', () => binaryCase('vvdmul', [4 - 10 - 18 + 1], 'tensor<1x1xf32>'));

  it('vmm: 1x4 row times a 4x3 matrix', () => {
    const text = fn(
      `%weight: tensor<4x3xf32>, %x: ${T}, %dst: tensor<1x3xf32>`,
      '%y = pim.vmm[%weight](%x, %dst) : (tensor<4x3xf32>, tensor<1x4xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>\nreturn %y : tensor<1x3xf32>',
      'tensor<1x3xf32>'
    );
    const w = [1, 0, 2, 0, 1, 0, 1, 1, 1, 0, 0, 3];
    const [y] = ok(run(text, 'main', [f32([4, 3], w), f32([1, 4], [1, 2, 3, 4]), f32([1, 3], [0, 0, 0])]));
    // y[j] = sum_i x[i] W[i][j]: [1+3, 2+3, 2+3+12]
    expect(valuesOf(y)).toEqual([4, 5, 17]);
  });

  it('transpose: y[j, i] = x[i, j]', () => {
    const text = fn(
      '%x: tensor<2x3xf32>, %dst: tensor<3x2xf32>',
      '%y = pim.transpose(%x, %dst) {permutation = [1, 0]} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>\nreturn %y : tensor<3x2xf32>',
      'tensor<3x2xf32>'
    );
    const [y] = ok(run(text, 'main', [f32([2, 3], [1, 2, 3, 4, 5, 6]), f32([3, 2], [0, 0, 0, 0, 0, 0])]));
    expect(valuesOf(y)).toEqual([1, 4, 2, 5, 3, 6]);
  });

  it('concat: axis 1 joins two 1x2 rows', () => {
    const text = fn(
      '%a: tensor<1x2xf32>, %b: tensor<1x2xf32>, %dst: tensor<1x4xf32>',
      '%y = pim.concat axis 1 %a, %b into %dst : (tensor<1x2xf32> x2) -> tensor<1x4xf32>\nreturn %y : tensor<1x4xf32>',
      T
    );
    const [y] = ok(run(text, 'main', [f32([1, 2], [1, 2]), f32([1, 2], [3, 4]), f32([1, 4], [0, 0, 0, 0])]));
    expect(valuesOf(y)).toEqual([1, 2, 3, 4]);
  });

  it('tensor destinations are not mutated (value semantics)', () => {
    const text = fn(`%x: ${T}, %dst: ${T}`, `%y = pim.vrelu(%x, %dst) : (${T}, ${T}) -> ${T}\nreturn %y : ${T}`, T);
    const dst = f32([1, 4], [9, 9, 9, 9]);
    ok(run(text, 'main', [f32([1, 4], [1, 1, 1, 1]), dst]));
    expect(valuesOf(dst)).toEqual([9, 9, 9, 9]);
  });

  it('memref form: vrelu writes the destination in place', () => {
    const M = 'memref<1x4xf32>';
    const text = fn(`%x: ${M}, %dst: ${M}`, `%y = pim.vrelu(%x, %dst) : (${M}, ${M}) -> ${M}\nreturn`, '()');
    const dst = f32([1, 4], [9, 9, 9, 9], 'buffer');
    ok(run(text, 'main', [f32([1, 4], [-1, 2, -3, 4], 'buffer'), dst]));
    expect(valuesOf(dst)).toEqual([0, 2, 0, 4]);
  });
});

describe('pim copies (reference examples)', () => {
  it('memcp: 16 bytes at zero offsets (memref form, in place)', () => {
    const M = 'memref<1x4xf32>';
    const text = fn(
      `%dst: ${M}, %src: ${M}`,
      `%zero = arith.constant 0 : index\n%y = pim.memcp[%zero, %zero](%dst, %src) {size = 16 : i32} : ${M}, ${M} -> ${M}\nreturn`,
      '()'
    );
    const dst = f32([1, 4], [0, 0, 0, 0], 'buffer');
    ok(run(text, 'main', [dst, f32([1, 4], [1, 2, 3, 4], 'buffer')]));
    expect(valuesOf(dst)).toEqual([1, 2, 3, 4]);
  });

  it.each(['memcp', 'memcp_hd', 'memcp_dh'])('%s: byte offsets, partial write keeps the other bytes (tensor form)', (op) => {
    const text = fn(
      `%dst: ${T}, %src: ${T}`,
      `%dstOffset = arith.constant 4 : index\n%srcOffset = arith.constant 8 : index\n%y = pim.${op}[%dstOffset, %srcOffset](%dst, %src) {size = 8 : i32} : ${T}, ${T} -> ${T}\nreturn %y : ${T}`,
      T
    );
    const [y] = ok(run(text, 'main', [f32([1, 4], [9, 9, 9, 9]), f32([1, 4], [1, 2, 3, 4])]));
    expect(valuesOf(y)).toEqual([9, 3, 4, 9]);
  });

  it('vmv: stride 2 selects source elements 0, 2, 4, 6', () => {
    const text = fn(
      '%dst: memref<1x4xf32>, %src: memref<1x8xf32>',
      '%zero = arith.constant 0 : index\n%stride = arith.constant 2 : index\n%y = pim.vmv[%zero, %zero, %stride](%dst, %src) {length = 4 : i32} : memref<1x4xf32>, memref<1x8xf32> -> memref<1x4xf32>\nreturn',
      '()'
    );
    const dst = f32([1, 4], [0, 0, 0, 0], 'buffer');
    ok(run(text, 'main', [dst, f32([1, 8], [10, 11, 12, 13, 14, 15, 16, 17], 'buffer')]));
    expect(valuesOf(dst)).toEqual([10, 12, 14, 16]);
  });

  it('vmv: byte offsets on both sides (tensor form)', () => {
    const text = fn(
      '%dst: tensor<1x4xf32>, %src: tensor<1x8xf32>',
      '%d = arith.constant 4 : index\n%s = arith.constant 4 : index\n%stride = arith.constant 3 : index\n%y = pim.vmv[%d, %s, %stride](%dst, %src) {length = 2 : i32} : tensor<1x4xf32>, tensor<1x8xf32> -> tensor<1x4xf32>\nreturn %y : tensor<1x4xf32>',
      T
    );
    const [y] = ok(run(text, 'main', [f32([1, 4], [0, 0, 0, 0]), f32([1, 8], [10, 11, 12, 13, 14, 15, 16, 17])]));
    expect(valuesOf(y)).toEqual([0, 11, 14, 0]);
  });
});

describe('pim core streams (reference examples)', () => {
  it('pim.core and pim.core_batch with only pim.halt run', () => {
    const text = `func.func @main() {
  pim.core [] = [] coreId 0 : [] -> () {
    pim.halt
  }
  pim.core_batch %lane = 0 to 2 [] = [] () = () coreIds [1, 2] : [] () -> () {
    pim.halt
  }
  pim.core_batch %lane = 0 to 4 [] = [] () = () coreIds [3 to 6] : [] () -> () {
    pim.halt
  }
  return
}`;
    expect(ok(run(text, 'main', []))).toEqual([]);
  });

  it('send/receive: core 0 sends 16 bytes, core 1 receives them and stores them to the host', () => {
    const M = 'memref<1x4xf32>';
    const text = `func.func @main(%in: ${M}, %out: ${M}) {
  pim.core [] = [] coreId 0 : [] -> () {
    %zero = arith.constant 0 : index
    %target = arith.constant 1 : index
    %x0 = memref.alloc() : ${M}
    %x = pim.memcp_hd[%zero, %zero](%x0, %in) {size = 16 : i32} : ${M}, ${M} -> ${M}
    pim.send(%x, %target) {size = 16 : i32} : ${M} -> ()
    pim.halt
  }
  pim.core [] = [] coreId 1 : [] -> () {
    %zero = arith.constant 0 : index
    %source = arith.constant 0 : index
    %dst = memref.alloc() : ${M}
    %y = pim.receive[%zero](%dst, %source) {size = 16 : i32} : ${M} -> ${M}
    %r = pim.vrelu(%y, %y) : (${M}, ${M}) -> ${M}
    %o = pim.memcp_dh[%zero, %zero](%out, %r) {size = 16 : i32} : ${M}, ${M} -> ${M}
    pim.halt
  }
  return
}`;
    const out = f32([1, 4], [0, 0, 0, 0], 'buffer');
    ok(run(text, 'main', [f32([1, 4], [1, -2, 3, -4], 'buffer'), out]));
    expect(valuesOf(out)).toEqual([1, 0, 3, 0]);
  });

  it('sync/wait: the reader waits for two signals before loading the host slot', () => {
    const M = 'memref<1x2xf32>';
    const text = `func.func @main(%slot: ${M}, %out: ${M}, %in: ${M}) {
  pim.core_batch %lane = 0 to 2 [] = [] () = () coreIds [0, 1] : [] () -> () {
    %c2 = arith.constant 2 : index
    %event = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %off = arith.muli %lane, %c4 : index
    %b = memref.alloc() : ${M}
    %x = pim.memcp_hd[%zero0, %off](%b, %in) {size = 4 : i32} : ${M}, ${M} -> ${M}
    %w = pim.memcp_dh[%off, %zero0](%slot, %x) {size = 4 : i32} : ${M}, ${M} -> ${M}
    pim.sync %c2 event %event
    pim.halt
  }
  pim.core [] = [] coreId 2 : [] -> () {
    %zero = arith.constant 0 : index
    %event = arith.constant 0 : index
    %count = arith.constant 2 : index
    pim.wait %event value %count
    %b = memref.alloc() : ${M}
    %x = pim.memcp_hd[%zero, %zero](%b, %slot) {size = 8 : i32} : ${M}, ${M} -> ${M}
    %s = pim.vvadd(%x, %x, %x) : (${M}, ${M}, ${M}) -> ${M}
    %o = pim.memcp_dh[%zero, %zero](%out, %s) {size = 8 : i32} : ${M}, ${M} -> ${M}
    pim.halt
  }
  return
}`
      .replace(/%zero0/g, '%c0')
      .replace('%c2 = arith.constant 2 : index', '%c2 = arith.constant 2 : index\n    %c0 = arith.constant 0 : index');
    const out = f32([1, 2], [0, 0], 'buffer');
    const slot = f32([1, 2], [0, 0], 'buffer');
    ok(run(text, 'main', [slot, out, f32([1, 2], [1.5, 2.5], 'buffer')]));
    expect(valuesOf(slot)).toEqual([1.5, 2.5]);
    expect(valuesOf(out)).toEqual([3, 5]);
  });

  it('send/receive on tensors (the reference form): the received tensor keeps the other destination bytes', () => {
    const text = `func.func @main(%in: memref<1x4xf32>, %out: memref<1x4xf32>) {
  pim.core [] = [] coreId 0 : [] -> () {
    %zero = arith.constant 0 : index
    %target = arith.constant 1 : index
    %e = tensor.empty() : tensor<1x4xf32>
    %x = pim.memcp_hd[%zero, %zero](%e, %in) {size = 16 : i32} : tensor<1x4xf32>, memref<1x4xf32> -> tensor<1x4xf32>
    pim.send(%x, %target) {size = 8 : i32} : tensor<1x4xf32> -> ()
    pim.halt
  }
  pim.core [] = [] coreId 1 : [] -> () {
    %zero = arith.constant 0 : index
    %offset = arith.constant 8 : index
    %source = arith.constant 0 : index
    %cst = arith.constant dense<7.0> : tensor<1x4xf32>
    %y = pim.receive[%offset](%cst, %source) {size = 8 : i32} : tensor<1x4xf32> -> tensor<1x4xf32>
    %o = pim.memcp_dh[%zero, %zero](%out, %y) {size = 16 : i32} : memref<1x4xf32>, tensor<1x4xf32> -> memref<1x4xf32>
    pim.halt
  }
  return
}`;
    const out = f32([1, 4], [0, 0, 0, 0], 'buffer');
    ok(run(text, 'main', [f32([1, 4], [1, 2, 3, 4], 'buffer'), out]));
    expect(valuesOf(out)).toEqual([7, 7, 1, 2]);
  });
});
