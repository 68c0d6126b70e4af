/**
 * memref allocation ops: `alloc`, `alloca`, `alloca_scope`, `alloca_scope.return`, `dealloc`,
 * `realloc`.
 */
import {
  AffineMapAttr,
  AnyType,
  AutomaticAllocationScopeResource,
  Block,
  DefaultResource,
  defineOp,
  formatType,
  Index,
  memoryEffects,
  MemoryEffects,
  MemRefType,
  Operation,
  optional,
  optProp,
  Region,
  single,
  sizedRegion,
  Traits,
  variadic,
  type OpAsmParser,
  type OpAsmPrinter,
  type OperationState,
  type UnresolvedOperand,
  type Value,
} from '@raptor-pim/ir-core';
import {
  indexType,
  parseAttrDictInto,
  parseColonMemRef,
  parseOperandColonType,
  printAttrDict,
  printAttrDictColonType,
  printOperandColonType,
  printTerminatorOperands,
  resolveIndices,
  setSegments,
} from '../asm';
import { AlignmentAttr, AnyRankedMemRef, AnyRankedOrUnrankedMemRef, MemRef1D } from '../constraints';
import { MemRefMessages as M } from '../diagnostics';
import { isIdentityLayout } from '../layout';

/** Number of dynamic dimensions of a ranked memref type. */
export function numDynamicDims(t: MemRefType): number {
  let n = 0;
  for (const d of t.shape) if (d < 0) n++;
  return n;
}

/** Number of symbols of the memref's affine layout map (0 for identity and strided layouts). */
export function layoutSymbolCount(t: MemRefType): number {
  if (isIdentityLayout(t.layout)) return 0;
  if (t.layout instanceof AffineMapAttr) return t.layout.value.numSymbols;
  return 0;
}

function verifyAllocLike(op: Operation, type: MemRefType, dynamicSizes: readonly Value[], symbols: readonly Value[]): boolean {
  const nDyn = numDynamicDims(type);
  if (dynamicSizes.length !== nDyn) {
    op.emitOpError(M.dynamicSizeCount(dynamicSizes.length, nDyn));
    return false;
  }
  const nSym = layoutSymbolCount(type);
  if (symbols.length !== nSym) {
    op.emitOpError(M.symbolOperandCount(nSym, symbols.length));
    return false;
  }
  return true;
}

function parseAllocLike(parser: OpAsmParser, state: OperationState): boolean {
  const sizes = parser.parseOperandList('paren');
  if (!sizes) return false;
  let symbols: UnresolvedOperand[] = [];
  if (parser.parseOptionalLSquare()) {
    const s = parser.parseOperandList('none');
    if (!s || !parser.parseRSquare()) return false;
    symbols = s;
  }
  if (!parseAttrDictInto(parser, state)) return false;
  const type = parseColonMemRef(parser);
  if (!type) return false;
  const operands: Value[] = [];
  if (!resolveIndices(parser, sizes, operands) || !resolveIndices(parser, symbols, operands)) return false;
  state.operands = operands;
  state.resultTypes = [type];
  setSegments(state, [sizes.length, symbols.length]);
  return true;
}

function printAllocLike(op: Operation, p: OpAsmPrinter, nSizes: number): void {
  p.print('(');
  p.printOperands(op.operands.slice(0, nSizes));
  p.print(')');
  const symbols = op.operands.slice(nSizes);
  if (symbols.length) {
    p.print('[');
    p.printOperands(symbols);
    p.print(']');
  }
  printAttrDictColonType(p, op, op.getResult(0).type);
}

