/**
 * Offset/size/stride helpers shared by `tensor.extract_slice`, `tensor.insert_slice` and
 * `tensor.parallel_insert_slice`: the mixed static/dynamic lists as MLIR stores them
 * (`static_offsets` with INT64_MIN for dynamic entries plus variadic index operands), the
 * ViewLikeInterface checks, the rank-reduced type check and the static in-bounds check.
 */
import { DYNAMIC, formatType, RankedTensorType, type Operation } from '@raptor-pim/ir-core';
import { parseAttrDictInto } from '../memref/asm';
import { computeRankReductionMask } from '../memref/layout';
import { verifyOffsetSizeStride, type MixedOffsetSizeStride, type ParsedOffsetSizeStride } from '../offset-size-stride';
import { TensorMessages as M } from './diagnostics';

/** The static offsets, sizes and strides of a slice op ({@link DYNAMIC} marks dynamic entries). */
export type MixedSliceLists = MixedOffsetSizeStride;

const isDyn = (v: number) => v === DYNAMIC;

/**
 * The full offsets/sizes/strides of `op` at run time: static values, dynamic entries taken in
 * order from `dynamic` (the runtime values of the dynamic operands).
 */
export function resolveSliceLists(lists: MixedSliceLists, dynamic: { offsets: number[]; sizes: number[]; strides: number[] }): {
  offsets: number[];
  sizes: number[];
  strides: number[];
} {
  const fill = (statics: readonly number[], values: number[]) => {
    let k = 0;
    return statics.map((v) => (isDyn(v) ? values[k++]! : v));
  };
  return {
    offsets: fill(lists.offsets, dynamic.offsets),
    sizes: fill(lists.sizes, dynamic.sizes),
    strides: fill(lists.strides, dynamic.strides),
  };
}

/**
 * MLIR's `OffsetSizeAndStrideOpInterface` verification: equal list lengths, `maxRank` entries
 * each, dynamic operand counts, non-negative static offsets and sizes.
 */
export function verifySliceLists(op: Operation, lists: MixedSliceLists, dynCounts: readonly number[], maxRank: number): boolean {
  return verifyOffsetSizeStride(op, lists, dynCounts, { rank: maxRank });
}

/** The result of comparing a slice type with the type inferred from the sizes. */
export type SliceCheck = 'success' | 'rank-too-large' | 'size-mismatch' | 'elem-type-mismatch';

/**
 * MLIR's `computeRankReductionMask`: which dimensions of `original` are dropped (all unit) to
 * get `reduced`; undefined when `reduced` is not a rank reduction of `original`.
 */
export function rankReductionMask(original: readonly number[], reduced: readonly number[]): Set<number> | undefined {
  return computeRankReductionMask(original, reduced);
}

/** MLIR's `isRankReducedType` for tensors: `candidate` equals `expected` up to dropped unit dims. */
export function checkRankReduced(expected: RankedTensorType, candidate: RankedTensorType): SliceCheck {
  if (candidate.rank > expected.rank) return 'rank-too-large';
  if (!rankReductionMask(expected.shape, candidate.shape)) return 'size-mismatch';
  if (expected.elementType !== candidate.elementType) return 'elem-type-mismatch';
  return 'success';
}

/** The slice type MLIR infers from the sizes (`ExtractSliceOp::inferResultType`). */
export function inferSliceType(source: RankedTensorType, sizes: readonly number[]): RankedTensorType {
  return RankedTensorType.get(source.context, sizes, source.elementType, source.encoding);
}

/** Emits MLIR's `produceSliceErrorMsg` for a failed {@link checkRankReduced}. */
export function emitSliceError(op: Operation, check: SliceCheck, expected: RankedTensorType): false {
  if (check === 'rank-too-large') op.emitError(M.sliceRankTooLarge);
  else if (check === 'size-mismatch') op.emitError(M.sliceSizeMismatch(formatType(expected)));
  else op.emitError(M.sliceElementType(formatType(expected.elementType)));
  return false;
}

/** MLIR's `verifyInBoundsSlice`: the first static out-of-bounds offset or last position. */
export function checkSliceBounds(shape: readonly number[], lists: MixedSliceLists): string | undefined {
  for (let i = 0; i < shape.length; i++) {
    const dim = shape[i]!;
    const off = lists.offsets[i]!;
    if (isDyn(dim) || isDyn(off)) continue;
    if (off >= dim) return M.offsetOutOfBounds(i, off, dim, false);
    const size = lists.sizes[i]!;
    const stride = lists.strides[i]!;
    if (isDyn(size) || isDyn(stride)) continue;
    const last = off + (size - 1) * stride;
    if (last >= dim) return M.sliceOutOfBounds(i, last, dim);
  }
  return undefined;
}

/** Parsed `[offsets] [sizes] [strides]`. */
export type ParsedSliceLists = ParsedOffsetSizeStride;

// The slice ops read, write, parse and print their lists with the view-like helpers.
export {
  finishOffsetSizeStride as finishSliceState,
  offsetSizeStrideOperands as sliceDynamicOperands,
  parseOffsetSizeStride as parseSliceLists,
  printOffsetSizeStride as printSliceLists,
  readOffsetSizeStride as readSliceLists,
  setOffsetSizeStride as setSliceLists,
} from '../offset-size-stride';

/** Parses the trailing attribute dictionary (inherent names become properties). */
export { parseAttrDictInto };
