import type { MLIRContext } from '../ir/context';
import type { Operation } from '../ir/operation';
import { FrozenPatternSet, type RewritePattern } from '../rewrite/pattern';
import { applyPatternsGreedily } from '../rewrite/greedy-driver';
import { Pass, passOption } from './pass';

function collectPatterns(context: MLIRContext): RewritePattern[] {
  const out: RewritePattern[] = [];
  for (const d of context.registeredDialects) {
    const ps = d.getCanonicalizationPatterns?.();
    if (ps) out.push(...ps);
  }
  return out;
}

/**
 * `canonicalize` (MLIR's Canonicalizer): the greedy driver with every registered dialect's
 * canonicalization patterns, folding and dead-op erasure, on the regions of the op it runs on.
 * Options as MLIR spells them: `top-down` (default true), `max-iterations` (10),
 * `max-num-rewrites` (-1), `test-convergence` (false: when true, not converging fails the
 * pass), `region-simplify` (accepted for compatibility; region simplification is not
 * implemented).
 */
export class CanonicalizerPass extends Pass {
  override readonly argument = 'canonicalize';
  override readonly description = 'Canonicalize operations';
  override readonly optionSpecs = [
    passOption('top-down', 'bool', true, 'Seed the worklist in general top-down order'),
    passOption('max-iterations', 'int', 10, 'Max. iterations between applying patterns / simplifying regions'),
    passOption('max-num-rewrites', 'int', -1, 'Max. number of pattern rewrites within an iteration'),
    passOption('test-convergence', 'bool', false, 'Test only: Fail pass on non-convergence to detect cyclic pattern'),
    passOption('region-simplify', 'string', 'normal', 'Perform control flow optimizations to the region tree'),
  ];
  private patterns: FrozenPatternSet | null = null;
  private patternsContext: MLIRContext | null = null;

  override get name(): string {
    return 'Canonicalizer';
  }

  runOnOperation(op: Operation): void {
    if (this.patternsContext !== op.context) {
      this.patterns = new FrozenPatternSet(collectPatterns(op.context));
      this.patternsContext = op.context;
    }
    const maxRewrites = this.getOption<number>('max-num-rewrites');
    const r = applyPatternsGreedily(op, this.patterns!, {
      useTopDownTraversal: this.getOption<boolean>('top-down'),
      maxIterations: this.getOption<number>('max-iterations'),
      maxNumRewrites: maxRewrites < 0 ? 1_000_000 : maxRewrites,
    });
    this.statistic('num-folds', 'Number of folds').value += r.numFolds;
    this.statistic('num-rewrites', 'Number of pattern rewrites').value += r.numRewrites;
    this.statistic('num-erased', 'Number of erased dead operations').value += r.numErased;
    if (this.getOption<boolean>('test-convergence') && !r.converged) {
      op.emitError(`Canonicalizer failed to converge within ${this.getOption<number>('max-iterations')} iterations`);
      this.signalPassFailure();
    }
  }
}
