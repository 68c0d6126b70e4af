/** One call that registers every dialect of this package (and ir-core's builtin/func/arith). */
import { registerBuiltinDialects, type MLIRContext } from '@raptor-pim/ir-core';
import { AffineDialect } from '../affine/dialect';
import { MemRefDialect } from '../memref/dialect';
import { ScfDialect } from '../scf/dialect';
import { TensorDialect } from './dialect';

/**
 * Registers `builtin`, `func`, `arith` (ir-core) and this package's `affine`, `tensor`, `scf`
 * and `memref` dialects in `context` (idempotent).
 *
 * @example
 * ```ts
 * const ctx = new MLIRContext();
 * registerUpstreamDialects(ctx);
 * const m = parseSourceString(ctx, 'func.func @f(%t: tensor<4xf32>) { return }');
 * ```
 */
export function registerUpstreamDialects(context: MLIRContext): void {
  registerBuiltinDialects(context);
  context.registerDialect(AffineDialect);
  context.registerDialect(TensorDialect);
  context.registerDialect(ScfDialect);
  context.registerDialect(MemRefDialect);
}
