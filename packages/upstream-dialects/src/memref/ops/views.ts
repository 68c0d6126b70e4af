/**
 * memref view and cast ops: `cast`, `memory_space_cast`, `subview`, `reinterpret_cast`,
 * `view`, `reshape`, `collapse_shape`, `expand_shape`, `transpose`.
 */
import {
  AffineDimExpr,
  AffineMap,
  AffineMapAttr,
  AffineMapAttrConstraint,
  ArrayAttr,
  attrConstraint,
  DenseI64ArrayAttr,
  defineOp,
  formatType,
  getAffineDimExpr,
  Index,
  IntegerAttr,
  MemRefType,
  prop,
  single,
  Traits,
  UnrankedMemRefType,
  variadic,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type OperationState,
  type Value,
} from '@raptor-pim/ir-core';
import type { Type } from '@raptor-pim/ir-core';
import {
  addAttributes,
  parseAttrDictInto,
  parseColonMemRef,
  parseCastLike,
  parseMemRefType,
  printAttrDict,
  printCastLike,
  printSourceToResultTypes,
  readReassociation,
  readStaticArray,
  resolveIndices,
} from '../asm';
import {
  AnyRankedMemRef,
  AnyRankedOrUnrankedMemRef,
  AnyStridedMemRef,
  MemRef1DI8,
  MemRef1DIntOrIndex,
} from '../constraints';
import { MemRefMessages as M } from '../diagnostics';
import {
  areCastCompatible,
  areMemorySpaceCastCompatible,
  computeCollapsedType,
  computeExpandedType,
  getStridesAndOffset,
  haveSameStridedForm,
  inferSubViewResultType,
  inferTransposeResultType,
  isDyn,
  isIdentityLayout,
  isPermutation,
  isRankReducedType,
} from '../layout';
import {
  finishOffsetSizeStride,
  offsetSizeStrideCounts,
  parseOffsetSizeStride,
  printOffsetSizeStride,
  readOffsetSizeStride,
  verifyOffsetSizeStride,
  type MixedOffsetSizeStride,
  type OffsetSizeStrideSyntax,
} from '../../offset-size-stride';
import { parseReshape, printReshape } from '../../reshape-syntax';
import { numDynamicDims } from './allocation';

// ------------------------------------------------------------------ casts

/**
 * The two memref casts: `%source : type to type`, pure, verified by `areCompatible` (the same
 * incompatibility message for both), result named `resultName`.
 */
function memrefCastOp(name: string, summary: string, areCompatible: (from: Type, to: Type) => boolean, resultName: string) {
  return defineOp({
    name,
    summary,
    operands: { source: single(AnyRankedOrUnrankedMemRef) },
    results: { dest: single(AnyRankedOrUnrankedMemRef) },
    traits: [Traits.Pure],
    verify(op) {
      if (!areCompatible(op.source.type, op.dest.type)) {
        op.emitOpError(M.castIncompatible(formatType(op.source.type), formatType(op.dest.type)));
        return false;
      }
      return true;
    },
    parse: parseCastLike,
    print: printCastLike,
    getAsmResultNames(op, setName) {
      setName(op.getResult(0), resultName);
    },
  });
}

/** `memref.cast`: converts between compatible memref types (static <-> dynamic, ranked <-> unranked). */
export const CastOp = memrefCastOp('memref.cast', 'memref cast operation', areCastCompatible, 'cast');

/** `memref.memory_space_cast`: the same memref seen in another memory space. */
export const MemorySpaceCastOp = memrefCastOp(
  'memref.memory_space_cast',
  'memref memory space cast operation',
  areMemorySpaceCastCompatible,
  'memspacecast',
);

// ------------------------------------------------------------------ offsets / sizes / strides

type MixedLists = MixedOffsetSizeStride;

const segmentLengths = (op: Operation) => offsetSizeStrideCounts(op, 1);

const SLICE_REASON: Record<string, string> = {
  'rank-too-large': '',
  'size-mismatch': 'mismatch of result sizes',
  'elem-type-mismatch': '',
  'mem-space-mismatch': 'mismatch of result memory space',
  'layout-mismatch': 'mismatch of result layout',
};

