import { simulateBundle, runFunctional, compileProgram } from '@raptor-pim/pim-sim';
import type { NpyArray } from '@raptor-pim/pim-sim';
import { asm, f32Bytes, i32Bytes, image, makeBundle, randomFloats, tensor, testTarget, loadPrologue } from './helpers';

const N = 20;
const A = randomFloats(N, 1);
const B = randomFloats(N, 2);

/** Runs `opLine` on A (local 0) and B (local 1024) with r7 = `r7`, result at local 2048 → global 8192. */
function runVector(opLine: string, outCount: number, r7 = 0, opts: { bits?: number; a?: Uint8Array; b?: Uint8Array; outType?: 'f32' | 'i32' | 'i8' } = {}): NpyArray {
  const bits = opts.bits ?? 32;
  const bytes = bits / 8;
  const program = `
    setbw ibiw=${bits}, obiw=${bits}
    sldi r0, 0
    sldi r1, 0
    sldi r2, 0
    ld r2, r0, size=${N * bytes}
    sldi r4, 0
    sldi r5, 4096
    sldi r3, 1024
    ld r3, r4, size=${N * bytes}
    sldi r6, 2048
    sldi r7, ${r7}
    ${opLine}
    sldi r8, 0
    sldi r9, 8192
    st r8, r6, size=${outCount * bytes}
  `;
  const outType = opts.outType ?? 'f32';
  const bundle = makeBundle({
    cores: [program],
    memory: image(16384, [
      [0, opts.a ?? f32Bytes(A)],
      [4096, opts.b ?? f32Bytes(B)],
    ]),
    outputs: [tensor('y', 8192, [outCount], outType)],
  });
  const r = simulateBundle(bundle);
  if (!r.ok) throw new Error(r.error?.message);
  expect(r.outputs).toHaveLength(1);
  return r.outputs[0].array;
}

function expectClose(got: ArrayLike<number>, want: ArrayLike<number>, tol: number): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    if (Math.abs(got[i] - want[i]) > tol) throw new Error(`element ${i}: got ${got[i]}, expected ${want[i]} (tolerance ${tol})`);
  }
}

const f = Math.fround;
const map = (fn: (i: number) => number, n = N): number[] => Array.from({ length: n }, (_, i) => fn(i));

describe('vector ops on f32 against plain TypeScript', () => {
  test('vvadd', () => expectClose(runVector('vvadd r6, r2, r3, len=20', N).data as Float32Array, map((i) => f(A[i] + B[i])), 0));
  test('vvsub', () => expectClose(runVector('vvsub r6, r2, r3, len=20', N).data as Float32Array, map((i) => f(A[i] - B[i])), 0));
  test('vvmul', () => expectClose(runVector('vvmul r6, r2, r3, len=20', N).data as Float32Array, map((i) => f(A[i] * B[i])), 0));
  test('vvmax', () => expectClose(runVector('vvmax r6, r2, r3, len=20', N).data as Float32Array, map((i) => Math.max(A[i], B[i])), 0));
  test('vvdmul (dot product, one element)', () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += A[i] * B[i];
    expectClose(runVector('vvdmul r6, r2, r3, len=20', 1).data as Float32Array, [f(s)], 1e-6);
  });
  test('vrelu', () => expectClose(runVector('vrelu r6, r2, len=20', N).data as Float32Array, map((i) => Math.max(A[i], 0)), 0));
  test('vtanh within 1e-6', () => expectClose(runVector('vtanh r6, r2, len=20', N).data as Float32Array, map((i) => Math.tanh(A[i])), 1e-6));
  test('vsigm within 1e-6', () =>
    expectClose(runVector('vsigm r6, r2, len=20', N).data as Float32Array, map((i) => 1 / (1 + Math.exp(-A[i]))), 1e-6));
  test('vsoftmax within 1e-6', () => {
    const m = Math.max(...A);
    const e = map((i) => Math.exp(A[i] - m));
    const s = e.reduce((x, y) => x + y, 0);
    const got = runVector('vsoftmax r6, r2, len=20', N).data as Float32Array;
    expectClose(got, e.map((v) => v / s), 1e-6);
    expect(Array.from(got).reduce((x, y) => x + y, 0)).toBeCloseTo(1, 5);
  });
  test('vavg with a stride register', () => {
    let s = 0;
    for (let i = 0; i < 10; i++) s += A[2 * i];
    expectClose(runVector('vavg r6, r2, r7, len=10', 1, 2).data as Float32Array, [f(s / 10)], 1e-6);
  });
  test('vmv gathers with a stride', () =>
    expectClose(runVector('vmv r6, r2, r7, len=10', 10, 2).data as Float32Array, map((i) => A[2 * i], 10), 0));
  test('vrsu clamps from above by a register bound', () =>
    expectClose(runVector('vrsu r6, r2, r7, len=20', N, 0).data as Float32Array, map((i) => Math.min(A[i], 0)), 0));
  test('vrsl clamps from below by a register bound', () =>
    expectClose(runVector('vrsl r6, r2, r7, len=20', N, 0).data as Float32Array, map((i) => Math.max(A[i], 0)), 0));
  test('offset select applies element offsets (ISA reading)', () => {
    // The offset (2 elements) applies to rs1 (sel bit1) and rd (sel bit0): d[2 + i] = relu(a[2 + i]).
    const got = runVector('vrelu r6, r2, len=18, sel=3, off=2', N).data as Float32Array;
    expect([got[0], got[1]]).toEqual([0, 0]);
    expect(got[2]).toBe(Math.max(A[2], 0));
    expect(got[19]).toBe(Math.max(A[19], 0));
  });
});

