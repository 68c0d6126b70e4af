/**
 * memref element access ops: `load`, `store`, `prefetch`, `atomic_rmw`, `generic_atomic_rmw`,
 * `atomic_yield`, `copy`, `dma_start`, `dma_wait`.
 */
import {
  AnyType,
  areCompatibleShapes,
  Block,
  BoolAttr,
  defineOp,
  formatType,
  Index,
  IndexType,
  IntegerAttr,
  IntegerType,
  isBufferValue,
  isMemoryEffectFree,
  memoryEffects,
  MemoryEffects,
  MemRefType,
  optProp,
  prop,
  Region,
  single,
  sizedRegion,
  Traits,
  UnrankedMemRefType,
  variadic,
  type Attribute,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import {
  addAttributes,
  parseAttrDictInto,
  parseColonMemRef,
  parseOperandColonType,
  printAttrDict,
  printAttrDictColonType,
  printIndexed,
  printOperandColonType,
  resolveIndices,
} from '../asm';
import {
  AlignmentAttr,
  ATOMIC_RMW_KINDS,
  AtomicRMWKindAttr,
  AnyRankedMemRef,
  AnyRankedOrUnrankedMemRef,
  FLOAT_ATOMIC_KINDS,
  INT_ATOMIC_KINDS,
  isFloat,
  LocalityHintAttr,
  MemRefOfIntOrFloat,
  SignlessIntegerOrFloat,
} from '../constraints';
import { MemRefMessages as M } from '../diagnostics';

/** `memref.load`: reads one element. */
export const LoadOp = defineOp({
  name: 'memref.load',
  summary: 'load operation',
  operands: { memref: single(AnyRankedMemRef), indices: variadic(Index) },
  results: { result: single(AnyType) },
  interfaces: [memoryEffects((op) => [MemoryEffects.read(op.getOperand(0))])],
  attributes: { nontemporal: optProp(BoolAttr), alignment: optProp(AlignmentAttr), invariant: optProp(BoolAttr) },
  verify(op) {
    const t = op.memref.type as MemRefType;
    if (op.result.type !== t.elementType) {
      op.emitOpError(M.loadResultType);
      return false;
    }
    if (op.indices.length !== t.rank) {
      op.emitOpError(M.loadIndexCount(t.rank, op.indices.length));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const m = parser.parseOperand();
    if (!m) return false;
    const idx = parser.parseOperandList('square');
    if (!idx || !parseAttrDictInto(parser, state)) return false;
    const t = parseColonMemRef(parser);
    if (!t) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(m, t, vals) || !resolveIndices(parser, idx, vals)) return false;
    state.operands = vals;
    state.resultTypes = [t.elementType];
    return true;
  },
  print(op, p) {
    p.print(' ');
    printIndexed(p, op.getOperand(0), op.operands.slice(1));
    printAttrDictColonType(p, op, op.getOperand(0).type);
  },
});

/** `memref.store`: writes one element. */
export const StoreOp = defineOp({
  name: 'memref.store',
  summary: 'store operation',
  operands: { value: single(AnyType), memref: single(AnyRankedMemRef), indices: variadic(Index) },
  interfaces: [memoryEffects((op) => [MemoryEffects.write(op.getOperand(1))])],
  attributes: { nontemporal: optProp(BoolAttr), alignment: optProp(AlignmentAttr) },
  verify(op) {
    const t = op.memref.type as MemRefType;
    if (op.value.type !== t.elementType) {
      op.emitOpError(M.storeValueType);
      return false;
    }
    if (op.indices.length !== t.rank) {
      op.emitOpError(M.storeIndexCount);
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const v = parser.parseOperand();
    if (!v || !parser.parseComma()) return false;
    const m = parser.parseOperand();
    if (!m) return false;
    const idx = parser.parseOperandList('square');
    if (!idx || !parseAttrDictInto(parser, state)) return false;
    const t = parseColonMemRef(parser);
    if (!t) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(v, t.elementType, vals) || !parser.resolveOperand(m, t, vals) || !resolveIndices(parser, idx, vals)) return false;
    state.operands = vals;
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    p.print(', ');
    printIndexed(p, op.getOperand(1), op.operands.slice(2));
    printAttrDictColonType(p, op, op.getOperand(1).type);
  },
});

/** `memref.prefetch`: a cache hint for one element (read/write, locality 0-3, data/instr). */
export const PrefetchOp = defineOp({
  name: 'memref.prefetch',
  summary: 'prefetch operation',
  operands: { memref: single(AnyRankedMemRef), indices: variadic(Index) },
  attributes: { isWrite: prop(BoolAttr), localityHint: prop(LocalityHintAttr), isDataCache: prop(BoolAttr) },
  verify(op) {
    const t = op.memref.type as MemRefType;
    if (op.indices.length !== t.rank) {
      op.emitOpError(M.prefetchIndexCount);
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const m = parser.parseOperand();
    if (!m) return false;
    const idx = parser.parseOperandList('square');
    if (!idx || !parser.parseComma()) return false;
    const rw = parser.parseKeywordName();
    if (rw === undefined) return false;
    if (rw !== 'read' && rw !== 'write') {
      parser.emitError(M.expectedReadOrWrite, parser.getNameLocation());
      return false;
    }
    if (!parser.parseComma() || !parser.parseKeyword('locality') || !parser.parseLess()) return false;
    const hint = parser.parseInteger();
    if (hint === undefined || !parser.parseGreater() || !parser.parseComma()) return false;
    const cache = parser.parseKeywordName();
    if (cache === undefined) return false;
    if (cache !== 'data' && cache !== 'instr') {
      parser.emitError(M.expectedDataOrInstr, parser.getNameLocation());
      return false;
    }
    if (!parseAttrDictInto(parser, state)) return false;
    const t = parseColonMemRef(parser);
    if (!t) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(m, t, vals) || !resolveIndices(parser, idx, vals)) return false;
    state.operands = vals;
    const ctx = parser.context;
    const i1 = IntegerType.get(ctx, 1);
    addAttributes(
      state,
      [
        { name: 'isWrite', value: IntegerAttr.get(i1, rw === 'write' ? 1 : 0) },
        { name: 'localityHint', value: IntegerAttr.get(IntegerType.get(ctx, 32), hint) },
        { name: 'isDataCache', value: IntegerAttr.get(i1, cache === 'data' ? 1 : 0) },
      ],
      ['isWrite', 'localityHint', 'isDataCache'],
    );
    return true;
  },
  print(op, p) {
    p.print(' ');
    printIndexed(p, op.getOperand(0), op.operands.slice(1));
    const w = op.getAttr('isWrite');
    const h = op.getAttr('localityHint');
    const d = op.getAttr('isDataCache');
    p.print(`, ${w instanceof IntegerAttr && w.value !== 0n ? 'write' : 'read'}`);
    p.print(`, locality<${h instanceof IntegerAttr ? h.value : 0n}>`);
    p.print(`, ${d instanceof IntegerAttr && d.value !== 0n ? 'data' : 'instr'}`);
    printAttrDictColonType(p, op, op.getOperand(0).type, ['isWrite', 'localityHint', 'isDataCache']);
  },
});

/** The kind name of an `atomic_rmw` op (undefined when the attribute is invalid). */
export function atomicKindName(op: Operation): string | undefined {
  const k: Attribute | undefined = AtomicRMWOp.match(op)?.kind;
  if (!(k instanceof IntegerAttr)) return undefined;
  return ATOMIC_RMW_KINDS[Number(k.value)];
}

/** `memref.atomic_rmw`: atomic read-modify-write of one element with a predefined kind. */
export const AtomicRMWOp = defineOp({
  name: 'memref.atomic_rmw',
  summary: 'atomic read-modify-write operation',
  operands: { value: single(SignlessIntegerOrFloat), memref: single(MemRefOfIntOrFloat), indices: variadic(Index) },
  results: { result: single(SignlessIntegerOrFloat) },
  interfaces: [memoryEffects((op) => [MemoryEffects.read(op.getOperand(1)), MemoryEffects.write(op.getOperand(1))])],
  attributes: { kind: prop(AtomicRMWKindAttr) },
  verify(op) {
    const t = op.memref.type as MemRefType;
    if (op.value.type !== op.result.type) {
      op.emitOpError(M.atomicResultType);
      return false;
    }
    if (op.value.type !== t.elementType) {
      op.emitOpError(M.atomicValueType);
      return false;
    }
    if (op.indices.length !== t.rank) {
      op.emitOpError(M.atomicSubscripts);
      return false;
    }
    const kind = ATOMIC_RMW_KINDS[Number(op.kind.value)]!;
    if (FLOAT_ATOMIC_KINDS.has(kind) && !isFloat(op.value.type)) {
      op.emitOpError(M.atomicKindFloat(kind));
      return false;
    }
    if (INT_ATOMIC_KINDS.has(kind) && !(op.value.type instanceof IntegerType)) {
      op.emitOpError(M.atomicKindInt(kind));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const kLoc = parser.getCurrentLocation();
    const kind = parser.parseKeywordOrString();
    if (kind === undefined) return false;
    const k = ATOMIC_RMW_KINDS.indexOf(kind as (typeof ATOMIC_RMW_KINDS)[number]);
    if (k < 0) {
      parser.emitError(M.expectedAtomicKind(ATOMIC_RMW_KINDS), kLoc);
      return false;
    }
    const v = parser.parseOperand();
    if (!v || !parser.parseComma()) return false;
    const m = parser.parseOperand();
    if (!m) return false;
    const idx = parser.parseOperandList('square');
    if (!idx || !parseAttrDictInto(parser, state) || !parser.parseColon() || !parser.parseLParen()) return false;
    const vt = parser.parseType();
    if (!vt || !parser.parseComma()) return false;
    const mt = parser.parseType();
    if (!mt || !parser.parseRParen() || !parser.parseArrow()) return false;
    const rt = parser.parseType();
    if (!rt) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(v, vt, vals) || !parser.resolveOperand(m, mt, vals) || !resolveIndices(parser, idx, vals)) return false;
    state.operands = vals;
    state.resultTypes = [rt];
    addAttributes(state, [{ name: 'kind', value: IntegerAttr.get(IntegerType.get(parser.context, 64), k) }], ['kind']);
    return true;
  },
  print(op, p) {
    p.print(' ' + (atomicKindName(op) ?? '<<invalid>>') + ' ');
    p.printOperand(op.getOperand(0));
    p.print(', ');
    printIndexed(p, op.getOperand(1), op.operands.slice(2));
    printAttrDict(p, op, ['kind']);
    p.print(' : (');
    p.printType(op.getOperand(0).type);
    p.print(', ');
    p.printType(op.getOperand(1).type);
    p.print(') -> ');
    p.printType(op.getResult(0).type);
  },
});

/** `memref.atomic_yield`: yields the new value from a `generic_atomic_rmw` body. */
export const AtomicYieldOp = defineOp({
  name: 'memref.atomic_yield',
  summary: 'yield operation for GenericAtomicRMWOp',
  operands: { result: single(AnyType) },
  traits: [Traits.IsTerminator, Traits.Pure, Traits.ReturnLike, Traits.HasParent('memref.generic_atomic_rmw')],
  verify(op) {
    const parent = op.op.getParentOp()!;
    const want = parent.numResults ? parent.getResult(0).type : undefined;
    if (want && op.result.type !== want) {
      op.emitOpError(M.atomicYieldType(formatType(op.result.type), formatType(want)));
      return false;
    }
    return true;
  },
  parse: parseOperandColonType,
  print: printOperandColonType,
});

/** `memref.generic_atomic_rmw`: atomic read-modify-write with the update computed by a region. */
export const GenericAtomicRMWOp = defineOp({
  name: 'memref.generic_atomic_rmw',
  summary: 'atomic read-modify-write operation with a region',
  operands: { memref: single(MemRefOfIntOrFloat), indices: variadic(Index) },
  results: { result: single(SignlessIntegerOrFloat) },
  interfaces: [memoryEffects((op) => [MemoryEffects.read(op.getOperand(0)), MemoryEffects.write(op.getOperand(0))])],
  regions: { atomic_body: sizedRegion(1) },
  traits: [Traits.SingleBlockImplicitTerminator('memref.atomic_yield')],
  verify(op) {
    const t = op.memref.type as MemRefType;
    if (op.indices.length !== t.rank) {
      op.emitOpError(M.atomicSubscripts);
      return false;
    }
    const block = op.atomic_body.firstBlock!;
    if (block.numArguments !== 1) {
      op.emitOpError(M.genericAtomicArgs);
      return false;
    }
    if (block.getArgument(0).type !== op.result.type) {
      op.emitOpError(M.genericAtomicArgType);
      return false;
    }
    for (let o = block.firstOp; o; o = o.next) {
      if (o.hasTrait(Traits.IsTerminator)) continue;
      if (!isSideEffectFree(o)) {
        o.emitError(M.genericAtomicSideEffects);
        return false;
      }
    }
    return true;
  },
  parse(parser, state) {
    const m = parser.parseOperand();
    if (!m) return false;
    const idx = parser.parseOperandList('square');
    if (!idx) return false;
    const t = parseColonMemRef(parser);
    if (!t) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(m, t, vals) || !resolveIndices(parser, idx, vals)) return false;
    state.operands = vals;
    state.resultTypes = [t.elementType];
    const region = new Region();
    if (!parser.parseRegion(region)) return false;
    if (region.empty) region.push(new Block());
    state.regions = [region];
    return parseAttrDictInto(parser, state);
  },
  print(op, p) {
    p.print(' ');
    printIndexed(p, op.getOperand(0), op.operands.slice(1));
    p.print(' : ');
    p.printType(op.getOperand(0).type);
    p.print(' ');
    p.printRegion(op.regions[0]!, true, true);
    printAttrDict(p, op);
  },
});

