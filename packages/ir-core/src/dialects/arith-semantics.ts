/**
 * The exact scalar semantics of the arith ops, shared by the folders (constant folding in the
 * greedy driver) and the interpreter rules. Integers are bigint in MLIR's storage convention
 * (signless and signed types hold the signed value, i1 holds 0/1) and every result is wrapped
 * to the bit width; floats are JS numbers rounded to their type (f32 with `Math.fround`).
 * Undefined behavior (division by zero, signed division overflow, over-wide shifts) yields
 * `undefined`: folders then do not fold, the interpreter reports a diagnostic.
 */
import type { Type } from '../ir/attribute';
import { FloatType, IndexType, IntegerType } from '../ir/builtin-types';
import { integerBitWidth, wrapIntegerValue } from '../ir/builtin-attributes';
import {
  bitsToBf16,
  bitsToF16,
  bitsToF32,
  bitsToF64,
  bf16ToBits,
  f16ToBits,
  f32ToBits,
  f64ToBits,
  roundToFloatKind,
} from '../ir/builtin-float-semantics';

/** A scalar runtime value: bigint for integers and index, number for floats. */
export type ScalarValue = bigint | number;

/** An integer binary operation on stored values of bit width `width` (`undefined` = UB). */
export type IntBinaryFn = (a: bigint, b: bigint, width: number) => bigint | undefined;
/** A float binary operation (the result is rounded to the type by the caller). */
export type FloatBinaryFn = (a: number, b: number) => number;

const sx = (v: bigint, w: number): bigint => BigInt.asIntN(w, v);
const zx = (v: bigint, w: number): bigint => BigInt.asUintN(w, v);

function signedDivisionIsUB(a: bigint, b: bigint, w: number): boolean {
  if (zx(b, w) === 0n) return true;
  return sx(a, w) === -(1n << BigInt(w - 1)) && sx(b, w) === -1n && w > 1;
}

/** Integer binary ops by op name (without the `arith.` prefix). */
export const INT_BINARY: Readonly<Record<string, IntBinaryFn>> = {
  addi: (a, b) => a + b,
  subi: (a, b) => a - b,
  muli: (a, b) => a * b,
  divsi: (a, b, w) => (signedDivisionIsUB(a, b, w) ? undefined : sx(a, w) / sx(b, w)),
  divui: (a, b, w) => (zx(b, w) === 0n ? undefined : zx(a, w) / zx(b, w)),
  remsi: (a, b, w) => (zx(b, w) === 0n ? undefined : signedDivisionIsUB(a, b, w) ? 0n : sx(a, w) % sx(b, w)),
  remui: (a, b, w) => (zx(b, w) === 0n ? undefined : zx(a, w) % zx(b, w)),
  ceildivsi: (a, b, w) => {
    if (signedDivisionIsUB(a, b, w)) return undefined;
    const x = sx(a, w);
    const y = sx(b, w);
    const q = x / y;
    return q * y !== x && x < 0n === y < 0n ? q + 1n : q;
  },
  floordivsi: (a, b, w) => {
    if (signedDivisionIsUB(a, b, w)) return undefined;
    const x = sx(a, w);
    const y = sx(b, w);
    const q = x / y;
    return q * y !== x && x < 0n !== y < 0n ? q - 1n : q;
  },
  andi: (a, b, w) => zx(a, w) & zx(b, w),
  ori: (a, b, w) => zx(a, w) | zx(b, w),
  xori: (a, b, w) => zx(a, w) ^ zx(b, w),
  shli: (a, b, w) => (zx(b, w) >= BigInt(w) ? undefined : zx(a, w) << zx(b, w)),
  shrsi: (a, b, w) => (zx(b, w) >= BigInt(w) ? undefined : sx(a, w) >> zx(b, w)),
  shrui: (a, b, w) => (zx(b, w) >= BigInt(w) ? undefined : zx(a, w) >> zx(b, w)),
  maxsi: (a, b, w) => (sx(a, w) >= sx(b, w) ? a : b),
  minsi: (a, b, w) => (sx(a, w) <= sx(b, w) ? a : b),
  maxui: (a, b, w) => (zx(a, w) >= zx(b, w) ? a : b),
  minui: (a, b, w) => (zx(a, w) <= zx(b, w) ? a : b),
};

