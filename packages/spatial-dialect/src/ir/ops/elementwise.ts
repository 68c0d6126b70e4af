/**
 * The element-wise and small data-movement ops of the `spat` dialect (reference order within
 * the family): `spat.relu`, `spat.sigmoid`, `spat.vadd`, `spat.vsub`, `spat.vmul`, `spat.vmax`,
 * `spat.vavg`, `spat.softmax`, `spat.wvmm`, `spat.vvdmul`, `spat.concat`, `spat.extract_rows`.
 */
import {
  I64Attr,
  IntegerAttr,
  IntegerType,
  Traits,
  defineOp,
  formatType,
  prop,
  single,
  variadic,
  type AnyOpDefinition,
  type Attribute,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type OperationState,
  type Value,
} from '@raptor-pim/ir-core';
import { parseCompactFunctionType, parseCompactResultTypes, printCompactFunctionType, printCompactResultTypes } from '@raptor-pim/compact-asm';
import { SpatMessages as M } from '../../diagnostics';
import { AnyShapedType, requireTensor, shapeOf, elementTypeOf } from '../type-checks';
import { verifyConcatInputs } from './plans';

/** Merges parsed discardable attributes into `state.attributes`. */
export function addParsedAttributes(state: OperationState, list: readonly { name: string; value: Attribute }[]): void {
  if (!list.length) return;
  const attrs = state.attributes instanceof Map ? new Map(state.attributes) : new Map(Object.entries(state.attributes ?? {}));
  for (const { name, value } of list) attrs.set(name, value);
  state.attributes = attrs;
}

/** Sets one property on `state`. */
export function setParsedProperty(state: OperationState, name: string, value: Attribute): void {
  const props = state.properties instanceof Map ? new Map(state.properties) : new Map(Object.entries(state.properties ?? {}));
  props.set(name, value);
  state.properties = props;
}

// ------------------------------------------------------------------ unary: `spat.relu(%x) : T -> R`

function parseUnary(p: OpAsmParser, state: OperationState): boolean {
  if (!p.parseLParen()) return false;
  const x = p.parseOperand();
  if (!x || !p.parseRParen()) return false;
  const attrs = p.parseOptionalAttrDict();
  if (!attrs || !p.parseColon()) return false;
  const t = p.parseType();
  if (!t || !p.parseArrow()) return false;
  const r = p.parseType();
  if (!r) return false;
  const operands: Value[] = [];
  if (!p.resolveOperand(x, t, operands)) return false;
  state.operands = operands;
  state.resultTypes = [r];
  addParsedAttributes(state, attrs);
  return true;
}

function printUnary(op: Operation, p: OpAsmPrinter): void {
  p.print('(');
  p.printOperand(op.getOperand(0));
  p.print(')');
  p.printOptionalAttrDict(op.attributes);
  p.print(' : ');
  p.printType(op.getOperand(0).type);
  p.print(' -> ');
  p.printType(op.getResult(0).type);
}

function unaryOp(name: string, summary: string) {
  return defineOp({
    name,
    summary,
    operands: { input: single(AnyShapedType) },
    results: { output: single(AnyShapedType) },
    traits: [Traits.Pure],
    parse: parseUnary,
    print: printUnary,
  });
}

/** `spat.relu`: y = max(x, 0). Shapes are assumed to match (no custom verifier). */
export const ReluOp = unaryOp('spat.relu', 'Element-wise ReLU');
/** `spat.sigmoid`: y = 1 / (1 + exp(-x)). No custom verifier. */
export const SigmoidOp = unaryOp('spat.sigmoid', 'Element-wise sigmoid');
/** `spat.vavg`: the mean of the whole input in a one-element output. No custom verifier. */
export const VavgOp = unaryOp('spat.vavg', 'Average a complete slice');
/** `spat.softmax`: softmax over the whole input. No custom verifier. */
export const SoftmaxOp = unaryOp('spat.softmax', 'Softmax of a complete slice');

// ------------------------------------------------------------------ binary: `spat.vadd %a, %b : (T, T) -> T`

