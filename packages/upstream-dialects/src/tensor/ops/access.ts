/** Element access and shape queries: `tensor.extract`, `tensor.insert`, `tensor.dim`, `tensor.cast`. */
import {
  AnyType,
  defineOp,
  formatType,
  Index,
  RankedTensorType,
  single,
  Traits,
  UnrankedTensorType,
  variadic,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import {
  parseAttrDictInto,
  parseCastLike,
  parseDimLike,
  printAttrDictColonType,
  printCastLike,
  printDimLike,
  printIndexed,
  resolveIndices,
} from '../../memref/asm';
import { AnyTensorType, Non0RankedOrUnrankedTensor, RankedTensor } from '../constraints';
import { TensorMessages as M } from '../diagnostics';
import { parseRankedTensor } from './creation';

/** `tensor.extract`: reads one element. */
export const ExtractOp = defineOp({
  name: 'tensor.extract',
  summary: 'element extraction operation',
  operands: { tensor: single(RankedTensor), indices: variadic(Index) },
  results: { result: single(AnyType) },
  traits: [Traits.Pure],
  verify(view) {
    const t = view.tensor.type as RankedTensorType;
    if (view.result.type !== t.elementType) {
      view.emitOpError(M.extractResultType);
      return false;
    }
    if (view.indices.length !== t.rank) {
      view.emitOpError(M.extractIndexCount);
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const src = parser.parseOperand();
    if (!src) return false;
    const idx = parser.parseOperandList('square');
    if (!idx || !parseAttrDictInto(parser, state) || !parser.parseColon()) return false;
    const t = parseRankedTensor(parser);
    if (!t) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(src, t, vals) || !resolveIndices(parser, idx, vals)) return false;
    state.operands = vals;
    state.resultTypes = [t.elementType];
    return true;
  },
  print(op, p) {
    p.print(' ');
    printIndexed(p, op.getOperand(0), op.operands.slice(1));
    printAttrDictColonType(p, op, op.getOperand(0).type);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'extracted');
  },
});

/** `tensor.insert`: a copy of `dest` with one element replaced. */
export const InsertOp = defineOp({
  name: 'tensor.insert',
  summary: 'element insertion operation',
  operands: { scalar: single(AnyType), dest: single(RankedTensor), indices: variadic(Index) },
  results: { result: single(RankedTensor) },
  traits: [Traits.Pure],
  verify(view) {
    const t = view.dest.type as RankedTensorType;
    if (view.result.type !== t) {
      view.emitOpError(M.insertResultType);
      return false;
    }
    if (view.scalar.type !== t.elementType) {
      view.emitOpError(M.insertScalarType);
      return false;
    }
    if (view.indices.length !== t.rank) {
      view.emitOpError(M.insertIndexCount);
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const scalar = parser.parseOperand();
    if (!scalar || !parser.parseKeyword('into')) return false;
    const dest = parser.parseOperand();
    if (!dest) return false;
    const idx = parser.parseOperandList('square');
    if (!idx || !parseAttrDictInto(parser, state) || !parser.parseColon()) return false;
    const t = parseRankedTensor(parser);
    if (!t) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(scalar, t.elementType, vals) || !parser.resolveOperand(dest, t, vals) || !resolveIndices(parser, idx, vals))
      return false;
    state.operands = vals;
    state.resultTypes = [t];
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    p.print(' into ');
    printIndexed(p, op.getOperand(1), op.operands.slice(2));
    printAttrDictColonType(p, op, op.getOperand(1).type);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'inserted');
  },
});

/** `tensor.dim`: the size of one dimension (dynamic index). */
export const DimOp = defineOp({
  name: 'tensor.dim',
  summary: 'dimension index operation',
  operands: { source: single(Non0RankedOrUnrankedTensor), index: single(Index) },
  results: { result: single(Index) },
  traits: [Traits.NoMemoryEffect],
  parse: parseDimLike,
  print: printDimLike,
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'dim');
  },
});

/** MLIR's `tensor::CastOp::areCastCompatible`: same element type, compatible shapes. */
export function areTensorCastCompatible(a: Type, b: Type): boolean {
  const elem = (t: Type) => (t instanceof RankedTensorType || t instanceof UnrankedTensorType ? t.elementType : undefined);
  const ea = elem(a);
  const eb = elem(b);
  if (!ea || !eb || ea !== eb) return false;
  if (!(a instanceof RankedTensorType) || !(b instanceof RankedTensorType)) return true;
  if (a.rank !== b.rank) return false;
  return a.shape.every((d, i) => d < 0 || b.shape[i]! < 0 || d === b.shape[i]);
}

/** `tensor.cast`: converts between compatible tensor types (static <-> dynamic, ranked <-> unranked). */
export const CastOp = defineOp({
  name: 'tensor.cast',
  summary: 'tensor cast operation',
  operands: { source: single(AnyTensorType) },
  results: { dest: single(AnyTensorType) },
  traits: [Traits.Pure],
  verify(view) {
    if (!areTensorCastCompatible(view.source.type, view.dest.type)) {
      view.emitOpError(M.castIncompatible(formatType(view.source.type), formatType(view.dest.type)));
      return false;
    }
    return true;
  },
  parse: parseCastLike,
  print: printCastLike,
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'cast');
  },
});
