import type { FloatKind } from '../ir/builtin-types';
import { bf16ToBits, f16ToBits, f32ToBits, f64ToBits, roundToFloatKind } from '../ir/builtin-float-semantics';

interface Semantics {
  readonly precision: number; // significand bits including the implicit one
  readonly exponentBits: number;
  readonly bits: number;
}

const SEMANTICS: Partial<Record<FloatKind, Semantics>> = {
  f64: { precision: 53, exponentBits: 11, bits: 64 },
  f32: { precision: 24, exponentBits: 8, bits: 32 },
  f16: { precision: 11, exponentBits: 5, bits: 16 },
  bf16: { precision: 8, exponentBits: 8, bits: 16 },
};

/** The raw bits of `value` in the float format `kind` (f16, bf16, f32, f64). */
export function floatBits(kind: FloatKind, value: number): bigint {
  switch (kind) {
    case 'f16':
      return BigInt(f16ToBits(value));
    case 'bf16':
      return BigInt(bf16ToBits(value));
    case 'f32':
    case 'tf32':
      return BigInt(f32ToBits(value));
    default:
      return f64ToBits(value);
  }
}

/** Decomposes a finite non-zero `value` of `sem` into an integer significand and binary exponent. */
function decompose(value: number, sem: Semantics): { significand: bigint; exp: number } {
  const bits = floatBitsFor(value, sem);
  const mantBits = sem.precision - 1;
  const expField = Number((bits >> BigInt(mantBits)) & ((1n << BigInt(sem.exponentBits)) - 1n));
  let significand = bits & ((1n << BigInt(mantBits)) - 1n);
  const bias = (1 << (sem.exponentBits - 1)) - 1;
  let exponent: number;
  if (expField === 0) {
    exponent = 1 - bias;
  } else {
    significand |= 1n << BigInt(mantBits);
    exponent = expField - bias;
  }
  return { significand, exp: exponent - mantBits };
}

function floatBitsFor(value: number, sem: Semantics): bigint {
  if (sem.bits === 64) return f64ToBits(value);
  if (sem.bits === 32) return BigInt(f32ToBits(value));
  if (sem.precision === 11) return BigInt(f16ToBits(value));
  return BigInt(bf16ToBits(value));
}

