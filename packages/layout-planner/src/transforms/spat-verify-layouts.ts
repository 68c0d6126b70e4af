/**
 * `spat-verify-layouts` (on `func.func`): checks the layout contracts before lowering, with a
 * checker independent of the planner (see `analysis/layout-verifier.ts`): every plan's
 * recorded layouts are a gated alternative of the compatibility matrix, every operand is in
 * the layout its producer supplies, every materialization is a supported conversion of its
 * input, and no op that is not layout-aware (function results included) sees a non-dense value.
 */
import { Pass, type Operation } from '@raptor-pim/ir-core';
import { verifyLayouts } from '../analysis/layout-verifier';
import { targetOf } from '../target';

/** The `spat-verify-layouts` pass. */
export class SpatVerifyLayoutsPass extends Pass {
  override readonly argument = 'spat-verify-layouts';
  override readonly description = 'Check the physical layout contracts of spat plans and materializations';
  override readonly opName = 'func.func';

  runOnOperation(func: Operation): void {
    if (!verifyLayouts(func, targetOf(this))) this.signalPassFailure();
    this.markAllAnalysesPreserved();
  }
}