/**
 * The static in-bounds check of a slice (MLIR's `verifyInBoundsSlice`): returns the message of
 * the first violation or undefined.
 */
export function checkSliceInBounds(shape: readonly number[], lists: MixedLists): string | undefined {
  for (let i = 0; i < shape.length; i++) {
    const dim = shape[i]!;
    const off = lists.offsets[i]!;
    if (isDyn(dim) || isDyn(off)) continue;
    const size = lists.sizes[i]!;
    const stride = lists.strides[i]!;
    if (isDyn(size) || isDyn(stride)) {
      if (off >= dim) return M.sliceOffsetOutOfBounds(i, off, dim);
      continue;
    }
    if (size === 0) {
      if (off > dim) return M.sliceOffsetOutOfBounds(i, off, dim, '>');
      continue;
    }
    if (off >= dim) return M.sliceOffsetOutOfBounds(i, off, dim);
    const last = off + (size - 1) * stride;
    if (last >= dim || last < 0) return M.subviewOutOfBounds(i, last, dim);
  }
  return undefined;
}

/**
 * Parses the source, the offset/size/stride lists, `{attrs} : source-type to result-type` of
 * `memref.subview` (`plain` lists) and `memref.reinterpret_cast` (`to offset: ..., sizes: ...,
 * strides: ...`; its source may be unranked).
 */
function parseViewLike(parser: OpAsmParser, state: OperationState, syntax: OffsetSizeStrideSyntax): boolean {
  const src = parser.parseOperand();
  if (!src || (syntax === 'labelled' && !parser.parseKeyword('to'))) return false;
  const lists = parseOffsetSizeStride(parser, syntax);
  if (!lists || !parseAttrDictInto(parser, state)) return false;
  const st = syntax === 'plain' ? parseColonMemRef(parser) : parser.parseColonType();
  if (!st || !parser.parseKeyword('to')) return false;
  const dt = parser.parseType();
  if (!dt) return false;
  const vals: Value[] = [];
  if (!parser.resolveOperand(src, st, vals)) return false;
  state.resultTypes = [dt];
  return finishOffsetSizeStride(parser, state, vals, lists);
}

/** `memref.subview`: a strided view of a slice of a memref (optionally rank-reducing). */
export const SubViewOp = defineOp({
  name: 'memref.subview',
  summary: 'memref subview operation',
  operands: { source: single(AnyRankedMemRef), offsets: variadic(Index), sizes: variadic(Index), strides: variadic(Index) },
  results: { result: single(AnyRankedMemRef) },
  attributes: { static_offsets: prop(DenseI64ArrayAttr), static_sizes: prop(DenseI64ArrayAttr), static_strides: prop(DenseI64ArrayAttr) },
  traits: [Traits.Pure],
  verify(view) {
    const op = view.op;
    const lists = readOffsetSizeStride(op);
    if (!verifyOffsetSizeStride(op, lists, segmentLengths(op), {})) return false;
    const base = view.source.type as MemRefType;
    const sub = view.result.type as MemRefType;
    if (lists.offsets.length !== base.rank) {
      op.emitError(M.rankedEntryCount(base.rank, 'offset', lists.offsets.length));
      return false;
    }
    if (base.memorySpace !== sub.memorySpace) {
      op.emitError(M.subviewMemorySpace(formatType(base), formatType(sub)));
      return false;
    }
    const expected = inferSubViewResultType(base, lists);
    if (!expected) {
      op.emitError(M.subviewNotStrided(formatType(base)));
      return false;
    }
    const r = isRankReducedType(expected, sub);
    if (r !== 'success') {
      if (r === 'rank-too-large') op.emitError(M.subviewResultRank(formatType(sub)));
      else if (r === 'elem-type-mismatch') op.emitError(M.subviewResultElement(formatType(expected.elementType), formatType(sub)));
      else op.emitError(M.subviewMismatch(formatType(expected), SLICE_REASON[r]!, formatType(sub)));
      return false;
    }
    const bounds = checkSliceInBounds(base.shape, lists);
    if (bounds) {
      op.emitError(bounds);
      return false;
    }
    return true;
  },
  parse(parser, state) {
    return parseViewLike(parser, state, 'plain');
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    printOffsetSizeStride(p, op, 1);
    printSourceToResultTypes(p, op);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'subview');
  },
});

