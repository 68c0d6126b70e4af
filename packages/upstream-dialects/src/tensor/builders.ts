/**
 * Convenience builders for the tensor ops later stages create (plan lowering, spatial-to-pim):
 * they split mixed static/dynamic offsets, sizes and strides (numbers or `index` values) into the
 * static arrays and operands, and infer slice result types as the verifiers do.
 */
import { DYNAMIC, RankedTensorType, type Location, type OpBuilder, type Value } from '@raptor-pim/ir-core';
import { staticArray } from '../memref/asm';
import { ExtractOp, InsertOp } from './ops/access';
import { EmptyOp } from './ops/creation';
import { ExtractSliceOp, InsertSliceOp, ParallelInsertSliceOp } from './ops/slices';

/** A static value or an SSA value of type `index` (MLIR's `OpFoldResult`). */
export type IndexOrValue = number | Value;

/** Full-rank offsets, sizes and strides of a slice (numbers are static, values dynamic). */
export interface MixedSlice {
  readonly offsets: readonly IndexOrValue[];
  readonly sizes: readonly IndexOrValue[];
  readonly strides?: readonly IndexOrValue[];
}

function split(list: readonly IndexOrValue[]): { statics: number[]; dynamics: Value[] } {
  const statics: number[] = [];
  const dynamics: Value[] = [];
  for (const x of list) {
    if (typeof x === 'number') statics.push(x);
    else {
      statics.push(DYNAMIC);
      dynamics.push(x);
    }
  }
  return { statics, dynamics };
}

function sliceArgs(b: OpBuilder, slice: MixedSlice) {
  const o = split(slice.offsets);
  const s = split(slice.sizes);
  const t = split(slice.strides ?? slice.sizes.map(() => 1));
  return {
    sizes: s,
    operands: { offsets: o.dynamics, sizes: s.dynamics, strides: t.dynamics },
    attrs: {
      static_offsets: staticArray(b.context, o.statics),
      static_sizes: staticArray(b.context, s.statics),
      static_strides: staticArray(b.context, t.statics),
    },
  };
}

/** `tensor.empty` of `type`, with one size per dynamic dimension. */
export function createEmpty(b: OpBuilder, location: Location, type: RankedTensorType, dynamicSizes: readonly Value[] = []): Value {
  return EmptyOp.build(b, { dynamicSizes, result: type }, location).result;
}

/**
 * `tensor.extract_slice` of `source`. The result type is inferred from the sizes (dynamic sizes
 * give `?`) unless `resultType` is given (e.g. a rank-reduced type).
 */
export function createExtractSlice(b: OpBuilder, location: Location, source: Value, slice: MixedSlice, resultType?: RankedTensorType): Value {
  const src = source.type as RankedTensorType;
  const a = sliceArgs(b, slice);
  const result = resultType ?? RankedTensorType.get(b.context, a.sizes.statics, src.elementType);
  return ExtractSliceOp.build(b, { source, ...a.operands, result, ...a.attrs }, location).result;
}

/** `tensor.insert_slice` of `source` into `dest`. */
export function createInsertSlice(b: OpBuilder, location: Location, source: Value, dest: Value, slice: MixedSlice): Value {
  const a = sliceArgs(b, slice);
  return InsertSliceOp.build(b, { source, dest, ...a.operands, result: dest.type, ...a.attrs }, location).result;
}

/** `tensor.parallel_insert_slice` of `source` into the shared output `dest` (inside an in-parallel region). */
export function createParallelInsertSlice(b: OpBuilder, location: Location, source: Value, dest: Value, slice: MixedSlice): void {
  const a = sliceArgs(b, slice);
  ParallelInsertSliceOp.build(b, { source, dest, ...a.operands, ...a.attrs }, location);
}

/** `tensor.extract` of the element at `indices`. */
export function createExtract(b: OpBuilder, location: Location, tensor: Value, indices: readonly Value[]): Value {
  return ExtractOp.build(b, { tensor, indices, result: (tensor.type as RankedTensorType).elementType }, location).result;
}

/** `tensor.insert` of `scalar` at `indices`. */
export function createInsert(b: OpBuilder, location: Location, scalar: Value, dest: Value, indices: readonly Value[]): Value {
  return InsertOp.build(b, { scalar, dest, indices, result: dest.type }, location).result;
}
