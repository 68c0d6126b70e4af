/** The `pim` dialect registration (24 ops). */
import { defineDialect, type Dialect, type MLIRContext } from '@raptor-pim/ir-core';
import { registerUpstreamDialects } from '@raptor-pim/upstream-dialects';
import { CORE_OPS } from './ops/core';
import { TRANSFER_OPS } from './ops/transfer';
import { VECTOR_OPS } from './ops/vector';

/** Every `pim` op definition, sorted by name. */
export const PIM_OPS = [...CORE_OPS, ...TRANSFER_OPS, ...VECTOR_OPS].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** The `pim` dialect. */
export const PimDialect: Dialect = defineDialect({
  namespace: 'pim',
  operations: PIM_OPS,
});

/**
 * Registers `pim` and the dialects its programs use (builtin, func, arith, affine, tensor,
 * scf, memref) in `context`.
 *
 * @example
 * const ctx = new MLIRContext();
 * registerPimDialect(ctx);
 */
export function registerPimDialect(context: MLIRContext): void {
  registerUpstreamDialects(context);
  context.registerDialect(PimDialect);
}
