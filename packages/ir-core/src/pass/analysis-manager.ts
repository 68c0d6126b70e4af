import type { Operation } from '../ir/operation';

/**
 * An analysis class: constructed from the operation it analyses (and the analysis manager, to
 * ask for the analyses it depends on). `DominanceInfo` and `Liveness` are analyses.
 *
 * @example
 * ```ts
 * class OpCount { readonly count: number; constructor(op: Operation) { let n = 0; op.walk(() => void n++); this.count = n; } }
 * const counts = am.getAnalysis(OpCount, module);   // computed
 * am.getAnalysis(OpCount, module);                   // cached
 * ```
 */
export type AnalysisConstructor<A> = new (op: Operation, analyses: AnalysisManager) => A;

/**
 * What a pass declared it preserved (MLIR's `PreservedAnalyses`): nothing (the default), all,
 * or a set of analysis classes.
 */
export class PreservedAnalyses {
  private all = false;
  private readonly kept = new Set<AnalysisConstructor<unknown>>();

  /** Preserves every analysis. */
  preserveAll(): void {
    this.all = true;
  }
  /** Preserves the listed analyses. */
  preserve(ctors: readonly AnalysisConstructor<unknown>[]): void {
    for (const c of ctors) this.kept.add(c);
  }
  /** True when every analysis is preserved. */
  get isAll(): boolean {
    return this.all;
  }
  /** True when `ctor` is preserved. */
  isPreserved(ctor: AnalysisConstructor<unknown>): boolean {
    return this.all || this.kept.has(ctor);
  }
}

/**
 * Caches analyses per operation (MLIR's `AnalysisManager`). The pass manager owns one per run;
 * after each pass it calls {@link invalidate} with what the pass preserved, which drops every
 * other analysis of the op the pass ran on, of the ops nested in it and of its ancestors (their
 * analyses may depend on its body). Analyses of unrelated ops (a sibling function) stay.
 */
export class AnalysisManager {
  private readonly cache = new Map<Operation, Map<AnalysisConstructor<unknown>, unknown>>();
  /** The number of analyses computed (not served from the cache) so far. */
  computations = 0;

  /** The analysis `ctor` of `op`: cached, or computed now and cached. */
  getAnalysis<A>(ctor: AnalysisConstructor<A>, op: Operation): A {
    let perOp = this.cache.get(op);
    if (!perOp) this.cache.set(op, (perOp = new Map()));
    const key = ctor as AnalysisConstructor<unknown>;
    if (perOp.has(key)) return perOp.get(key) as A;
    const a = new ctor(op, this);
    this.computations++;
    perOp.set(key, a);
    return a;
  }

  /** The cached analysis `ctor` of `op`, or undefined (never computes). */
  getCachedAnalysis<A>(ctor: AnalysisConstructor<A>, op: Operation): A | undefined {
    return this.cache.get(op)?.get(ctor as AnalysisConstructor<unknown>) as A | undefined;
  }

  /** True when `ctor` of `op` is cached. */
  isCached(ctor: AnalysisConstructor<unknown>, op: Operation): boolean {
    return this.cache.get(op)?.has(ctor) ?? false;
  }

  /**
   * Drops the analyses not in `preserved` of `op`, of every op nested in it and of its
   * ancestors; entries of ops that were erased (detached from the tree) are dropped too.
   */
  invalidate(op: Operation, preserved: PreservedAnalyses): void {
    if (preserved.isAll) return;
    for (const [o, perOp] of this.cache) {
      if (!op.isAncestor(o) && !o.isAncestor(op)) {
        if (o.parent === null) this.cache.delete(o);
        continue;
      }
      for (const k of [...perOp.keys()]) if (!preserved.isPreserved(k)) perOp.delete(k);
      if (perOp.size === 0) this.cache.delete(o);
    }
  }

  /** Drops every cached analysis. */
  clear(): void {
    this.cache.clear();
  }
}
