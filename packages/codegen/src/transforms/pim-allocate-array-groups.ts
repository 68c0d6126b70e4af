/**
 * `pim-allocate-array-groups`: places each resident weight of a core onto crossbars of that
 * core (one array group per distinct weight, so one `mvmul` drives one group) and records the
 * plan in the IR: `pim.array_group` on every `pim.vmm` and `pim.array_group_crossbars` (the
 * crossbar count per group, what `config.json`'s `array_group_map` holds) on every core op.
 * `pim-emit` uses a recorded plan as given.
 */
import { Pass, type Operation } from '@raptor-pim/ir-core';
import { allocateArrayGroups, recordArrayGroups } from '../analysis/array-groups';
import { CodegenAnalysis } from '../analysis/codegen-analysis';
import { Reporter } from '../analysis/reporter';
import { passTarget, type TargetLike } from '../target';

/** The `pim-allocate-array-groups` pass. */
export class AllocateArrayGroupsPass extends Pass {
  readonly argument = 'pim-allocate-array-groups';
  override readonly description = 'Place resident weights onto the crossbars of their core as array groups';
  override readonly opName = 'builtin.module';
  private readonly groupCount = this.statistic('num-array-groups', 'array groups allocated');
  private readonly crossbarCount = this.statistic('num-crossbars', 'crossbars allocated');

  /** `target`: the machine (default: the pass manager's `'raptor.target'`, else the default target). */
  constructor(private readonly target?: TargetLike) {
    super();
  }

  runOnOperation(_op: Operation): void {
    const target = passTarget(this, this.target);
    const { program, errors } = this.getAnalysis(CodegenAnalysis).evaluate(target);
    if (!program || errors > 0) {
      this.signalPassFailure();
      return;
    }
    const report = new Reporter();
    const plan = allocateArrayGroups(program, target, report, { fresh: true });
    if (report.errors > 0) {
      this.signalPassFailure();
      return;
    }
    recordArrayGroups(program, plan);
    // The recorded groups do not change the static evaluation.
    this.markAnalysesPreserved(CodegenAnalysis);
    for (const groups of plan.groups.values()) {
      this.groupCount.value += groups.length;
      this.crossbarCount.value += groups.reduce((a, g) => a + g.crossbars, 0);
    }
  }
}