/** Memory-effect-free per the op's traits, or a region op whose nested ops all are (RecursiveMemoryEffects). */
function isSideEffectFree(op: Operation): boolean {
  if (isMemoryEffectFree(op)) return true;
  // arith and math ops are effect-free (whether or not their dialect is registered here).
  if (op.name.startsWith('arith.') || op.name.startsWith('math.')) return true;
  if (!op.definition) return false;
  if (op.hasTrait(Traits.RecursiveMemoryEffects)) {
    for (const r of op.regions)
      for (let b = r.firstBlock; b; b = b.next) for (let o = b.firstOp; o; o = o.next) if (!isSideEffectFree(o)) return false;
    return true;
  }
  return false;
}

/** `memref.copy`: element-wise copy between two memrefs of the same shape and element type. */
export const CopyOp = defineOp({
  name: 'memref.copy',
  summary: 'copy',
  operands: { source: single(AnyRankedOrUnrankedMemRef), target: single(AnyRankedOrUnrankedMemRef) },
  interfaces: [memoryEffects((op) => [MemoryEffects.read(op.getOperand(0)), MemoryEffects.write(op.getOperand(1))])],
  verify(op) {
    const a = op.source.type as MemRefType | UnrankedMemRefType;
    const b = op.target.type as MemRefType | UnrankedMemRefType;
    if (a.elementType !== b.elementType) {
      op.emitOpError(M.copyElementType);
      return false;
    }
    if (!areCompatibleShapes(a, b)) {
      op.emitOpError(M.copyShape);
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const s = parser.parseOperand();
    if (!s || !parser.parseComma()) return false;
    const d = parser.parseOperand();
    if (!d || !parseAttrDictInto(parser, state)) return false;
    const st = parser.parseColonType();
    if (!st || !parser.parseKeyword('to')) return false;
    const dt = parser.parseType();
    if (!dt) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(s, st, vals) || !parser.resolveOperand(d, dt, vals)) return false;
    state.operands = vals;
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperands(op.operands);
    printAttrDictColonType(p, op, op.getOperand(0).type);
    p.print(' to ');
    p.printType(op.getOperand(1).type);
  },
});

