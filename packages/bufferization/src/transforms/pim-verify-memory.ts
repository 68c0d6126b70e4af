/**
 * The `pim-verify-memory` pass: checks the recorded memory plan of every core stream
 * ({@link verifyStreamMemory}), independently of the planner.
 */
import { FuncOp, Pass, type Operation } from '@raptor-pim/ir-core';
import { isStream } from '../analysis/live-intervals';
import { verifyStreamMemory } from '../analysis/verify-memory';
import { targetConfigOf } from '../target';

/** `pim-verify-memory`. Statistic: `streams-checked`. */
export class PimVerifyMemoryPass extends Pass {
  readonly argument = 'pim-verify-memory';
  override readonly description = 'Check the local memory plan: addresses, alignment, arena bounds, overlaps, accesses';
  private readonly checked = this.statistic('streams-checked', 'core streams checked');

  runOnOperation(module: Operation): void {
    const config = targetConfigOf(this);
    for (const func of module.regions[0]?.firstBlock?.operations ?? []) {
      if (func.definition !== FuncOp) continue;
      for (const op of func.regions[0]?.firstBlock?.operations ?? []) {
        if (!isStream(op)) continue;
        this.checked.value++;
        if (!verifyStreamMemory(op, config)) this.signalPassFailure();
      }
    }
    this.markAllAnalysesPreserved(); // a checker: the IR is left as it was
  }
}