/** Float binary ops by op name (without the prefix), before rounding to the type. */
export const FLOAT_BINARY: Readonly<Record<string, FloatBinaryFn>> = {
  addf: (a, b) => a + b,
  subf: (a, b) => a - b,
  mulf: (a, b) => a * b,
  divf: (a, b) => a / b,
  // C fmod: the result has the sign of the dividend, as JS `%`.
  remf: (a, b) => a % b,
  // IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0 (as Math.max/min).
  maximumf: (a, b) => Math.max(a, b),
  minimumf: (a, b) => Math.min(a, b),
  // maxNum/minNum: a NaN operand yields the other operand.
  maxnumf: (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b)),
  minnumf: (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b)),
};

/** `arith.cmpi` by predicate index (see `CMPI_PREDICATES`). */
export function compareIntegers(predicate: number, a: bigint, b: bigint, w: number): boolean {
  switch (predicate) {
    case 0:
      return zx(a, w) === zx(b, w);
    case 1:
      return zx(a, w) !== zx(b, w);
    case 2:
      return sx(a, w) < sx(b, w);
    case 3:
      return sx(a, w) <= sx(b, w);
    case 4:
      return sx(a, w) > sx(b, w);
    case 5:
      return sx(a, w) >= sx(b, w);
    case 6:
      return zx(a, w) < zx(b, w);
    case 7:
      return zx(a, w) <= zx(b, w);
    case 8:
      return zx(a, w) > zx(b, w);
    default:
      return zx(a, w) >= zx(b, w);
  }
}

/** `arith.cmpf` by predicate index (see `CMPF_PREDICATES`): ordered ones are false on NaN, unordered ones true. */
export function compareFloats(predicate: number, a: number, b: number): boolean {
  const unordered = Number.isNaN(a) || Number.isNaN(b);
  switch (predicate) {
    case 0:
      return false;
    case 1:
      return !unordered && a === b;
    case 2:
      return !unordered && a > b;
    case 3:
      return !unordered && a >= b;
    case 4:
      return !unordered && a < b;
    case 5:
      return !unordered && a <= b;
    case 6:
      return !unordered && a !== b;
    case 7:
      return !unordered;
    case 8:
      return unordered || a === b;
    case 9:
      return unordered || a > b;
    case 10:
      return unordered || a >= b;
    case 11:
      return unordered || a < b;
    case 12:
      return unordered || a <= b;
    case 13:
      return unordered || a !== b;
    case 14:
      return unordered;
    default:
      return true;
  }
}

/** The bit width of an integer or index type. */
export function intWidth(type: IntegerType | IndexType): number {
  return integerBitWidth(type);
}

/** Rounds `x` to the value set of float type `type` (f32 with `Math.fround`). */
export function roundFloat(type: FloatType, x: number): number {
  return type.kind === 'f32' ? Math.fround(x) : type.kind === 'f64' ? x : roundToFloatKind(type.kind, x);
}

/** Rounds `x` (an f64) to f32 under an explicit `arith.truncf` rounding mode (index into `ROUNDING_MODES`). */
function roundWithMode(type: FloatType, x: number, mode: number | undefined): number {
  const nearest = roundFloat(type, x);
  if (mode === undefined || mode === 0 || !Number.isFinite(x) || nearest === x) return nearest;
  // Directed modes: pick the neighbour of `nearest` on the requested side.
  const below = nearest > x ? nextFloat(type, nearest, -1) : nearest;
  const above = nearest < x ? nextFloat(type, nearest, 1) : nearest;
  switch (mode) {
    case 1:
      return below;
    case 2:
      return above;
    case 3:
      return x < 0 ? above : below;
    default: {
      const dBelow = x - below;
      const dAbove = above - x;
      if (dBelow !== dAbove) return dBelow < dAbove ? below : above;
      return x < 0 ? below : above;
    }
  }
}