/** The operand layout of a `memref.dma_start`, computed from its operand types. */
export interface DmaStartLayout {
  readonly srcRank: number;
  readonly dstMemRefIndex: number;
  readonly dstRank: number;
  readonly numElementsIndex: number;
  readonly tagMemRefIndex: number;
  readonly tagRank: number;
  /** Index of the stride operand, or -1 when there is none. */
  readonly strideIndex: number;
}

/** Decodes the operand groups of a `memref.dma_start` (undefined when malformed; diagnostic on `op` if `diagnose`). */
export function dmaStartLayout(op: Operation, diagnose = false): DmaStartLayout | undefined {
  const fail = (msg: string) => {
    if (diagnose) op.emitOpError(msg);
    return undefined;
  };
  const n = op.numOperands;
  if (n < 4) return fail(M.dmaTooFewOperands);
  const src = op.getOperand(0).type;
  if (!(src instanceof MemRefType)) return fail(M.dmaExpectSource);
  const srcRank = src.rank;
  if (n < srcRank + 4) return fail(M.dmaSourceIndices(srcRank));
  for (let i = 1; i <= srcRank; i++) if (!(op.getOperand(i).type instanceof IndexType)) return fail(M.dmaIndexType('source'));
  const dstMemRefIndex = srcRank + 1;
  const dst = op.getOperand(dstMemRefIndex).type;
  if (!(dst instanceof MemRefType)) return fail(M.dmaExpectDestination);
  const dstRank = dst.rank;
  if (n < dstMemRefIndex + dstRank + 3) return fail(M.dmaOperandCount(dstMemRefIndex + dstRank + 3));
  for (let i = dstMemRefIndex + 1; i <= dstMemRefIndex + dstRank; i++)
    if (!(op.getOperand(i).type instanceof IndexType)) return fail(M.dmaIndexType('destination'));
  const numElementsIndex = dstMemRefIndex + dstRank + 1;
  if (!(op.getOperand(numElementsIndex).type instanceof IndexType)) return fail(M.dmaNumElementsType);
  const tagMemRefIndex = numElementsIndex + 1;
  const tag = op.getOperand(tagMemRefIndex).type;
  if (!(tag instanceof MemRefType)) return fail(M.dmaExpectTag);
  const tagRank = tag.rank;
  const base = tagMemRefIndex + 1 + tagRank;
  if (n !== base && n !== base + 2) return fail(M.dmaOperandCount(base));
  for (let i = tagMemRefIndex + 1; i < base; i++) if (!(op.getOperand(i).type instanceof IndexType)) return fail(M.dmaIndexType('tag'));
  if (n === base + 2) {
    for (let i = base; i < n; i++) if (!(op.getOperand(i).type instanceof IndexType)) return fail(M.dmaStrideType);
  }
  return { srcRank, dstMemRefIndex, dstRank, numElementsIndex, tagMemRefIndex, tagRank, strideIndex: n === base + 2 ? base : -1 };
}

