// pim-bufferize + pim-plan-memory + pim-verify-memory on PIM streams on tensors (the goldens of
// spat-to-pim): the interpreter gives the same outputs on memrefs as on tensors, the plan
// verifies, every planned peak is within 1.05x of its lower bound, and the printed IR matches
// its golden file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printOperation } from '@raptor-pim/ir-core';
import fc from 'fast-check';
import { boxOf, forwardCopiesThroughTemporaries, forwardSliceCopiesToViews, PimBufferizePass, PimPlanMemoryPass, type BufferizeReport, type ModuleMemoryReport } from '../src';
import { FIXTURES, parseOk, randomInputs, readFixture, runPim, runPipeline } from './support/harness';

/** The body of the first `pim.core` of `@main` (the first op of `module`). */
const coreBodyOf = (module: ReturnType<typeof parseOk>) => module.regions[0]!.firstBlock!.firstOp!.regions[0]!.firstBlock!.operations.find((o) => o.name === 'pim.core')!.regions[0]!.firstBlock!;

const CASES = fs.readdirSync(path.join(FIXTURES, 'tensor-streams')).filter((f) => f.endsWith('.mlir'));

describe.each(CASES)('%s', (name) => {
  it('bufferizes, plans and verifies; the memref program computes what the tensor program does', () => {
    const module = parseOk(readFixture(`tensor-streams/${name}`));
    const inputs = randomInputs(module, name.length);
    const expected = runPim(module, inputs);
    let buf: BufferizeReport | undefined;
    let plan: ModuleMemoryReport | undefined;
    const r = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', [
      () => new PimBufferizePass({ onReport: (x) => (buf = x) }),
      () => new PimPlanMemoryPass({ onReport: (x) => (plan = x) }),
    ]);
    expect(r.diagnostics.map((d) => d.message)).toEqual([]);
    expect(r.ok).toBe(true);
    const printed = printOperation(module);
    expect(printed).not.toMatch(/tensor\.empty/);
    expect(runPim(module, inputs)).toEqual(expected);
    expect(buf!.streams).toBeGreaterThan(0);
    for (const s of plan!.streams) {
      expect(s.peak).toBeGreaterThanOrEqual(s.lowerBound);
      expect(s.peak).toBeLessThanOrEqual(Math.ceil(s.lowerBound * 1.05));
    }
    const again = parseOk(printed);
    expect(printOperation(again)).toBe(printed);
    const golden = path.join(FIXTURES, 'planned', name);
    fs.mkdirSync(path.dirname(golden), { recursive: true });
    if (process.env.UPDATE_GOLDEN) fs.writeFileSync(golden, printed);
    expect(fs.existsSync(golden) ? fs.readFileSync(golden, 'utf8') : `missing golden ${name} (UPDATE_GOLDEN=1 writes it)`).toBe(printed);
  });
});

it('copies a destination that is still needed and writes a dead one in place (data-movement.mlir)', () => {
  const module = parseOk(readFixture('tensor-streams/data-movement.mlir'));
  let buf: BufferizeReport | undefined;
  const r = runPipeline(module, 'pim-bufferize', [() => new PimBufferizePass({ onReport: (x) => (buf = x) })]);
  expect(r.ok).toBe(true);
  // tensor.insert_slice into %a, which later ops still read: one copy of %a.
  expect(buf!.copies).toBe(1);
  expect(buf!.inPlace).toBeGreaterThan(5);
});

it('keeps only the rows a reconstruction buffer is accessed in, then forwards the whole copy of the fragment (fragment-reconstruction.mlir)', () => {
  const module = parseOk(readFixture('tensor-streams/fragment-reconstruction.mlir'));
  let buf: BufferizeReport | undefined;
  const r = runPipeline(module, 'pim-bufferize', [() => new PimBufferizePass({ onReport: (x) => (buf = x) })]);
  expect(r.ok).toBe(true);
  // core 1: the 4x4 reconstruction buffer keeps row 2 (offsets rebased), the 4x4 host load its
  // first two rows; the copy of the received row into the reconstruction buffer is dropped.
  expect(buf).toMatchObject({ shrunk: 2, bytesSaved: 48 + 32, forwarded: 1, copies: 0 });
});

it('a reshape copy becomes a view of its source (blueprint-output.mlir: memref.collapse_shape + expand_shape, no memcp)', () => {
  const module = parseOk(readFixture('tensor-streams/blueprint-output.mlir'));
  let buf: BufferizeReport | undefined;
  const r = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', [() => new PimBufferizePass({ onReport: (x) => (buf = x) })]);
  expect(r.diagnostics.map((d) => d.message)).toEqual([]);
  expect(buf!.forwarded).toBe(2);
  const printed = printOperation(module);
  expect(printed.match(/memref\.expand_shape/g)).toHaveLength(2);
  expect(printed).not.toMatch(/pim\.memcp\[[^\]]*\]\([^)]*\) \{size = 32 : i32\} : memref<2x1x4xf32>, memref<2x4xf32>/);
});

