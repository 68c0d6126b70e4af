/** Registration of the layout planner's passes. */
import type { PassRegistry } from '@raptor-pim/ir-core';
import type { LayoutSolver } from './analysis/plan-layouts';
import { SpatPlanLayoutsPass } from './transforms/spat-plan-layouts';
import { SpatVerifyLayoutsPass } from './transforms/spat-verify-layouts';

/**
 * Registers `spat-plan-layouts` and `spat-verify-layouts` in `registry`.
 *
 * @example
 * const registry = new PassRegistry();
 * registerLayoutPlannerPasses(registry);
 * // builtin.module(func.func(spat-plan-layouts{solver=exact},spat-verify-layouts))
 */
export function registerLayoutPlannerPasses(registry: PassRegistry): void {
  registry.registerPass(() => new SpatPlanLayoutsPass());
  registry.registerPass(() => new SpatVerifyLayoutsPass());
}

/** Options of {@link layoutPlanningPipeline} (the compiler's layout flags). */
export interface LayoutPlanningPipelineOptions {
  /** `--pim-disable-spatial-planning`: alternative 0 for every plan. */
  readonly disableSpatialPlanning?: boolean;
  /** The solver (default: the pass's default, `exact`). */
  readonly solver?: LayoutSolver;
  /** Emit the `debug-layouts` remarks. */
  readonly debugLayouts?: boolean;
}

/**
 * The layout stage's pipeline elements (anchored on `builtin.module`): planning then the
 * checker, with the compiler's flags as pass options.
 *
 * @example
 * layoutPlanningPipeline({ disableSpatialPlanning: true })
 * // 'func.func(spat-plan-layouts{disable-spatial-planning=true},spat-verify-layouts)'
 */
export function layoutPlanningPipeline(options: LayoutPlanningPipelineOptions = {}): string {
  const opts: string[] = [];
  if (options.disableSpatialPlanning) opts.push('disable-spatial-planning=true');
  if (options.solver) opts.push(`solver=${options.solver}`);
  if (options.debugLayouts) opts.push('debug-layouts=true');
  return `func.func(spat-plan-layouts${opts.length ? `{${opts.join(' ')}}` : ''},spat-verify-layouts)`;
}
