// The fast digit generation of apFloatToString (the engine's correctly rounded toExponential,
// with LLVM's truncation case detected) must give LLVM's digits exactly: compared here with the
// big-integer path on random bit patterns of every float kind and on the edge cases.
import fc from 'fast-check';
import { apFloatToString, formatFloat } from '../../src/syntax/float-format';
import type { FloatKind } from '../../src/ir/builtin-types';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const fromF32Bits = (bits: number): number => ((u32[0] = bits), f32[0]!);
const fromF64Bits = (bits: bigint): number => ((u64[0] = bits), f64[0]!);

/** Both digit generations, in each of formatFloat's two formats. */
function expectSame(kind: FloatKind, value: number): void {
  if (!Number.isFinite(value)) return;
  for (const [precision, padding, truncateZero] of [[6, 0, false], [0, 3, true]] as const) {
    const fast = apFloatToString(kind, value, precision, padding, truncateZero);
    const exact = apFloatToString(kind, value, precision, padding, truncateZero, true);
    if (fast !== exact) throw new Error(`${kind} ${value}: fast ${fast}, exact ${exact}`);
  }
}

describe('apFloatToString fast digits', () => {
  it('equal the exact digits on random f32 bit patterns', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffff }), (bits) => expectSame('f32', fromF32Bits(bits >>> 0))), { numRuns: 20000 });
  });

  it('equal the exact digits on random f64 bit patterns', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (bits) => expectSame('f64', fromF64Bits(bits))), { numRuns: 10000 });
  });

  it('equal the exact digits on f32 values of weight-like magnitude', () => {
    fc.assert(fc.property(fc.float({ min: -4, max: 4, noNaN: true, noDefaultInfinity: true }), (v) => expectSame('f32', v)), { numRuns: 20000 });
  });

  it('equal the exact digits on f16 and bf16 values', () => {
    for (let bits = 0; bits < 0x10000; bits += 7) {
      const sign = bits & 0x8000 ? -1 : 1;
      const e = (bits >> 10) & 0x1f;
      const m = bits & 0x3ff;
      if (e !== 0x1f) expectSame('f16', sign * (e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15)));
      expectSame('bf16', fromF32Bits((bits << 16) >>> 0));
    }
  });

  it('equal the exact digits on edge cases (powers of ten and two, carries, subnormals)', () => {
    const values: number[] = [];
    for (let k = -45; k <= 38; k++) values.push(10 ** k, 9.9999995 * 10 ** k, 5 * 10 ** k, 1.5 * 10 ** k);
    for (let k = -149; k <= 127; k++) values.push(2 ** k, 3 * 2 ** k);
    for (let k = -1074; k <= 1023; k += 3) values.push(2 ** k);
    values.push(Number.MIN_VALUE, Number.MAX_VALUE, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 123456.5, 999999.5, 9999995, 0.5);
    for (const v of values) {
      expectSame('f64', v);
      expectSame('f64', -v);
      const r = Math.fround(v);
      if (Number.isFinite(r)) expectSame('f32', r);
    }
  });

  it('prints as before on known values', () => {
    expect(formatFloat('f32', Math.fround(0.345461518))).toBe('0.345461518');
    expect(formatFloat('f32', Math.fround(0.281178))).toBe('2.811780e-01');
    expect(formatFloat('f32', 1)).toBe('1.000000e+00');
    expect(formatFloat('f64', 0.1)).toBe('1.000000e-01');
    expect(formatFloat('f32', -0)).toBe('-0.000000e+00');
  });
});

/** MLIR's printFloatValue rule for f32 spelled out on the exact (big-integer) digits: the reference of formatFloat's f32 shortcut. */
function referenceF32(value: number): string {
  const s = apFloatToString('f32', value, 6, 0, false, true);
  const back = Math.fround(parseFloat(s));
  if (Object.is(back, value) || (back === value && value !== 0)) return s;
  const d = apFloatToString('f32', value, 0, 3, true, true);
  if (d.includes('.')) return d;
  f32[0] = value;
  return '0x' + u32[0]!.toString(16).toUpperCase();
}

describe('formatFloat on f32 (6-digit round trip decided from the correctly rounded digits)', () => {
  const same = (v: number): void => {
    if (!Number.isFinite(v)) return;
    const got = formatFloat('f32', v);
    const want = referenceF32(v);
    if (got !== want) throw new Error(`${v}: ${got}, expected ${want}`);
  };

  it('prints as the full rule on random f32 bit patterns', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffff }), (bits) => same(fromF32Bits(bits >>> 0))), { numRuns: 20000 });
  });

  it('prints as the full rule on weight-like values and values with few digits', () => {
    fc.assert(fc.property(fc.float({ min: -4, max: 4, noNaN: true, noDefaultInfinity: true }), (v) => same(v)), { numRuns: 20000 });
    fc.assert(
      fc.property(fc.integer({ min: -999999, max: 999999 }), fc.integer({ min: -45, max: 38 }), (m, e) => same(Math.fround(m * 10 ** e))),
      { numRuns: 20000 },
    );
  });

  it('prints as the full rule at powers of two and their neighbours (uneven rounding intervals)', () => {
    for (let k = -149; k <= 127; k++) {
      f32[0] = 2 ** k;
      const bits = u32[0]!;
      for (const b of [bits - 1, bits, bits + 1]) if (b >= 0) {
        same(fromF32Bits(b));
        same(-fromF32Bits(b));
      }
    }
  });
});