const dynOrStatic = (v: number) => (isDyn(v) ? 'dynamic' : String(v));

/** `memref.reinterpret_cast`: a new descriptor (offset, sizes, strides) over the source's buffer. */
export const ReinterpretCastOp = defineOp({
  name: 'memref.reinterpret_cast',
  summary: 'memref reinterpret cast operation',
  operands: {
    source: single(AnyRankedOrUnrankedMemRef),
    offsets: variadic(Index),
    sizes: variadic(Index),
    strides: variadic(Index),
  },
  results: { result: single(AnyStridedMemRef) },
  attributes: { static_offsets: prop(DenseI64ArrayAttr), static_sizes: prop(DenseI64ArrayAttr), static_strides: prop(DenseI64ArrayAttr) },
  traits: [Traits.Pure],
  verify(view) {
    const op = view.op;
    const lists = readOffsetSizeStride(op);
    if (!verifyOffsetSizeStride(op, lists, segmentLengths(op), { singleOffset: true })) return false;
    const src = view.source.type as MemRefType | UnrankedMemRefType;
    const dst = view.result.type as MemRefType;
    if (src.memorySpace !== dst.memorySpace) {
      op.emitError(M.reinterpretMemorySpace(formatType(src), formatType(dst)));
      return false;
    }
    if (src.elementType !== dst.elementType) {
      op.emitError(M.reinterpretElementType(formatType(src), formatType(dst)));
      return false;
    }
    if (lists.sizes.length !== dst.rank) {
      op.emitError(M.reinterpretResultRank(dst.rank, lists.sizes.length));
      return false;
    }
    for (let i = 0; i < dst.rank; i++) {
      const r = dst.shape[i]!;
      if (!isDyn(r) && r !== lists.sizes[i]) {
        op.emitError(M.reinterpretSize(dynOrStatic(lists.sizes[i]!), r, i));
        return false;
      }
    }
    const so = getStridesAndOffset(dst);
    if (!so) {
      op.emitError(M.reinterpretNotStrided(formatType(dst)));
      return false;
    }
    const off = lists.offsets[0]!;
    if (!isDyn(so.offset) && so.offset !== off) {
      op.emitError(M.reinterpretOffset(dynOrStatic(off), dynOrStatic(so.offset)));
      return false;
    }
    for (let i = 0; i < so.strides.length; i++) {
      const s = so.strides[i]!;
      if (!isDyn(s) && s !== lists.strides[i]) {
        op.emitError(M.reinterpretStride(dynOrStatic(lists.strides[i]!), dynOrStatic(s), i));
        return false;
      }
    }
    return true;
  },
  parse(parser, state) {
    return parseViewLike(parser, state, 'labelled');
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    p.print(' to ');
    printOffsetSizeStride(p, op, 1, 'labelled');
    printSourceToResultTypes(p, op);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'reinterpret_cast');
  },
});

/** `memref.view`: an N-D contiguous view of a 1-D i8 buffer at a byte shift (may change the element type). */
export const ViewOp = defineOp({
  name: 'memref.view',
  summary: 'memref view operation',
  operands: { source: single(MemRef1DI8), byte_shift: single(Index), sizes: variadic(Index) },
  results: { result: single(AnyRankedMemRef) },
  traits: [Traits.Pure],
  verify(view) {
    const op = view.op;
    const base = view.source.type as MemRefType;
    const res = view.result.type as MemRefType;
    if (!isIdentityLayout(base.layout)) {
      op.emitError(M.viewBaseMap(formatType(base)));
      return false;
    }
    if (!isIdentityLayout(res.layout)) {
      op.emitError(M.viewResultMap(formatType(res)));
      return false;
    }
    if (base.memorySpace !== res.memorySpace) {
      op.emitError(M.viewMemorySpace(formatType(base), formatType(res)));
      return false;
    }
    const nDyn = numDynamicDims(res);
    if (view.sizes.length !== nDyn) {
      op.emitOpError(M.dynamicSizeCount(view.sizes.length, nDyn));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const src = parser.parseOperand();
    if (!src || !parser.parseLSquare()) return false;
    const shift = parser.parseOperand();
    if (!shift || !parser.parseRSquare()) return false;
    const sizes = parser.parseOperandList('square');
    if (!sizes || !parseAttrDictInto(parser, state)) return false;
    const st = parser.parseColonType();
    if (!st || !parser.parseKeyword('to')) return false;
    const dt = parser.parseType();
    if (!dt) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(src, st, vals) || !resolveIndices(parser, [shift], vals) || !resolveIndices(parser, sizes, vals)) return false;
    state.operands = vals;
    state.resultTypes = [dt];
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    p.print('[');
    p.printOperand(op.getOperand(1));
    p.print('][');
    p.printOperands(op.operands.slice(2));
    p.print(']');
    printAttrDict(p, op);
    printSourceToResultTypes(p, op);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'view');
  },
});

