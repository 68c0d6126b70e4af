/**
 * Convenience builders for the memref ops later stages create (bufferization, codegen): they
 * split mixed static/dynamic offsets, sizes and strides into the static arrays and operands,
 * and infer result types with the same layout arithmetic as the verifiers.
 */
import {
  DYNAMIC,
  IntegerAttr,
  IntegerType,
  MemRefType,
  type Location,
  type OpBuilder,
  type Value,
} from '@raptor-pim/ir-core';
import { splitMixedList } from '../offset-size-stride';
import { reassociationAttr, staticArray } from './asm';
import {
  computeCollapsedType,
  computeExpandedType,
  inferSubViewResultType,
} from './layout';
import { AllocaOp, AllocOp, DeallocOp } from './ops/allocation';
import { CopyOp, LoadOp, StoreOp } from './ops/access';
import { CastOp, CollapseShapeOp, ExpandShapeOp, ReinterpretCastOp, SubViewOp, ViewOp } from './ops/views';

/** A static value or an SSA value of type `index` (MLIR's `OpFoldResult`). */
export type OpFoldResult = number | Value;

/** `memref.alloc` (or `memref.alloca` with `stack`) of `type`, with one size per dynamic dimension. */
export function createAlloc(
  b: OpBuilder,
  location: Location,
  type: MemRefType,
  dynamicSizes: readonly Value[] = [],
  options: { alignment?: number; stack?: boolean; symbolOperands?: readonly Value[] } = {},
): Value {
  const alignment = options.alignment === undefined ? undefined : IntegerAttr.get(IntegerType.get(b.context, 64), options.alignment);
  const def = options.stack ? AllocaOp : AllocOp;
  return def.build(b, { dynamicSizes, symbolOperands: options.symbolOperands ?? [], memref: type, ...(alignment ? { alignment } : {}) }, location)
    .memref;
}

/** `memref.dealloc`. */
export function createDealloc(b: OpBuilder, location: Location, memref: Value): void {
  DeallocOp.build(b, { memref }, location);
}

/** `memref.load` of the element at `indices`. */
export function createLoad(b: OpBuilder, location: Location, memref: Value, indices: readonly Value[]): Value {
  const t = memref.type as MemRefType;
  return LoadOp.build(b, { memref, indices, result: t.elementType }, location).result;
}

/** `memref.store` of `value` at `indices`. */
export function createStore(b: OpBuilder, location: Location, value: Value, memref: Value, indices: readonly Value[]): void {
  StoreOp.build(b, { value, memref, indices }, location);
}

/** `memref.copy`. */
export function createCopy(b: OpBuilder, location: Location, source: Value, target: Value): void {
  CopyOp.build(b, { source, target }, location);
}

/** `memref.cast` to `type`. */
export function createCast(b: OpBuilder, location: Location, source: Value, type: MemRefType): Value {
  return CastOp.build(b, { source, dest: type }, location).dest;
}

/**
 * `memref.subview` with mixed offsets/sizes/strides; the result type is inferred (MLIR's
 * `SubViewOp::inferResultType`) unless `resultType` (e.g. a rank-reduced type) is given.
 */
export function createSubView(
  b: OpBuilder,
  location: Location,
  source: Value,
  offsets: readonly OpFoldResult[],
  sizes: readonly OpFoldResult[],
  strides: readonly OpFoldResult[],
  resultType?: MemRefType,
): Value {
  const o = splitMixedList(offsets);
  const s = splitMixedList(sizes);
  const t = splitMixedList(strides);
  const type = resultType ?? inferSubViewResultType(source.type as MemRefType, { offsets: o.statics, sizes: s.statics, strides: t.statics });
  if (!type) throw new Error('internal error: createSubView on a memref without a strided layout');
  const ctx = b.context;
  return SubViewOp.build(
    b,
    {
      source,
      offsets: o.dynamics,
      sizes: s.dynamics,
      strides: t.dynamics,
      result: type,
      static_offsets: staticArray(ctx, o.statics),
      static_sizes: staticArray(ctx, s.statics),
      static_strides: staticArray(ctx, t.statics),
    },
    location,
  ).result;
}

/** `memref.reinterpret_cast` to `resultType` with a mixed offset, sizes and strides. */
export function createReinterpretCast(
  b: OpBuilder,
  location: Location,
  source: Value,
  offset: OpFoldResult,
  sizes: readonly OpFoldResult[],
  strides: readonly OpFoldResult[],
  resultType: MemRefType,
): Value {
  const o = splitMixedList([offset]);
  const s = splitMixedList(sizes);
  const t = splitMixedList(strides);
  const ctx = b.context;
  return ReinterpretCastOp.build(
    b,
    {
      source,
      offsets: o.dynamics,
      sizes: s.dynamics,
      strides: t.dynamics,
      result: resultType,
      static_offsets: staticArray(ctx, o.statics),
      static_sizes: staticArray(ctx, s.statics),
      static_strides: staticArray(ctx, t.statics),
    },
    location,
  ).result;
}

/**
 * `memref.collapse_shape` by `reassociation`; the result type is MLIR's collapsed type.
 * Returns undefined when the groups are statically non-contiguous.
 */
export function createCollapseShape(b: OpBuilder, location: Location, src: Value, reassociation: readonly (readonly number[])[]): Value | undefined {
  const t = src.type as MemRefType;
  const shape = reassociation.map((g) => (g.some((d) => t.shape[d]! < 0) ? DYNAMIC : g.reduce((a, d) => a * t.shape[d]!, 1)));
  const result = computeCollapsedType(t, shape, reassociation);
  if (!result) return undefined;
  return CollapseShapeOp.build(b, { src, result, reassociation: reassociationAttr(b.context, reassociation) }, location).result;
}

/** `memref.expand_shape` to `outputShape` (mixed), grouping result dims by `reassociation`. */
export function createExpandShape(
  b: OpBuilder,
  location: Location,
  src: Value,
  reassociation: readonly (readonly number[])[],
  outputShape: readonly OpFoldResult[],
): Value | undefined {
  const o = splitMixedList(outputShape);
  const result = computeExpandedType(src.type as MemRefType, o.statics, reassociation);
  if (!result) return undefined;
  return ExpandShapeOp.build(
    b,
    {
      src,
      output_shape: o.dynamics,
      result,
      reassociation: reassociationAttr(b.context, reassociation),
      static_output_shape: staticArray(b.context, o.statics),
    },
    location,
  ).result;
}

/** `memref.view` of a 1-D i8 buffer at `byteShift` as `type` (one size per dynamic dimension). */
export function createView(b: OpBuilder, location: Location, source: Value, byteShift: Value, type: MemRefType, sizes: readonly Value[] = []): Value {
  return ViewOp.build(b, { source, byte_shift: byteShift, sizes, result: type }, location).result;
}
