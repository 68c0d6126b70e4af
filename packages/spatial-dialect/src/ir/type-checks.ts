/**
 * Small verifier helpers shared by the `spat` op definitions: each checks one rule, emits the
 * op error on failure and returns whether the rule holds.
 */
import { DenseArrayAttr, IntegerAttr, MemRefType, RankedTensorType, UnrankedTensorType, VectorType, formatType, isDynamic, typeConstraint, type Attribute, type Operation, type Type } from '@raptor-pim/ir-core';
import { SpatMessages as M } from '../diagnostics';

/** `type` as a ranked tensor, or undefined. */
export function asRanked(type: Type): RankedTensorType | undefined {
  return type instanceof RankedTensorType ? type : undefined;
}

/** True when every dimension of `t` is static. */
export function isStaticShape(t: RankedTensorType): boolean {
  return t.shape.every((d) => !isDynamic(d));
}

/** The element type of a shaped type (or the type itself). */
export function elementTypeOf(type: Type): Type {
  const t = type as { elementType?: Type };
  return t.elementType ?? type;
}

/** Shape of a shaped type, undefined for unranked or non-shaped. */
export function shapeOf(type: Type): readonly number[] | undefined {
  const t = type as { shape?: readonly number[] };
  return t.shape;
}

/**
 * Requires `type` to be a ranked tensor (static when `requireStatic`, of rank `rank` when
 * given); returns it or undefined after a diagnostic.
 */
export function requireTensor(op: Operation, what: string, type: Type, opts: { rank?: number; isStatic?: boolean } = {}): RankedTensorType | undefined {
  const t = asRanked(type);
  if (!t) {
    op.emitOpError(M.notRankedTensor(what, formatType(type)));
    return undefined;
  }
  if (opts.isStatic && !isStaticShape(t)) {
    op.emitOpError(M.notStatic(what, formatType(type)));
    return undefined;
  }
  if (opts.rank !== undefined && t.rank !== opts.rank) {
    op.emitOpError(M.wrongRank(what, formatType(type), opts.rank));
    return undefined;
  }
  return t;
}

/** Requires the element types of `a` and `b` to be equal. */
export function requireSameElementType(op: Operation, what: string, a: Type, b: Type, expectedWhat: string): boolean {
  if (elementTypeOf(a) === elementTypeOf(b)) return true;
  op.emitOpError(M.elementTypeMismatch(what, formatType(a), `${expectedWhat} (${formatType(elementTypeOf(b))})`));
  return false;
}

/** Requires the complete type `got` to be `expected`. */
export function requireSameType(op: Operation, what: string, got: Type, expected: Type, expectedWhat: string): boolean {
  if (got === expected) return true;
  op.emitOpError(M.typeMismatch(what, formatType(got), `${formatType(expected)} (${expectedWhat})`));
  return false;
}

/** Requires every dimension of `t` to be positive. */
export function requirePositiveDims(op: Operation, what: string, t: RankedTensorType): boolean {
  if (t.shape.every((d) => d > 0)) return true;
  op.emitOpError(M.nonPositiveDim(what, formatType(t)));
  return false;
}

/** Values of a dense integer array attribute (numbers), undefined otherwise. */
export function denseValues(a: Attribute | undefined): number[] | undefined {
  return a instanceof DenseArrayAttr ? (a.values as readonly (number | bigint)[]).map((v) => Number(v)) : undefined;
}

/** Value of an integer attribute as a number, undefined otherwise. */
export function intValue(a: Attribute | undefined): number | undefined {
  return a instanceof IntegerAttr ? Number(a.value) : undefined;
}

/** Requires the dense array property `name` to have `expected` entries. */
export function requireArrayLength(op: Operation, name: string, a: Attribute | undefined, expected: number): boolean {
  const v = denseValues(a) ?? [];
  if (v.length === expected) return true;
  op.emitOpError(M.arrayLength(name, v.length, expected));
  return false;
}

/** MLIR's `AnyShaped` (tensors, memrefs, vectors), the ODS operand type of element-wise ops. */
export const AnyShapedType = typeConstraint(
  'shaped of any type values',
  (t) => t instanceof RankedTensorType || t instanceof UnrankedTensorType || t instanceof MemRefType || t instanceof VectorType,
);
