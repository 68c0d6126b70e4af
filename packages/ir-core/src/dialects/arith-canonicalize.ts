/**
 * The arith canonicalization patterns of MLIR's `ArithCanonicalization.td` that reassociate
 * constants: `addi(addi(x, c0), c1) -> addi(x, c0 + c1)` and its subi/muli relatives. Used by
 * the `canonicalize` pass through the dialect's `getCanonicalizationPatterns`.
 */
import type { Attribute, Type } from '../ir/attribute';
import { DenseElementsAttr, IntegerAttr } from '../ir/builtin-attributes';
import { FloatType, IndexType, IntegerType, RankedTensorType, VectorType } from '../ir/builtin-types';
import type { Operation } from '../ir/operation';
import type { Value } from '../ir/value';
import { getConstantValue } from '../rewrite/folding';
import { createPattern, type RewritePattern } from '../rewrite/pattern';
import type { PatternRewriter } from '../rewrite/rewriter';
import type { ViewOf } from '../ir/op-definition';
import { AddIOp, ConstantOp, MulIOp, SubIOp } from './arith';
import { OverflowFlagsAttr } from './arith-attributes';

/** The integer value of a constant operand (scalar or splat), if it is one. */
function constInt(v: Value): bigint | undefined {
  const a = getConstantValue(v);
  if (a instanceof IntegerAttr) return a.value;
  if (a instanceof DenseElementsAttr && a.isSplat && !(a.elementType instanceof FloatType)) return a.getBigInt(0);
  return undefined;
}

function constAttr(type: Type, value: bigint): Attribute | undefined {
  if (type instanceof IntegerType || type instanceof IndexType) return IntegerAttr.get(type, value);
  if ((type instanceof RankedTensorType || type instanceof VectorType) && type.shape.every((d) => d >= 0)) return DenseElementsAttr.splat(type, value);
  return undefined;
}

function flagsOf(op: Operation): number {
  const f = op.getAttr('overflowFlags');
  return f instanceof OverflowFlagsAttr ? f.flags : 0;
}

/** The integer binary op definitions the patterns rewrite (all built by the same factory). */
type IntBinaryDef = typeof AddIOp;
type IntBinaryView = ViewOf<IntBinaryDef>;

/** Replaces `op` by `def(lhs, rhs)` where one side is a new constant `c`. */
function rewriteWith(
  op: IntBinaryView,
  rewriter: PatternRewriter,
  def: IntBinaryDef,
  c: bigint,
  operand: Value,
  constantFirst: boolean,
  flags: number,
): boolean {
  const type = op.result.type;
  const value = constAttr(type, c);
  if (!value) return false;
  rewriter.setInsertionPoint(op.op);
  const cst = rewriter.create({ name: ConstantOp.name, location: op.location, properties: { value }, resultTypes: [type] });
  const operands = constantFirst ? [cst.getResult(0), operand] : [operand, cst.getResult(0)];
  rewriter.replaceOpWithNew(op.op, (r) =>
    r.create({
      name: def.name,
      location: op.location,
      operands,
      properties: { overflowFlags: OverflowFlagsAttr.get(op.op.context, flags) },
      resultTypes: [type],
    }),
  );
  return true;
}

/** `outer(inner(x, c0), c1)` (or `outer(c1, inner(...))` with `lhsConst`) matched for `rewrite`. */
function reassociate(
  outer: IntBinaryDef,
  inner: IntBinaryDef,
  debugName: string,
  rewrite: (op: IntBinaryView, rw: PatternRewriter, innerOp: IntBinaryView, c1: bigint) => boolean,
  lhsConst = false,
): RewritePattern {
  return createPattern(
    outer,
    (op, rw) => {
      const c1 = constInt(lhsConst ? op.lhs : op.rhs);
      if (c1 === undefined) return false;
      const def = (lhsConst ? op.rhs : op.lhs).definingOp;
      const innerOp = def ? inner.match(def) : undefined;
      return innerOp !== undefined && rewrite(op, rw, innerOp, c1);
    },
    { debugName },
  );
}

let patterns: readonly RewritePattern[] | null = null;

/**
 * MLIR's constant-reassociation canonicalizations of addi, subi and muli, matched on the op
 * definitions (built on first use: the arith dialect that defines the ops lists them).
 */
export function arithCanonicalizationPatterns(): readonly RewritePattern[] {
  return (patterns ??= [
    // addi(addi(x, c0), c1) -> addi(x, c0 + c1), flags intersected.
    reassociate(AddIOp, AddIOp, 'AddIAddConstant', (op, rw, inner, c1) => {
      const c0 = constInt(inner.rhs);
      return c0 !== undefined && rewriteWith(op, rw, AddIOp, c0 + c1, inner.lhs, false, flagsOf(op.op) & flagsOf(inner.op));
    }),
    // addi(subi(x, c0), c1) -> addi(x, c1 - c0).
    reassociate(AddIOp, SubIOp, 'AddISubConstantRHS', (op, rw, inner, c1) => {
      const c0 = constInt(inner.rhs);
      return c0 !== undefined && rewriteWith(op, rw, AddIOp, c1 - c0, inner.lhs, false, 0);
    }),
    // addi(subi(c0, x), c1) -> subi(c0 + c1, x).
    reassociate(AddIOp, SubIOp, 'AddISubConstantLHS', (op, rw, inner, c1) => {
      const c0 = constInt(inner.lhs);
      return c0 !== undefined && rewriteWith(op, rw, SubIOp, c0 + c1, inner.rhs, true, 0);
    }),
    // subi(addi(x, c0), c1) -> addi(x, c0 - c1).
    reassociate(SubIOp, AddIOp, 'SubIRHSAddConstant', (op, rw, inner, c1) => {
      const c0 = constInt(inner.rhs);
      return c0 !== undefined && rewriteWith(op, rw, AddIOp, c0 - c1, inner.lhs, false, 0);
    }),
    // subi(c1, addi(x, c0)) -> subi(c1 - c0, x).
    reassociate(
      SubIOp,
      AddIOp,
      'SubILHSAddConstant',
      (op, rw, inner, c1) => {
        const c0 = constInt(inner.rhs);
        return c0 !== undefined && rewriteWith(op, rw, SubIOp, c1 - c0, inner.lhs, true, 0);
      },
      true,
    ),
    // muli(muli(x, c0), c1) -> muli(x, c0 * c1), flags intersected.
    reassociate(MulIOp, MulIOp, 'MulIMulIConstant', (op, rw, inner, c1) => {
      const c0 = constInt(inner.rhs);
      return c0 !== undefined && rewriteWith(op, rw, MulIOp, c0 * c1, inner.lhs, false, flagsOf(op.op) & flagsOf(inner.op));
    }),
  ]);
}