/** `memref.reshape`: reinterprets an identity-layout memref with a runtime shape. */
export const ReshapeOp = defineOp({
  name: 'memref.reshape',
  summary: 'memref reshape operation',
  operands: { source: single(AnyRankedOrUnrankedMemRef), shape: single(MemRef1DIntOrIndex) },
  results: { result: single(AnyRankedOrUnrankedMemRef) },
  traits: [Traits.Pure],
  verify(op) {
    const src = op.source.type as MemRefType | UnrankedMemRefType;
    const dst = op.result.type as MemRefType | UnrankedMemRefType;
    if (src.elementType !== dst.elementType) {
      op.emitOpError(M.reshapeElementType);
      return false;
    }
    if (src instanceof MemRefType && !isIdentityLayout(src.layout)) {
      op.emitOpError(M.reshapeSourceIdentity);
      return false;
    }
    // Stated by the spec ("same number of elements, address space"); not verified by MLIR 22.
    if (src.memorySpace !== dst.memorySpace) {
      op.emitOpError(M.reshapeMemorySpace);
      return false;
    }
    if (src instanceof MemRefType && dst instanceof MemRefType) {
      const a = src.shape.every((d) => !isDyn(d)) ? src.shape.reduce((x, y) => x * y, 1) : undefined;
      const b = dst.shape.every((d) => !isDyn(d)) ? dst.shape.reduce((x, y) => x * y, 1) : undefined;
      if (a !== undefined && b !== undefined && a !== b) {
        op.emitOpError(M.reshapeElementCount(a, b));
        return false;
      }
    }
    const shapeSize = (op.shape.type as MemRefType).shape[0]!;
    if (dst instanceof MemRefType) {
      if (!isIdentityLayout(dst.layout)) {
        op.emitOpError(M.reshapeResultIdentity);
        return false;
      }
      if (isDyn(shapeSize)) {
        op.emitOpError(M.reshapeDynamicShape);
        return false;
      }
      if (shapeSize !== dst.rank) {
        op.emitOpError(M.reshapeShapeLength);
        return false;
      }
    }
    return true;
  },
  parse(parser, state) {
    const src = parser.parseOperand();
    if (!src || !parser.parseLParen()) return false;
    const shape = parser.parseOperand();
    if (!shape || !parser.parseRParen() || !parseAttrDictInto(parser, state) || !parser.parseColon()) return false;
    const ft = parser.parseFunctionType();
    if (!ft) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperands([src, shape], ft.inputs, vals, parser.getNameLocation())) return false;
    state.operands = vals;
    state.resultTypes = [...ft.results];
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    p.print('(');
    p.printOperand(op.getOperand(1));
    p.print(')');
    printAttrDict(p, op);
    p.print(' : ');
    p.printFunctionalTypeOf(op);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'reshape');
  },
});

// ------------------------------------------------------------------ collapse / expand

/** `Array of 64-bit integer array attributes`. */
export const ReassociationAttr = attrConstraint(
  'Array of 64-bit integer array attributes',
  (a): a is ArrayAttr =>
    a instanceof ArrayAttr && a.elements.every((g) => g instanceof ArrayAttr && g.elements.every((e) => e instanceof IntegerAttr)),
);

/**
 * MLIR's `verifyCollapsedShape`: group count, contiguity, bounds, dynamic-iff-dynamic and
 * static group products; rank-0 collapsed shapes need all-ones expanded shapes.
 */
