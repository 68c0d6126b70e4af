/**
 * Property tests: the vector rules agree with a direct implementation of the ISA semantics on
 * random data (tensor and memref forms), random byte copies splice exactly the copied bytes or
 * are refused when out of bounds, and random send/receive chains over 2-6 cores deliver every
 * payload (dropping one receive always yields a diagnostic, never a silent result).
 */
import fc from 'fast-check';
import { f32, run, valuesOf } from './support';

const UNARY: Record<string, (x: number[]) => number[]> = {
  vrelu: (x) => x.map((v) => (v > 0 ? v : 0)),
  vsigm: (x) => x.map((v) => 1 / (1 + Math.exp(-v))),
  vtanh: (x) => x.map(Math.tanh),
  vavg: (x) => [x.reduce((a, b) => a + b, 0) / x.length],
};
const BINARY: Record<string, (a: number[], b: number[]) => number[]> = {
  vvadd: (a, b) => a.map((v, i) => v + b[i]!),
  vvsub: (a, b) => a.map((v, i) => v - b[i]!),
  vvmul: (a, b) => a.map((v, i) => v * b[i]!),
  vvmax: (a, b) => a.map((v, i) => (v > b[i]! ? v : b[i]!)),
  vvdmul: (a, b) => [a.reduce((s, v, i) => s + v * b[i]!, 0)],
};
const value = fc.float({ min: -8, max: 8, noNaN: true, noDefaultInfinity: true }).map(Math.fround);

describe('vector rules match the ISA semantics on random data', () => {
  it('unary ops', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(UNARY)),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        fc.infiniteStream(value),
        (op, n, memref, stream) => {
          const x = [...stream.take(n)];
          const expected = UNARY[op]!(x).map(Math.fround);
          const k = memref ? 'memref' : 'tensor';
          const X = `${k}<1x${n}xf32>`;
          const D = `${k}<1x${expected.length}xf32>`;
          const text = `func.func @main(%x: ${X}, %dst: ${D}) -> ${D} {
  %y = pim.${op}(%x, %dst) : (${X}, ${D}) -> ${D}
  return %y : ${D}
}`;
          const kind = memref ? 'buffer' : 'tensor';
          const r = run(text, 'main', [
            f32([1, n], x, kind),
            f32(
              [1, expected.length],
              expected.map(() => 0),
              kind
            ),
          ]);
          expect(r.ok && valuesOf(r.values[0])).toEqual(expected);
        }
      ),
      { numRuns: 40 }
    );
  });

  it('binary ops', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(BINARY)), fc.integer({ min: 1, max: 12 }), fc.infiniteStream(value), (op, n, stream) => {
        const a = [...stream.take(n)];
        const b = [...stream.take(n)];
        const expected = BINARY[op]!(a, b).map(Math.fround);
        const X = `tensor<1x${n}xf32>`;
        const D = `tensor<1x${expected.length}xf32>`;
        const text = `func.func @main(%a: ${X}, %b: ${X}, %dst: ${D}) -> ${D} {
  %y = pim.${op}(%a, %b, %dst) : (${X}, ${X}, ${D}) -> ${D}
  return %y : ${D}
}`;
        const r = run(text, 'main', [
          f32([1, n], a),
          f32([1, n], b),
          f32(
            [1, expected.length],
            expected.map(() => 0)
          ),
        ]);
        expect(r.ok && valuesOf(r.values[0])).toEqual(expected);
      }),
      { numRuns: 40 }
    );
  });
});

