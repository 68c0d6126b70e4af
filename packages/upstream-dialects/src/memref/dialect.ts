/** The `memref` dialect: every op of MLIR's memref dialect used by Raptor. */
import { defineDialect, type Dialect } from '@raptor-pim/ir-core';
import { AllocaOp, AllocaScopeOp, AllocaScopeReturnOp, AllocOp, DeallocOp, ReallocOp } from './ops/allocation';
import {
  AtomicRMWOp,
  AtomicYieldOp,
  CopyOp,
  DmaStartOp,
  DmaWaitOp,
  GenericAtomicRMWOp,
  LoadOp,
  PrefetchOp,
  StoreOp,
} from './ops/access';
import { GetGlobalOp, GlobalOp } from './ops/globals';
import {
  AssumeAlignmentOp,
  DimOp,
  DistinctObjectsOp,
  ExtractAlignedPointerAsIndexOp,
  ExtractStridedMetadataOp,
  RankOp,
} from './ops/queries';
import {
  CastOp,
  CollapseShapeOp,
  ExpandShapeOp,
  MemorySpaceCastOp,
  ReinterpretCastOp,
  ReshapeOp,
  SubViewOp,
  TransposeOp,
  ViewOp,
} from './ops/views';

/** Every memref op definition, in MLIR's reference order. */
export const MEMREF_OPERATIONS = [
  AssumeAlignmentOp,
  AtomicRMWOp,
  AtomicYieldOp,
  CopyOp,
  GenericAtomicRMWOp,
  LoadOp,
  AllocOp,
  AllocaOp,
  AllocaScopeOp,
  AllocaScopeReturnOp,
  CastOp,
  CollapseShapeOp,
  DeallocOp,
  DimOp,
  DistinctObjectsOp,
  DmaStartOp,
  DmaWaitOp,
  ExpandShapeOp,
  ExtractAlignedPointerAsIndexOp,
  ExtractStridedMetadataOp,
  GetGlobalOp,
  GlobalOp,
  MemorySpaceCastOp,
  PrefetchOp,
  RankOp,
  ReallocOp,
  ReinterpretCastOp,
  ReshapeOp,
  StoreOp,
  SubViewOp,
  TransposeOp,
  ViewOp,
] as const;

/**
 * The memref dialect. Register it with `context.registerDialect(MemRefDialect)`.
 * @example
 * ```ts
 * const ctx = new MLIRContext();
 * ctx.registerDialect(MemRefDialect);
 * ```
 */
export const MemRefDialect: Dialect = defineDialect({ namespace: 'memref', operations: MEMREF_OPERATIONS });
