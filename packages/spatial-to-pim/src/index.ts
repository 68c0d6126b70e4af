/**
 * @packageDocumentation
 * Conversion of scheduled Spatial programs to per-core PIM streams on tensors (`spat-to-pim`).
 */
import type { PassRegistry } from '@raptor-pim/ir-core';
import { createSpatToPimPass } from './transforms/spat-to-pim';

export { SpatToPimPass, createSpatToPimPass } from './transforms/spat-to-pim';
export { convertScheduledFunction, planStreams } from './conversion/convert-function';
export type { SpatToPimResult, SpatToPimStats } from './conversion/convert-function';
export { SPAT_TO_PIM_PATTERNS, patternTable } from './conversion/patterns';
export type { ScheduledOpPattern } from './conversion/patterns';
export { StreamLowering, elementBytes, staticTensor } from './conversion/stream-lowering';
export type { HostBuffers, ConversionCounters, IndexOrValue, SliceRun, SliceRuns } from './conversion/stream-lowering';
export { evaluateStatic } from './conversion/static-index';
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
