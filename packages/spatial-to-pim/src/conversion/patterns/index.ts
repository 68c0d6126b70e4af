/**
 * The conversion patterns of `spat-to-pim` (OpConversionPatterns of ir-core's dialect
 * conversion) and the conversion target they legalize to.
 */
import { ConversionTarget, type ConversionPattern } from '@raptor-pim/ir-core';
import { EmptyOp, ExtractSliceOp, ForOp, IfOp, InsertSliceOp, TensorCollapseShapeOp, TensorExpandShapeOp } from '@raptor-pim/upstream-dialects';
import type { LoweringContext } from '../lowering-context';
import { communicationPatterns } from './communication';
import { dataMovementPatterns } from './data-movement';
import { elementwisePatterns } from './elementwise';
import { matrixPatterns } from './matrix';
import { structuredPatterns } from './structured';

export { copyRuns } from './data-movement';
export { evaluateStaticCondition, staticTrips } from './structured';

/** Every pattern, in reference order of their families. */
export function spatToPimPatterns(ctx: LoweringContext): ConversionPattern[] {
  return [...structuredPatterns(ctx), ...elementwisePatterns(ctx), ...matrixPatterns(ctx), ...dataMovementPatterns(ctx), ...communicationPatterns(ctx)];
}

/**
 * The legal forms inside a PIM stream: pim ops, index arithmetic (arith, affine), memrefs,
 * `tensor.empty` destinations. Every `spat` op, tensor slice and reshape, and every `scf.for` /
 * `scf.if` (resolved at compile time) must be converted.
 */
export function spatToPimTarget(): ConversionTarget {
  return new ConversionTarget()
    .addLegalDialect('pim', 'arith', 'affine', 'memref')
    .addLegalOp(EmptyOp)
    .addIllegalDialect('spat')
    .addIllegalOp(ExtractSliceOp, InsertSliceOp, TensorCollapseShapeOp, TensorExpandShapeOp, ForOp, IfOp);
}
