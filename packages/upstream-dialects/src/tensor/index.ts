/** The tensor dialect: op definitions and slice helpers. */
export * from './dialect';
export { TensorMessages } from './diagnostics';
export * from './interfaces';
export { areTensorCastCompatible, CastOp as TensorCastOp, DimOp as TensorDimOp, ExtractOp, InsertOp } from './ops/access';
export { EmptyOp, FromElementsOp, SplatOp } from './ops/creation';
export { CollapseShapeOp as TensorCollapseShapeOp, ExpandShapeOp as TensorExpandShapeOp, verifyTensorReshape } from './ops/reshapes';
export { ExtractSliceOp, InsertSliceOp, ParallelInsertSliceOp } from './ops/slices';
export { checkRankReduced, checkSliceBounds, rankReductionMask, readSliceLists, resolveSliceLists } from './slice-utils';
export type { MixedSliceLists, SliceCheck } from './slice-utils';
export * from './builders';
