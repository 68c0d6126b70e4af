/**
 * Type and attribute constraints of the memref dialect, with the descriptions MLIR 22's ODS
 * prints in "operand #0 must be ..." and "attribute 'x' failed to satisfy constraint: ...".
 */
import {
  AnyFloat,
  AnySignlessInteger,
  attrConstraint,
  FloatType,
  IndexType,
  IntegerAttr,
  IntegerType,
  MemRefType,
  typeConstraint,
  UnrankedMemRefType,
  type Type,
} from '@raptor-pim/ir-core';
import { isStrided } from './layout';

const isSignlessInt = (t: Type, w?: number) => t instanceof IntegerType && t.isSignless && (w === undefined || t.width === w);

/** A ranked memref (ODS `AnyMemRef`). */
export const AnyRankedMemRef = typeConstraint('memref of any type values', (t) => t instanceof MemRefType);
/** A ranked or unranked memref (`AnyRankedOrUnrankedMemRef`). */
export const AnyRankedOrUnrankedMemRef = typeConstraint(
  'ranked or unranked memref of any type values',
  (t) => t instanceof MemRefType || t instanceof UnrankedMemRefType,
);
/** A ranked memref with a strided layout (`AnyStridedMemRef`). */
export const AnyStridedMemRef = typeConstraint('strided memref of any type values', (t) => t instanceof MemRefType && isStrided(t));
/** Rank-0 strided memref (the base buffer of `extract_strided_metadata`). */
export const AnyStridedMemRefOfRank0 = typeConstraint(
  'strided memref of any type values of rank 0',
  (t) => t instanceof MemRefType && t.rank === 0 && isStrided(t),
);
/** Unranked, or ranked with rank >= 1 (`AnyNon0RankedOrUnrankedMemRef`). */
export const AnyNon0RankedOrUnrankedMemRef = typeConstraint(
  'unranked.memref of any type values or non-0-ranked.memref of any type values',
  (t) => t instanceof UnrankedMemRefType || (t instanceof MemRefType && t.rank > 0),
);
/** Statically shaped memref (`AnyStaticShapeMemRef`). */
export const AnyStaticShapeMemRef = typeConstraint(
  'statically shaped memref of any type values',
  (t) => t instanceof MemRefType && t.shape.every((d) => d >= 0),
);
/** 1-D memref of i8 (source of `memref.view`). */
export const MemRef1DI8 = typeConstraint(
  '1D memref of 8-bit signless integer values',
  (t) => t instanceof MemRefType && t.rank === 1 && isSignlessInt(t.elementType, 8),
);
/** 1-D memref of any element (source/result of `memref.realloc`). */
export const MemRef1D = typeConstraint('1D memref of any type values', (t) => t instanceof MemRefType && t.rank === 1);
/** 1-D memref of signless integers or index (`shape` of `memref.reshape`). */
export const MemRef1DIntOrIndex = typeConstraint(
  '1D memref of signless integer or index values',
  (t) => t instanceof MemRefType && t.rank === 1 && (isSignlessInt(t.elementType) || t.elementType instanceof IndexType),
);
/** Signless integer or float scalar. */
export const SignlessIntegerOrFloat = typeConstraint(
  'signless integer or floating-point',
  (t) => AnySignlessInteger.check(t) || AnyFloat.check(t),
);
/** Ranked memref of signless integers or floats. */
export const MemRefOfIntOrFloat = typeConstraint(
  'memref of signless integer or floating-point values',
  (t) => t instanceof MemRefType && SignlessIntegerOrFloat.check(t.elementType),
);

const isPow2 = (v: bigint) => v > 0n && (v & (v - 1n)) === 0n;

/** `ConfinedAttr<I64Attr, [IntPositive, IntPowerOf2]>` (alloc, alloca, realloc, global, load, store). */
export const AlignmentAttr = attrConstraint(
  '64-bit signless integer attribute whose value is positive and whose value is a power of two > 0',
  (a): a is IntegerAttr => a instanceof IntegerAttr && isSignlessInt(a.type, 64) && isPow2(a.value),
);
/** `ConfinedAttr<I32Attr, [IntPositive]>` (assume_alignment). */
export const PositiveI32Attr = attrConstraint(
  '32-bit signless integer attribute whose value is positive',
  (a): a is IntegerAttr => a instanceof IntegerAttr && isSignlessInt(a.type, 32) && a.value > 0n,
);
/** `ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<3>]>` (prefetch locality hint). */
export const LocalityHintAttr = attrConstraint(
  '32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3',
  (a): a is IntegerAttr => a instanceof IntegerAttr && isSignlessInt(a.type, 32) && a.value >= 0n && a.value <= 3n,
);

/** The atomic read-modify-write kinds in MLIR's enum order (`arith::AtomicRMWKind`). */
export const ATOMIC_RMW_KINDS = [
  'addf',
  'addi',
  'andi',
  'assign',
  'maximumf',
  'maxnumf',
  'maxs',
  'maxu',
  'minimumf',
  'minnumf',
  'mins',
  'minu',
  'mulf',
  'muli',
  'ori',
  'xori',
] as const;
/** One atomic read-modify-write kind. */
export type AtomicRMWKind = (typeof ATOMIC_RMW_KINDS)[number];
/** Kinds that need a floating-point value. */
export const FLOAT_ATOMIC_KINDS: ReadonlySet<string> = new Set(['addf', 'maximumf', 'maxnumf', 'minimumf', 'minnumf', 'mulf']);
/** Kinds that need a signless integer value. */
export const INT_ATOMIC_KINDS: ReadonlySet<string> = new Set(['addi', 'andi', 'maxs', 'maxu', 'mins', 'minu', 'muli', 'ori', 'xori']);

/** `AtomicRMWKindAttr`: an i64 integer 0..15. */
export const AtomicRMWKindAttr = attrConstraint(
  `allowed 64-bit signless integer cases: ${ATOMIC_RMW_KINDS.map((_, i) => i).join(', ')}`,
  (a): a is IntegerAttr => a instanceof IntegerAttr && isSignlessInt(a.type, 64) && a.value >= 0n && a.value < BigInt(ATOMIC_RMW_KINDS.length),
);

/** True for float scalar types. */
export function isFloat(t: Type): t is FloatType {
  return t instanceof FloatType;
}
