/**
 * Interpreter rules of affine.apply, tensor and scf: small programs checked against
 * hand-computed values, slices checked against a naive index calculation on random shapes
 * (fast-check), scf.forall lanes in any order, and overlapping publications rejected.
 */
import * as fc from 'fast-check';
import {
  Interpreter,
  InterpreterRegistry,
  registerBuiltinInterpreterRules,
  ShapedValue,
  FloatType,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { registerTensorScfAffineInterpreterRules, setForallLaneOrder, type LaneOrder } from '@raptor-pim/upstream-dialects';
import { makeContext, parseVerified } from './helpers';

function run(text: string, args: RuntimeValue[], order?: LaneOrder) {
  const ctx = makeContext();
  const m = parseVerified(text, ctx);
  const registry = new InterpreterRegistry();
  registerBuiltinInterpreterRules(registry);
  registerTensorScfAffineInterpreterRules(registry);
  const interp = new Interpreter(registry);
  if (order) setForallLaneOrder(interp, order);
  return interp.runFunction(m, 'main', args);
}

function f32(shape: number[], values: number[]): ShapedValue {
  const t = ShapedValue.allocate('tensor', FloatType.f32(makeContext()), shape)!;
  (t.data as Float32Array).set(values);
  return t;
}

const values = (v: RuntimeValue) => Array.from((v as ShapedValue).toContiguousArray() as Float32Array);
const ok = (r: ReturnType<typeof run>) => {
  if (!r.ok) throw new Error(r.diagnostic.message);
  return r.values;
};

describe('affine.apply', () => {
  it('applies dims then symbols', () => {
    const r = run(
      `func.func @main(%a: index, %b: index) -> (index, index) {
         %0 = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%a)[%b]
         %1 = affine.apply affine_map<(d0, d1) -> ((d0 - d1) floordiv 3)>(%a, %b)
         return %0, %1 : index, index
       }`,
      [5, 12],
    );
    expect(ok(r)).toEqual([5 * 4 + 12, Math.floor((5 - 12) / 3)]);
  });
});

describe('tensor element ops', () => {
  it('empty, insert, extract, dim, cast, splat, from_elements, reshapes', () => {
    const r = run(
      `func.func @main(%f: f32, %n: index) -> (f32, index, tensor<2x3xf32>, tensor<6xf32>, tensor<3x2xf32>, f32) {
         %c0 = arith.constant 0 : index
         %c1 = arith.constant 1 : index
         %e = tensor.empty(%n) : tensor<?x3xf32>
         %i = tensor.insert %f into %e[%c1, %c1] : tensor<?x3xf32>
         %x = tensor.extract %i[%c1, %c1] : tensor<?x3xf32>
         %d = tensor.dim %i, %c0 : tensor<?x3xf32>
         %s = tensor.cast %i : tensor<?x3xf32> to tensor<2x3xf32>
         %c = tensor.collapse_shape %s [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
         %ex = tensor.expand_shape %c [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
         %sp = tensor.splat %f : tensor<2x2xf32>
         %fe = tensor.from_elements %f, %x : tensor<2xf32>
         %y = tensor.extract %fe[%c1] : tensor<2xf32>
         return %x, %d, %s, %c, %ex, %y : f32, index, tensor<2x3xf32>, tensor<6xf32>, tensor<3x2xf32>, f32
       }`,
      [2.5, 2],
    );
    const [x, d, s, c, ex, y] = ok(r);
    expect(x).toBe(2.5);
    expect(d).toBe(2);
    expect(values(s!)).toEqual([0, 0, 0, 0, 2.5, 0]);
    expect(values(c!)).toEqual([0, 0, 0, 0, 2.5, 0]);
    expect((ex as ShapedValue).shape).toEqual([3, 2]);
    expect(values(ex!)).toEqual([0, 0, 0, 0, 2.5, 0]);
    expect(y).toBe(2.5);
  });

  it('reports an out-of-bounds extract at the op', () => {
    const r = run(
      `func.func @main(%t: tensor<2xf32>, %i: index) -> f32 {
         %x = tensor.extract %t[%i] : tensor<2xf32>
         return %x : f32
       }`,
      [f32([2], [1, 2]), 2],
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostic.message).toBe('extract index [2] is out of bounds of shape [2]');
  });
});

describe('tensor slices', () => {
  it('extract_slice with a dynamic offset and rank reduction (spec example)', () => {
    const r = run(
      `func.func @main(%arg: tensor<1x8xf32>, %lane: index) -> tensor<4xf32> {
         %offset = affine.apply affine_map<(d0) -> (d0 * 4)>(%lane)
         %fragment = tensor.extract_slice %arg[0, %offset] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<4xf32>
         return %fragment : tensor<4xf32>
       }`,
      [f32([1, 8], [0, 1, 2, 3, 4, 5, 6, 7]), 1],
    );
    expect(values(ok(r)[0]!)).toEqual([4, 5, 6, 7]);
  });

  it('insert_slice with strides', () => {
    const r = run(
      `func.func @main(%s: tensor<2x2xf32>, %d: tensor<4x4xf32>) -> tensor<4x4xf32> {
         %r = tensor.insert_slice %s into %d[1, 0] [2, 2] [2, 3] : tensor<2x2xf32> into tensor<4x4xf32>
         return %r : tensor<4x4xf32>
       }`,
      [f32([2, 2], [1, 2, 3, 4]), f32([4, 4], new Array(16).fill(0))],
    );
    expect(values(ok(r)[0]!)).toEqual([0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 4]);
  });

  it('extract_slice agrees with a naive index calculation on random shapes (fast-check)', () => {
    const arb = fc
      .array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 })
      .chain((shape) =>
        fc.tuple(
          fc.constant(shape),
          fc.tuple(...shape.map((n) => fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 1, max: 3 })))).chain((os) =>
            fc.tuple(
              fc.constant(os),
              fc.tuple(...os.map(([o, st], d) => fc.integer({ min: 1, max: Math.floor((shape[d]! - 1 - o) / st) + 1 }))),
            ),
          ),
        ),
      );
    fc.assert(
      fc.property(arb, ([shape, [os, sizes]]) => {
        const offsets = os.map((x) => x[0]);
        const strides = os.map((x) => x[1]);
        const n = shape.reduce((a, b) => a * b, 1);
        const data = Array.from({ length: n }, (_, i) => i);
        const t = `tensor<${shape.join('x')}xf32>`;
        // Full-rank and rank-reduced (unit dimensions dropped) result types hold the same data.
        const reduced = sizes.filter((d) => d !== 1);
        const results = [sizes, reduced].map((rs) => {
          const rt = `tensor<${rs.length ? rs.join('x') + 'x' : ''}f32>`;
          const text = `func.func @main(%t: ${t}) -> ${rt} {
            %r = tensor.extract_slice %t[${offsets.join(', ')}] [${sizes.join(', ')}] [${strides.join(', ')}] : ${t} to ${rt}
            return %r : ${rt}
          }`;
          const [r] = ok(run(text, [f32(shape, data)]));
          expect((r as ShapedValue).shape).toEqual(rs);
          return values(r!);
        });
        const got = results[0]!;
        expect(results[1]).toEqual(got);
        // Naive: enumerate result indices, map to source linear index.
        const expected: number[] = [];
        const total = sizes.reduce((a, b) => a * b, 1);
        for (let k = 0; k < total; k++) {
          let rest = k;
          let lin = 0;
          let mul = 1;
          const idx = new Array<number>(sizes.length);
          for (let d = sizes.length - 1; d >= 0; d--) {
            idx[d] = rest % sizes[d]!;
            rest = Math.floor(rest / sizes[d]!);
          }
          for (let d = shape.length - 1; d >= 0; d--) {
            lin += (offsets[d]! + idx[d]! * strides[d]!) * mul;
            mul *= shape[d]!;
          }
          expected.push(data[lin]!);
        }
        expect(got).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});

/** Random shape + in-bounds offsets/strides/sizes per dimension. */
const sliceArb = fc
  .array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 })
  .chain((shape) =>
    fc.tuple(
      fc.constant(shape),
      fc.tuple(...shape.map((n) => fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 1, max: 3 })))).chain((os) =>
        fc.tuple(fc.constant(os), fc.tuple(...os.map(([o, st], d) => fc.integer({ min: 1, max: Math.floor((shape[d]! - 1 - o) / st) + 1 })))),
      ),
    ),
  );

