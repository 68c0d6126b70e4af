/**
 * @packageDocumentation
 * Conversion of scheduled Spatial programs to per-core PIM streams on tensors (`spat-to-pim`).
 */
import type { PassRegistry } from '@raptor-pim/ir-core';
import { createSpatToPimPass } from './transforms/spat-to-pim';

export { SpatToPimPass, createSpatToPimPass } from './transforms/spat-to-pim';
export { convertScheduledFunction, planStreams } from './conversion/convert-function';
export type { SpatToPimResult, SpatToPimStats } from './conversion/convert-function';
export { copyRuns, evaluateStaticCondition, spatToPimPatterns, spatToPimTarget, staticTrips } from './conversion/patterns';
export { LoweringContext, elementBytes, staticTensor } from './conversion/lowering-context';
export type { HostBuffers, ConversionCounters, IndexOrValue, SliceRun, SliceRuns } from './conversion/lowering-context';
export { evaluateStaticIndex as evaluateStatic } from '@raptor-pim/upstream-dialects';
export { TargetKey, targetConfigOf } from './target';
export { SpatToPimMessages } from './diagnostics';

/**
 * Registers the passes of this package (`spat-to-pim`) in `registry`.
 *
 * @example
 * ```ts
 * const registry = new PassRegistry();
 * registerSpatialToPimPasses(registry);
 * parsePassPipeline(ctx, 'builtin.module(spat-to-pim)', registry);
 * ```
 */
export function registerSpatialToPimPasses(registry: PassRegistry): void {
  registry.registerPass(createSpatToPimPass);
}
