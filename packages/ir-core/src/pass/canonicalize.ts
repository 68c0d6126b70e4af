import type { MLIRContext } from '../ir/context';
import type { Operation } from '../ir/operation';
import { FrozenPatternSet, type RewritePattern } from '../rewrite/pattern';
import { applyPatternsGreedily } from '../rewrite/greedy-driver';
import { Pass, boolOption, enumOption, intOption } from './pass';

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
 * pass), `region-simplify` (`disabled` | `normal` | `aggressive`: accepted for compatibility;
 * beyond unreachable-block erasure, region simplification is not implemented).
 */
export class CanonicalizerPass extends Pass {
  override readonly argument = 'canonicalize';
  override readonly description = 'Canonicalize operations';
  /** `top-down` option. */
  static readonly topDown = boolOption('top-down', true, 'Seed the worklist in general top-down order');
  /** `max-iterations` option. */
  static readonly maxIterations = intOption('max-iterations', 10, 'Max. iterations between applying patterns / simplifying regions');
  /** `max-num-rewrites` option. */
  static readonly maxNumRewrites = intOption('max-num-rewrites', -1, 'Max. number of pattern rewrites within an iteration');
  /** `test-convergence` option. */
  static readonly testConvergence = boolOption('test-convergence', false, 'Test only: Fail pass on non-convergence to detect cyclic pattern');
  /** `region-simplify` option (MLIR's values). */
  static readonly regionSimplify = enumOption(
    'region-simplify',
    ['disabled', 'normal', 'aggressive'] as const,
    'normal',
    'Perform control flow optimizations to the region tree',
  );
  override readonly optionSpecs = [
    CanonicalizerPass.topDown,
    CanonicalizerPass.maxIterations,
    CanonicalizerPass.maxNumRewrites,
    CanonicalizerPass.testConvergence,
    CanonicalizerPass.regionSimplify,
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
    const maxRewrites = this.option(CanonicalizerPass.maxNumRewrites);
    const maxIterations = this.option(CanonicalizerPass.maxIterations);
    const r = applyPatternsGreedily(op, this.patterns!, {
      useTopDownTraversal: this.option(CanonicalizerPass.topDown),
      maxIterations,
      maxNumRewrites: maxRewrites < 0 ? 1_000_000 : maxRewrites,
    });
    this.statistic('num-folds', 'Number of folds').value += r.numFolds;
    this.statistic('num-rewrites', 'Number of pattern rewrites').value += r.numRewrites;
    this.statistic('num-erased', 'Number of erased dead operations').value += r.numErased;
    if (this.option(CanonicalizerPass.testConvergence) && !r.converged) {
      op.emitError(`Canonicalizer failed to converge within ${maxIterations} iterations`);
      this.signalPassFailure();
    }
  }
}
