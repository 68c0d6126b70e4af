/** Builder for `affine.apply`. */
import { AffineMapAttr, IndexType, type AffineMap, type Location, type OpBuilder, type Value } from '@raptor-pim/ir-core';
import { ApplyOp } from './ops';

/** `affine.apply map(dims)[symbols]`. */
export function createAffineApply(
  b: OpBuilder,
  location: Location,
  map: AffineMap,
  dims: readonly Value[],
  symbols: readonly Value[] = [],
): Value {
  return ApplyOp.build(b, { mapOperands: [...dims, ...symbols], result: IndexType.get(b.context), map: AffineMapAttr.get(map) }, location).result;
}
