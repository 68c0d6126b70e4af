/**
 * Slices: `tensor.extract_slice`, `tensor.insert_slice`, `tensor.parallel_insert_slice`, with
 * MLIR's mixed static/dynamic offsets, sizes and strides and its custom form
 * `%t[0, %off] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>`.
 */
import {
  DenseI64ArrayAttr,
  defineOp,
  hasParallelCombiningParent,
  implement,
  Index,
  prop,
  RankedTensorType,
  single,
  Traits,
  variadic,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import { printSourceToResultTypes } from '../../memref/asm';
import { RankedTensor } from '../constraints';
import { TensorMessages as M } from '../diagnostics';
import { ParallelInsertionOpInterface } from '../interfaces';
import {
  checkRankReduced,
  checkSliceBounds,
  emitSliceError,
  finishSliceState,
  inferSliceType,
  parseAttrDictInto,
  parseSliceLists,
  printSliceLists,
  readSliceLists,
  verifySliceLists,
} from '../slice-utils';
import { parseRankedTensor } from './creation';

const SLICE_ATTRS = { static_offsets: prop(DenseI64ArrayAttr), static_sizes: prop(DenseI64ArrayAttr), static_strides: prop(DenseI64ArrayAttr) };

function dynCounts(op: Operation, fixed: number): number[] {
  // The lengths of sliceDynamicOperands(op, fixed)'s three lists, without building them.
  const def = op.definition!;
  const n0 = def.getOperandGroupRange(op, fixed)?.[1] ?? 0;
  const n1 = def.getOperandGroupRange(op, fixed + 1)?.[1] ?? 0;
  const total = Math.max(0, op.numOperands - fixed);
  const a = Math.min(n0, total);
  const b = Math.max(0, Math.min(n0 + n1, total) - a);
  return [a, b, Math.max(0, total - n0 - n1)];
}

/**
 * The checks every slice op makes: its lists against the rank of the `full` tensor (the first
 * `fixed` operands are tensors), `slice` against the type the sizes give (`expectedOf`; a
 * rank-reduced version of it is accepted), and the static bounds of the slice in `full`.
 */
function verifySlice(
  op: Operation,
  fixed: number,
  full: RankedTensorType,
  slice: RankedTensorType,
  expectedOf: (sizes: readonly number[]) => RankedTensorType,
): boolean {
  const lists = readSliceLists(op);
  if (!verifySliceLists(op, lists, dynCounts(op, fixed), full.rank)) return false;
  const expected = expectedOf(lists.sizes);
  const r = checkRankReduced(expected, slice);
  if (r !== 'success') return emitSliceError(op, r, expected);
  const bounds = checkSliceBounds(full.shape, lists);
  if (bounds) {
    op.emitError(bounds);
    return false;
  }
  return true;
}

/** Shared verification of the insert flavours: lists, rank-reduced source, bounds in `dest`. */
function verifyInsertLike(op: Operation, source: RankedTensorType, dest: RankedTensorType): boolean {
  return verifySlice(op, 2, dest, source, (sizes) => RankedTensorType.get(op.context, sizes, dest.elementType));
}

/** `tensor.extract_slice`: a (possibly rank-reduced) strided slice of a tensor. */
export const ExtractSliceOp = defineOp({
  name: 'tensor.extract_slice',
  summary: 'extract slice operation',
  operands: { source: single(RankedTensor), offsets: variadic(Index), sizes: variadic(Index), strides: variadic(Index) },
  results: { result: single(RankedTensor) },
  attributes: SLICE_ATTRS,
  traits: [Traits.Pure],
  verify(view) {
    const source = view.source.type as RankedTensorType;
    return verifySlice(view.op, 1, source, view.result.type as RankedTensorType, (sizes) => inferSliceType(source, sizes));
  },
  parse(parser, state) {
    const src = parser.parseOperand();
    if (!src) return false;
    const lists = parseSliceLists(parser);
    if (!lists || !parseAttrDictInto(parser, state) || !parser.parseColon()) return false;
    const st = parseRankedTensor(parser);
    if (!st || !parser.parseKeyword('to')) return false;
    const dt = parseRankedTensor(parser);
    if (!dt) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(src, st, vals)) return false;
    state.resultTypes = [dt];
    return finishSliceState(parser, state, vals, lists);
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    printSliceLists(p, op, 1);
    printSourceToResultTypes(p, op);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'extracted_slice');
  },
});

