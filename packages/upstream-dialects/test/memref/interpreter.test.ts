import fc from 'fast-check';
import { AffineMap, FloatType, getAffineDimExpr, MemRefType, printType, StridedLayoutAttr } from '@raptor-pim/ir-core';
import {
  basicArithHandler,
  getStridesAndOffset,
  inferSubViewResultType,
  inferTransposeResultType,
  MemRefDescriptor,
  MemRefInterpreter,
  type RunResult,
} from '@raptor-pim/upstream-dialects';
import { makeContext, parseVerified } from './helpers';

/** A nested dense literal of `shape` holding 0-based offsets plus `base`. */
function nested(shape: readonly number[], base = 0): string {
  let k = 0;
  const rec = (d: number): string =>
    d === shape.length ? `${base + k++}.0` : `[${Array.from({ length: shape[d]! }, () => rec(d + 1)).join(', ')}]`;
  return rec(0);
}

/** `%cN = arith.constant N : index` lines in generic form (parse with or without arith registered). */
function consts(values: number[]): string {
  return values.map((v) => `%c${v} = "arith.constant"() <{value = ${v} : index}> : () -> index`).join('\n');
}

function run(body: string, extra: number[] = []): { interp: MemRefInterpreter; result: RunResult } {
  const module = parseVerified(`${consts([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ...extra])}\n${body}`);
  const interp = new MemRefInterpreter({ scalarHandler: basicArithHandler });
  const block = module.regions[0]!.firstBlock!;
  const g = interp.loadGlobals(block);
  if (!g.ok) return { interp, result: g };
  // Run everything except globals (already loaded).
  return { interp, result: interp.runBlock(block) };
}

function ok(r: RunResult): void {
  if (!r.ok) throw new Error(r.error.message);
}