function parseBinary(p: OpAsmParser, state: OperationState): boolean {
  const operands = p.parseOperandList(undefined, 2);
  if (!operands) return false;
  const attrs = p.parseOptionalAttrDict();
  if (!attrs || !p.parseColon()) return false;
  const loc = p.getCurrentLocation();
  const ft = p.parseFunctionType();
  if (!ft) return false;
  if (ft.inputs.length !== 2 || ft.results.length !== 1) {
    p.emitError(M.typeCountMismatch('binary op signature', 2, ft.inputs.length), loc);
    return false;
  }
  const resolved: Value[] = [];
  if (!p.resolveOperands(operands, ft.inputs, resolved, loc)) return false;
  state.operands = resolved;
  state.resultTypes = [...ft.results];
  addParsedAttributes(state, attrs);
  return true;
}

function printBinary(op: Operation, p: OpAsmPrinter): void {
  p.print(' ');
  p.printOperands(op.operands);
  p.printOptionalAttrDict(op.attributes);
  p.print(' : ');
  p.printFunctionalTypeOf(op);
}

function verifySameTypes(op: Operation): boolean {
  const lhs = op.getOperand(0).type;
  if (op.getOperand(1).type !== lhs) {
    op.emitOpError(M.typeMismatch('rhs', formatType(op.getOperand(1).type), `${formatType(lhs)} (same as lhs)`));
    return false;
  }
  if (op.getResult(0).type !== lhs) {
    op.emitOpError(M.typeMismatch('output', formatType(op.getResult(0).type), `${formatType(lhs)} (same as lhs)`));
    return false;
  }
  return true;
}

function binaryOp(name: string, summary: string, verifyTypes: boolean, commutative: boolean) {
  return defineOp({
    name,
    summary,
    operands: { lhs: single(AnyShapedType), rhs: single(AnyShapedType) },
    results: { output: single(AnyShapedType) },
    traits: commutative ? [Traits.Pure, Traits.Commutative] : [Traits.Pure],
    parse: parseBinary,
    print: printBinary,
    verify: verifyTypes ? (view) => verifySameTypes(view.op) : undefined,
  });
}

/** `spat.vadd`: lhs + rhs; lhs, rhs and output have exactly the same type. */
export const VaddOp = binaryOp('spat.vadd', 'Element-wise addition', true, true);
/** `spat.vsub`: lhs - rhs; lhs, rhs and output have exactly the same type. */
export const VsubOp = binaryOp('spat.vsub', 'Element-wise subtraction', true, false);
/** `spat.vmul`: lhs * rhs; no custom shape verifier (matching shapes are assumed). */
export const VmulOp = binaryOp('spat.vmul', 'Element-wise multiplication', false, true);
/** `spat.vmax`: max(lhs, rhs); lhs, rhs and output have exactly the same type. */
export const VmaxOp = binaryOp('spat.vmax', 'Element-wise maximum', true, true);

/** `spat.vvdmul`: dot product of two 1xN runtime row vectors into a 1x1 tensor. */
export const VvdmulOp = defineOp({
  name: 'spat.vvdmul',
  summary: 'Dot product of runtime vectors',
  operands: { lhs: single(AnyShapedType), rhs: single(AnyShapedType) },
  results: { output: single(AnyShapedType) },
  traits: [Traits.Pure],
  parse: parseBinary,
  print: printBinary,
  verify(view) {
    const op = view.op;
    const lhsShape = shapeOf(view.lhs.type);
    const rhsShape = shapeOf(view.rhs.type);
    const outShape = shapeOf(view.output.type);
    for (const [what, shape, type] of [
      ['lhs', lhsShape, view.lhs.type],
      ['rhs', rhsShape, view.rhs.type],
      ['output', outShape, view.output.type],
    ] as const) {
      if (!shape) {
        view.emitOpError(M.notRankedTensor(what, formatType(type)));
        return false;
      }
      if (shape.length !== 2) {
        view.emitOpError(M.wrongRank(what, formatType(type), 2));
        return false;
      }
    }
    if (elementTypeOf(view.rhs.type) !== elementTypeOf(view.lhs.type) || elementTypeOf(view.output.type) !== elementTypeOf(view.lhs.type)) {
      const bad = elementTypeOf(view.rhs.type) !== elementTypeOf(view.lhs.type) ? view.rhs.type : view.output.type;
      view.emitOpError(M.elementTypeMismatch(bad === view.rhs.type ? 'rhs' : 'output', formatType(bad), `lhs (${formatType(elementTypeOf(view.lhs.type))})`));
      return false;
    }
    if (lhsShape![0] !== 1 || !(lhsShape![1]! > 0)) {
      view.emitOpError(M.vvdmulShape('lhs', formatType(view.lhs.type)));
      return false;
    }
    if (rhsShape![0] !== 1 || rhsShape![1] !== lhsShape![1]) {
      view.emitOpError(M.typeMismatch('rhs', formatType(view.rhs.type), `1x${lhsShape![1]} (the lhs shape)`));
      return false;
    }
    if (outShape![0] !== 1 || outShape![1] !== 1) {
      view.emitOpError(M.vvdmulOutput(formatType(view.output.type)));
      return false;
    }
    void op;
    return true;
  },
});