function activeBits(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** Decimal digits (most significant first, no trailing zeros) and the exponent of the last one. */
interface DecimalDigits {
  digits: string;
  exp: number;
}

const F64_VIEW = new Float64Array(1);
const F64_WORDS = new Uint32Array(F64_VIEW.buffer);
const HIGH_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
const LOG10_2 = Math.log10(2);

/** `x` is too close to an integer for a floating-point floor to be trusted. */
function nearInteger(x: number): boolean {
  const f = x - Math.floor(x);
  return f < 1e-7 || f > 1 - 1e-7;
}

/** Splits the digit string of `toExponential` (`d.ddde+x`, `d.ddde-x`) into digits without trailing zeros and the last digit's exponent. */
function splitExponential(s: string, keep: number): DecimalDigits {
  const e = s.indexOf('e');
  let digits = s.length > 2 && s.charCodeAt(1) === 46 ? s[0] + s.substring(2, e) : s.substring(0, e);
  if (digits.length > keep) digits = digits.substring(0, keep);
  const e10 = Number(s.substring(e + 1));
  let k = digits.length;
  while (k > 1 && digits.charCodeAt(k - 1) === 48) k--;
  return { digits: digits.substring(0, k), exp: e10 - (k - 1) };
}

/**
 * The digits LLVM's algorithm (below, `exactDigits`) produces for a finite positive `value`,
 * from the engine's correctly rounded `toExponential` instead of big-integer arithmetic; or
 * undefined when a floating-point estimate is too close to call (then the exact path runs).
 *
 * LLVM truncates the exact decimal significand N to L digits (dropping whole powers of ten
 * while enough bits remain), then rounds half up to `precision` digits. For L > precision that
 * is rounding N itself (half up looks at the first dropped digit only), which `toExponential`
 * does; L is never below `precision`, and for L = precision the result is N truncated.
 */
function fastDigits(value: number, precision: number): DecimalDigits | undefined {
  F64_VIEW[0] = value;
  const hi = F64_WORDS[HIGH_WORD]!;
  const expField = (hi >>> 20) & 0x7ff;
  if (expField === 0) return undefined; // f64 subnormals: rare, exact path
  // value = m * 2^e with m odd: trailing zeros of the 53-bit significand.
  const lo = F64_WORDS[1 - HIGH_WORD]!;
  let tz: number;
  if (lo !== 0) tz = 31 - Math.clz32(lo & -lo);
  else tz = 32 + (31 - Math.clz32((hi | 0x100000) & -(hi | 0x100000)));
  const e = expField - 1075 + tz;
  // N = m * 5^-e (e < 0) or m * 2^e: log10 N and log2 N.
  const log10v = Math.log10(value);
  const log10N = e < 0 ? log10v - e : log10v;
  const log2N = e < 0 ? log10N / LOG10_2 : Math.log2(value);
  if (nearInteger(log10N) || nearInteger(log2N)) return undefined;
  const digitsOfN = Math.floor(log10N) + 1;
  const bitsOfN = Math.floor(log2N) + 1;
  const bitsRequired = Math.floor((precision * 196 + 58) / 59);
  const tensRemovable = bitsOfN > bitsRequired ? Math.floor(((bitsOfN - bitsRequired) * 59) / 196) : 0;
  const kept = digitsOfN - tensRemovable;
  if (tensRemovable > 0 && kept <= precision) {
    if (kept < precision) return undefined;
    // N truncated to `precision` digits: round two digits further and cut, unless the two
    // extra digits came out 00 (a carry from 99 may have reached the kept ones).
    const s = value.toExponential(precision + 1);
    if (s.charCodeAt(precision + 1) === 48 && s.charCodeAt(precision + 2) === 48) return undefined;
    return splitExponential(s, precision);
  }
  return splitExponential(value.toExponential(precision - 1), precision);
}

/** LLVM's digit generation with big integers: exact for every finite positive `value` of `sem`. */
function exactDigits(value: number, sem: Semantics, formatPrecision: number): DecimalDigits {
  let { significand, exp } = decompose(value, sem);
  // Ignore trailing binary zeros.
  while ((significand & 1n) === 0n) {
    significand >>= 1n;
    exp++;
  }
  if (exp > 0) {
    significand <<= BigInt(exp);
    exp = 0;
  } else if (exp < 0) {
    significand *= 5n ** BigInt(-exp);
  }
  // AdjustToPrecision on the integer.
  {
    const bits = activeBits(significand);
    const bitsRequired = Math.floor((formatPrecision * 196 + 58) / 59);
    if (bits > bitsRequired) {
      const tensRemovable = Math.floor(((bits - bitsRequired) * 59) / 196);
      if (tensRemovable) {
        exp += tensRemovable;
        significand /= 10n ** BigInt(tensRemovable);
      }
    }
  }
  // Digits, least significant first, dropping trailing zeros.
  let digits = significand.toString();
  let tz = 0;
  while (tz < digits.length - 1 && digits.charCodeAt(digits.length - 1 - tz) === 48) tz++;
  if (tz) {
    digits = digits.substring(0, digits.length - tz);
    exp += tz;
  }
  // AdjustToPrecision on the digits (most significant first here), round half up.
  if (digits.length > formatPrecision) {
    const n = digits.length;
    const firstDropped = digits.charCodeAt(formatPrecision);
    let kept = digits.substring(0, formatPrecision);
    exp += n - formatPrecision;
    if (firstDropped >= 53) {
      // add with carry
      const arr = kept.split('');
      let i = arr.length - 1;
      while (i >= 0 && arr[i] === '9') {
        arr[i] = '0';
        i--;
      }
      if (i < 0) {
        kept = '1';
        exp += formatPrecision;
      } else {
        arr[i] = String.fromCharCode(arr[i].charCodeAt(0) + 1);
        kept = arr.join('');
      }
    }
    // drop trailing zeros
    let k = kept.length;
    while (k > 1 && kept.charCodeAt(k - 1) === 48) k--;
    exp += kept.length - k;
    digits = kept.substring(0, k);
  }
  return { digits, exp };
}

/**
 * LLVM's `APFloat::toString` for finite values of f16/bf16/f32/f64, digit for digit:
 * `formatPrecision` significant digits (0 = enough to round-trip), scientific when
 * `formatMaxPadding` is 0 or the padding rule says so, `truncateZero` as LLVM.
 * `exact` forces the big-integer digit generation (tests compare it with the fast one).
 */
export function apFloatToString(
  kind: FloatKind,
  value: number,
  formatPrecision: number,
  formatMaxPadding: number,
  truncateZero: boolean,
  exact = false,
): string {
  const sem = SEMANTICS[kind] ?? SEMANTICS.f64!;
  const neg = value < 0 || Object.is(value, -0);
  if (value === 0) {
    let s = neg ? '-' : '';
    if (!formatMaxPadding) {
      if (truncateZero) s += '0.0E+0';
      else s += '0.0' + (formatPrecision > 1 ? '0'.repeat(formatPrecision - 1) : '') + 'e+00';
    } else s += '0';
    return s;
  }
  let out = neg ? '-' : '';
  if (!formatPrecision) formatPrecision = 2 + Math.floor((sem.precision * 59) / 196);
  const abs = Math.abs(value);
  const d = (exact ? undefined : fastDigits(abs, formatPrecision)) ?? exactDigits(abs, sem, formatPrecision);
  const digits = d.digits;
  let exp = d.exp;
  const nDigits = digits.length;
  let scientific: boolean;
  if (!formatMaxPadding) scientific = true;
  else if (exp >= 0) scientific = exp > formatMaxPadding || nDigits + exp > formatPrecision;
  else {
    const msd = exp + nDigits - 1;
    scientific = msd >= 0 ? false : -msd > formatMaxPadding;
  }
  if (scientific) {
    exp += nDigits - 1;
    out += digits[0] + '.';
    if (nDigits === 1 && truncateZero) out += '0';
    else out += digits.substring(1);
    if (!truncateZero && formatPrecision > nDigits - 1) out += '0'.repeat(formatPrecision - nDigits + 1);
    out += truncateZero ? 'E' : 'e';
    out += exp >= 0 ? '+' : '-';
    let e = String(Math.abs(exp));
    if (!truncateZero && e.length < 2) e = '0' + e;
    return out + e;
  }
  if (exp >= 0) return out + digits + '0'.repeat(exp);
  const whole = exp + nDigits;
  if (whole > 0) return out + digits.substring(0, whole) + '.' + digits.substring(whole);
  return out + '0.' + '0'.repeat(-whole) + digits;
}

/**
 * Prints a float constant exactly as MLIR's `printFloatValue`: `%e`-style with 6 digits when
 * that round-trips, else LLVM's shortest-safe decimal form if it has a '.', else the bits in
 * hexadecimal (`0x7FC00000`; also for inf and NaN).
 */
export function formatFloat(kind: FloatKind, value: number): string {
  // f32, the common case: most values need more than 6 digits, and whether 6 digits can
  // round-trip is known from the correctly rounded 6 digits alone (a closest 6-digit decimal
  // is at least as close to the value as LLVM's, on the side with the wider rounding interval
  // when they differ, and rounding is monotonic), without building LLVM's `%e` form first.
  if (kind === 'f32' && value !== 0 && Number.isFinite(value) && Math.fround(parseFloat(value.toExponential(5))) !== value) {
    const d = apFloatToString(kind, value, 0, 3, true);
    if (d.includes('.')) return d;
    return '0x' + floatBits(kind, value).toString(16).toUpperCase();
  }
  const supported = SEMANTICS[kind] !== undefined;
  if (supported && Number.isFinite(value)) {
    const s = apFloatToString(kind, value, 6, 0, false);
    const back = roundToFloatKind(kind, parseFloat(s));
    if (Object.is(back, value) || (back === value && value !== 0)) return s;
    const d = apFloatToString(kind, value, 0, 3, true);
    if (d.includes('.')) return d;
  } else if (!supported && Number.isFinite(value)) {
    // f80/f128/f8 kinds are held as f64 values: print with f64 rules.
    return formatFloat('f64', value);
  }
  return '0x' + floatBits(kind, value).toString(16).toUpperCase();
}
