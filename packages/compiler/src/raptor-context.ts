/** A context with every Raptor dialect registered. */
import { MLIRContext } from '@raptor-pim/ir-core';
import { registerPimDialect } from '@raptor-pim/pim-dialect';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';

/**
 * A new {@link MLIRContext} with every dialect Raptor defines: builtin, func, arith, affine,
 * tensor, scf, memref (through the spat and pim registrations), spat and pim.
 */
export function createRaptorContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  registerPimDialect(ctx);
  return ctx;
}