// ------------------------------------------------------------------ `spat.wvmm[%w](%x) : (W, X) -> Y`

/** `spat.wvmm`: row vector (1xN) times an explicit NxM weight matrix, giving 1xM. */
export const WvmmOp = defineOp({
  name: 'spat.wvmm',
  summary: 'Row vector times explicit constant matrix',
  operands: { weight: single(AnyShapedType), input: single(AnyShapedType) },
  results: { output: single(AnyShapedType) },
  traits: [Traits.Pure],
  parse(p, state) {
    if (!p.parseLSquare()) return false;
    const w = p.parseOperand();
    if (!w || !p.parseRSquare() || !p.parseLParen()) return false;
    const x = p.parseOperand();
    if (!x || !p.parseRParen()) return false;
    const attrs = p.parseOptionalAttrDict();
    if (!attrs || !p.parseColon()) return false;
    const loc = p.getCurrentLocation();
    const ft = p.parseFunctionType();
    if (!ft) return false;
    if (ft.inputs.length !== 2 || ft.results.length !== 1) {
      p.emitError(M.typeCountMismatch('spat.wvmm signature', 2, ft.inputs.length), loc);
      return false;
    }
    const operands: Value[] = [];
    if (!p.resolveOperands([w, x], ft.inputs, operands, loc)) return false;
    state.operands = operands;
    state.resultTypes = [...ft.results];
    addParsedAttributes(state, attrs);
    return true;
  },
  print(op, p) {
    p.print('[');
    p.printOperand(op.getOperand(0));
    p.print('](');
    p.printOperand(op.getOperand(1));
    p.print(')');
    p.printOptionalAttrDict(op.attributes);
    p.print(' : ');
    p.printFunctionalTypeOf(op);
  },
  verify(view) {
    const w = shapeOf(view.weight.type);
    if (!w || w.length !== 2 || !(w[0]! > 0) || !(w[1]! > 0)) {
      view.emitOpError(M.wvmmWeight(formatType(view.weight.type)));
      return false;
    }
    const x = shapeOf(view.input.type);
    if (!x || x.length !== 2 || x[0] !== 1 || x[1] !== w[0]) {
      view.emitOpError(M.wvmmInput(formatType(view.input.type), w[0]!));
      return false;
    }
    const y = shapeOf(view.output.type);
    if (!y || y.length !== 2 || y[0] !== 1 || y[1] !== w[1]) {
      view.emitOpError(M.wvmmOutput(formatType(view.output.type), w[1]!));
      return false;
    }
    return true;
  },
});

// ------------------------------------------------------------------ `spat.concat axis 1 %a, %b : (T x2) -> R`

