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

/** Replaces `op` by `<name>(lhs, rhs)` where one side is a new constant `c`. */
function rewriteWith(
  op: Operation,
  rewriter: PatternRewriter,
  name: string,
  c: bigint,
  operand: Value,
  constantFirst: boolean,
  flags: number,
): boolean {
  const type = op.getResult(0).type;
  const value = constAttr(type, c);
  if (!value) return false;
  rewriter.setInsertionPoint(op);
  const cst = rewriter.create({ name: 'arith.constant', location: op.location, properties: { value }, resultTypes: [type] });
  const operands = constantFirst ? [cst.getResult(0), operand] : [operand, cst.getResult(0)];
  rewriter.replaceOpWithNew(op, (r) =>
    r.create({
      name,
      location: op.location,
      operands,
      properties: { overflowFlags: OverflowFlagsAttr.get(op.context, flags) },
      resultTypes: [type],
    }),
  );
  return true;
}

/** `outer(inner(x, c0), c1)` (or `outer(c1, inner(...))` with `lhsConst`) matched for `rewrite`. */
function reassociate(
  outer: string,
  inner: string,
  debugName: string,
  rewrite: (op: Operation, rw: PatternRewriter, innerOp: Operation, c1: bigint) => boolean,
  lhsConst = false,
): RewritePattern {
  return createPattern({
    root: `arith.${outer}`,
    debugName,
    matchAndRewrite(op, rw) {
      const c1 = constInt(op.getOperand(lhsConst ? 0 : 1));
      if (c1 === undefined) return false;
      const innerOp = op.getOperand(lhsConst ? 1 : 0).definingOp;
      if (!innerOp || innerOp.name !== `arith.${inner}`) return false;
      return rewrite(op, rw, innerOp, c1);
    },
  });
}

/** MLIR's constant-reassociation canonicalizations of addi, subi and muli. */
export const ARITH_CANONICALIZATION_PATTERNS: readonly RewritePattern[] = [
  // addi(addi(x, c0), c1) -> addi(x, c0 + c1), flags intersected.
  reassociate('addi', 'addi', 'AddIAddConstant', (op, rw, inner, c1) => {
    const c0 = constInt(inner.getOperand(1));
    return c0 !== undefined && rewriteWith(op, rw, 'arith.addi', c0 + c1, inner.getOperand(0), false, flagsOf(op) & flagsOf(inner));
  }),
  // addi(subi(x, c0), c1) -> addi(x, c1 - c0).
  reassociate('addi', 'subi', 'AddISubConstantRHS', (op, rw, inner, c1) => {
    const c0 = constInt(inner.getOperand(1));
    return c0 !== undefined && rewriteWith(op, rw, 'arith.addi', c1 - c0, inner.getOperand(0), false, 0);
  }),
  // addi(subi(c0, x), c1) -> subi(c0 + c1, x).
  reassociate('addi', 'subi', 'AddISubConstantLHS', (op, rw, inner, c1) => {
    const c0 = constInt(inner.getOperand(0));
    return c0 !== undefined && rewriteWith(op, rw, 'arith.subi', c0 + c1, inner.getOperand(1), true, 0);
  }),
  // subi(addi(x, c0), c1) -> addi(x, c0 - c1).
  reassociate('subi', 'addi', 'SubIRHSAddConstant', (op, rw, inner, c1) => {
    const c0 = constInt(inner.getOperand(1));
    return c0 !== undefined && rewriteWith(op, rw, 'arith.addi', c0 - c1, inner.getOperand(0), false, 0);
  }),
  // subi(c1, addi(x, c0)) -> subi(c1 - c0, x).
  reassociate(
    'subi',
    'addi',
    'SubILHSAddConstant',
    (op, rw, inner, c1) => {
      const c0 = constInt(inner.getOperand(1));
      return c0 !== undefined && rewriteWith(op, rw, 'arith.subi', c1 - c0, inner.getOperand(0), true, 0);
    },
    true,
  ),
  // muli(muli(x, c0), c1) -> muli(x, c0 * c1), flags intersected.
  reassociate('muli', 'muli', 'MulIMulIConstant', (op, rw, inner, c1) => {
    const c0 = constInt(inner.getOperand(1));
    return c0 !== undefined && rewriteWith(op, rw, 'arith.muli', c0 * c1, inner.getOperand(0), false, flagsOf(op) & flagsOf(inner));
  }),
];
