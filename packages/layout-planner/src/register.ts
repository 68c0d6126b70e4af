/** Registration of the layout planner's passes. */
import type { PassRegistry } from '@raptor-pim/ir-core';
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