function parseInsertLike(withResult: boolean) {
  return (parser: Parameters<NonNullable<(typeof ExtractSliceOp)['parse']>>[0], state: Parameters<NonNullable<(typeof ExtractSliceOp)['parse']>>[1]): boolean => {
    const src = parser.parseOperand();
    if (!src || !parser.parseKeyword('into')) return false;
    const dest = parser.parseOperand();
    if (!dest) return false;
    const lists = parseSliceLists(parser);
    if (!lists || !parseAttrDictInto(parser, state) || !parser.parseColon()) return false;
    const st = parseRankedTensor(parser);
    if (!st || !parser.parseKeyword('into')) return false;
    const dt = parseRankedTensor(parser);
    if (!dt) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(src, st, vals) || !parser.resolveOperand(dest, dt, vals)) return false;
    state.resultTypes = withResult ? [dt] : [];
    return finishSliceState(parser, state, vals, lists);
  };
}

function printInsertLike(op: Operation, p: Parameters<NonNullable<(typeof ExtractSliceOp)['print']>>[1]): void {
  p.print(' ');
  p.printOperand(op.getOperand(0));
  p.print(' into ');
  p.printOperand(op.getOperand(1));
  printSliceLists(p, op, 2);
  p.print(' : ');
  p.printType(op.getOperand(0).type);
  p.print(' into ');
  p.printType(op.getOperand(1).type);
}

/** `tensor.insert_slice`: a copy of `dest` with a (possibly rank-reduced) slice replaced by `source`. */
export const InsertSliceOp = defineOp({
  name: 'tensor.insert_slice',
  summary: 'insert_slice operation',
  operands: {
    source: single(RankedTensor),
    dest: single(RankedTensor),
    offsets: variadic(Index),
    sizes: variadic(Index),
    strides: variadic(Index),
  },
  results: { result: single(RankedTensor) },
  attributes: SLICE_ATTRS,
  traits: [Traits.Pure],
  verify(view) {
    if (view.result.type !== view.dest.type) {
      view.emitOpError(M.insertSliceResultType);
      return false;
    }
    return verifyInsertLike(view.op, view.source.type as RankedTensorType, view.dest.type as RankedTensorType);
  },
  parse: parseInsertLike(true),
  print: printInsertLike,
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'inserted_slice');
  },
});

/**
 * `tensor.parallel_insert_slice`: publishes `source` into a slice of a shared output of the
 * enclosing parallel op; must sit in an op implementing ir-core's
 * `ParallelCombiningOpInterface` (`scf.forall.in_parallel`, `spat.in_parallel`).
 */
export const ParallelInsertSliceOp = defineOp({
  name: 'tensor.parallel_insert_slice',
  summary: 'Specify the tensor slice update of a single thread of a parent ParallelCombiningOpInterface op.',
  operands: {
    source: single(RankedTensor),
    dest: single(RankedTensor),
    offsets: variadic(Index),
    sizes: variadic(Index),
    strides: variadic(Index),
  },
  attributes: SLICE_ATTRS,
  interfaces: [implement(ParallelInsertionOpInterface, { getUpdatedDestinations: (op) => [op.getOperand(1)] })],
  verify(view) {
    const op = view.op;
    if (!hasParallelCombiningParent(op)) {
      op.emitError(`${M.parallelInsertParent} '${op.getParentOp()?.name ?? 'none'}'`);
      return false;
    }
    return verifyInsertLike(op, view.source.type as RankedTensorType, view.dest.type as RankedTensorType);
  },
  parse: parseInsertLike(false),
  print: printInsertLike,
});