describe('integer element widths', () => {
  const ia = Int32Array.from({ length: N }, (_, i) => i * 7 - 50);
  const ib = Int32Array.from({ length: N }, (_, i) => i % 5);
  test('vvsll and vvsra on i32', () => {
    const sll = runVector('vvsll r6, r2, r3, len=20', N, 0, { a: i32Bytes(ia), b: i32Bytes(ib), outType: 'i32' }).data as Int32Array;
    const sra = runVector('vvsra r6, r2, r3, len=20', N, 0, { a: i32Bytes(ia), b: i32Bytes(ib), outType: 'i32' }).data as Int32Array;
    expect(Array.from(sll)).toEqual(map((i) => ia[i] << ib[i]));
    expect(Array.from(sra)).toEqual(map((i) => ia[i] >> ib[i]));
  });
  test('8-bit vvadd wraps around', () => {
    const a8 = new Uint8Array(Int8Array.from({ length: N }, (_, i) => 100 + i).buffer);
    const b8 = new Uint8Array(Int8Array.from({ length: N }, () => 100).buffer);
    const got = runVector('vvadd r6, r2, r3, len=20', N, 0, { bits: 8, a: a8, b: b8, outType: 'i8' }).data as Int8Array;
    expect(Array.from(got)).toEqual(map((i) => ((((200 + i) & 0xff) ^ 0x80) - 0x80)));
  });
});

describe('transfers', () => {
  test('lldi fills bytes and lmv copies', () => {
    const lldi = runVector('lldi r6, 7, len=12', 3, 0, { outType: 'i32' }).data as Int32Array;
    expect(Array.from(lldi)).toEqual([0x07070707, 0x07070707, 0x07070707]);
    const lmv = runVector('lmv r6, r2, len=80', N).data as Float32Array;
    expectClose(lmv, A, 0);
  });

  test('scalar ops compute with 32-bit wrap-around; sld loads a word from global memory', () => {
    const program = compileProgram(
      asm(`
        sldi r1, 2147483647
        saddi r2, r1, 1
        sldi r3, 6
        sldi r4, -7
        sadd r5, r3, r4
        ssub r6, r3, r4
        smul r7, r3, r4
        smuli r8, r3, 1000000
        sldi r10, 0
        sldi r11, 16
        sld r12, r10, off=4
      `),
    );
    const globalImage = image(64, [[20, i32Bytes([123456])]]);
    const r = runFunctional(
      { xbarRows: 128, xbarCols: 128, cellPrecision: 8, localSize: 1024, globalSize: 64, elementType: 'f32' },
      { programs: [program], groups: [[1]], globalImage },
    );
    expect(r.error).toBeUndefined();
    const regs = r.registers[0];
    expect(regs[2]).toBe(-2147483648);
    expect([regs[5], regs[6], regs[7], regs[8]]).toEqual([-1, 13, -42, 6000000]);
    expect(regs[12]).toBe(123456);
  });
});

describe('mvmul against a naive matrix product', () => {
  function run(groupSize: number, relu: boolean): void {
    const rows = 128;
    const cols = 128 * groupSize;
    const x = randomFloats(rows, 11);
    const w = randomFloats(rows * cols, 12);
    const want = new Array<number>(cols).fill(0);
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) want[j] += x[i] * w[i * cols + j];
    const expected = want.map((v) => (relu && v < 0 ? 0 : v));
    const bundle = makeBundle({
      cores: [
        `
        ${loadPrologue(512)}
        sldi r6, 1024
        mvmul r6, r2, mbiw=8, relu=${relu ? 1 : 0}, group=0
        sldi r8, 0
        sldi r9, 8192
        st r8, r6, size=${cols * 4}
      `,
      ],
      groups: [[groupSize]],
      memory: image(8192, [[0, f32Bytes(x)]]),
      weights: [{ core: 0, group: 0, rows, cols, elementType: 'f32', data: f32Bytes(w) }],
      outputs: [tensor('y', 8192, [cols])],
    });
    const r = simulateBundle(bundle);
    expect(r.error).toBeUndefined();
    expectClose(r.outputs[0].array.data as Float32Array, expected, 1e-5);
  }
  test('one crossbar', () => run(1, false));
  test('two crossbars side by side, relu', () => run(2, true));
});