function verifyCollapsedShape(
  op: Operation,
  collapsed: readonly number[],
  expanded: readonly number[],
  reassoc: readonly (readonly number[])[],
): boolean {
  if (collapsed.length !== reassoc.length) {
    op.emitOpError(M.reassocGroupCount(reassoc.length, collapsed.length));
    return false;
  }
  let next = 0;
  for (let g = 0; g < reassoc.length; g++) {
    let foundDynamic = false;
    for (const d of reassoc[g]!) {
      if (d !== next++) {
        op.emitOpError(M.reassocContiguous);
        return false;
      }
      if (d >= expanded.length) {
        op.emitOpError(M.reassocOutOfBounds(d));
        return false;
      }
      if (isDyn(expanded[d]!)) foundDynamic = true;
    }
    if (isDyn(collapsed[g]!) !== foundDynamic) {
      op.emitOpError(M.collapsedDimDynamic(g));
      return false;
    }
    if (!foundDynamic) {
      let size = 1;
      for (const d of reassoc[g]!) size *= expanded[d]!;
      if (size !== collapsed[g]) {
        op.emitOpError(M.collapsedDimSize(collapsed[g]!, size));
        return false;
      }
    }
  }
  if (collapsed.length === 0) {
    if (expanded.some((d) => d !== 1)) {
      op.emitOpError(M.rank0Ones);
      return false;
    }
  } else if (next !== expanded.length) {
    op.emitOpError(M.expandedRankInconsistent(expanded.length, next));
    return false;
  }
  return true;
}

/** `memref.collapse_shape`: merges groups of contiguous dimensions into one. */
export const CollapseShapeOp = defineOp({
  name: 'memref.collapse_shape',
  summary: 'operation to produce a memref with a smaller rank.',
  operands: { src: single(AnyStridedMemRef) },
  results: { result: single(AnyStridedMemRef) },
  attributes: { reassociation: prop(ReassociationAttr) },
  traits: [Traits.Pure],
  verify(view) {
    const op = view.op;
    const src = view.src.type as MemRefType;
    const res = view.result.type as MemRefType;
    if (src.rank < res.rank) {
      op.emitOpError(M.notCollapse(src.rank, res.rank));
      return false;
    }
    const reassoc = readReassociation(view.reassociation)!;
    if (!verifyCollapsedShape(op, res.shape, src.shape, reassoc)) return false;
    const expected = computeCollapsedType(src, res.shape, reassoc);
    if (!expected) {
      op.emitOpError(M.collapseNonContiguous);
      return false;
    }
    if (expected !== res) {
      op.emitOpError(M.collapsedType(formatType(expected), formatType(res)));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    return parseReshape(parser, state, { expand: false, parseType: (p) => p.parseType() });
  },
  print(op, p) {
    printReshape(op, p);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'collapse_shape');
  },
});

/** `memref.expand_shape`: splits dimensions into groups of contiguous dimensions. */
export const ExpandShapeOp = defineOp({
  name: 'memref.expand_shape',
  summary: 'operation to produce a memref with a higher rank.',
  operands: { src: single(AnyStridedMemRef), output_shape: variadic(Index) },
  results: { result: single(AnyStridedMemRef) },
  attributes: { reassociation: prop(ReassociationAttr), static_output_shape: prop(DenseI64ArrayAttr) },
  traits: [Traits.Pure],
  verify(view) {
    const op = view.op;
    const src = view.src.type as MemRefType;
    const res = view.result.type as MemRefType;
    if (src.rank > res.rank) {
      op.emitOpError(M.notExpansion(src.rank, res.rank));
      return false;
    }
    const reassoc = readReassociation(view.reassociation)!;
    if (!verifyCollapsedShape(op, src.shape, res.shape, reassoc)) return false;
    const expected = computeExpandedType(src, res.shape, reassoc);
    if (!expected) {
      op.emitOpError(M.expandInvalidLayout);
      return false;
    }
    if (expected !== res) {
      op.emitOpError(M.expandedType(formatType(expected), formatType(res)));
      return false;
    }
    const statics = readStaticArray(view.static_output_shape);
    if (statics.length !== res.rank) {
      op.emitOpError(M.expandStaticCount(res.rank, statics.length));
      return false;
    }
    const dyn = statics.filter(isDyn).length;
    if (view.output_shape.length !== dyn) {
      op.emitOpError(M.expandDynamicCount(dyn, view.output_shape.length));
      return false;
    }
    for (let i = 0; i < res.rank; i++) {
      if (!isDyn(res.shape[i]!) && res.shape[i] !== statics[i]) {
        op.emitOpError(M.expandOutputShape(i));
        return false;
      }
    }
    return true;
  },
  parse(parser, state) {
    return parseReshape(parser, state, { expand: true, parseType: (p) => p.parseType() });
  },
  print(op, p) {
    printReshape(op, p);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'expand_shape');
  },
});