describe('tensor.insert_slice (fast-check)', () => {
  it('agrees with a naive index calculation, with dynamic offsets and a rank-reduced source', () => {
    fc.assert(
      fc.property(sliceArb, ([shape, [os, sizes]]) => {
        const offsets = os.map((x) => x[0]);
        const strides = os.map((x) => x[1]);
        const n = shape.reduce((a, b) => a * b, 1);
        const m = sizes.reduce((a, b) => a * b, 1);
        const dest = Array.from({ length: n }, (_, i) => -1 - i);
        const src = Array.from({ length: m }, (_, i) => 100 + i);
        // Rank-reduced source type: the slice sizes without unit dimensions.
        const srcShape = sizes.filter((d) => d !== 1);
        const t = `tensor<${shape.join('x')}xf32>`;
        const st = `tensor<${srcShape.length ? srcShape.join('x') + 'x' : ''}f32>`;
        const args = offsets.map((_, d) => `%o${d}: index`).join(', ');
        const text = `func.func @main(%s: ${st}, %d: ${t}, ${args}) -> ${t} {
          %r = tensor.insert_slice %s into %d[${offsets.map((_, d) => `%o${d}`).join(', ')}] [${sizes.join(', ')}] [${strides.join(', ')}] : ${st} into ${t}
          return %r : ${t}
        }`;
        const got = values(ok(run(text, [f32(srcShape, src), f32(shape, dest), ...offsets]))[0]!);
        const expected = [...dest];
        for (let k = 0; k < m; k++) {
          let rest = k;
          const idx = new Array<number>(sizes.length);
          for (let d = sizes.length - 1; d >= 0; d--) {
            idx[d] = rest % sizes[d]!;
            rest = Math.floor(rest / sizes[d]!);
          }
          let lin = 0;
          let mul = 1;
          for (let d = shape.length - 1; d >= 0; d--) {
            lin += (offsets[d]! + idx[d]! * strides[d]!) * mul;
            mul *= shape[d]!;
          }
          expected[lin] = src[k]!;
        }
        expect(got).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});

const FORALL = `func.func @main(%arg: tensor<1x8xf32>) -> tensor<2x1x4xf32> {
  %init = tensor.empty() : tensor<2x1x4xf32>
  %r = scf.forall (%lane) in (2) shared_outs(%out = %init) -> (tensor<2x1x4xf32>) {
    %offset = affine.apply affine_map<(d0) -> (d0 * 4)>(%lane)
    %v = tensor.extract_slice %arg[0, %offset] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x4xf32> into tensor<2x1x4xf32>
    }
  }
  return %r : tensor<2x1x4xf32>
}`;

describe('scf', () => {
  it('scf.forall publishes lane fragments (spec example), same result in any lane order', () => {
    const input = f32([1, 8], [10, 11, 12, 13, 14, 15, 16, 17]);
    for (const order of ['forward', 'reverse'] as const) {
      const [r] = ok(run(FORALL, [input], order));
      expect((r as ShapedValue).shape).toEqual([2, 1, 4]);
      expect(values(r!)).toEqual([10, 11, 12, 13, 14, 15, 16, 17]);
    }
  });

  it('scf.forall gives the same result for any lane order (fast-check permutations)', () => {
    const text = `func.func @main(%arg: tensor<12xf32>) -> tensor<4x3xf32> {
      %init = tensor.empty() : tensor<4x3xf32>
      %r = scf.forall (%i, %j) in (2, 2) shared_outs(%out = %init) -> (tensor<4x3xf32>) {
        %row = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%i, %j)
        %off = affine.apply affine_map<(d0) -> (d0 * 3)>(%row)
        %v = tensor.extract_slice %arg[%off] [3] [1] : tensor<12xf32> to tensor<3xf32>
        scf.forall.in_parallel {
          tensor.parallel_insert_slice %v into %out[%row, 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<4x3xf32>
        }
      }
      return %r : tensor<4x3xf32>
    }`;
    const input = f32([12], Array.from({ length: 12 }, (_, i) => i * 1.5));
    const expected = Array.from({ length: 12 }, (_, i) => i * 1.5);
    fc.assert(
      fc.property(fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }), (perm) => {
        const [r] = ok(run(text, [input], () => perm));
        expect(values(r!)).toEqual(expected);
      }),
      { numRuns: 24 },
    );
  });

  it('scf.forall rejects two lanes publishing overlapping slices, naming both ops and lanes', () => {
    const text = FORALL.replace('%out[%lane, 0, 0]', '%out[0, 0, 0]');
    const r = run(text, [f32([1, 8], [0, 1, 2, 3, 4, 5, 6, 7])]);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.diagnostic.message).toBe(
        "lanes publish overlapping slices of the same output: 'tensor.parallel_insert_slice' at 7:7 (lane [0]) and 'tensor.parallel_insert_slice' at 7:7 (lane [1]) both write element [0, 0, 0] of shared output #0",
      );
  });

  it('scf.forall with bounds and steps, scf.for with iter_args, scf.if', () => {
    const r = run(
      `func.func @main(%n: index) -> (tensor<6xf32>, index, index) {
         %c0 = arith.constant 0 : index
         %c1 = arith.constant 1 : index
         %c3 = arith.constant 3 : index
         %init = tensor.empty() : tensor<6xf32>
         %one = arith.constant 1.0 : f32
         %r = scf.forall (%i) = (1) to (6) step (2) shared_outs(%o = %init) -> (tensor<6xf32>) {
           %s = tensor.from_elements %one : tensor<1xf32>
           scf.forall.in_parallel {
             tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<6xf32>
           }
         }
         %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
           %next = arith.addi %acc, %k : index
           scf.yield %next : index
         }
         %cmp = arith.cmpi slt, %sum, %c3 : index
         %sel = scf.if %cmp -> (index) {
           scf.yield %c0 : index
         } else {
           scf.yield %sum : index
         }
         return %r, %sum, %sel : tensor<6xf32>, index, index
       }`,
      [5],
    );
    const [t, sum, sel] = ok(r);
    expect(values(t!)).toEqual([0, 1, 0, 1, 0, 1]);
    expect(sum).toBe(0 + 1 + 2 + 3 + 4);
    expect(sel).toBe(10);
  });
});
