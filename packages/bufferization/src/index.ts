/**
 * @packageDocumentation
 * PIM bufferization: tensors to memrefs (`pim-bufferize`), the per-core memory plan
 * (`pim-plan-memory`) and its checking pass (`pim-verify-memory`).
 */
import type { PassRegistry } from '@raptor-pim/ir-core';
import { PimBufferizePass } from './transforms/pim-bufferize';
import { PimPlanMemoryPass } from './transforms/pim-plan-memory';
import { PimVerifyMemoryPass } from './transforms/pim-verify-memory';

export { PimBufferizePass } from './transforms/pim-bufferize';
export type { BufferizeReport, PimBufferizeOptions } from './transforms/pim-bufferize';
export { PimPlanMemoryPass } from './transforms/pim-plan-memory';
export type { PimPlanMemoryOptions } from './transforms/pim-plan-memory';
export { PimVerifyMemoryPass } from './transforms/pim-verify-memory';
export { bufferizeCoreBody, byteSizeOf, elementBytes } from './conversion/bufferize-core';
export type { BufferizeCounts } from './conversion/bufferize-core';
export { shrinkBuffersToAccesses } from './conversion/shrink-buffers';
export type { ShrinkCounts } from './conversion/shrink-buffers';
export { boxOf, forwardCopiesThroughTemporaries, forwardSliceCopiesToViews, forwardWholeCopies } from './conversion/forward-copies';
export { byteAccessesOf, resolveByteAccess } from './analysis/byte-accesses';
export type { ByteAccess, ResolvedAccess } from './analysis/byte-accesses';
export { alignUp, livesOverlap, liveBytesLowerBound, planMemory } from './analysis/memory-plan';
export type { LiveBuffer, PlannedBuffer, MemoryPlan, PlanningOrder } from './analysis/memory-plan';
export { computeStreamLiveness, coresOf, describeStream, isStream, topLevelAncestor } from './analysis/live-intervals';
export type { CoreAllocation, StreamLiveness } from './analysis/live-intervals';
export { MemoryPlanAttributes, planHostMemory, planModuleMemory, planStreamMemory } from './analysis/plan-module';
export type { ModuleMemoryReport, StreamMemoryReport } from './analysis/plan-module';
export { verifyStreamMemory } from './analysis/verify-memory';
export { evaluateStaticIndex as evaluateStatic } from '@raptor-pim/upstream-dialects';
export { TargetKey, localMemoryOf, targetConfigOf } from './target';
export { BufferizationMessages } from './diagnostics';

/**
 * Registers `pim-bufferize`, `pim-plan-memory` and `pim-verify-memory` in `registry`.
 *
 * @example
 * ```ts
 * registerBufferizationPasses(registry);
 * parsePassPipeline(ctx, 'builtin.module(pim-bufferize,pim-plan-memory,pim-verify-memory)', registry);
 * ```
 */
export function registerBufferizationPasses(registry: PassRegistry): void {
  registry.registerPass(() => new PimBufferizePass());
  registry.registerPass(() => new PimPlanMemoryPass());
  registry.registerPass(() => new PimVerifyMemoryPass());
}
