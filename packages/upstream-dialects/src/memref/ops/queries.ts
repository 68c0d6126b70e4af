/**
 * memref metadata ops: `dim`, `rank`, `extract_aligned_pointer_as_index`,
 * `extract_strided_metadata`, `assume_alignment`, `distinct_objects`.
 */
import {
  defineOp,
  formatType,
  Index,
  IndexType,
  IntegerAttr,
  IntegerType,
  MemRefType,
  prop,
  single,
  Traits,
  variadic,
  type Operation,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import type { OpAsmParser, OpAsmPrinter, OperationState } from '@raptor-pim/ir-core';
import { addAttributes, parseAttrDictInto, parseDimLike, parseOperandColonType, printAttrDict, printAttrDictColonType, printDimLike, printOperandColonType } from '../asm';
import {
  AnyNon0RankedOrUnrankedMemRef,
  AnyRankedMemRef,
  AnyRankedOrUnrankedMemRef,
  AnyStridedMemRef,
  AnyStridedMemRefOfRank0,
  PositiveI32Attr,
} from '../constraints';
import { MemRefMessages as M } from '../diagnostics';

/** `memref.dim`: the size of one dimension. */
export const DimOp = defineOp({
  name: 'memref.dim',
  summary: 'dimension index operation',
  operands: { source: single(AnyNon0RankedOrUnrankedMemRef), index: single(Index) },
  results: { result: single(Index) },
  traits: [Traits.NoMemoryEffect],
  parse: parseDimLike,
  print: printDimLike,
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'dim');
  },
});

/** `memref.rank`: the rank of a (possibly unranked) memref. */
export const RankOp = defineOp({
  name: 'memref.rank',
  summary: 'rank operation',
  operands: { memref: single(AnyRankedOrUnrankedMemRef) },
  results: { result: single(Index) },
  traits: [Traits.Pure],
  parse(parser, state) {
    if (!parseOperandColonType(parser, state)) return false;
    state.resultTypes = [IndexType.get(parser.context)];
    return true;
  },
  print: printOperandColonType,
});

/** Parses `%source : source-type -> result-types {attrs}` (the pointer and metadata extractions). */
function parseSourceArrowResults(parser: OpAsmParser, state: OperationState): boolean {
  const s = parser.parseOperand();
  if (!s) return false;
  const t = parser.parseColonType();
  if (!t || !parser.parseArrow()) return false;
  const r = parser.parseTypeList();
  if (!r) return false;
  const vals: Value[] = [];
  if (!parser.resolveOperand(s, t, vals)) return false;
  state.operands = vals;
  state.resultTypes = r;
  return parseAttrDictInto(parser, state);
}

/** Prints the form of {@link parseSourceArrowResults}. */
function printSourceArrowResults(op: Operation, p: OpAsmPrinter): void {
  p.print(' ');
  p.printOperand(op.getOperand(0));
  p.print(' : ');
  p.printType(op.getOperand(0).type);
  p.print(' -> ');
  p.printTypes(op.resultTypes);
  printAttrDict(p, op);
}

/** `memref.extract_aligned_pointer_as_index`: the aligned base pointer as an index. */
export const ExtractAlignedPointerAsIndexOp = defineOp({
  name: 'memref.extract_aligned_pointer_as_index',
  summary: "Extracts a memref's underlying aligned pointer as an index",
  operands: { source: single(AnyRankedOrUnrankedMemRef) },
  results: { aligned_pointer: single(Index) },
  traits: [Traits.Pure],
  parse: parseSourceArrowResults,
  print: printSourceArrowResults,
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'intptr');
  },
});

/** The result types `extract_strided_metadata` infers for `source`. */
export function inferStridedMetadataTypes(source: MemRefType): Type[] {
  const ctx = source.context;
  const idx = IndexType.get(ctx);
  const base = MemRefType.get(ctx, [], source.elementType, undefined, source.memorySpace);
  return [base, idx, ...source.shape.map(() => idx), ...source.shape.map(() => idx)];
}

