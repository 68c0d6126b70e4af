/**
 * The `spat` dialect registration: all 39 ops (planning, compute, element-wise and the
 * scheduling/communication ops of `./ops/scheduling`) and the `#spat<...>` enum attributes.
 */
import { defineDialect, type Dialect, type MLIRContext } from '@raptor-pim/ir-core';
import { registerUpstreamDialects } from '@raptor-pim/upstream-dialects';
import { parseSpatAttribute, printSpatAttribute } from './attributes';
import { COMPUTE_OPS } from './ops/compute';
import { ELEMENTWISE_OPS } from './ops/elementwise';
import { PLAN_OPS } from './ops/plans';
import { SCHEDULING_OPS } from './ops/scheduling';

/** Every `spat` op definition, sorted by name (the reference's order). */
export const SPAT_OPS = [...PLAN_OPS, ...COMPUTE_OPS, ...ELEMENTWISE_OPS, ...SCHEDULING_OPS].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** The `spat` dialect. */
export const SpatDialect: Dialect = defineDialect({
  namespace: 'spat',
  operations: SPAT_OPS,
  parseAttribute: (parser) => parseSpatAttribute(parser),
  printAttribute: (attr, printer) => printSpatAttribute(attr, printer),
});

/**
 * Registers `spat` and what its bodies use (builtin, func, arith, affine, tensor, scf,
 * memref) in `context`.
 *
 * @example
 * const ctx = new MLIRContext();
 * registerSpatialDialect(ctx);
 */
export function registerSpatialDialect(context: MLIRContext): void {
  registerUpstreamDialects(context);
  context.registerDialect(SpatDialect);
}
