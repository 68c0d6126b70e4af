/** Tensor creation ops: `tensor.empty`, `tensor.splat`, `tensor.from_elements`. */
import {
  AnyType,
  defineOp,
  DYNAMIC,
  formatType,
  Index,
  RankedTensorType,
  single,
  Traits,
  variadic,
  type OpAsmParser,
  type UnresolvedOperand,
  type Value,
} from '@raptor-pim/ir-core';
import { parseAttrDictInto, printAttrDictColonType, resolveIndices } from '../../memref/asm';
import { RankedTensor, StaticShapeTensor } from '../constraints';
import { TensorMessages as M } from '../diagnostics';

const numDynamic = (t: RankedTensorType) => t.shape.filter((d) => d === DYNAMIC).length;

/** Parses a type and checks it is a ranked tensor. */
export function parseRankedTensor(parser: OpAsmParser): RankedTensorType | undefined {
  const loc = parser.getCurrentLocation();
  const t = parser.parseType();
  if (t === undefined) return undefined;
  if (!(t instanceof RankedTensorType)) {
    parser.emitError(M.expectedRankedTensor(formatType(t)), loc);
    return undefined;
  }
  return t;
}

/** Parses `%a, %b, ...` without delimiters (possibly empty). */
export function parseBareOperandList(parser: OpAsmParser): UnresolvedOperand[] | undefined {
  const out: UnresolvedOperand[] = [];
  const first = parser.parseOptionalOperand();
  if (first === undefined) return undefined;
  if (first === null) return out;
  out.push(first);
  while (parser.parseOptionalComma()) {
    const o = parser.parseOperand();
    if (!o) return undefined;
    out.push(o);
  }
  return out;
}

/** `tensor.empty`: a tensor of unspecified contents; one index operand per dynamic dimension. */
export const EmptyOp = defineOp({
  name: 'tensor.empty',
  summary: 'empty tensor operation',
  operands: { dynamicSizes: variadic(Index) },
  results: { result: single(RankedTensor) },
  traits: [Traits.Pure],
  verify(view) {
    const t = view.result.type as RankedTensorType;
    if (view.dynamicSizes.length !== numDynamic(t)) {
      view.emitOpError(M.dynamicSizeCount(view.dynamicSizes.length, numDynamic(t)));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const sizes = parser.parseOperandList('paren');
    if (!sizes || !parseAttrDictInto(parser, state) || !parser.parseColon()) return false;
    const t = parseRankedTensor(parser);
    if (!t) return false;
    const vals: Value[] = [];
    if (!resolveIndices(parser, sizes, vals)) return false;
    state.operands = vals;
    state.resultTypes = [t];
    return true;
  },
  print(op, p) {
    p.print('(');
    p.printOperands(op.operands);
    p.print(')');
    printAttrDictColonType(p, op, op.getResult(0).type);
  },
});

/** `tensor.splat`: a tensor whose elements all equal a scalar. */
export const SplatOp = defineOp({
  name: 'tensor.splat',
  summary: 'tensor splat or broadcast operation',
  operands: { input: single(AnyType), dynamicSizes: variadic(Index) },
  results: { aggregate: single(RankedTensor) },
  traits: [Traits.Pure],
  verify(view) {
    const t = view.aggregate.type as RankedTensorType;
    if (t.elementType !== view.input.type) {
      view.emitOpError(M.splatElementType);
      return false;
    }
    if (view.dynamicSizes.length !== numDynamic(t)) {
      view.emitOpError(M.dynamicSizeCount(view.dynamicSizes.length, numDynamic(t)));
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const input = parser.parseOperand();
    if (!input) return false;
    let sizes: UnresolvedOperand[] | undefined = [];
    if (parser.parseOptionalLSquare()) {
      sizes = parseBareOperandList(parser);
      if (!sizes || !parser.parseRSquare()) return false;
    }
    if (!parseAttrDictInto(parser, state) || !parser.parseColon()) return false;
    const t = parseRankedTensor(parser);
    if (!t) return false;
    const vals: Value[] = [];
    if (!parser.resolveOperand(input, t.elementType, vals) || !resolveIndices(parser, sizes, vals)) return false;
    state.operands = vals;
    state.resultTypes = [t];
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    if (op.numOperands > 1) {
      p.print('[');
      p.printOperands(op.operands.slice(1));
      p.print(']');
    }
    printAttrDictColonType(p, op, op.getResult(0).type);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'splat');
  },
});

/** `tensor.from_elements`: a static tensor from its elements in row-major order. */
export const FromElementsOp = defineOp({
  name: 'tensor.from_elements',
  summary: 'tensor from elements operation.',
  operands: { elements: variadic(AnyType) },
  results: { result: single(StaticShapeTensor) },
  traits: [Traits.Pure],
  verify(view) {
    const t = view.result.type as RankedTensorType;
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (view.elements.length !== n || view.elements.some((e) => e.type !== t.elementType)) {
      view.emitOpError(M.fromElementsType);
      return false;
    }
    return true;
  },
  parse(parser, state) {
    const elems = parseBareOperandList(parser);
    if (!elems || !parseAttrDictInto(parser, state)) return false;
    const loc = parser.getCurrentLocation();
    if (!parser.parseColon()) return false;
    const t = parseRankedTensor(parser);
    if (!t) return false;
    const n = t.shape.every((d) => d >= 0) ? t.shape.reduce((a, b) => a * b, 1) : elems.length;
    if (n !== elems.length) {
      parser.emitError(`custom op '${state.name}' ` + M.fromElementsCount(elems.length, n), loc);
      return false;
    }
    const vals: Value[] = [];
    if (!parser.resolveOperands(elems, t.elementType, vals)) return false;
    state.operands = vals;
    state.resultTypes = [t];
    return true;
  },
  print(op, p) {
    if (op.numOperands) p.print(' ');
    p.printOperands(op.operands);
    printAttrDictColonType(p, op, op.getResult(0).type);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'from_elements');
  },
});