/** `memref.extract_strided_metadata`: base buffer, offset, sizes and strides of a strided memref. */
export const ExtractStridedMetadataOp = defineOp({
  name: 'memref.extract_strided_metadata',
  summary: 'Extracts a buffer base with offset and strides',
  operands: { source: single(AnyStridedMemRef) },
  // MLIR declares `sizes` and `strides` as two variadic groups of equal length
  // (SameVariadicResultSize); ir-core has no such trait, so they form one group here and
  // {@link stridedMetadataSizes}/{@link stridedMetadataStrides} split it.
  results: { base_buffer: single(AnyStridedMemRefOfRank0), offset: single(Index), sizesAndStrides: variadic(Index) },
  traits: [Traits.Pure],
  verify(view) {
    const op = view.op;
    const inferred = inferStridedMetadataTypes(view.source.type as MemRefType);
    const actual = op.resultTypes;
    if (inferred.length !== actual.length || inferred.some((t, i) => t !== actual[i])) {
      op.emitOpError(M.extractMetadataInferred(inferred.map(formatType), actual.map(formatType)));
      op.emitOpError(M.inferFailed);
      return false;
    }
    return true;
  },
  parse: parseSourceArrowResults,
  print: printSourceArrowResults,
  getAsmResultNames(op, setName) {
    const rank = op.getOperand(0).type instanceof MemRefType ? (op.getOperand(0).type as MemRefType).rank : 0;
    setName(op.getResult(0), 'base_buffer');
    setName(op.getResult(1), 'offset');
    if (rank > 0 && op.numResults === 2 + 2 * rank) {
      setName(op.getResult(2), 'sizes');
      setName(op.getResult(2 + rank), 'strides');
    }
  },
});

/** `memref.assume_alignment`: the same memref, assumed aligned to a power-of-two byte boundary. */
export const AssumeAlignmentOp = defineOp({
  name: 'memref.assume_alignment',
  summary: 'assumption that gives alignment information to the input memref',
  operands: { memref: single(AnyRankedMemRef) },
  results: { result: single(AnyRankedMemRef) },
  attributes: { alignment: prop(PositiveI32Attr) },
  traits: [Traits.Pure],
  verify(op) {
    // SameOperandsAndResultType (a trait in MLIR, so checked before the alignment).
    if (op.result.type !== op.memref.type) {
      op.emitOpError(M.sameOperandsAndResultType);
      return false;
    }
    const a = op.alignment.value;
    if ((a & (a - 1n)) !== 0n) {
      op.emitOpError(M.assumeAlignmentPowerOf2);
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const m = parser.parseOperand();
    if (!m || !parser.parseComma()) return false;
    const a = parser.parseInteger();
    if (a === undefined || !parseAttrDictInto(parser, state)) return false;
    const t = parser.parseColonType();
    if (!t) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(m, t, vals)) return false;
    state.operands = vals;
    state.resultTypes = [t];
    addAttributes(state, [{ name: 'alignment', value: IntegerAttr.get(IntegerType.get(parser.context, 32), a) }], ['alignment']);
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    const a = op.getAttr('alignment');
    p.print(`, ${a instanceof IntegerAttr ? a.value : 0n}`);
    printAttrDictColonType(p, op, op.getOperand(0).type, ['alignment']);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'assume_align');
  },
});

/** `memref.distinct_objects`: the same memrefs, assumed not to alias each other. */
export const DistinctObjectsOp = defineOp({
  name: 'memref.distinct_objects',
  summary: 'assumption that acesses to specific memrefs will never alias',
  operands: { operands: variadic(AnyRankedMemRef) },
  results: { results: variadic(AnyRankedMemRef) },
  traits: [Traits.Pure],
  verify(view) {
    const op = view.op;
    if (op.numOperands !== op.numResults || op.operands.some((v, i) => v.type !== op.getResult(i).type)) {
      op.emitOpError(M.distinctObjectsTypes);
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const ops = parser.parseOperandList('none');
    if (!ops || !parseAttrDictInto(parser, state)) return false;
    const types = parser.parseColonTypeList();
    if (!types) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperands(ops, types, vals, parser.getNameLocation())) return false;
    state.operands = vals;
    state.resultTypes = types;
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperands(op.operands);
    printAttrDict(p, op);
    p.print(' : ');
    p.printTypes(op.operands.map((v) => v.type));
  },
});

/** The `sizes` results of a `memref.extract_strided_metadata`. */
export function stridedMetadataSizes(op: Operation): Value[] {
  const rank = (op.numResults - 2) / 2;
  return op.results.slice(2, 2 + rank);
}
/** The `strides` results of a `memref.extract_strided_metadata`. */
export function stridedMetadataStrides(op: Operation): Value[] {
  const rank = (op.numResults - 2) / 2;
  return op.results.slice(2 + rank);
}