it('a window overlap copied through a temporary is copied directly (window-overlap.mlir: one memcp, no 2x4 buffer)', () => {
  const module = parseOk(readFixture('tensor-streams/window-overlap.mlir'));
  let buf: BufferizeReport | undefined;
  const r = runPipeline(module, 'pim-bufferize', [() => new PimBufferizePass({ onReport: (x) => (buf = x) })]);
  expect(r.diagnostics.map((d) => d.message)).toEqual([]);
  expect(buf!.temporariesForwarded).toBe(1);
  const printed = printOperation(module);
  expect(printed).not.toMatch(/memref<2x4xf32>/);
  // Rows 2..3 of the loaded window (byte 32) go straight to the start of the next one.
  expect(printed).toMatch(/pim\.memcp\[%c0, %c32\]\(%\w+, %\w+\) \{size = 32 : i32\} : memref<4x4xf32>, memref<4x4xf32>/);
});

describe('forwardCopiesThroughTemporaries', () => {
  /** A core whose temporary %t takes 8 bytes of %w at byte `from` and is read by `reads`, after `between`. */
  const core = (between: string, reads: string): string => `module {
  func.func @main(%arg0: memref<4x4xf32>) {
    pim.core [] = [] coreId 0 : [] -> () {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %w = memref.alloc() : memref<4x4xf32>
      %l = pim.memcp_hd[%c0, %c0](%w, %arg0) {size = 64 : i32} : memref<4x4xf32>, memref<4x4xf32> -> memref<4x4xf32>
      %n = memref.alloc() : memref<4x4xf32>
      %t = memref.alloc() : memref<1x4xf32>
      %0 = pim.memcp[%c4, %c16](%t, %w) {size = 8 : i32} : memref<1x4xf32>, memref<4x4xf32> -> memref<1x4xf32>
      ${between}
      ${reads}
      %s = pim.memcp_dh[%c0, %c0](%arg0, %n) {size = 64 : i32} : memref<4x4xf32>, memref<4x4xf32> -> memref<4x4xf32>
      pim.halt
    }
    return
  }
}`;

  it('reads inside the written bytes copy from the source at the shifted offset; the temporary goes', () => {
    const module = parseOk(core('', '%1 = pim.memcp[%c0, %c4](%n, %t) {size = 4 : i32} : memref<4x4xf32>, memref<1x4xf32> -> memref<4x4xf32>\n      %2 = pim.memcp[%c16, %c8](%n, %t) {size = 4 : i32} : memref<4x4xf32>, memref<1x4xf32> -> memref<4x4xf32>'));
    expect(forwardCopiesThroughTemporaries(coreBodyOf(module))).toBe(1);
    const printed = printOperation(module);
    expect(printed).not.toMatch(/memref<1x4xf32>/);
    // Byte 4 of %t is byte 16 of %w; byte 8 of %t is byte 20.
    expect(printed).toMatch(/pim\.memcp\[%c0, %c16\]\(%alloc_0, %alloc\) \{size = 4 : i32\}/);
    expect(printed).toMatch(/pim\.memcp\[%c16, %c20\]\(%alloc_0, %alloc\) \{size = 4 : i32\}/);
  });

  it('leaves the temporary when the source may change before a read, a read leaves the written bytes, or a read writes the source', () => {
    const write = '%x = pim.memcp_hd[%c0, %c0](%w, %arg0) {size = 64 : i32} : memref<4x4xf32>, memref<4x4xf32> -> memref<4x4xf32>';
    const read = (dst: string, at: string, size: number): string => `%1 = pim.memcp[%c0, ${at}](${dst}, %t) {size = ${size} : i32} : memref<4x4xf32>, memref<1x4xf32> -> memref<4x4xf32>`;
    for (const text of [core(write, read('%n', '%c4', 8)), core('', read('%n', '%c0', 8)), core('', read('%w', '%c4', 8))]) {
      const module = parseOk(text);
      expect(forwardCopiesThroughTemporaries(coreBodyOf(module))).toBe(0);
      expect(printOperation(module)).toMatch(/memref<1x4xf32>/);
    }
  });
});

