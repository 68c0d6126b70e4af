/**
 * Applying rewrites planned per graph compute: a pattern rooted on `spat.graph_compute` and
 * `spat.graph_compute_batch` that rewrites exactly the planned computes, once each, in one
 * top-down greedy walk (shared by the compute splitting passes).
 */
import { applyPatternsGreedily, createPattern, type Operation, type PatternRewriter } from '@raptor-pim/ir-core';
import { GraphComputeBatchOp, GraphComputeOp } from '@raptor-pim/spatial-dialect';

/**
 * Rewrites every compute of `func` that has a plan in `plans` with `apply` (the rewriter is
 * positioned anywhere; `apply` replaces or erases the compute). Throws when a planned compute
 * was not reached (an internal error: plans are made on the same function).
 */
export function applyPlannedComputeRewrites<P extends { readonly op: Operation }>(
  func: Operation,
  plans: readonly P[],
  apply: (plan: P, rewriter: PatternRewriter) => void,
  debugName: string,
): void {
  const planOf = new Map(plans.map((p) => [p.op, p]));
  const rewrite = (op: Operation, rewriter: PatternRewriter): boolean => {
    const plan = planOf.get(op);
    if (!plan) return false;
    planOf.delete(op);
    apply(plan, rewriter);
    return true;
  };
  const patterns = [
    createPattern(GraphComputeBatchOp, (view, rewriter) => rewrite(view.op, rewriter), { debugName: `${debugName}-graph-compute-batch` }),
    createPattern(GraphComputeOp, (view, rewriter) => rewrite(view.op, rewriter), { debugName: `${debugName}-graph-compute` }),
  ];
  applyPatternsGreedily(func, patterns, { fold: false, eraseDeadOps: false, cseConstants: false, enableRegionSimplification: false, useTopDownTraversal: true, maxIterations: 1 });
  if (planOf.size) throw new Error(`internal error: a planned rewrite (${debugName}) was not applied`);
}