describe('multi-core communication', () => {
  test('send/recv moves data between cores in program order', () => {
    const bundle = makeBundle({
      cores: [
        `
        ${loadPrologue(80)}
        send r2, r2, core=1, size=40
        sldi r3, 40
        send r3, r3, core=1, size=40
      `,
        `
        setbw ibiw=32, obiw=32
        sldi r2, 1000
        recv r2, core=0, size=40
        sldi r3, 960
        recv r3, core=0, size=40
        sldi r8, 0
        sldi r9, 8192
        sldi r4, 960
        st r8, r4, size=80
      `,
      ],
      memory: image(8192, [[0, f32Bytes(A)]]),
      outputs: [tensor('y', 8192, [N])],
    });
    const r = simulateBundle(bundle);
    expect(r.error).toBeUndefined();
    const got = r.outputs[0].array.data as Float32Array;
    // Second half of A lands at 960 (first), first half at 1000.
    expectClose(got.subarray(0, 10), A.subarray(10, 20), 0);
    expectClose(got.subarray(10, 20), A.subarray(0, 10), 0);
    expect(r.timing!.cores[1].bytes.received).toBe(80);
  });

  test('host-routed producer/consumer with sync/wait', () => {
    const bundle = makeBundle({
      cores: [
        `
        ${loadPrologue(80)}
        vrelu r2, r2, len=20
        sldi r4, 0
        sldi r5, 4096
        st r4, r2, size=80
        sync ev=3, core=1
      `,
        `
        setbw ibiw=32, obiw=32
        wait ev=3, value=1
        sldi r4, 0
        sldi r5, 4096
        sldi r2, 0
        ld r2, r4, size=80
        vvadd r2, r2, r2, len=20
        sldi r8, 0
        sldi r9, 8192
        st r8, r2, size=80
      `,
      ],
      memory: image(8192, [[0, f32Bytes(A)]]),
      outputs: [tensor('y', 8192, [N])],
    });
    const r = simulateBundle(bundle);
    expect(r.error).toBeUndefined();
    expectClose(r.outputs[0].array.data as Float32Array, map((i) => 2 * Math.max(A[i], 0)), 0);
    // The consumer cannot finish before the producer's sync.
    expect(r.timing!.cores[1].finishNs).toBeGreaterThan(r.timing!.cores[0].finishNs);
  });

  test('model inputs given by name are written to global memory', () => {
    const bundle = makeBundle({
      cores: [
        `
        ${loadPrologue(80, { global: 256 })}
        vrelu r2, r2, len=20
        sldi r8, 0
        sldi r9, 8192
        st r8, r2, size=80
      `,
      ],
      inputs: [tensor('x', 256, [1, N])],
      outputs: [tensor('y', 8192, [1, N])],
      target: testTarget(),
    });
    const r = simulateBundle(bundle, { inputs: { x: { dtype: 'f32', shape: [1, N], data: B } } });
    expect(r.error).toBeUndefined();
    expect(r.outputs[0].array.shape).toEqual([1, N]);
    expectClose(r.outputs[0].array.data as Float32Array, map((i) => Math.max(B[i], 0)), 0);
    const bad = simulateBundle(bundle, { inputs: { z: { dtype: 'f32', shape: [1], data: new Float32Array(1) } } });
    expect(bad.error?.kind).toBe('invalid-input');
    expect(bad.error?.message).toContain("no model input named 'z'");
  });
});

describe('nop and compatibility flags', () => {
  test('nop changes nothing and is flagged as crashing pimsim-nn', () => {
    const got = runVector('nop', N, 0, {}).data as Float32Array;
    expect(Array.from(got)).toEqual(new Array(N).fill(0));
    const r = simulateBundle(makeBundle({ cores: ['setbw ibiw=8, obiw=8\nnop\nsldi r1, 1\nlldi r1, 0, len=4'] }));
    expect(r.ok).toBe(true);
    expect(r.compatibility.pimsimCompatible).toBe(false);
    expect(r.compatibility.notes.join('\n')).toContain('nop');
  });
});