/** `memref.dma_start`: starts a (possibly strided) DMA transfer completed by `dma_wait` on a tag. */
export const DmaStartOp = defineOp({
  name: 'memref.dma_start',
  summary: 'non-blocking DMA operation that starts a transfer',
  operands: { operands: variadic(AnyType) },
  // Reads the source, writes the destination and the tag: every buffer operand is read and written.
  interfaces: [memoryEffects((op) => op.operands.filter(isBufferValue).flatMap((v) => [MemoryEffects.read(v), MemoryEffects.write(v)]))],
  verify(op) {
    const l = dmaStartLayout(op.op, true);
    if (!l) return false;
    // Stated by the spec ("need to have the same elemental type"); not verified by MLIR 22.
    const src = op.op.getOperand(0).type as MemRefType;
    const dst = op.op.getOperand(l.dstMemRefIndex).type as MemRefType;
    if (src.elementType !== dst.elementType) {
      op.emitOpError(M.dmaElementType(formatType(src.elementType), formatType(dst.elementType)));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const src = parser.parseOperand();
    if (!src) return false;
    const srcIdx = parser.parseOperandList('square');
    if (!srcIdx || !parser.parseComma()) return false;
    const dst = parser.parseOperand();
    if (!dst) return false;
    const dstIdx = parser.parseOperandList('square');
    if (!dstIdx || !parser.parseComma()) return false;
    const num = parser.parseOperand();
    if (!num || !parser.parseComma()) return false;
    const tag = parser.parseOperand();
    if (!tag) return false;
    const tagIdx = parser.parseOperandList('square');
    if (!tagIdx) return false;
    const strideInfo = [];
    if (parser.parseOptionalComma()) {
      const more = parser.parseOperandList('none');
      if (!more) return false;
      strideInfo.push(...more);
    }
    if (strideInfo.length !== 0 && strideInfo.length !== 2) {
      parser.emitError(M.dmaTwoStrideOperands, parser.getNameLocation());
      return false;
    }
    const types = parser.parseColonTypeList();
    if (!types) return false;
    if (types.length !== 3) {
      parser.emitError(M.dmaTypeCount, parser.getNameLocation());
      return false;
    }
    const vals: Value[] = [];
    const idx = IndexType.get(parser.context);
    if (
      !parser.resolveOperand(src, types[0]!, vals) ||
      !parser.resolveOperands(srcIdx, idx, vals) ||
      !parser.resolveOperand(dst, types[1]!, vals) ||
      !parser.resolveOperands(dstIdx, idx, vals) ||
      !parser.resolveOperand(num, idx, vals) ||
      !parser.resolveOperand(tag, types[2]!, vals) ||
      !parser.resolveOperands(tagIdx, idx, vals) ||
      !parser.resolveOperands(strideInfo, idx, vals)
    )
      return false;
    state.operands = vals;
    return parseAttrDictInto(parser, state);
  },
  print(op, p) {
    const l = dmaStartLayout(op);
    if (!l) {
      p.print('<<malformed>>');
      return;
    }
    const ops = op.operands;
    p.print(' ');
    printIndexed(p, ops[0]!, ops.slice(1, 1 + l.srcRank));
    p.print(', ');
    printIndexed(p, ops[l.dstMemRefIndex]!, ops.slice(l.dstMemRefIndex + 1, l.dstMemRefIndex + 1 + l.dstRank));
    p.print(', ');
    p.printOperand(ops[l.numElementsIndex]!);
    p.print(', ');
    printIndexed(p, ops[l.tagMemRefIndex]!, ops.slice(l.tagMemRefIndex + 1, l.tagMemRefIndex + 1 + l.tagRank));
    if (l.strideIndex >= 0) {
      p.print(', ');
      p.printOperands(ops.slice(l.strideIndex));
    }
    printAttrDict(p, op);
    p.print(' : ');
    p.printTypes([ops[0]!.type, ops[l.dstMemRefIndex]!.type, ops[l.tagMemRefIndex]!.type]);
  },
});

/** `memref.dma_wait`: blocks until the DMA associated with a tag element completes. */
export const DmaWaitOp = defineOp({
  name: 'memref.dma_wait',
  summary: 'blocking DMA operation that waits for transfer completion',
  operands: { tagMemRef: single(AnyRankedMemRef), tagIndices: variadic(Index), numElements: single(Index) },
  interfaces: [memoryEffects((op) => [MemoryEffects.read(op.getOperand(0)), MemoryEffects.write(op.getOperand(0))])],
  verify(op) {
    const rank = (op.tagMemRef.type as MemRefType).rank;
    if (op.tagIndices.length !== rank) {
      op.emitOpError(M.dmaWaitTagIndices(rank, op.tagIndices.length));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const tag = parser.parseOperand();
    if (!tag) return false;
    const idx = parser.parseOperandList('square');
    if (!idx || !parser.parseComma()) return false;
    const num = parser.parseOperand();
    if (!num || !parseAttrDictInto(parser, state)) return false;
    const t = parser.parseColonType();
    if (!t) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(tag, t, vals) || !resolveIndices(parser, idx, vals) || !resolveIndices(parser, [num], vals)) return false;
    state.operands = vals;
    return true;
  },
  print(op, p) {
    p.print(' ');
    printIndexed(p, op.getOperand(0), op.operands.slice(1, op.numOperands - 1));
    p.print(', ');
    p.printOperand(op.getOperand(op.numOperands - 1));
    printAttrDictColonType(p, op, op.getOperand(0).type);
  },
});

