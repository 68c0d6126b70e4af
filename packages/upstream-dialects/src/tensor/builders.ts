/**
 * Convenience builders for the tensor ops later stages create (plan lowering, spatial-to-pim):
 * they split mixed static/dynamic offsets, sizes and strides (numbers or `index` values) into the
 * static arrays and operands, and infer slice result types as the verifiers do.
 */
import { RankedTensorType, type Location, type OpBuilder, type Value } from '@raptor-pim/ir-core';
import { staticArray } from '../memref/asm';
import { splitMixedList } from '../offset-size-stride';
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

const UNIT_STRIDES: (readonly number[])[] = [];

/** `rank` ones (one shared frozen array per rank). */
function unitStrides(rank: number): readonly number[] {
  return (UNIT_STRIDES[rank] ??= Object.freeze(new Array<number>(rank).fill(1)));
}

/** The operands and static-list attributes of a slice op built from `slice`. */
function sliceArgs(b: OpBuilder, slice: MixedSlice) {
  const o = splitMixedList(slice.offsets);
  const s = splitMixedList(slice.sizes);
  const t = splitMixedList(slice.strides ?? unitStrides(slice.sizes.length));
  const context = b.context;
  return {
    sizes: s.statics,
    offsets: o.dynamics,
    dynamicSizes: s.dynamics,
    strides: t.dynamics,
    static_offsets: staticArray(context, o.statics),
    static_sizes: staticArray(context, s.statics),
    static_strides: staticArray(context, t.statics),
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
  const result = resultType ?? RankedTensorType.get(b.context, a.sizes, src.elementType);
  // One literal per op (no spreads of intermediate objects): importers build thousands of slices.
  return ExtractSliceOp.build(
    b,
    { source, offsets: a.offsets, sizes: a.dynamicSizes, strides: a.strides, result, static_offsets: a.static_offsets, static_sizes: a.static_sizes, static_strides: a.static_strides },
    location,
  ).result;
}

/** `tensor.insert_slice` of `source` into `dest`. */
export function createInsertSlice(b: OpBuilder, location: Location, source: Value, dest: Value, slice: MixedSlice): Value {
  const a = sliceArgs(b, slice);
  return InsertSliceOp.build(
    b,
    { source, dest, offsets: a.offsets, sizes: a.dynamicSizes, strides: a.strides, result: dest.type, static_offsets: a.static_offsets, static_sizes: a.static_sizes, static_strides: a.static_strides },
    location,
  ).result;
}

/** `tensor.parallel_insert_slice` of `source` into the shared output `dest` (inside an in-parallel region). */
export function createParallelInsertSlice(b: OpBuilder, location: Location, source: Value, dest: Value, slice: MixedSlice): void {
  const a = sliceArgs(b, slice);
  ParallelInsertSliceOp.build(
    b,
    { source, dest, offsets: a.offsets, sizes: a.dynamicSizes, strides: a.strides, static_offsets: a.static_offsets, static_sizes: a.static_sizes, static_strides: a.static_strides },
    location,
  );
}

/** `tensor.extract` of the element at `indices`. */
export function createExtract(b: OpBuilder, location: Location, tensor: Value, indices: readonly Value[]): Value {
  return ExtractOp.build(b, { tensor, indices, result: (tensor.type as RankedTensorType).elementType }, location).result;
}

/** `tensor.insert` of `scalar` at `indices`. */
export function createInsert(b: OpBuilder, location: Location, scalar: Value, dest: Value, indices: readonly Value[]): Value {
  return InsertOp.build(b, { scalar, dest, indices, result: dest.type }, location).result;
}
