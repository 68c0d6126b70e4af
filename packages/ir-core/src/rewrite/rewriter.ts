import type { Location } from '../ir/attribute';
import type { Block } from '../ir/block';
import { OpBuilder, type BuilderListener } from '../ir/builder';
import type { MLIRContext } from '../ir/context';
import type { Operation } from '../ir/operation';
import type { Region } from '../ir/region';
import type { Value } from '../ir/value';
import { WalkOrder } from '../ir/walk';

/**
 * Receives every IR change made through a {@link RewriterBase} (MLIR's
 * `RewriterBase::Listener`). All hooks are optional.
 */
export interface RewriterListener extends BuilderListener {
  /** `op` was changed in place (operands, attributes, successors, location). */
  notifyOperationModified?(op: Operation): void;
  /** `op`'s results are about to be replaced with `replacement` (values or another op). */
  notifyOperationReplaced?(op: Operation, replacement: readonly Value[]): void;
  /** `op` is about to be erased (nested ops are reported first, in post-order). */
  notifyOperationErased?(op: Operation): void;
  /** `block` is about to be erased. */
  notifyBlockErased?(block: Block): void;
  /** A pattern failed to match `op` for `reason` (debugging aid). */
  notifyMatchFailure?(location: Location, reason: string): void;
}

/**
 * An {@link OpBuilder} that performs every IR mutation through methods that notify a
 * {@link RewriterListener} (MLIR's `RewriterBase`). Patterns must mutate the IR only through
 * it, so drivers can track changes.
 */
export class RewriterBase extends OpBuilder {
  constructor(
    context: MLIRContext,
    /** The listener notified of changes. */
    public override listener: RewriterListener | null = null,
  ) {
    super(context, listener);
  }

  /** Replaces all uses of `op`'s results with `values`, then erases `op`. */
  replaceOp(op: Operation, values: readonly Value[] | Operation): void {
    const vals = Array.isArray(values) ? (values as readonly Value[]) : (values as Operation).results;
    if (vals.length !== op.numResults) {
      throw new Error(`internal error: replacing ${op.numResults} results of '${op.name}' with ${vals.length} values`);
    }
    this.listener?.notifyOperationReplaced?.(op, vals);
    for (let i = 0; i < vals.length; i++) this.replaceAllUsesWith(op.getResult(i), vals[i]!);
    this.eraseOp(op);
  }

  /** Creates an op from `state`-like arguments via `create`, then replaces `op` with it. */
  replaceOpWithNew(op: Operation, create: (rewriter: this) => Operation): Operation {
    this.setInsertionPoint(op);
    const n = create(this);
    this.replaceOp(op, n);
    return n;
  }

  /** Redirects every use of `from` to `to`, notifying each user as modified. */
  replaceAllUsesWith(from: Value, to: Value): void {
    if (from === to) return;
    const l = this.listener;
    let u = from.firstUse;
    while (u) {
      const next = u.nextUse;
      u.set(to);
      l?.notifyOperationModified?.(u.owner);
      u = next;
    }
  }

  /** Redirects the uses of `from` for which `predicate` holds. */
  replaceUsesWithIf(from: Value, to: Value, predicate: (owner: Operation) => boolean): void {
    const l = this.listener;
    let u = from.firstUse;
    while (u) {
      const next = u.nextUse;
      if (predicate(u.owner)) {
        u.set(to);
        l?.notifyOperationModified?.(u.owner);
      }
      u = next;
    }
  }

  /** Erases `op` (its results must be unused), notifying nested ops first. */
  eraseOp(op: Operation): void {
    const l = this.listener;
    if (l?.notifyOperationErased) {
      const erased = l.notifyOperationErased.bind(l);
      op.walk((o) => {
        erased(o);
      }, WalkOrder.PostOrder);
    }
    op.erase();
  }

  /** Erases `block` and its ops. */
  eraseBlock(block: Block): void {
    const l = this.listener;
    for (let o = block.lastOp; o; o = o.prev) {
      if (l?.notifyOperationErased) o.walk((x) => void l.notifyOperationErased!(x), WalkOrder.PostOrder);
    }
    l?.notifyBlockErased?.(block);
    block.erase();
  }

  /** Runs `mutate` (which changes `op` in place) and notifies the listener. */
  modifyOpInPlace(op: Operation, mutate: () => void): void {
    mutate();
    this.listener?.notifyOperationModified?.(op);
  }

  /** Moves `op` before `before`, notifying an insertion. */
  moveOpBefore(op: Operation, before: Operation): void {
    const prev = { block: op.parent, before: op.next };
    op.moveBefore(before);
    this.listener?.notifyOperationInserted?.(op, prev);
  }

  /** Moves `op` after `after`, notifying an insertion. */
  moveOpAfter(op: Operation, after: Operation): void {
    const prev = { block: op.parent, before: op.next };
    op.moveAfter(after);
    this.listener?.notifyOperationInserted?.(op, prev);
  }

  /** Moves all blocks of `region` into `parent` before `before` (`null`: at the end). */
  inlineRegionBefore(region: Region, parent: Region, before: Block | null): void {
    const blocks = region.blocks;
    parent.spliceBlocks(region, before);
    const l = this.listener;
    if (l?.notifyBlockInserted) for (const b of blocks) l.notifyBlockInserted(b);
  }

  /**
   * Moves the ops of `source` before `before` in `dest` (`null`: at the end), replacing
   * `source`'s arguments with `argValues`, then erases `source`.
   */
  inlineBlockBefore(source: Block, dest: Block, before: Operation | null, argValues: readonly Value[] = []): void {
    if (argValues.length !== source.numArguments) {
      throw new Error('internal error: inlineBlockBefore with the wrong number of argument values');
    }
    for (let i = 0; i < argValues.length; i++) this.replaceAllUsesWith(source.getArgument(i), argValues[i]!);
    const l = this.listener;
    let o = source.firstOp;
    while (o) {
      const n: Operation | null = o.next;
      o.remove();
      dest.insertBefore(o, before);
      l?.notifyOperationInserted?.(o, { block: source, before: n });
      o = n;
    }
    source.erase();
  }

  /** Appends the ops of `source` to `dest` (MLIR's `mergeBlocks`). */
  mergeBlocks(source: Block, dest: Block, argValues: readonly Value[] = []): void {
    this.inlineBlockBefore(source, dest, null, argValues);
  }

  /**
   * Records why a pattern did not apply (forwarded to the listener) and returns `false`, so a
   * pattern can `return rewriter.notifyMatchFailure(op, '...')`.
   */
  notifyMatchFailure(op: Operation, reason: string): false {
    this.listener?.notifyMatchFailure?.(op.location, reason);
    return false;
  }
}

/** The rewriter handed to patterns (MLIR's `PatternRewriter`). */
export class PatternRewriter extends RewriterBase {}
