/** Type constraints of the tensor dialect, with the descriptions MLIR 22's ODS prints. */
import { RankedTensorType, typeConstraint, UnrankedTensorType } from '@raptor-pim/ir-core';

/** A ranked tensor (ODS `AnyRankedTensor`). */
export const RankedTensor = typeConstraint('ranked tensor of any type values', (t) => t instanceof RankedTensorType);
/** A ranked or unranked tensor (ODS `AnyTensor`). */
export const AnyTensorType = typeConstraint(
  'tensor of any type values',
  (t) => t instanceof RankedTensorType || t instanceof UnrankedTensorType,
);
/** A statically shaped ranked tensor (ODS `AnyStaticShapeTensor`). */
export const StaticShapeTensor = typeConstraint(
  'statically shaped tensor of any type values',
  (t) => t instanceof RankedTensorType && t.shape.every((d) => d >= 0),
);
/** A non-0-ranked or unranked tensor (ODS `AnyNon0RankedOrUnrankedTensor`, source of `tensor.dim`). */
export const Non0RankedOrUnrankedTensor = typeConstraint(
  'non-0-ranked or unranked tensor',
  (t) => t instanceof UnrankedTensorType || (t instanceof RankedTensorType && t.rank > 0),
);