it('the MVM inputs of a gathered patch read it in place (patch-tiles.mlir: two memref.subview, no 1x4 buffer)', () => {
  const module = parseOk(readFixture('tensor-streams/patch-tiles.mlir'));
  let buf: BufferizeReport | undefined;
  const r = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', [() => new PimBufferizePass({ onReport: (x) => (buf = x) })]);
  expect(r.diagnostics.map((d) => d.message)).toEqual([]);
  expect(buf!.slicesViewed).toBe(2);
  const printed = printOperation(module);
  expect(printed).not.toMatch(/memref<1x4xf32>[^,]/);
  expect(printed).toMatch(/memref\.subview %\w+\[0, 4\] \[1, 4\] \[1, 1\] : memref<2x8xf32> to memref<1x4xf32, strided<\[8, 1\], offset: 4>>/);
  expect(printed).toMatch(/memref\.subview %\w+\[1, 0\] \[1, 4\] \[1, 1\] : memref<2x8xf32> to memref<1x4xf32, strided<\[8, 1\], offset: 8>>/);
});

describe('forwardSliceCopiesToViews', () => {
  /** A core copying 16 bytes of %w from byte `from` into %t, then `between`, then an MVM reading %t, then `after`. */
  const core = (from: number, between: string, after: string, read = '%1 = pim.vmm[%warg](%t, %o) : (tensor<4x3xf32>, memref<1x4xf32>, memref<1x3xf32>) -> memref<1x3xf32>'): string => `module {
  func.func @main(%arg0: memref<3x8xf32>, %arg1: memref<1x3xf32>) {
    %cst = arith.constant dense<1.000000e+00> : tensor<4x3xf32>
    pim.core [%warg] = [%cst] coreId 0 : [tensor<4x3xf32>] -> () {
      %c0 = arith.constant 0 : index
      %c${from} = arith.constant ${from} : index
      %w = memref.alloc() : memref<3x8xf32>
      %l = pim.memcp_hd[%c0, %c0](%w, %arg0) {size = 96 : i32} : memref<3x8xf32>, memref<3x8xf32> -> memref<3x8xf32>
      %t = memref.alloc() : memref<1x4xf32>
      %0 = pim.memcp[%c0, %c${from}](%t, %w) {size = 16 : i32} : memref<1x4xf32>, memref<3x8xf32> -> memref<1x4xf32>
      %o = memref.alloc() : memref<1x3xf32>
      ${between}
      ${read}
      ${after}
      %s = pim.memcp_dh[%c0, %c0](%arg1, %o) {size = 12 : i32} : memref<1x3xf32>, memref<1x3xf32> -> memref<1x3xf32>
      pim.halt
    }
    return
  }
}`;
  const later = '%k = pim.memcp_dh[%c0, %c0](%arg0, %w) {size = 96 : i32} : memref<3x8xf32>, memref<3x8xf32> -> memref<3x8xf32>';

  it('a slice inside one row is one memref.subview; one across rows is a collapse, a subview and an expand', () => {
    for (const [from, view] of [
      [48, /memref\.subview %\w+\[1, 4\] \[1, 4\] \[1, 1\] : memref<3x8xf32> to memref<1x4xf32, strided<\[8, 1\], offset: 12>>/],
      [24, /memref\.subview %\w+\[6\] \[4\] \[1\] : memref<24xf32> to memref<4xf32, strided<\[1\], offset: 6>>/],
    ] as const) {
      const module = parseOk(core(from, '', later));
      expect(forwardSliceCopiesToViews(coreBodyOf(module))).toBe(1);
      const printed = printOperation(module);
      expect(printed).toMatch(view);
      expect(printed).not.toMatch(/pim\.memcp\[%c0, %c\d+\]\(%\w+, %\w+\) \{size = 16/);
      expect(printed).not.toMatch(/memref\.alloc\(\) : memref<1x4xf32>/);
    }
  });

  it('leaves the copy when the source is written before the MVM, would outlive its last use, or the copy is read otherwise', () => {
    const write = '%x = pim.memcp_hd[%c0, %c0](%w, %arg0) {size = 16 : i32} : memref<3x8xf32>, memref<3x8xf32> -> memref<3x8xf32>';
    const byteRead = '%1 = pim.memcp_dh[%c0, %c0](%arg1, %t) {size = 12 : i32} : memref<1x3xf32>, memref<1x4xf32> -> memref<1x3xf32>';
    for (const text of [core(48, write, later), core(48, '', ''), core(48, '', later, byteRead)]) {
      const module = parseOk(text);
      expect(forwardSliceCopiesToViews(coreBodyOf(module))).toBe(0);
      expect(printOperation(module)).toMatch(/memref<1x4xf32>/);
    }
  });

  it('boxOf: the box holds exactly the elements of the range, in row-major order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }), fc.nat(), fc.nat(), (shape, a, b) => {
        const total = shape.reduce((x, y) => x * y, 1);
        const offset = a % total;
        const count = 1 + (b % (total - offset));
        const box = boxOf(shape, offset, count);
        // Brute force: the elements of every box candidate in row-major order.
        const strides = shape.map((_, d) => shape.slice(d + 1).reduce((x, y) => x * y, 1));
        const inBox = (i: number): boolean => box !== undefined && shape.every((_, d) => {
          const idx = Math.floor(i / strides[d]!) % shape[d]!;
          return idx >= box.offsets[d]! && idx < box.offsets[d]! + box.sizes[d]!;
        });
        const elements = Array.from({ length: total }, (_, i) => i).filter(inBox);
        if (box) expect(elements).toEqual(Array.from({ length: count }, (_, i) => offset + i));
        // A range of whole trailing rows, or of one row, always has a box.
        if (count === 1 || (offset % shape[shape.length - 1]! === 0 && count % shape[shape.length - 1]! === 0 && count <= shape[shape.length - 1]!)) expect(box).toBeDefined();
      }),
    );
  });
});

