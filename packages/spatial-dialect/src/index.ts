/**
 * @packageDocumentation
 * The Spatial dialect: logical plans, layouts, compute regions, blueprints and scheduled communication (all 39 spat ops), with verifiers and interpreter rules.
 */

/**
 * Reference kernels (conv, pooling, resize, data movement, element-wise, softmax/reductions,
 * matrix and crossbar products) used by the Spatial and PIM interpreter rules. A namespace so
 * that kernel names (`add`, `concat`, `relu`, ...) never collide with op definitions.
 *
 * @example
 * import { kernels } from '@raptor-pim/spatial-dialect';
 * const y = kernels.relu(kernels.createTensor([1, 2], [-1, 2])); // ok, data [0, 2]
 */
export * as kernels from './interpreter/kernels';
export type { F32Tensor, KernelResult } from './interpreter/kernels';
/** The crossbar tiling of constant weight matrices (shared by the importer's Gemm and plan-lowering's Conv2D). */
export { crossbarTileCount, tileWeightMatrix } from './interpreter/kernels/crossbar-tiling';
export type { CrossbarTiling, CrossbarWeightTile } from './interpreter/kernels/crossbar-tiling';

// Dialect, attributes, interfaces
export { SpatDialect, SPAT_OPS, registerSpatialDialect } from './ir/dialect';
export * from './ir/attributes';
export * from './ir/interfaces';
export { SpatMessages } from './diagnostics';
// Ops
export * from './ir/ops/plans';
export * from './ir/ops/compute';
export * from './ir/ops/elementwise';
export * from './ir/ops/scheduling';
export * from './ir/builders';
// Interpreter
export { SPATIAL_INTERPRETER_RULES, registerSpatialInterpreterRules, setGraphBatchLaneOrder } from './interpreter/rules';
export { SCHEDULING_INTERPRETER_RULES, registerSchedulingInterpreterRules, ScheduledRun } from './interpreter/scheduling';
export { registerAllSpatialInterpreterRules } from './interpreter/register';
