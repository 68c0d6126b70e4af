/**
 * @packageDocumentation
 * Lowering of spat plans and layout materializations to graph computes with crossbar-tiled
 * weights (`spat-lower-plans`).
 */
import type { PassRegistry } from '@raptor-pim/ir-core';
import { createLowerPlansPass } from './transforms/spat-lower-plans';

export { LowerPlansPass, createLowerPlansPass } from './transforms/spat-lower-plans';
export { lowerPlans, planLoweringPatterns } from './conversion/lower-plans';
export type { LowerPlansResult } from './conversion/lower-plans';
export type { LoweringEnv, LowerPlansOptions } from './conversion/lowering-env';
export { pixelsPerLane, packingCost, MAX_PACKED_PIXELS, MAX_PACKED_TILE_GROWTH, PACKED_LANE_MEMORY_SHARE, SMALL_PACKED_CROSSBARS } from './analysis/pixel-packing';
export type { PackingGeometry, PackingCost } from './analysis/pixel-packing';
export { unfoldConvWeights, constantF32, blockDiagonalFilters, groupedConvMvms, blockDiagonalPays } from './analysis/conv-weights';
export type { PatchOrder } from './analysis/conv-weights';
export { channelBlocksOf, channelBlockMatrix, channelWindowBytes } from './analysis/channel-blocks';
export type { ChannelBlocks, ChannelBlockGeometry } from './analysis/channel-blocks';
export { TargetKey, targetOf, crossbarShapeOf } from './target';
export type { CrossbarShape } from './target';
export { PHYSICAL_LAYOUT_ATTR } from './conversion/physical-values';
export { PlanLoweringMessages } from './diagnostics';

/**
 * Registers `spat-lower-plans` in `registry` (the compiler's pass registry).
 *
 * @example
 * const registry = new PassRegistry();
 * registerPlanLoweringPasses(registry);
 * parsePassPipeline(ctx, 'builtin.module(func.func(spat-lower-plans))', registry);
 */
export function registerPlanLoweringPasses(registry: PassRegistry): void {
  registry.registerPass(createLowerPlansPass);
}
