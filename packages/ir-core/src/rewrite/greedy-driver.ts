import type { Location } from '../ir/attribute';
import type { Block } from '../ir/block';
import type { Operation } from '../ir/operation';
import { Region } from '../ir/region';
import type { Value } from '../ir/value';
import { WalkOrder, WalkResult } from '../ir/walk';
import { ConstantFolder } from './constant-folder';
import { eraseUnreachableBlocks } from './region-simplify';
import { isOpTriviallyDead, tryFold } from './folding';
import { FrozenPatternSet, type RewritePattern } from './pattern';
import { PatternRewriter, type RewriterListener } from './rewriter';

/** Configuration of {@link applyPatternsGreedily} (MLIR's `GreedyRewriteConfig`). */
export interface GreedyRewriteConfig {
  /** Seed the worklist in pre-order (top-down) instead of MLIR's default post-order. */
  useTopDownTraversal?: boolean;
  /** Maximum number of seeding iterations before giving up (default 10; -1: no limit). */
  maxIterations?: number;
  /**
   * Maximum number of rewrites (folds, erasures, pattern applications) per iteration before
   * the iteration is cut short (default 1,000,000, so a pattern that always applies cannot
   * hang the driver; -1: no limit, as MLIR's default).
   */
  maxNumRewrites?: number;
  /** Fold ops with their `fold` hooks (default true). */
  fold?: boolean;
  /** Erase trivially dead ops (default true). */
  eraseDeadOps?: boolean;
  /**
   * Unique constants per isolated region and hoist them to the entry block's start while
   * seeding the worklist (default true, as MLIR's `cseConstants`).
   */
  cseConstants?: boolean;
  /**
   * After each iteration, erase blocks unreachable from their region's entry (default true;
   * MLIR's region simplification also prunes dead block arguments and merges identical
   * blocks, which is not done here).
   */
  enableRegionSimplification?: boolean;
  /** Extra listener notified of every change. */
  listener?: RewriterListener;
}

/** What {@link applyPatternsGreedily} reports. */
export interface GreedyRewriteResult {
  /** True when a fixpoint was reached within the iteration limit. */
  converged: boolean;
  /** True when the IR changed. */
  changed: boolean;
  /** Number of iterations run. */
  iterations: number;
  /** Number of successful pattern applications. */
  numRewrites: number;
  /** Number of folds. */
  numFolds: number;
  /** Number of dead ops erased. */
  numErased: number;
}

/** A LIFO worklist with O(1) membership and removal. */
class Worklist {
  private readonly list: (Operation | null)[] = [];
  private readonly index = new Map<Operation, number>();

  push(op: Operation): void {
    if (this.index.has(op)) return;
    this.index.set(op, this.list.length);
    this.list.push(op);
  }
  pop(): Operation | null {
    while (this.list.length > 0) {
      const op = this.list.pop()!;
      if (op) {
        this.index.delete(op);
        return op;
      }
    }
    return null;
  }
  remove(op: Operation): void {
    const i = this.index.get(op);
    if (i === undefined) return;
    this.list[i] = null;
    this.index.delete(op);
  }
  reverse(): void {
    this.list.reverse();
    for (let i = 0; i < this.list.length; i++) {
      const op = this.list[i];
      if (op) this.index.set(op, i);
    }
  }
  clear(): void {
    this.list.length = 0;
    this.index.clear();
  }
}

class GreedyDriver implements RewriterListener {
  readonly worklist = new Worklist();
  readonly rewriter: PatternRewriter;
  folder = new ConstantFolder();
  private readonly scope: ReadonlySet<Region>;
  numRewrites = 0;
  numFolds = 0;
  numErased = 0;

  constructor(
    private readonly regions: readonly Region[],
    private readonly patterns: FrozenPatternSet,
    private readonly config: GreedyRewriteConfig,
    context: Operation['context'],
  ) {
    this.rewriter = new PatternRewriter(context, this);
    this.scope = new Set(regions);
  }

  /** Adds `op` and its ancestors up to the driver's scope (nothing if `op` is outside it). */
  addToWorklist(op: Operation): void {
    const chain: Operation[] = [];
    let cur: Operation | null = op;
    while (cur) {
      chain.push(cur);
      const r: Region | null = cur.parentRegion;
      if (r === null) return;
      if (this.scope.has(r)) {
        for (const o of chain) this.worklist.push(o);
        return;
      }
      cur = r.parentOp;
    }
  }

  /** Adds producers of `op`'s operands that have at most one other user (they may die). */
  private addOperandsToWorklist(op: Operation): void {
    for (let i = 0; i < op.numOperands; i++) {
      const v = op.getOpOperand(i).valueOrNull;
      const def = v?.definingOp;
      if (!v || !def) continue;
      let other: Operation | null = null;
      let more = false;
      for (let u = v.firstUse; u; u = u.nextUse) {
        const user = u.owner;
        if (user === op || user === other) continue;
        if (other === null) {
          other = user;
          continue;
        }
        more = true;
        break;
      }
      if (!more) this.addToWorklist(def);
    }
  }