function makeAllocOp<N extends 'memref.alloc' | 'memref.alloca'>(name: N, asmName: string) {
  return defineOp({
    name,
    summary: name === 'memref.alloc' ? 'memory allocation operation' : 'stack memory allocation operation',
    operands: { dynamicSizes: variadic(Index), symbolOperands: variadic(Index) },
    results: { memref: single(AnyRankedMemRef) },
    attributes: { alignment: optProp(AlignmentAttr) },
    interfaces: [
      memoryEffects((op) => [
        MemoryEffects.allocate(op.getResult(0), name === 'memref.alloca' ? AutomaticAllocationScopeResource : DefaultResource),
      ]),
    ],
    verify(op) {
      if (name === 'memref.alloca') {
        let found = false;
        for (let p = op.op.getParentOp(); p; p = p.getParentOp()) {
          if (p.hasTrait(Traits.AutomaticAllocationScope)) {
            found = true;
            break;
          }
        }
        if (!found) {
          op.emitOpError(M.allocaNeedsScope);
          return false;
        }
      }
      return verifyAllocLike(op.op, op.memref.type as MemRefType, op.dynamicSizes, op.symbolOperands);
    },
    parse: parseAllocLike,
    print(op, p) {
      printAllocLike(op, p, AllocOpSizes(op));
    },
    getAsmResultNames(op, setName) {
      setName(op.getResult(0), asmName);
    },
  });
}

function AllocOpSizes(op: Operation): number {
  const r = op.definition?.getOperandGroupRange(op, 0);
  return r ? r[1] : op.numOperands;
}

/** `memref.alloc`: heap allocation of a memref (dynamic sizes, layout symbols, alignment). */
export const AllocOp = makeAllocOp('memref.alloc', 'alloc');
/** `memref.alloca`: stack allocation, freed when the closest automatic allocation scope exits. */
export const AllocaOp = makeAllocOp('memref.alloca', 'alloca');

/** `memref.alloca_scope.return`: terminator of `memref.alloca_scope`, returning its results. */
export const AllocaScopeReturnOp = defineOp({
  name: 'memref.alloca_scope.return',
  summary: 'terminator for alloca_scope operation',
  operands: { results: variadic(AnyType) },
  traits: [Traits.IsTerminator, Traits.ReturnLike, Traits.HasParent('memref.alloca_scope'), Traits.Pure],
  parse(parser, state) {
    if (!parseAttrDictInto(parser, state)) return false;
    const operands = parser.parseOperandList('none');
    if (!operands) return false;
    if (operands.length === 0) return true;
    const types = parser.parseColonTypeList();
    if (!types) return false;
    const values: Value[] = [];
    if (!parser.resolveOperands(operands, types, values, parser.getNameLocation())) return false;
    state.operands = values;
    return true;
  },
  print(op, p) {
    printTerminatorOperands(p, op);
  },
});

/** `memref.alloca_scope`: an explicitly delimited automatic allocation scope with results. */
export const AllocaScopeOp = defineOp({
  name: 'memref.alloca_scope',
  summary: 'explicitly delimited scope for stack allocation',
  results: { results: variadic(AnyType) },
  regions: { bodyRegion: sizedRegion(1) },
  traits: [
    Traits.AutomaticAllocationScope,
    Traits.RecursiveMemoryEffects,
    Traits.NoRegionArguments,
    Traits.SingleBlockImplicitTerminator('memref.alloca_scope.return'),
  ],
  verifyRegions(op) {
    const block = op.bodyRegion.firstBlock;
    const term = block?.lastOp;
    if (!term || !AllocaScopeReturnOp.isInstance(term)) return true;
    const results = op.op.results;
    if (term.numOperands !== results.length) {
      op.emitOpError(M.allocaScopeResultCount(term.numOperands, results.length)).attachNote('region branch point', term.location);
      return false;
    }
    for (let i = 0; i < results.length; i++) {
      if (term.getOperand(i).type !== results[i]!.type) {
        op.emitOpError(M.allocaScopeResultType(i, formatType(term.getOperand(i).type), formatType(results[i]!.type))).attachNote(
          'region branch point',
          term.location,
        );
        return false;
      }
    }
    return true;
  },
  parse(parser, state) {
    const types = parser.parseOptionalArrowTypeList();
    if (!types) return false;
    state.resultTypes = types;
    const region = new Region();
    if (!parser.parseRegion(region, [])) return false;
    if (region.empty) region.push(new Block());
    const block = region.firstBlock!;
    const last = block.lastOp;
    if (!last || !AllocaScopeReturnOp.isInstance(last)) {
      block.push(Operation.create({ context: state.context, name: 'memref.alloca_scope.return', location: state.location }));
    }
    state.regions = [region];
    return parseAttrDictInto(parser, state);
  },
  print(op, p) {
    p.print(' ');
    if (op.numResults) {
      p.print(' -> (');
      p.printTypes(op.resultTypes);
      p.print(')');
    }
    p.print(' ');
    const term = op.regions[0]!.firstBlock?.lastOp;
    const elide = !term || (AllocaScopeReturnOp.isInstance(term) && term.numOperands === 0 && term.attributes.size === 0);
    p.printRegion(op.regions[0]!, false, !elide);
    printAttrDict(p, op);
  },
});

