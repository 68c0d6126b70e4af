/**
 * `spat-plan-layouts` (on `func.func`): selects a physical layout for every layout-aware plan
 * (spatial-layouts.md), records it on the plans, inserts `spat.materialize_layout` where a
 * producer and a consumer disagree, and checks the result with the same independent checker
 * as `spat-verify-layouts`.
 *
 * Options: `disable-spatial-planning` (alternative 0 for every plan; materialization and
 * verification still run), `solver=exact|local` (the exact minimum-cost labelling, the
 * default, or the reference's local search), `debug-layouts` (a remark per plan: alternatives, scores, winner
 * and why).
 */
import { Pass, boolOption, enumOption, type Operation } from '@raptor-pim/ir-core';
import { verifyLayouts } from '../analysis/layout-verifier';
import { DEFAULT_LAYOUT_SOLVER, LAYOUT_SOLVERS, planLayouts } from '../analysis/plan-layouts';
import { targetOf } from '../target';

/** `disable-spatial-planning`: alternative 0 for every plan. */
export const disableSpatialPlanningOption = boolOption('disable-spatial-planning', false, 'Choose alternative 0 (all dense) for every plan; materialization and verification still run');
/** `solver`: `exact` (minimum-cost labelling, the default) or `local` (the reference's local search). */
export const layoutSolverOption = enumOption('solver', LAYOUT_SOLVERS, DEFAULT_LAYOUT_SOLVER, 'Layout solver: exact (minimum-cost labelling by DP/PBQP, the default) or local (the reference local search)');
/** `debug-layouts`: one remark per plan explaining its selection. */
export const debugLayoutsOption = boolOption('debug-layouts', false, 'Emit a remark per plan: alternatives, scores, the winner and why');

/** The `spat-plan-layouts` pass. */
export class SpatPlanLayoutsPass extends Pass {
  override readonly argument = 'spat-plan-layouts';
  override readonly description = 'Select a physical layout per spat plan and insert spat.materialize_layout where producers and consumers disagree';
  override readonly opName = 'func.func';
  override readonly optionSpecs = [disableSpatialPlanningOption, layoutSolverOption, debugLayoutsOption];
  private readonly plans = this.statistic('num-plans', 'Layout-aware plans');
  private readonly rowStrips = this.statistic('num-row-strip-plans', 'Plans selected with a row-strip result');
  private readonly materializations = this.statistic('num-materializations', 'spat.materialize_layout ops inserted');
  private readonly cost = this.statistic('total-cost', 'Total layout cost of the selection');
  private readonly rounds = this.statistic('num-rounds', 'Local-search rounds');

  runOnOperation(func: Operation): void {
    const config = targetOf(this);
    const result = planLayouts(func, {
      config,
      solver: this.option(layoutSolverOption),
      disablePlanning: this.option(disableSpatialPlanningOption),
      debugLayouts: this.option(debugLayoutsOption),
    });
    this.plans.value += result.planCount;
    if (!result.ok) {
      this.signalPassFailure();
      return;
    }
    this.rowStrips.value += result.rowStripPlanCount;
    this.materializations.value += result.materializationCount;
    this.cost.value += result.totalCost;
    this.rounds.value += result.rounds;
    if (!verifyLayouts(func, config)) this.signalPassFailure();
  }
}