  // --------------------------------------------------------------- listener
  notifyOperationInserted(op: Operation, previous: { block: Block | null; before: Operation | null }): void {
    this.config.listener?.notifyOperationInserted?.(op, previous);
    this.addToWorklist(op);
  }
  notifyBlockInserted(block: Block): void {
    this.config.listener?.notifyBlockInserted?.(block);
  }
  notifyOperationModified(op: Operation): void {
    this.config.listener?.notifyOperationModified?.(op);
    this.addToWorklist(op);
  }
  notifyOperationReplaced(op: Operation, replacement: readonly Value[]): void {
    this.config.listener?.notifyOperationReplaced?.(op, replacement);
  }
  notifyOperationErased(op: Operation): void {
    this.config.listener?.notifyOperationErased?.(op);
    this.addOperandsToWorklist(op);
    this.worklist.remove(op);
    this.folder.notifyRemoval(op);
  }
  notifyBlockErased(block: Block): void {
    this.config.listener?.notifyBlockErased?.(block);
  }
  notifyMatchFailure(location: Location, reason: string): void {
    this.config.listener?.notifyMatchFailure?.(location, reason);
  }

  // --------------------------------------------------------------- driver
  /**
   * Starts an iteration: a fresh constant folder, then the worklist from a walk of the scope
   * (post-order, popped from the back, i.e. bottom-up; or pre-order reversed so it is processed
   * top-down). Constants are uniqued and hoisted on the way (and not queued).
   */
  seed(): void {
    this.worklist.clear();
    this.folder = new ConstantFolder();
    const top = this.config.useTopDownTraversal === true;
    const cse = this.config.cseConstants !== false;
    const rewriter = this.rewriter;
    const visit = (x: Operation): WalkResult => {
      if (cse) {
        const c = ConstantFolder.constantValueOf(x);
        if (c !== undefined && !this.folder.insertKnownConstant(x, c, rewriter)) return WalkResult.Skip;
      }
      this.addToWorklist(x);
      return WalkResult.Advance;
    };
    for (const r of this.regions) {
      let b = r.firstBlock;
      while (b) {
        const nb: Block | null = b.next;
        let o = b.firstOp;
        while (o) {
          const next: Operation | null = o.next;
          o.walk(visit, top ? WalkOrder.PreOrder : WalkOrder.PostOrder);
          o = next;
        }
        b = nb;
      }
    }
    if (top) this.worklist.reverse();
  }

  /** Processes the worklist; returns whether anything changed. */
  processWorklist(): boolean {
    let changedAny = false;
    const maxRewrites = this.config.maxNumRewrites ?? 1_000_000;
    let rewrites = 0;
    const fold = this.config.fold !== false;
    const eraseDead = this.config.eraseDeadOps !== false;
    for (;;) {
      if (maxRewrites >= 0 && rewrites >= maxRewrites) break;
      const op = this.worklist.pop();
      if (!op) break;
      if (op.parent === null) continue; // detached meanwhile
      if (eraseDead && isOpTriviallyDead(op)) {
        this.rewriter.eraseOp(op);
        this.numErased++;
        changedAny = true;
        rewrites++;
        continue;
      }
      if (fold) {
        const outcome = tryFold(op, this.rewriter);
        if (outcome !== 'none') {
          this.numFolds++;
          changedAny = true;
          rewrites++;
          continue;
        }
      }
      const pats: readonly RewritePattern[] = this.patterns.patternsFor(op);
      for (let i = 0; i < pats.length; i++) {
        this.rewriter.setInsertionPoint(op);
        if (pats[i]!.matchAndRewrite(op, this.rewriter)) {
          this.numRewrites++;
          changedAny = true;
          rewrites++;
          break;
        }
      }
    }
    return changedAny;
  }
}

/**
 * Applies `patterns`, folding and dead-op erasure to the ops nested in `root` (an op's regions,
 * or a region) until a fixpoint, with MLIR's greedy driver semantics: the worklist is seeded by
 * a walk (post-order by default, pre-order with `useTopDownTraversal`), every change re-adds
 * the affected ops (inserted and modified ops, producers of erased ops' operands, users of
 * replaced values), constant-like ops are not folded, and the process repeats up to
 * `maxIterations` times. Not converging is reported in the result (`converged: false`), not
 * thrown.
 */
export function applyPatternsGreedily(
  root: Operation | Region,
  patterns: FrozenPatternSet | readonly RewritePattern[],
  config: GreedyRewriteConfig = {},
): GreedyRewriteResult {
  const set = patterns instanceof FrozenPatternSet ? patterns : new FrozenPatternSet(patterns);
  const regions = root instanceof Region ? [root] : root.regions;
  const ctx = root instanceof Region ? root.parentOp?.context : root.context;
  if (!ctx) throw new Error('internal error: applyPatternsGreedily on a detached region');
  const driver = new GreedyDriver(regions, set, config, ctx);
  const maxIterations = config.maxIterations ?? 10;
  let iterations = 0;
  let changed = false;
  let continueRewriting = false;
  do {
    if (maxIterations >= 0 && iterations >= maxIterations) break;
    iterations++;
    driver.seed();
    continueRewriting = driver.processWorklist();
    if (config.enableRegionSimplification !== false && eraseUnreachableBlocks(driver.rewriter, regions)) continueRewriting = true;
    changed = changed || continueRewriting;
  } while (continueRewriting);
  const converged = !continueRewriting;
  return {
    converged,
    changed,
    iterations,
    numRewrites: driver.numRewrites,
    numFolds: driver.numFolds,
    numErased: driver.numErased,
  };
}