function nextFloat(type: FloatType, x: number, dir: 1 | -1): number {
  if (type.kind === 'f32') {
    const bits = f32ToBits(x);
    const next = x === 0 ? (dir > 0 ? 1 : 0x80000001) : (x > 0) === (dir > 0) ? bits + 1 : bits - 1;
    return bitsToF32(next >>> 0);
  }
  if (type.kind === 'f16') {
    const bits = f16ToBits(x);
    const next = x === 0 ? (dir > 0 ? 1 : 0x8001) : (x > 0) === (dir > 0) ? bits + 1 : bits - 1;
    return bitsToF16(next & 0xffff);
  }
  if (type.kind === 'bf16') {
    const bits = bf16ToBits(x);
    const next = x === 0 ? (dir > 0 ? 1 : 0x8001) : (x > 0) === (dir > 0) ? bits + 1 : bits - 1;
    return bitsToBf16(next & 0xffff);
  }
  return x;
}

/**
 * Evaluates a cast op `name` (without prefix) of scalar `value` from `from` to `to`. Returns
 * `undefined` for out-of-range float-to-integer conversions (poison in MLIR) and unsupported
 * type combinations. `roundingMode` applies to `truncf`.
 */
export function evaluateCast(name: string, value: ScalarValue, from: Type, to: Type, roundingMode?: number): ScalarValue | undefined {
  const toInt = to instanceof IntegerType || to instanceof IndexType ? to : undefined;
  const fromInt = from instanceof IntegerType || from instanceof IndexType ? from : undefined;
  switch (name) {
    case 'extsi':
    case 'index_cast':
    case 'trunci': {
      if (!fromInt || !toInt || typeof value !== 'bigint') return undefined;
      return wrapIntegerValue(toInt, sx(value, intWidth(fromInt)));
    }
    case 'extui':
    case 'index_castui': {
      if (!fromInt || !toInt || typeof value !== 'bigint') return undefined;
      return wrapIntegerValue(toInt, zx(value, intWidth(fromInt)));
    }
    case 'sitofp':
    case 'uitofp': {
      if (!fromInt || !(to instanceof FloatType) || typeof value !== 'bigint') return undefined;
      const w = intWidth(fromInt);
      const v = name === 'sitofp' ? sx(value, w) : zx(value, w);
      return roundFloat(to, Number(v));
    }
    case 'fptosi':
    case 'fptoui': {
      if (!toInt || typeof value !== 'number' || !Number.isFinite(value)) return undefined;
      const t = BigInt(Math.trunc(value));
      const w = intWidth(toInt);
      const inRange = name === 'fptosi' ? sx(t, w) === t : zx(t, w) === t;
      return inRange ? wrapIntegerValue(toInt, t) : undefined;
    }
    case 'extf':
      return to instanceof FloatType && typeof value === 'number' ? roundFloat(to, value) : undefined;
    case 'truncf':
      return to instanceof FloatType && typeof value === 'number' ? roundWithMode(to, value, roundingMode) : undefined;
    case 'bitcast':
      return bitcast(value, from, to);
    default:
      return undefined;
  }
}

function floatToBits(type: FloatType, x: number): bigint | undefined {
  switch (type.kind) {
    case 'f16':
      return BigInt(f16ToBits(x));
    case 'bf16':
      return BigInt(bf16ToBits(x));
    case 'f32':
      return BigInt(f32ToBits(x) >>> 0);
    case 'f64':
      return f64ToBits(x);
    default:
      return undefined;
  }
}

function bitsToFloat(type: FloatType, bits: bigint): number | undefined {
  switch (type.kind) {
    case 'f16':
      return bitsToF16(Number(bits));
    case 'bf16':
      return bitsToBf16(Number(bits));
    case 'f32':
      return bitsToF32(Number(bits));
    case 'f64':
      return bitsToF64(bits);
    default:
      return undefined;
  }
}

function bitcast(value: ScalarValue, from: Type, to: Type): ScalarValue | undefined {
  let bits: bigint | undefined;
  let width: number;
  if (from instanceof FloatType) {
    if (typeof value !== 'number') return undefined;
    bits = floatToBits(from, value);
    width = from.width;
  } else if (from instanceof IntegerType || from instanceof IndexType) {
    if (typeof value !== 'bigint') return undefined;
    width = intWidth(from);
    bits = zx(value, width);
  } else return undefined;
  if (bits === undefined) return undefined;
  if (to instanceof FloatType) return to.width === width ? bitsToFloat(to, bits) : undefined;
  if (to instanceof IntegerType || to instanceof IndexType) return intWidth(to) === width ? wrapIntegerValue(to, bits) : undefined;
  return undefined;
}