describe('memref interpreter', () => {
  it('alloc/store/load round-trips values (hand-computed)', () => {
    const { interp, result } = run(`
%m = memref.alloc() : memref<2x3xf32>
%v = "arith.constant"() <{value = 2.5 : f32}> : () -> f32
memref.store %v, %m[%c1, %c2] : memref<2x3xf32>
%x = memref.load %m[%c1, %c2] : memref<2x3xf32>
%y = memref.load %m[%c0, %c0] : memref<2x3xf32>
`);
    ok(result);
    const block = (interp as unknown as { env: Map<unknown, unknown> }).env;
    const vals = [...block.values()].filter((v) => typeof v === 'number');
    expect(vals).toContain(2.5);
  });

  const program = (tail: string) => `
%m = memref.get_global @iota : memref<8x8xf32>
${tail}`;
  const iota = `memref.global "private" constant @iota : memref<8x8xf32> = dense<${nested([8, 8], 1)}>`;

  function evalView(tail: string, resultName: string): number[] {
    const module = parseVerified(`${consts([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])}\n${iota}\n${program(tail)}`);
    const interp = new MemRefInterpreter({ scalarHandler: basicArithHandler });
    const block = module.regions[0]!.firstBlock!;
    ok(interp.loadGlobals(block));
    ok(interp.runBlock(block));
    let found: MemRefDescriptor | undefined;
    for (let o = block.firstOp; o; o = o.next) {
      for (const r of o.results) {
        const v = interp.valueOf(r);
        if (v instanceof MemRefDescriptor && o.name === resultName) found = v;
      }
    }
    return interp.toArray(found!);
  }

  it('subview of the spec example 1 gives [[10,12,14,16],...] then [[28,32],[60,64]]', () => {
    expect(
      evalView(
        `%r1 = memref.subview %m[1, 1] [4, 4] [2, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[16, 2], offset: 9>>`,
        'memref.subview',
      ),
    ).toEqual([10, 12, 14, 16, 26, 28, 30, 32, 42, 44, 46, 48, 58, 60, 62, 64]);
    expect(
      evalView(
        `%r1 = memref.subview %m[1, 1] [4, 4] [2, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[16, 2], offset: 9>>
%r2 = memref.subview %r1[1, 1] [2, 2] [2, 2] : memref<4x4xf32, strided<[16, 2], offset: 9>> to memref<2x2xf32, strided<[32, 4], offset: 27>>`,
        'memref.subview',
      ),
    ).toEqual([28, 32, 60, 64]);
  });

  it('reinterpret_cast of the spec example gives [[10,...]] then [[1,3],[5,7]]', () => {
    expect(
      evalView(
        `%r1 = memref.reinterpret_cast %m to offset: [9], sizes: [4, 4], strides: [16, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[16, 2], offset: 9>>`,
        'memref.reinterpret_cast',
      ),
    ).toEqual([10, 12, 14, 16, 26, 28, 30, 32, 42, 44, 46, 48, 58, 60, 62, 64]);
    expect(
      evalView(
        `%r1 = memref.reinterpret_cast %m to offset: [9], sizes: [4, 4], strides: [16, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[16, 2], offset: 9>>
%r2 = memref.reinterpret_cast %r1 to offset: [0], sizes: [2, 2], strides: [4, 2] : memref<4x4xf32, strided<[16, 2], offset: 9>> to memref<2x2xf32, strided<[4, 2]>>`,
        'memref.reinterpret_cast',
      ),
    ).toEqual([1, 3, 5, 7]);
  });

  it('transpose permutes sizes and strides', () => {
    const v = evalView(
      `%s = memref.subview %m[0, 0] [2, 3] [1, 1] : memref<8x8xf32> to memref<2x3xf32, strided<[8, 1]>>
%t = memref.transpose %s (i, j) -> (j, i) : memref<2x3xf32, strided<[8, 1]>> to memref<3x2xf32, strided<[1, 8]>>`,
      'memref.transpose',
    );
    expect(v).toEqual([1, 9, 2, 10, 3, 11]);
  });

  it('collapse_shape and expand_shape keep the row-major order', () => {
    expect(evalView(`%c = memref.collapse_shape %m [[0, 1]] : memref<8x8xf32> into memref<64xf32>`, 'memref.collapse_shape')).toEqual(
      Array.from({ length: 64 }, (_, i) => i + 1),
    );
    const e = evalView(
      `%c = memref.collapse_shape %m [[0, 1]] : memref<8x8xf32> into memref<64xf32>
%e = memref.expand_shape %c [[0, 1, 2]] output_shape [4, 4, 4] : memref<64xf32> into memref<4x4x4xf32>`,
      'memref.expand_shape',
    );
    expect(e.slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('cast checks the static sizes at runtime', () => {
    const { result } = run(`
%m = memref.alloc() : memref<4xf32>
%d = memref.cast %m : memref<4xf32> to memref<?xf32>
%e = memref.cast %d : memref<?xf32> to memref<5xf32>
`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe('memref.cast: runtime size of dimension 0 4 does not match the static 5 of the result type');
  });

  it('view reinterprets bytes (f32 written through an i8 buffer view)', () => {
    const { interp, result } = run(`
%b = memref.alloc() : memref<64xi8>
%v = memref.view %b[%c8][] : memref<64xi8> to memref<4xf32>
%x = "arith.constant"() <{value = 1.0 : f32}> : () -> f32
memref.store %x, %v[%c0] : memref<4xf32>
%byte = memref.load %b[%c10] : memref<64xi8>
%byte2 = memref.load %b[%c8] : memref<64xi8>
`);
    ok(result);
    // 1.0f = 0x3F800000 little-endian: bytes 00 00 80 3F at offsets 8..11.
    const env = (interp as unknown as { env: Map<unknown, unknown> }).env;
    const nums = [...env.values()].filter((v) => typeof v === 'number') as number[];
    expect(nums.slice(-2)).toEqual([-128, 0]);
  });

  it('reports out-of-bounds loads', () => {
    const { result } = run(`
%m = memref.alloc() : memref<2x3xf32>
%x = memref.load %m[%c2, %c0] : memref<2x3xf32>
`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe('memref.load: index [2, 0] is out of bounds for shape [2x3]');
  });

  it('reports use after dealloc and double free', () => {
    const a = run(`
%m = memref.alloc() : memref<4xf32>
memref.dealloc %m : memref<4xf32>
%x = memref.load %m[%c0] : memref<4xf32>
`).result;
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.error.message).toMatch(/^memref.load: use of buffer #\d+ after it was deallocated$/);
    const b = run(`
%m = memref.alloc() : memref<4xf32>
%s = memref.subview %m[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
memref.dealloc %m : memref<4xf32>
memref.dealloc %m : memref<4xf32>
`).result;
    expect(b.ok).toBe(false);
    if (!b.ok) expect(b.error.message).toMatch(/^memref.dealloc: buffer #\d+ was already deallocated$/);
  });

  it('reports a dealloc through a view (the spec forbids freeing aliases)', () => {
    const { result } = run(`
%m = memref.alloc() : memref<4xf32>
%s = memref.subview %m[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
memref.dealloc %s : memref<2xf32, strided<[1], offset: 1>>
`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/^memref.dealloc: the operand is a view of buffer #\d+, not the memref its allocation returned$/);
  });

  it('allows dealloc through a cast of the allocation and reports use after realloc', () => {
    const a = run(`
%m = memref.alloc() : memref<4xf32>
%c = memref.cast %m : memref<4xf32> to memref<?xf32>
memref.dealloc %c : memref<?xf32>
`).result;
    expect(a.ok).toBe(true);
    const b = run(`
%m = memref.alloc() : memref<4xf32>
%n = memref.realloc %m : memref<4xf32> to memref<8xf32>
%x = memref.load %m[%c0] : memref<4xf32>
`).result;
    expect(b.ok).toBe(false);
    if (!b.ok) expect(b.error.message).toMatch(/^memref.load: use of buffer #\d+ after it was deallocated$/);
  });

  it('reports out-of-buffer accesses through reinterpret_cast', () => {
    const { result } = run(`
%m = memref.alloc() : memref<4xf32>
%r = memref.reinterpret_cast %m to offset: [2], sizes: [4], strides: [1] : memref<4xf32> to memref<4xf32, strided<[1], offset: 2>>
%x = memref.load %r[%c3] : memref<4xf32, strided<[1], offset: 2>>
`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe('memref.load: element 5 lies outside its buffer of 4 elements');
  });

  it('alloca memory dies with its alloca_scope; results flow out', () => {
    const { result } = run(`
%r = memref.alloca_scope -> (f32) {
  %a = memref.alloca() : memref<2xf32>
  %v = "arith.constant"() <{value = 3.0 : f32}> : () -> f32
  memref.store %v, %a[%c1] : memref<2xf32>
  %l = memref.load %a[%c1] : memref<2xf32>
  memref.alloca_scope.return %l : f32
}
`);
    ok(result);
  });

  it('atomic_rmw and generic_atomic_rmw update in place and return the old value', () => {
    const module = parseVerified(`${consts([0, 1])}
%m = memref.alloc() : memref<2xf32>
%v = "arith.constant"() <{value = 2.0 : f32}> : () -> f32
memref.store %v, %m[%c0] : memref<2xf32>
%old = memref.atomic_rmw addf %v, %m[%c0] : (f32, memref<2xf32>) -> f32
%old2 = memref.generic_atomic_rmw %m[%c0] : memref<2xf32> {
^bb0(%cur: f32):
  %n = "arith.mulf"(%cur, %cur) : (f32, f32) -> f32
  memref.atomic_yield %n : f32
}
%now = memref.load %m[%c0] : memref<2xf32>
`);
    const interp = new MemRefInterpreter({ scalarHandler: basicArithHandler });
    const block = module.regions[0]!.firstBlock!;
    ok(interp.runBlock(block));
    const byName = (name: string) => {
      for (let o = block.firstOp; o; o = o.next) if (o.name === name) return interp.valueOf(o.getResult(0));
      return undefined;
    };
    expect(byName('memref.atomic_rmw')).toBe(2);
    expect(byName('memref.generic_atomic_rmw')).toBe(4);
    expect(byName('memref.load')).toBe(16);
  });

  it('dim, rank, extract_strided_metadata and realloc', () => {
    const module = parseVerified(`${consts([0, 1, 3])}
%m = memref.alloc(%c3) : memref<2x?xf32>
%d = memref.dim %m, %c1 : memref<2x?xf32>
%r = memref.rank %m : memref<2x?xf32>
%s = memref.subview %m[1, 1] [1, 2] [1, 1] : memref<2x?xf32> to memref<1x2xf32, strided<[?, 1], offset: ?>>
%base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %s : memref<1x2xf32, strided<[?, 1], offset: ?>> -> memref<f32>, index, index, index, index, index
%x = memref.alloc() : memref<4xf32>
%v = "arith.constant"() <{value = 7.0 : f32}> : () -> f32
memref.store %v, %x[%c1] : memref<4xf32>
%y = memref.realloc %x : memref<4xf32> to memref<8xf32>
%w = memref.load %y[%c1] : memref<8xf32>
`);
    const interp = new MemRefInterpreter({ scalarHandler: basicArithHandler });
    const block = module.regions[0]!.firstBlock!;
    ok(interp.runBlock(block));
    const ops = block.operations;
    const val = (name: string, i = 0) => interp.valueOf(ops.find((o) => o.name === name)!.getResult(i));
    expect(val('memref.dim')).toBe(3);
    expect(val('memref.rank')).toBe(2);
    expect([1, 2, 3, 4, 5].map((i) => val('memref.extract_strided_metadata', i))).toEqual([4, 1, 2, 3, 1]);
    expect(val('memref.load')).toBe(7);
  });

  it('dma_start copies num_elements in row-major order and writes the tag', () => {
    const module = parseVerified(`${consts([0, 1, 2, 5])}
%src = memref.get_global @g : memref<2x4xf32>
%dst = memref.alloc() : memref<8xf32>
%tag = memref.alloc() : memref<1xi32>
memref.dma_start %src[%c0, %c2], %dst[%c1], %c5, %tag[%c0] : memref<2x4xf32>, memref<8xf32>, memref<1xi32>
memref.dma_wait %tag[%c0], %c5 : memref<1xi32>
memref.global "private" @g : memref<2x4xf32> = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]>
`);
    const interp = new MemRefInterpreter({ scalarHandler: basicArithHandler });
    const block = module.regions[0]!.firstBlock!;
    ok(interp.loadGlobals(block));
    ok(interp.runBlock(block));
    const dst = interp.valueOf(block.operations[5]!.getResult(0)) as MemRefDescriptor;
    expect(interp.toArray(dst)).toEqual([0, 3, 4, 5, 6, 7, 0, 0]);
  });

  it('subview agrees with a naive index calculation on random shapes (fast-check)', () => {
    const arb = fc
      .array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 })
      .chain((shape) =>
        fc.tuple(
          fc.constant(shape),
          fc.tuple(...shape.map((n) => fc.integer({ min: 0, max: n - 1 }).chain((off) => fc.integer({ min: 1, max: 3 }).chain((stride) =>
            fc.tuple(fc.constant(off), fc.integer({ min: 1, max: Math.floor((n - 1 - off) / stride) + 1 }), fc.constant(stride)))))),
        ),
      );
    fc.assert(
      fc.property(arb, ([shape, slice]) => {
        const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
        const offs = slice.map((s) => s[0]);
        const sizes = slice.map((s) => s[1]);
        const steps = slice.map((s) => s[2]);
        const off = offs.reduce((a, o, i) => a + o * strides[i]!, 0);
        const rs = steps.map((s, i) => s * strides[i]!);
        const t = (sh: number[], lay: string) => `memref<${sh.join('x')}xf32${lay}>`;
        const src = t(shape, '');
        const dst = t(sizes, `, strided<[${rs.join(', ')}], offset: ${off}>`);
        const g = `memref.global "private" @g : ${src} = dense<${nested(shape)}>`;
        const module = parseVerified(`${g}
%m = memref.get_global @g : ${src}
%s = memref.subview %m[${offs.join(', ')}] [${sizes.join(', ')}] [${steps.join(', ')}] : ${src} to ${dst}`);
        const interp = new MemRefInterpreter();
        const block = module.regions[0]!.firstBlock!;
        ok(interp.loadGlobals(block));
        ok(interp.runBlock(block));
        const got = interp.toArray(interp.valueOf(block.operations[2]!.getResult(0)) as MemRefDescriptor);
        // Naive: element at index idx of the view is the flat source element sum((off_i + idx_i*step_i) * stride_i).
        const want: number[] = [];
        const rec = (d: number, acc: number) => {
          if (d === shape.length) return void want.push(acc);
          for (let k = 0; k < sizes[d]!; k++) rec(d + 1, acc + (offs[d]! + k * steps[d]!) * strides[d]!);
        };
        rec(0, 0);
        expect(got).toEqual(want);
      }),
      { numRuns: 60 },
    );
  });
});

it('subview -> transpose -> subview chains agree with a naive composition (fast-check)', () => {
  const sliceArb = (shape: readonly number[]) =>
    fc.tuple(
      ...shape.map((n) =>
        fc.integer({ min: 0, max: n - 1 }).chain((off) =>
          fc.integer({ min: 1, max: 2 }).chain((stride) =>
            fc.tuple(fc.constant(off), fc.integer({ min: 1, max: Math.floor((n - 1 - off) / stride) + 1 }), fc.constant(stride)),
          ),
        ),
      ),
    );
  const arb = fc
    .array(fc.integer({ min: 1, max: 5 }), { minLength: 2, maxLength: 3 })
    .chain((shape) =>
      fc.record({
        shape: fc.constant(shape),
        s1: sliceArb(shape),
        perm: fc.shuffledSubarray(shape.map((_, i) => i), { minLength: shape.length, maxLength: shape.length }),
        seed2: fc.array(fc.nat(), { minLength: shape.length * 3, maxLength: shape.length * 3 }),
      }),
    );
  fc.assert(
    fc.property(arb, ({ shape, s1, perm, seed2 }) => {
      const ctx = makeContext();
      const srcStrides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
      const tText = (t: MemRefType) => printType(t);
      const src = MemRefType.get(ctx, shape, FloatType.f32(ctx));
      const slice1 = { offsets: s1.map((x) => x[0]), sizes: s1.map((x) => x[1]), strides: s1.map((x) => x[2]) };
      const v1 = inferSubViewResultType(src, slice1)!;
      const t = inferTransposeResultType(v1, AffineMap.get(ctx, shape.length, 0, perm.map((p) => getAffineDimExpr(ctx, p))))!;
      const so = getStridesAndOffset(t)!;
      const tStrided = MemRefType.get(ctx, t.shape, t.elementType, StridedLayoutAttr.get(ctx, so.offset, so.strides));
      // Second slice inside the transposed view.
      const off2 = t.shape.map((n, i) => seed2[i]! % n);
      const str2 = t.shape.map((_, i) => 1 + (seed2[shape.length + i]! % 2));
      const size2 = t.shape.map((n, i) => 1 + (seed2[2 * shape.length + i]! % (Math.floor((n - 1 - off2[i]!) / str2[i]!) + 1)));
      const v2 = inferSubViewResultType(tStrided, { offsets: off2, sizes: size2, strides: str2 })!;
      const dims = shape.map((_, i) => `d${i}`);
      const module = parseVerified(`memref.global "private" @g : ${tText(src)} = dense<${nested(shape)}>
%m = memref.get_global @g : ${tText(src)}
%a = memref.subview %m[${slice1.offsets.join(', ')}] [${slice1.sizes.join(', ')}] [${slice1.strides.join(', ')}] : ${tText(src)} to ${tText(v1)}
%b = memref.transpose %a (${dims.join(', ')}) -> (${perm.map((p) => `d${p}`).join(', ')}) : ${tText(v1)} to ${tText(tStrided)}
%c = memref.subview %b[${off2.join(', ')}] [${size2.join(', ')}] [${str2.join(', ')}] : ${tText(tStrided)} to ${tText(v2)}`, ctx);
      const interp = new MemRefInterpreter();
      const block = module.regions[0]!.firstBlock!;
      ok(interp.loadGlobals(block));
      ok(interp.runBlock(block));
      const got = interp.toArray(interp.valueOf(block.operations[4]!.getResult(0)) as MemRefDescriptor);
      // Naive: index j of %c -> index i = off2 + j*str2 of %b -> index k of %a with k[perm[i]] = i -> source index.
      const want: number[] = [];
      const rec = (d: number, j: number[]) => {
        if (d === size2.length) {
          const bIdx = j.map((x, i) => off2[i]! + x * str2[i]!);
          const aIdx = new Array<number>(shape.length);
          perm.forEach((p, i) => (aIdx[p] = bIdx[i]!));
          const sIdx = aIdx.map((x, i) => slice1.offsets[i]! + x * slice1.strides[i]!);
          want.push(sIdx.reduce((acc, x, i) => acc + x * srcStrides[i]!, 0));
          return;
        }
        for (let k = 0; k < size2[d]!; k++) rec(d + 1, [...j, k]);
      };
      rec(0, []);
      expect(got).toEqual(want);
    }),
    { numRuns: 60 },
  );
});

