/** The `tensor` dialect: the tensor ops Raptor uses, with MLIR 22's syntax and verifiers. */
import { defineDialect, type Dialect } from '@raptor-pim/ir-core';
import { CastOp, DimOp, ExtractOp, InsertOp } from './ops/access';
import { EmptyOp, FromElementsOp, SplatOp } from './ops/creation';
import { CollapseShapeOp, ExpandShapeOp } from './ops/reshapes';
import { ExtractSliceOp, InsertSliceOp, ParallelInsertSliceOp } from './ops/slices';

/** Every tensor op definition, in MLIR's reference order. */
export const TENSOR_OPERATIONS = [
  CastOp,
  CollapseShapeOp,
  DimOp,
  EmptyOp,
  ExpandShapeOp,
  ExtractOp,
  ExtractSliceOp,
  FromElementsOp,
  InsertOp,
  InsertSliceOp,
  ParallelInsertSliceOp,
  SplatOp,
] as const;

/**
 * The tensor dialect. Register it with `context.registerDialect(TensorDialect)` or use
 * `registerUpstreamDialects(context)`.
 */
export const TensorDialect: Dialect = defineDialect({ namespace: 'tensor', operations: TENSOR_OPERATIONS });