/** `spat.concat`: joins the inputs in operand order along `axis`. */
export const ConcatOp = defineOp({
  name: 'spat.concat',
  summary: 'Join tensors along one axis',
  operands: { inputs: variadic(AnyShapedType) },
  results: { output: single(AnyShapedType) },
  attributes: { axis: prop(I64Attr) },
  traits: [Traits.Pure],
  parse(p, state) {
    if (!p.parseKeyword('axis')) return false;
    const axis = p.parseInteger();
    if (axis === undefined) return false;
    const operands = p.parseOperandList();
    if (!operands) return false;
    const attrsAt = p.getCurrentLocation();
    const attrs = p.parseOptionalAttrDict();
    if (!attrs) return false;
    if (attrs.some((a) => a.name === 'axis')) {
      p.emitError(M.axisInDictionary, attrsAt);
      return false;
    }
    if (!p.parseColon()) return false;
    const loc = p.getCurrentLocation();
    const ft = parseCompactFunctionType(p);
    if (!ft) return false;
    if (ft.results.length !== 1) {
      p.emitError(M.typeCountMismatch('spat.concat results', 1, ft.results.length), loc);
      return false;
    }
    if (ft.inputs.length !== operands.length) {
      p.emitError(M.typeCountMismatch('spat.concat inputs', operands.length, ft.inputs.length), loc);
      return false;
    }
    const resolved: Value[] = [];
    if (!p.resolveOperands(operands, ft.inputs, resolved, loc)) return false;
    state.operands = resolved;
    state.resultTypes = [...ft.results];
    setParsedProperty(state, 'axis', IntegerAttr.get(IntegerType.get(p.context, 64), axis));
    addParsedAttributes(state, attrs);
    return true;
  },
  print(op, p) {
    p.print(` axis ${Number((op.getAttr('axis') as IntegerAttr).value)} `);
    p.printOperands(op.operands);
    p.printOptionalAttrDict(op.attributes);
    p.print(' : ');
    printCompactFunctionType(p, op.operands.map((v) => v.type), op.resultTypes);
  },
  verify(view) {
    const op = view.op;
    const outShape = shapeOf(view.output.type);
    if (view.inputs.length === 0) {
      view.emitOpError(M.noInputs);
      return false;
    }
    if (!outShape) {
      view.emitOpError(M.notRankedTensor('output', formatType(view.output.type)));
      return false;
    }
    const axis = Number(view.axis.value);
    if (axis < 0 || axis >= outShape.length) {
      view.emitOpError(M.concatAxisRange(axis, outShape.length));
      return false;
    }
    return verifyConcatInputs(op, view.inputs, view.output.type, axis, outShape.length);
  },
});

// ------------------------------------------------------------------ `spat.extract_rows %m : T -> R xN`

/** `spat.extract_rows`: result i is row i (`input[i:i+1, :]`) of a rank-2 matrix. */
export const ExtractRowsOp = defineOp({
  name: 'spat.extract_rows',
  summary: 'Split a matrix into row values',
  operands: { input: single(AnyShapedType) },
  results: { outputs: variadic(AnyShapedType) },
  traits: [Traits.Pure],
  parse(p, state) {
    const x = p.parseOperand();
    if (!x) return false;
    const attrs = p.parseOptionalAttrDict();
    if (!attrs || !p.parseColon()) return false;
    const t = p.parseType();
    if (!t || !p.parseArrow()) return false;
    const results = parseCompactResultTypes(p);
    if (!results) return false;
    const operands: Value[] = [];
    if (!p.resolveOperand(x, t, operands)) return false;
    state.operands = operands;
    state.resultTypes = results;
    addParsedAttributes(state, attrs);
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    p.printOptionalAttrDict(op.attributes);
    p.print(' : ');
    p.printType(op.getOperand(0).type);
    p.print(' -> ');
    printCompactResultTypes(p, op.resultTypes);
  },
  verify(view) {
    const op = view.op;
    const input = shapeOf(view.input.type);
    if (!input || input.length !== 2) {
      view.emitOpError(M.wrongRank('input', formatType(view.input.type), 2));
      return false;
    }
    const [rows, cols] = input as [number, number];
    if (rows >= 0 && view.outputs.length !== rows) {
      view.emitOpError(M.extractRowsCount(view.outputs.length, rows));
      return false;
    }
    const elem = elementTypeOf(view.input.type);
    for (let k = 0; k < view.outputs.length; k++) {
      const t = view.outputs[k]!.type;
      const s = shapeOf(t);
      const ok = s !== undefined && s.length === 2 && s[0] === 1 && elementTypeOf(t) === elem && (cols < 0 || s[1]! < 0 || s[1] === cols);
      if (!ok) {
        view.emitOpError(M.extractRowsResult(k, formatType(t), `rank 2, 1x${cols < 0 ? '?' : cols} with element type ${formatType(elem)}`));
        return false;
      }
    }
    void op;
    return true;
  },
});

/** The element-wise family, in reference order. */
export const ELEMENTWISE_OPS: readonly AnyOpDefinition[] = [
  ReluOp,
  SigmoidOp,
  VaddOp,
  VsubOp,
  VmulOp,
  VmaxOp,
  VavgOp,
  SoftmaxOp,
  WvmmOp,
  VvdmulOp,
  ConcatOp,
  ExtractRowsOp,
];

void requireTensor;
