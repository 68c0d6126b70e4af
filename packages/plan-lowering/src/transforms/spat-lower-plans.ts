/**
 * `spat-lower-plans` (on `func.func`): lowers every `spat.*_plan` and `spat.materialize_layout`
 * of the function to `spat.graph_compute` / `spat.graph_compute_batch` + `spat.blueprint`
 * (graph fragment contract of scheduling.md), with convolution weights tiled onto crossbars of
 * the target's size. The target is the pass context's `raptor.target` (`defaultTarget()`
 * without one).
 */
import { Pass, boolOption, type Operation } from '@raptor-pim/ir-core';
import { lowerPlans } from '../conversion/lower-plans';
import { targetOf } from '../target';

/** The pass. */
export class LowerPlansPass extends Pass {
  override readonly argument = 'spat-lower-plans';
  override readonly description =
    'Lower spat plans and layout materializations to graph computes (crossbar-tiled spat.wvmm weights, lanes of graph batches, blueprints)';
  override readonly opName = 'func.func';
  private static readonly pixelPacking = boolOption('pixel-packing', true, 'let a convolution compute several adjacent output pixels per set of MVMs where its filters leave crossbar columns free');
  private static readonly columnGroups = boolOption('column-groups', true, "let one MVM drive all the column tiles of a convolution's row tile as one array group");
  override readonly optionSpecs = [LowerPlansPass.pixelPacking, LowerPlansPass.columnGroups];
  private readonly loweredPlans = this.statistic('num-lowered-plans', 'Plans lowered');
  private readonly loweredMaterializations = this.statistic('num-lowered-materializations', 'Layout materializations lowered');

  runOnOperation(op: Operation): void {
    const r = lowerPlans(op, targetOf(this).config, { pixelPacking: this.option(LowerPlansPass.pixelPacking), columnGroups: this.option(LowerPlansPass.columnGroups) });
    this.loweredPlans.value += r.loweredPlans;
    this.loweredMaterializations.value += r.loweredMaterializations;
    if (!r.success) this.signalPassFailure();
  }
}

/** A fresh `spat-lower-plans` pass. */
export function createLowerPlansPass(): LowerPlansPass {
  return new LowerPlansPass();
}