describe('forwardSliceCopiesToViews (property)', () => {
  const memref = (shape: readonly number[]): string => `memref<${shape.join('x')}xf32>`;
  /** A core that loads %x, copies `n` elements from element `a` into %t, maybe writes one element of %x at `w`, multiplies %t, maybe stores %x later. */
  const program = (shape: readonly number[], a: number, n: number, write: number | undefined, readLater: boolean): string => {
    const total = shape.reduce((x, y) => x * y, 1);
    const weights = Array.from({ length: n }, (_, i) => `[${[0, 1, 2].map((j) => (((i * 3 + j) % 7) * 0.25 - 0.75).toFixed(2)).join(', ')}]`).join(', ');
    const x = memref(shape);
    return `module {
  func.func @main(%arg0: ${x}) -> (memref<1x3xf32>, ${x}) {
    %cst = arith.constant dense<[${weights}]> : tensor<${n}x3xf32>
    %out = memref.alloc() : memref<1x3xf32>
    %out2 = memref.alloc() : ${x}
    pim.core [%w] = [%cst] coreId 0 : [tensor<${n}x3xf32>] -> () {
      %c0 = arith.constant 0 : index
      %ca = arith.constant ${a * 4} : index
      %cw = arith.constant ${(write ?? 0) * 4} : index
      %x = memref.alloc() : ${x}
      %l = pim.memcp_hd[%c0, %c0](%x, %arg0) {size = ${total * 4} : i32} : ${x}, ${x} -> ${x}
      %t = memref.alloc() : memref<1x${n}xf32>
      %0 = pim.memcp[%c0, %ca](%t, %x) {size = ${n * 4} : i32} : memref<1x${n}xf32>, ${x} -> memref<1x${n}xf32>
      ${write === undefined ? '' : `%wb = pim.memcp_hd[%cw, %c0](%x, %arg0) {size = 4 : i32} : ${x}, ${x} -> ${x}`}
      %o = memref.alloc() : memref<1x3xf32>
      %1 = pim.vmm[%w](%t, %o) : (tensor<${n}x3xf32>, memref<1x${n}xf32>, memref<1x3xf32>) -> memref<1x3xf32>
      %2 = pim.memcp_dh[%c0, %c0](%out, %o) {size = 12 : i32} : memref<1x3xf32>, memref<1x3xf32> -> memref<1x3xf32>
      ${readLater ? `%3 = pim.memcp_dh[%c0, %c0](%out2, %x) {size = ${total * 4} : i32} : ${x}, ${x} -> ${x}` : ''}
      pim.halt
    }
    return %out, %out2 : memref<1x3xf32>, ${x}
  }
}`;
  };

  it('outputs unchanged; forwarded exactly when nothing writes the source before the MVM and the source is read after it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.nat(),
        fc.option(fc.nat(), { nil: undefined }),
        fc.boolean(),
        fc.integer({ min: 1, max: 1000 }),
        (shape, a0, n0, w0, readLater, seed) => {
          const total = shape.reduce((x, y) => x * y, 1);
          const n = 1 + (n0 % total);
          const a = a0 % (total - n + 1);
          const write = w0 === undefined ? undefined : w0 % total;
          const module = parseOk(program(shape, a, n, write, readLater));
          const inputs = randomInputs(module, seed);
          const before = runPim(module, inputs);
          const forwarded = forwardSliceCopiesToViews(coreBodyOf(module));
          expect(forwarded).toBe(write === undefined && readLater ? 1 : 0);
          const printed = printOperation(module);
          const again = parseOk(printed);
          expect(runPim(again, inputs)).toEqual(before);
        },
      ),
      { numRuns: 200 },
    );
  });
});