/** `memref.dealloc`: frees a memref allocated by `memref.alloc`. */
export const DeallocOp = defineOp({
  name: 'memref.dealloc',
  summary: 'memory deallocation operation',
  operands: { memref: single(AnyRankedOrUnrankedMemRef) },
  interfaces: [memoryEffects((op) => [MemoryEffects.free(op.getOperand(0))])],
  parse: parseOperandColonType,
  print: printOperandColonType,
});

/** `memref.realloc`: resizes a 1-D memref, preserving the common prefix. */
export const ReallocOp = defineOp({
  name: 'memref.realloc',
  summary: 'memory reallocation operation',
  operands: { source: single(MemRef1D), dynamicResultSize: optional(Index) },
  results: { result: single(MemRef1D) },
  attributes: { alignment: optProp(AlignmentAttr) },
  interfaces: [
    memoryEffects((op) => [MemoryEffects.allocate(op.getResult(0)), MemoryEffects.read(op.getOperand(0)), MemoryEffects.free(op.getOperand(0))]),
  ],
  verify(op) {
    const src = op.source.type as MemRefType;
    const dst = op.result.type as MemRefType;
    const o = op.op;
    if (src.elementType !== dst.elementType) {
      o.emitError(M.reallocElementType(formatType(src), formatType(dst)));
      return false;
    }
    if (src.memorySpace !== dst.memorySpace) {
      o.emitError(M.reallocMemorySpace(formatType(src), formatType(dst)));
      return false;
    }
    if (!isIdentityLayout(src.layout)) {
      o.emitError(M.reallocUnsupportedSourceLayout(formatType(src)));
      return false;
    }
    if (!isIdentityLayout(dst.layout)) {
      o.emitError(M.reallocUnsupportedResultLayout(formatType(dst)));
      return false;
    }
    if (dst.shape[0]! < 0 && !op.dynamicResultSize) {
      o.emitError(M.reallocMissingDim(formatType(dst)));
      return false;
    }
    if (dst.shape[0]! >= 0 && op.dynamicResultSize) {
      o.emitError(M.reallocUnnecessaryDim(formatType(dst)));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const src = parser.parseOperand();
    if (!src) return false;
    let dyn: UnresolvedOperand | undefined;
    if (parser.parseOptionalLParen()) {
      const d = parser.parseOperand();
      if (!d || !parser.parseRParen()) return false;
      dyn = d;
    }
    if (!parseAttrDictInto(parser, state)) return false;
    const srcType = parseColonMemRef(parser);
    if (!srcType || !parser.parseKeyword('to')) return false;
    const dstType = parser.parseType();
    if (!dstType) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(src, srcType, vals)) return false;
    if (dyn && !parser.resolveOperand(dyn, indexType(parser.context), vals)) return false;
    state.operands = vals;
    state.resultTypes = [dstType];
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    if (op.numOperands > 1) {
      p.print('(');
      p.printOperand(op.getOperand(1));
      p.print(')');
    }
    printAttrDictColonType(p, op, op.getOperand(0).type);
    p.print(' to ');
    p.printType(op.getResult(0).type);
  },
});
