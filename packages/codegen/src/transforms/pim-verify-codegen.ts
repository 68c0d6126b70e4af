/**
 * `pim-verify-codegen`: checks that a bufferized PIM module can be emitted, without changing
 * it. Every rule of the dialect reference's "Verification and code generation" section and of
 * pim-isa.md §16 that the input must satisfy is one diagnostic at the offending op: core
 * mapping and stream shape, static lane/address/peer/event/loop expressions, planned local
 * allocations inside the arena, buffers in the right memory space, byte ranges in bounds,
 * sizes within the ISA fields, f32 vector operands, constant weights within a crossbar's rows
 * and the core's crossbars, `vsoftmax` only when the target allows it, exact send/receive
 * pairing and sync/wait counts.
 */
import { Pass, type Operation } from '@raptor-pim/ir-core';
import { allocateArrayGroups } from '../analysis/array-groups';
import { CodegenAnalysis } from '../analysis/codegen-analysis';
import { Reporter } from '../analysis/reporter';
import { passTarget, type TargetLike } from '../target';

/** The `pim-verify-codegen` pass. */
export class VerifyCodegenPass extends Pass {
  readonly argument = 'pim-verify-codegen';
  override readonly description = 'Check that a bufferized PIM module satisfies every code generation requirement';
  override readonly opName = 'builtin.module';
  private readonly errorCount = this.statistic('num-errors', 'code generation requirements violated');

  /** `target`: the machine to check against (default: the pass manager's `'raptor.target'`, else the default target). */
  constructor(private readonly target?: TargetLike) {
    super();
  }

  runOnOperation(_op: Operation): void {
    const target = passTarget(this, this.target);
    const { program, errors } = this.getAnalysis(CodegenAnalysis).evaluate(target);
    const report = new Reporter();
    if (program && errors === 0) allocateArrayGroups(program, target, report); // crossbar capacity
    this.errorCount.value += errors + report.errors;
    this.markAllAnalysesPreserved();
    if (!program || errors + report.errors > 0) this.signalPassFailure();
  }
}
