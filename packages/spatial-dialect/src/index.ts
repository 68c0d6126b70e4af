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