describe('byte copies', () => {
  it('memcp splices exactly [dstOffset, dstOffset + size) or refuses an out-of-bounds range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }), (d, s, n) => {
        const text = `func.func @main(%dst: tensor<1x6xf32>, %src: tensor<1x6xf32>) -> tensor<1x6xf32> {
  %d = arith.constant ${d * 4} : index
  %s = arith.constant ${s * 4} : index
  %y = pim.memcp[%d, %s](%dst, %src) {size = ${n * 4} : i32} : tensor<1x6xf32>, tensor<1x6xf32> -> tensor<1x6xf32>
  return %y : tensor<1x6xf32>
}`;
        const dst = [-1, -2, -3, -4, -5, -6];
        const src = [1, 2, 3, 4, 5, 6];
        const r = run(text, 'main', [f32([1, 6], dst), f32([1, 6], src)]);
        if (d + n > 6 || s + n > 6) {
          expect(r.ok).toBe(false);
          if (!r.ok)
            expect(r.diagnostic.message).toMatch(
              /^'pim\.memcp': (source|destination) byte range \[\d+, \d+\) is out of bounds of a 24-byte buffer$/
            );
          return;
        }
        const expected = dst.slice();
        for (let i = 0; i < n; i++) expected[d + i] = src[s + i]!;
        expect(r.ok && valuesOf(r.values[0])).toEqual(expected);
      }),
      { numRuns: 60 }
    );
  });
});

describe('send/receive chains', () => {
  /** Core k (k > 0) receives from core k-1, adds its own input, sends to k+1; the last one stores. */
  function chain(n: number, drop: number | undefined, order: readonly number[] = [...Array(n).keys()]): string {
    const M = 'memref<1x2xf32>';
    const cores: string[] = [];
    for (let k = 0; k < n; k++) {
      const lines = [
        `%c0 = arith.constant 0 : index`,
        `%prev = arith.constant ${k - 1} : index`,
        `%next = arith.constant ${k + 1} : index`,
        `%off = arith.constant ${k * 8} : index`,
        `%b = memref.alloc() : ${M}`,
        `%x = pim.memcp_hd[%c0, %off](%b, %in) {size = 8 : i32} : ${M}, memref<1x${2 * n}xf32> -> ${M}`,
      ];
      if (k > 0 && drop !== k) {
        lines.push(
          `%r0 = memref.alloc() : ${M}`,
          `%r = pim.receive[%c0](%r0, %prev) {size = 8 : i32} : ${M} -> ${M}`,
          `%s = pim.vvadd(%x, %r, %x) : (${M}, ${M}, ${M}) -> ${M}`
        );
      }
      if (k < n - 1) lines.push(`pim.send(%x, %next) {size = 8 : i32} : ${M} -> ()`);
      else lines.push(`%o = pim.memcp_dh[%c0, %c0](%out, %x) {size = 8 : i32} : ${M}, ${M} -> ${M}`);
      lines.push('pim.halt');
      cores.push(`  pim.core [] = [] coreId ${k} : [] -> () {\n    ${lines.join('\n    ')}\n  }`);
    }
    return `func.func @main(%in: memref<1x${2 * n}xf32>, %out: ${M}) {\n${order.map((k) => cores[k]).join('\n')}\n  return\n}`;
  }

  it('deliver every payload in order, whatever the program order of the cores', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.shuffledSubarray([...Array(n).keys()], {
              minLength: n,
              maxLength: n,
            })
          )
        ),
        fc.infiniteStream(fc.integer({ min: -50, max: 50 })),
        ([n, order], stream) => {
          const input = [...stream.take(2 * n)];
          const out = f32([1, 2], [0, 0], 'buffer');
          const r = run(chain(n, undefined, order), 'main', [f32([1, 2 * n], input, 'buffer'), out]);
          expect(r.ok).toBe(true);
          const expected = [0, 1].map((j) => input.filter((_v, i) => i % 2 === j).reduce((a, b) => a + b, 0));
          expect(valuesOf(out)).toEqual(expected);
        }
      ),
      { numRuns: 25 }
    );
  });

  it('a dropped receive always yields a diagnostic naming the unmatched send', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 1, max: n - 1 }))),
        ([n, drop]) => {
          const r = run(chain(n, drop), 'main', [f32([1, 2 * n], new Array(2 * n).fill(1), 'buffer'), f32([1, 2], [0, 0], 'buffer')]);
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.diagnostic.message).toContain("'pim.send' on core");
        }
      ),
      { numRuns: 20 }
    );
  });
});