// ------------------------------------------------------------------ transpose

/**
 * Parses a bare permutation map `(i, j) -> (j, i)`. ir-core's OpAsmParser has no
 * `parseAffineMap`, so only maps whose results are dimension identifiers are accepted here
 * (which is every valid `memref.transpose` permutation).
 */
function parsePermutationMap(parser: OpAsmParser): AffineMap | undefined {
  const dims: string[] = [];
  if (
    !parser.parseCommaSeparatedList('paren', () => {
      const n = parser.parseKeywordName();
      if (n === undefined) return false;
      dims.push(n);
      return true;
    }) ||
    !parser.parseArrow()
  )
    return undefined;
  const results: AffineDimExpr[] = [];
  const ok = parser.parseCommaSeparatedList('paren', () => {
    const loc = parser.getCurrentLocation();
    const n = parser.parseKeywordName();
    if (n === undefined) return false;
    const i = dims.indexOf(n);
    if (i < 0) {
      parser.emitError(M.transposeUndeclaredDim(n), loc);
      return false;
    }
    results.push(getAffineDimExpr(parser.context, i));
    return true;
  });
  if (!ok) return undefined;
  return AffineMap.get(parser.context, dims.length, 0, results);
}

function printBareMap(p: OpAsmPrinter, map: AffineMap): void {
  const dims = Array.from({ length: map.numDims }, (_, i) => `d${i}`);
  const res = map.results.map((r) => (r instanceof AffineDimExpr ? `d${r.position}` : '?'));
  p.print(`(${dims.join(', ')}) -> (${res.join(', ')})`);
}

/** `memref.transpose`: permutes sizes and strides (metadata only). */
export const TransposeOp = defineOp({
  name: 'memref.transpose',
  summary: 'transpose produces a new strided memref (metadata-only)',
  operands: { in: single(AnyStridedMemRef) },
  results: { result: single(AnyStridedMemRef) },
  attributes: { permutation: prop(AffineMapAttrConstraint) },
  traits: [Traits.Pure],
  verify(view) {
    const map = (view.permutation as AffineMapAttr).value;
    if (!isPermutation(map)) {
      view.emitOpError(M.transposeNotPermutation);
      return false;
    }
    const src = view.in.type as MemRefType;
    if (map.numDims !== src.rank) {
      view.emitOpError(M.transposeRank);
      return false;
    }
    const res = view.result.type as MemRefType;
    const expected = inferTransposeResultType(src, map)!;
    if (!haveSameStridedForm(expected, res)) {
      view.emitOpError(M.transposeResult(formatType(res), formatType(expected)));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const src = parser.parseOperand();
    if (!src) return false;
    const map = parsePermutationMap(parser);
    if (!map || !parseAttrDictInto(parser, state)) return false;
    const st = parseColonMemRef(parser);
    if (!st || !parser.parseKeyword('to')) return false;
    const dt = parseMemRefType(parser);
    if (!dt) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(src, st, vals)) return false;
    state.operands = vals;
    state.resultTypes = [dt];
    addAttributes(state, [{ name: 'permutation', value: AffineMapAttr.get(map) }], ['permutation']);
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    p.print(' ');
    const m = op.getAttr('permutation');
    if (m instanceof AffineMapAttr) printBareMap(p, m.value);
    printAttrDict(p, op, ['permutation']);
    printSourceToResultTypes(p, op);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'transpose');
  },
});

