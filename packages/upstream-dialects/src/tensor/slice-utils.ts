/**
 * Offset/size/stride helpers shared by `tensor.extract_slice`, `tensor.insert_slice` and
 * `tensor.parallel_insert_slice`: the mixed static/dynamic lists as MLIR stores them
 * (`static_offsets` with INT64_MIN for dynamic entries plus variadic index operands), the
 * ViewLikeInterface checks, the rank-reduced type check and the static in-bounds check.
 */
import {
  DYNAMIC,
  formatType,
  RankedTensorType,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type OperationState,
  type UnresolvedOperand,
  type Value,
} from '@raptor-pim/ir-core';
import {
  addAttributes,
  parseAttrDictInto,
  parseDynamicIndexList,
  printAttrDict,
  printDynamicIndexList,
  readStaticArray,
  resolveIndices,
  setSegments,
  staticArray,
} from '../memref/asm';
import { TensorMessages as M } from './diagnostics';

/** The static offsets, sizes and strides of a slice op ({@link DYNAMIC} marks dynamic entries). */
export interface MixedSliceLists {
  readonly offsets: readonly number[];
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
}

const isDyn = (v: number) => v === DYNAMIC;
const NAMES = ['offsets', 'sizes', 'strides'] as const;
const SINGULAR = ['offset', 'size', 'stride'] as const;

/** Reads `static_offsets`, `static_sizes`, `static_strides` of `op`. */
export function readSliceLists(op: Operation): MixedSliceLists {
  return {
    offsets: readStaticArray(op.getAttr('static_offsets')),
    sizes: readStaticArray(op.getAttr('static_sizes')),
    strides: readStaticArray(op.getAttr('static_strides')),
  };
}

/** Stores the three static lists as properties of `state`. */
export function setSliceLists(state: OperationState, lists: MixedSliceLists): void {
  addAttributes(
    state,
    [
      { name: 'static_offsets', value: staticArray(state.context, lists.offsets) },
      { name: 'static_sizes', value: staticArray(state.context, lists.sizes) },
      { name: 'static_strides', value: staticArray(state.context, lists.strides) },
    ],
    ['static_offsets', 'static_sizes', 'static_strides'],
  );
}

/** The dynamic offset/size/stride operands of `op`, whose first `fixed` operands are not indices. */
export function sliceDynamicOperands(op: Operation, fixed: number): { offsets: Value[]; sizes: Value[]; strides: Value[] } {
  const def = op.definition!;
  const n = [fixed, fixed + 1, fixed + 2].map((i) => def.getOperandGroupRange(op, i)?.[1] ?? 0);
  const dyn = op.operands.slice(fixed);
  return { offsets: dyn.slice(0, n[0]), sizes: dyn.slice(n[0]!, n[0]! + n[1]!), strides: dyn.slice(n[0]! + n[1]!) };
}

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
  const n = [lists.offsets.length, lists.sizes.length, lists.strides.length];
  if (n[0] !== n[1]) {
    op.emitError(M.mixedRank('offsets', 'sizes', n[0]!, n[1]!));
    return false;
  }
  if (n[1] !== n[2]) {
    op.emitError(M.mixedRank('sizes', 'strides', n[1]!, n[2]!));
    return false;
  }
  const all = [lists.offsets, lists.sizes, lists.strides];
  for (let i = 0; i < 3; i++) {
    if (all[i]!.length !== maxRank) {
      op.emitError(M.rankedEntryCount(maxRank, SINGULAR[i]!, all[i]!.length));
      return false;
    }
    const dyn = all[i]!.filter(isDyn).length;
    if (dyn !== dynCounts[i]) {
      op.emitError(M.dynamicEntryCount(NAMES[i]!, dynCounts[i]!, dyn));
      return false;
    }
  }
  for (let i = 0; i < 2; i++)
    for (const v of all[i]!)
      if (!isDyn(v) && v < 0) {
        op.emitError(M.nonNegative(NAMES[i]!, v));
        return false;
      }
  return true;
}

/** The result of comparing a slice type with the type inferred from the sizes. */
export type SliceCheck = 'success' | 'rank-too-large' | 'size-mismatch' | 'elem-type-mismatch';

/**
 * MLIR's `computeRankReductionMask`: which dimensions of `original` are dropped (all unit) to
 * get `reduced`; undefined when `reduced` is not a rank reduction of `original`.
 */
export function rankReductionMask(original: readonly number[], reduced: readonly number[]): Set<number> | undefined {
  const dropped = new Set<number>();
  let r = 0;
  for (let o = 0; o < original.length; o++) {
    if (r < reduced.length && original[o] === reduced[r]) {
      r++;
      continue;
    }
    if (original[o] !== 1) return undefined;
    dropped.add(o);
  }
  return r === reduced.length ? dropped : undefined;
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
export interface ParsedSliceLists {
  readonly operands: readonly (readonly UnresolvedOperand[])[];
  readonly lists: MixedSliceLists;
}

/** Parses `[offsets] [sizes] [strides]` (MLIR's three `custom<DynamicIndexList>`). */
export function parseSliceLists(parser: OpAsmParser): ParsedSliceLists | undefined {
  const o = parseDynamicIndexList(parser);
  if (!o) return undefined;
  const s = parseDynamicIndexList(parser);
  if (!s) return undefined;
  const t = parseDynamicIndexList(parser);
  if (!t) return undefined;
  return { operands: [o.operands, s.operands, t.operands], lists: { offsets: o.statics, sizes: s.statics, strides: t.statics } };
}

/** Resolves the dynamic entries as `index` and stores lists and segment sizes in `state`. */
export function finishSliceState(
  parser: OpAsmParser,
  state: OperationState,
  leading: Value[],
  parsed: ParsedSliceLists,
): boolean {
  const fixed = leading.length;
  const vals = leading;
  for (const g of parsed.operands) if (!resolveIndices(parser, g, vals)) return false;
  state.operands = vals;
  setSliceLists(state, parsed.lists);
  const sizes = new Array<number>(fixed + parsed.operands.length).fill(1);
  for (let i = 0; i < parsed.operands.length; i++) sizes[fixed + i] = parsed.operands[i]!.length;
  setSegments(state, sizes);
  return true;
}

/** Prints `[offsets] [sizes] [strides] {attrs}` of a slice op with `fixed` leading operands. */
export function printSliceLists(p: OpAsmPrinter, op: Operation, fixed: number): void {
  const lists = readSliceLists(op);
  const dyn = sliceDynamicOperands(op, fixed);
  printDynamicIndexList(p, lists.offsets, dyn.offsets);
  p.print(' ');
  printDynamicIndexList(p, lists.sizes, dyn.sizes);
  p.print(' ');
  printDynamicIndexList(p, lists.strides, dyn.strides);
  printAttrDict(p, op, ['static_offsets', 'static_sizes', 'static_strides']);
}

/** Parses the trailing attribute dictionary (inherent names become properties). */
export { parseAttrDictInto };
