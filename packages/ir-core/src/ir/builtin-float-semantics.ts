/**
 * Bit-exact conversions between JS numbers and the IEEE binary16 / bfloat16 / binary32
 * formats, used by float attributes, dense elements and the hex encoding.
 */
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** The binary32 bits of `x` (rounded to nearest even). */
export function f32ToBits(x: number): number {
  f32[0] = x;
  return u32[0];
}
/** The number whose binary32 bits are `bits`. */
export function bitsToF32(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0];
}
/** The binary64 bits of `x`. */
export function f64ToBits(x: number): bigint {
  f64[0] = x;
  return u64[0];
}
/** The number whose binary64 bits are `bits`. */
export function bitsToF64(bits: bigint): number {
  u64[0] = BigInt.asUintN(64, bits);
  return f64[0];
}

/** Rounds `x` to binary16 (nearest even) and returns its 16 bits. */
export function f16ToBits(x: number): number {
  // Round directly from the double to avoid double rounding through f32.
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (Number.isNaN(x)) return 0x7e00;
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  // Subnormal range: quantum 2^-24.
  if (a < 2 ** -14) {
    const m = roundHalfEven(a / 2 ** -24);
    return sign | m; // m may reach 0x400: the smallest normal, encoded correctly
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  let m = roundHalfEven((a / 2 ** e - 1) * 1024);
  if (m === 1024) {
    m = 0;
    e++;
  }
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | m;
}

/** The number whose binary16 bits are `bits`. */
export function bitsToF16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

/** Rounds `x` to bfloat16 (nearest even, from the binary32 rounding of `x`) and returns its bits. */
export function bf16ToBits(x: number): number {
  if (Number.isNaN(x)) return 0x7fc0;
  const bits = f32ToBits(x);
  const lower = bits & 0xffff;
  let upper = bits >>> 16;
  if (lower > 0x8000 || (lower === 0x8000 && (upper & 1) === 1)) upper = (upper + 1) & 0xffff;
  return upper;
}

/** The number whose bfloat16 bits are `bits`. */
export function bitsToBf16(bits: number): number {
  return bitsToF32((bits & 0xffff) << 16);
}

function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** Rounds `x` to the value set of the named float type (exact for f16, bf16, f32, f64). */
export function roundToFloatKind(kind: string, x: number): number {
  switch (kind) {
    case 'f32':
    case 'tf32':
      return Math.fround(x);
    case 'f16':
      return bitsToF16(f16ToBits(x));
    case 'bf16':
      return bitsToBf16(bf16ToBits(x));
    default:
      return x;
  }
}
