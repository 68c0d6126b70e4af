import { Attribute } from '../ir/attribute';
import type { Operation } from '../ir/operation';
import { hasOnlyRemovableEffects } from '../ir/side-effects';
import { Traits } from '../ir/traits';
import type { Value } from '../ir/value';
import type { RewriterBase } from './rewriter';

/**
 * The constant value of `value` when it is produced by a ConstantLike op whose `fold` returns
 * an attribute (MLIR's `matchPattern(v, m_Constant(&attr))`).
 */
export function getConstantValue(value: Value): Attribute | undefined {
  const def = value.definingOp;
  if (!def || !def.hasTrait(Traits.ConstantLike)) return undefined;
  const r = def.definition!.fold(def, []);
  if (!r || r.length !== def.numResults) return undefined;
  const a = r[(value as unknown as { index: number }).index];
  return a instanceof Attribute ? a : undefined;
}

/**
 * True when `op` can be erased without changing the program: no result is used, it is not a
 * terminator or symbol, and its memory effects are at most reads and allocations of its own
 * results (`Pure`/`NoMemoryEffect`, the `MemoryEffectOpInterface`, or `RecursiveMemoryEffects`
 * over such ops). Unregistered ops and ops with unknown effects are never dead.
 */
export function isOpTriviallyDead(op: Operation): boolean {
  if (!op.useEmpty) return false;
  return wouldOpBeTriviallyDead(op);
}

/**
 * As {@link isOpTriviallyDead} but ignoring uses: the op's memory effects (see
 * {@link getMemoryEffects}) are known and only reads or allocations of its own results, so
 * ops that write, free, send or synchronize are never dead.
 */
export function wouldOpBeTriviallyDead(op: Operation): boolean {
  if (!op.isRegistered || op.hasTrait(Traits.IsTerminator) || op.hasTrait(Traits.Symbol)) return false;
  if (op.hasTrait(Traits.Pure) || op.hasTrait(Traits.NoMemoryEffect)) return true;
  return hasOnlyRemovableEffects(op);
}

/** Outcome of {@link tryFold}. */
export type FoldOutcome = 'none' | 'in-place' | 'replaced';

/**
 * Folds `op` with its definition's `fold` hook (MLIR's `Operation::fold` + materialization):
 * operands produced by constants are passed as attributes; attribute results are
 * materialized before `op` through its dialect's `materializeConstant`. On success, `op` is
 * replaced (or was updated in place) through `rewriter`. If a constant cannot be materialized,
 * everything created is erased and nothing changes.
 */
export function tryFold(op: Operation, rewriter: RewriterBase): FoldOutcome {
  const def = op.definition;
  if (!def || !def.hasFold || op.hasTrait(Traits.ConstantLike)) return 'none';
  const n = op.numOperands;
  const consts: (Attribute | undefined)[] = new Array(n);
  for (let i = 0; i < n; i++) consts[i] = getConstantValue(op.getOperand(i));
  const results = def.fold(op, consts);
  if (results === null) return foldCommutative(op, consts, rewriter) ? 'in-place' : 'none';
  if (results.length === 0) {
    rewriter.listener?.notifyOperationModified?.(op);
    return 'in-place';
  }
  if (results.length !== op.numResults) throw new Error(`internal error: '${op.name}' folded to ${results.length} values`);
  const dialect = op.context.getDialect(op.dialectNamespace);
  const created: Operation[] = [];
  const values: Value[] = [];
  rewriter.setInsertionPoint(op);
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    if (!(r instanceof Attribute)) {
      values.push(r);
      continue;
    }
    const c = dialect?.materializeConstant?.(rewriter, r, op.getResult(i).type, op.location) ?? null;
    if (!c || c.numResults !== 1) {
      for (let k = created.length - 1; k >= 0; k--) rewriter.eraseOp(created[k]!);
      if (c) rewriter.eraseOp(c);
      return 'none';
    }
    created.push(c);
    values.push(c.getResult(0));
  }
  rewriter.replaceOp(op, values);
  return 'replaced';
}

/**
 * The `Commutative` trait's fold (MLIR's `foldCommutative`): moves constant operands after the
 * non-constant ones (stable), in place. Returns whether operands moved.
 */
function foldCommutative(op: Operation, consts: readonly (Attribute | undefined)[], rewriter: RewriterBase): boolean {
  if (op.numOperands < 2 || !op.hasTrait(Traits.Commutative)) return false;
  const nonConst: Value[] = [];
  const constant: Value[] = [];
  for (let i = 0; i < consts.length; i++) (consts[i] === undefined ? nonConst : constant).push(op.getOperand(i));
  let moved = false;
  for (let i = 0; i < nonConst.length; i++) if (consts[i] !== undefined) moved = true;
  if (!moved) return false;
  op.setOperands([...nonConst, ...constant]);
  rewriter.listener?.notifyOperationModified?.(op);
  return true;
}
