/**
 * The static evaluation of a module as an ir-core analysis, so that `pim-verify-codegen`,
 * `pim-allocate-array-groups` and `pim-emit` in one pipeline evaluate the streams once: the
 * analysis manager keeps it while the passes preserve it (the first two do; array-group
 * attributes do not change the evaluation). Results are cached per target configuration.
 * Diagnostics are emitted when an evaluation is computed, not again on a cache hit.
 */
import type { Operation } from '@raptor-pim/ir-core';
import type { Target } from '@raptor-pim/pim-target';
import { checkCommunication } from './communication';
import { Reporter } from './reporter';
import { buildStaticProgram, type StaticProgram } from './static-program';

/** One evaluation: the program (undefined when there is no stream) and its error count. */
export interface CodegenEvaluation {
  /** The evaluated program. */
  readonly program: StaticProgram | undefined;
  /** Errors reported while evaluating (static evaluation, verification, communication). */
  readonly errors: number;
}

/** Static evaluation and verification of a module, per target (an ir-core analysis). */
export class CodegenAnalysis {
  private readonly byTarget = new Map<string, CodegenEvaluation>();

  constructor(private readonly op: Operation) {}

  /** The evaluation of the module for `target` (computed, and its diagnostics emitted, once). */
  evaluate(target: Target): CodegenEvaluation {
    const key = JSON.stringify(target.config);
    let e = this.byTarget.get(key);
    if (!e) {
      const report = new Reporter();
      const program = buildStaticProgram(this.op, target, report);
      if (program) checkCommunication(program, report);
      e = { program, errors: report.errors };
      this.byTarget.set(key, e);
    }
    return e;
  }
}
