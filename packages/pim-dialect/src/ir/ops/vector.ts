/**
 * The arithmetic and local data-movement ops of the `pim` dialect: unary vector ops
 * (`pim.vrelu`, `pim.vsigm`, `pim.vtanh`, `pim.vsoftmax`, `pim.vavg`), binary vector ops
 * (`pim.vvadd`, `pim.vvsub`, `pim.vvmul`, `pim.vvmax`, `pim.vvdmul`), `pim.vmm`, `pim.vmv`,
 * `pim.transpose` and `pim.concat`. Every one writes into an explicit destination operand
 * (destination-style interface) and returns the updated destination.
 */
import {
  ArrayAttrOf,
  I32Attr,
  I64Attr,
  Index,
  IntegerAttr,
  IntegerType,
  IndexType,
  defineOp,
  prop,
  single,
  variadic,
  type AnyOpDefinition,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type OperationState,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import { parseCompactTypeList, parseCompactResultTypes, printCompactTypeList } from '@raptor-pim/compact-asm';
import { PimMessages as M } from '../../diagnostics';
import {
  TensorOrMemRef,
  elementOf,
  fmt,
  isDynamic,
  kindOf,
  parseAttrDictWithProperties,
  printAttrDictWithProperties,
  resolveAll,
  setStateProperty,
  shapeOf,
  verifyDestinationResult,
} from '../asm';
import { destinationAt, destinationBufferEffects } from '../interfaces';

// ------------------------------------------------------------------ `(%a, ..., %dst) {..} : (T, ...) -> R`

function parseParenForm(p: OpAsmParser, state: OperationState, n: number, props: readonly string[], leading = 0): boolean {
  const lead = leading ? p.parseOperandList('square', leading) : [];
  if (!lead) return false;
  const ops = p.parseOperandList('paren', n);
  if (!ops) return false;
  if (!parseAttrDictWithProperties(p, state, props) || !p.parseColon()) return false;
  const at = p.getCurrentLocation();
  const ft = p.parseFunctionType();
  if (!ft) return false;
  if (ft.inputs.length !== n + leading || ft.results.length !== 1) {
    p.emitError(M.typeCount('operand', n + leading, ft.inputs.length), at);
    return false;
  }
  const operands: Value[] = [];
  if (!resolveAll(p, [...lead, ...ops], ft.inputs, operands)) return false;
  state.operands = operands;
  state.resultTypes = [...ft.results];
  return true;
}

function printParenForm(op: Operation, p: OpAsmPrinter, leading = 0): void {
  if (leading) {
    p.print('[');
    p.printOperands(op.operands.slice(0, leading));
    p.print(']');
  }
  p.print('(');
  p.printOperands(op.operands.slice(leading));
  p.print(')');
  printAttrDictWithProperties(op, p);
  p.print(' : ');
  p.printFunctionalTypeOf(op);
}

function unaryOp(name: string, summary: string) {
  return defineOp({
    name,
    summary,
    operands: {
      input: single(TensorOrMemRef),
      outputBuffer: single(TensorOrMemRef),
    },
    results: { output: single(TensorOrMemRef) },
    interfaces: [destinationAt(1), destinationBufferEffects],
    parse: (p, s) => parseParenForm(p, s, 2, []),
    print: (op, p) => printParenForm(op, p),
  });
}

/** `pim.vrelu`: y[i] = max(x[i], 0). No custom verifier (shapes are Assumed). */
export const VReluOp = unaryOp('pim.vrelu', 'Element-wise ReLU');
/** `pim.vsigm`: y[i] = 1 / (1 + exp(-x[i])). No custom verifier. */
export const VSigmOp = unaryOp('pim.vsigm', 'Element-wise sigmoid');
/** `pim.vtanh`: y[i] = tanh(x[i]). No custom verifier. */
export const VTanhOp = unaryOp('pim.vtanh', 'Element-wise hyperbolic tangent');
/** `pim.vsoftmax`: softmax over the whole input. No custom verifier. */
export const VSoftmaxOp = unaryOp('pim.vsoftmax', 'Softmax of a complete vector');
/** `pim.vavg`: y[0] = sum(x) / |x|. No custom verifier. */
export const VAvgOp = unaryOp('pim.vavg', 'Average a complete vector');

function binaryOp(name: string, summary: string) {
  return defineOp({
    name,
    summary,
    operands: {
      lhs: single(TensorOrMemRef),
      rhs: single(TensorOrMemRef),
      outputBuffer: single(TensorOrMemRef),
    },
    results: { output: single(TensorOrMemRef) },
    interfaces: [destinationAt(2), destinationBufferEffects],
    parse: (p, s) => parseParenForm(p, s, 3, []),
    print: (op, p) => printParenForm(op, p),
    // Destination-interface check: the result is the updated destination.
    verify: (v) => verifyDestinationResult(v.op, 'output', v.op.getOperand(2).type, v.op.getResult(0).type),
  });
}

/** `pim.vvadd`: y[i] = lhs[i] + rhs[i]. */
export const VVAddOp = binaryOp('pim.vvadd', 'Element-wise addition');
/** `pim.vvsub`: y[i] = lhs[i] - rhs[i]. */
export const VVSubOp = binaryOp('pim.vvsub', 'Element-wise subtraction');
/** `pim.vvmul`: y[i] = lhs[i] * rhs[i]. */
export const VVMulOp = binaryOp('pim.vvmul', 'Element-wise multiplication');
/** `pim.vvmax`: y[i] = max(lhs[i], rhs[i]). */
export const VVMaxOp = binaryOp('pim.vvmax', 'Element-wise maximum');
/** `pim.vvdmul`: y[0] = sum_i lhs[i] * rhs[i]. */
export const VVDMulOp = binaryOp('pim.vvdmul', 'Dot product');

// ------------------------------------------------------------------ pim.vmm

/**
 * `pim.vmm[%weight](%x, %dst)`: row vector times a resident matrix. Verified: destination and
 * result match; weight/input/output rank 2; positive weight dimensions; input 1xW (W > 0);
 * output 1xM for an NxM weight.
 */
export const VMMOp = defineOp({
  name: 'pim.vmm',
  summary: 'Multiply using a resident array group',
  operands: {
    weight: single(TensorOrMemRef),
    input: single(TensorOrMemRef),
    outputBuffer: single(TensorOrMemRef),
  },
  results: { output: single(TensorOrMemRef) },
  interfaces: [destinationAt(2), destinationBufferEffects],
  parse: (p, s) => parseParenForm(p, s, 2, [], 1),
  print: (op, p) => printParenForm(op, p, 1),
  verify(v) {
    const op = v.op;
    const w = op.getOperand(0).type;
    const x = op.getOperand(1).type;
    const d = op.getOperand(2).type;
    if (!verifyDestinationResult(op, 'output', d, op.getResult(0).type)) return false;
    const ws = shapeOf(w)!;
    const xs = shapeOf(x)!;
    const ds = shapeOf(d)!;
    for (const [role, s] of [
      ['weight', ws],
      ['input', xs],
      ['output', ds],
    ] as const) {
      if (s.length !== 2) {
        op.emitOpError(M.vmmRank(role, s.length));
        return false;
      }
    }
    if (!(ws[0]! > 0 && ws[1]! > 0)) {
      op.emitOpError(M.vmmWeightDims(ws[0]!, ws[1]!));
      return false;
    }
    if (xs[0] !== 1 || !(xs[1]! > 0)) {
      op.emitOpError(M.vmmInputShape(fmt(x)));
      return false;
    }
    if (ds[0] !== 1 || ds[1] !== ws[1]) {
      op.emitOpError(M.vmmOutputShape(fmt(d), ws[1]!));
      return false;
    }
    return true;
  },
});

// ------------------------------------------------------------------ pim.vmv

/**
 * `pim.vmv[%dstOffset, %srcOffset, %stride](%dst, %src) {length = N : i32}`: strided gather.
 * Operands: target, source, dstOffset, srcOffset, stride (the custom form prints the offsets
 * first). Verified: positive length; target/result match; source/target same kind and
 * element type.
 */
export const VMVOp = defineOp({
  name: 'pim.vmv',
  summary: 'Gather a strided local vector',
  operands: {
    target: single(TensorOrMemRef),
    source: single(TensorOrMemRef),
    targetOffset: single(Index),
    sourceOffset: single(Index),
    sourceStride: single(Index),
  },
  results: { output: single(TensorOrMemRef) },
  attributes: { length: prop(I32Attr) },
  interfaces: [destinationAt(0), destinationBufferEffects],
  parse: (p, state) => parseOffsetsBuffers(p, state, 2, 3, 'length'),
  print: (op, p) => printOffsetsBuffers(op, p, 2, 3),
  verify(v) {
    const op = v.op;
    const len = Number(v.length.value);
    if (len <= 0) {
      op.emitOpError(M.vmvLength(len));
      return false;
    }
    const t = op.getOperand(0).type;
    const s = op.getOperand(1).type;
    if (!verifyDestinationResult(op, 'target', t, op.getResult(0).type)) return false;
    if (kindOf(s) !== kindOf(t)) {
      op.emitOpError(M.containerKind('source and target'));
      return false;
    }
    if (elementOf(s) !== elementOf(t)) {
      op.emitOpError(M.elementMismatch('source and target', fmt(elementOf(s)!), fmt(elementOf(t)!)));
      return false;
    }
    return true;
  },
});

/** The `index` type of the parser's context. */
export function indexType(p: OpAsmParser): Type {
  return IndexType.get(p.context);
}

/** Parses `T1, T2, ... -> R` (buffer types then one result type). */
export function parseBufferTypes(p: OpAsmParser, n: number): { inputs: Type[]; results: Type[] } | undefined {
  const at = p.getCurrentLocation();
  const inputs = parseCompactTypeList(p, 'none');
  if (!inputs || !p.parseArrow()) return undefined;
  const results = parseCompactResultTypes(p);
  if (!results) return undefined;
  if (inputs.length !== n) {
    p.emitError(M.typeCount('buffer', n, inputs.length), at);
    return undefined;
  }
  return { inputs, results };
}

/**
 * Parses `[%off, ...](%buf, ...) {attrs} : T, ... -> R` into operands `buffers..., offsets...`
 * (`offsets` index values; `property` is the inherent attribute the dictionary may hold).
 */
export function parseOffsetsBuffers(p: OpAsmParser, state: OperationState, buffers: number, offsets: number, property: string): boolean {
  const offs = p.parseOperandList('square', offsets);
  const bufs = offs && p.parseOperandList('paren', buffers);
  if (!offs || !bufs) return false;
  if (!parseAttrDictWithProperties(p, state, [property]) || !p.parseColon()) return false;
  const types = parseBufferTypes(p, buffers);
  if (!types) return false;
  const it = indexType(p);
  const operands: Value[] = [];
  if (!resolveAll(p, [...bufs, ...offs], [...types.inputs, ...offs.map(() => it)], operands)) return false;
  state.operands = operands;
  state.resultTypes = types.results;
  return true;
}

/** Prints what {@link parseOffsetsBuffers} reads. */
export function printOffsetsBuffers(op: Operation, p: OpAsmPrinter, buffers: number, offsets: number): void {
  p.print('[');
  p.printOperands(op.operands.slice(buffers, buffers + offsets));
  p.print('](');
  p.printOperands(op.operands.slice(0, buffers));
  p.print(')');
  printAttrDictWithProperties(op, p);
  p.print(' : ');
  p.printTypes(op.operands.slice(0, buffers).map((v) => v.type));
  p.print(' -> ');
  p.printTypes(op.resultTypes);
}

// ------------------------------------------------------------------ pim.transpose

/**
 * `pim.transpose(%x, %dst) {permutation = [1, 0]}`: y[d] = x[permutation[d]]. No custom
 * verifier (permutation validity is checked by instruction selection).
 */
export const TransposeOp = defineOp({
  name: 'pim.transpose',
  summary: 'Permute dimensions into a destination',
  operands: {
    input: single(TensorOrMemRef),
    outputBuffer: single(TensorOrMemRef),
  },
  results: { output: single(TensorOrMemRef) },
  attributes: { permutation: prop(ArrayAttrOf(I64Attr)) },
  interfaces: [destinationAt(1), destinationBufferEffects],
  parse: (p, s) => parseParenForm(p, s, 2, ['permutation']),
  print: (op, p) => printParenForm(op, p),
});

// ------------------------------------------------------------------ pim.concat

/**
 * `pim.concat axis A %a, %b into %dst : (T x2) -> R`. Verified: at least one input, axis in
 * [0, outputRank), input ranks and element types match the output, static non-axis
 * dimensions match, static axis sizes add up, one container kind, destination matches result.
 */
export const ConcatOp = defineOp({
  name: 'pim.concat',
  summary: 'Concatenate into a destination',
  operands: {
    inputs: variadic(TensorOrMemRef),
    outputBuffer: single(TensorOrMemRef),
  },
  results: { output: single(TensorOrMemRef) },
  attributes: { axis: prop(I64Attr) },
  interfaces: [destinationAt(-1), destinationBufferEffects],
  parse(p, state) {
    if (!p.parseKeyword('axis')) return false;
    const axis = p.parseInteger();
    if (axis === undefined) return false;
    const inputs = p.parseOperandList('none');
    if (!inputs || !p.parseKeyword('into')) return false;
    const dst = p.parseOperand();
    if (!dst) return false;
    const dictAt = p.getCurrentLocation();
    const dict = parseAttrDictWithProperties(p, state, []);
    if (!dict) return false;
    if (dict.some((a) => a.name === 'axis')) {
      p.emitError(M.duplicateProperty('axis'), dictAt);
      return false;
    }
    if (!p.parseColon()) return false;
    const at = p.getCurrentLocation();
    const types = parseCompactTypeList(p, 'paren');
    if (!types || !p.parseArrow()) return false;
    const result = p.parseType();
    if (!result) return false;
    if (types.length !== inputs.length) {
      p.emitError(M.typeCount('input', inputs.length, types.length), at);
      return false;
    }
    const operands: Value[] = [];
    if (!resolveAll(p, [...inputs, dst], [...types, result], operands)) return false;
    state.operands = operands;
    state.resultTypes = [result];
    setStateProperty(state, 'axis', IntegerAttr.get(IntegerType.get(p.context, 64), axis));
    return true;
  },
  print(op, p) {
    const axis = Number((op.getProperty('axis') as IntegerAttr).value);
    const n = op.numOperands - 1;
    p.print(` axis ${axis} `);
    p.printOperands(op.operands.slice(0, n));
    p.print(' into ');
    p.printOperand(op.getOperand(n));
    printAttrDictWithProperties(op, p, ['axis']);
    p.print(' : (');
    printCompactTypeList(
      p,
      op.operands.slice(0, n).map((v) => v.type)
    );
    p.print(') -> ');
    p.printType(op.getResult(0).type);
  },
  verify(v) {
    const op = v.op;
    const n = op.numOperands - 1;
    const out = op.getResult(0).type;
    const dst = op.getOperand(n).type;
    if (n < 1) {
      op.emitOpError(M.concatNoInputs);
      return false;
    }
    const all = [...op.operands.map((x) => x.type), out];
    if (all.some((t) => kindOf(t) !== kindOf(out))) {
      op.emitOpError(M.containerKind('inputs, destination and result'));
      return false;
    }
    if (!verifyDestinationResult(op, 'output', dst, out)) return false;
    const os = shapeOf(out)!;
    const axis = Number(v.axis.value);
    if (axis < 0 || axis >= os.length) {
      op.emitOpError(M.concatAxisRange(axis, os.length));
      return false;
    }
    let sum = 0;
    let allStatic = !isDynamic(os[axis]!);
    for (let i = 0; i < n; i++) {
      const t = op.getOperand(i).type;
      const s = shapeOf(t)!;
      if (s.length !== os.length) {
        op.emitOpError(M.concatRank(i, s.length, os.length));
        return false;
      }
      if (elementOf(t) !== elementOf(out)) {
        op.emitOpError(M.concatElement(i, fmt(elementOf(t)!), fmt(elementOf(out)!)));
        return false;
      }
      for (let d = 0; d < s.length; d++) {
        if (d === axis) continue;
        if (!isDynamic(s[d]!) && !isDynamic(os[d]!) && s[d] !== os[d]) {
          op.emitOpError(M.concatDim(i, d, s[d]!, os[d]!));
          return false;
        }
      }
      if (isDynamic(s[axis]!)) allStatic = false;
      else sum += s[axis]!;
    }
    if (allStatic && sum !== os[axis]) {
      op.emitOpError(M.concatAxisSum(sum, os[axis]!));
      return false;
    }
    return true;
  },
});

/** The vector and local data-movement op definitions. */
export const VECTOR_OPS: readonly AnyOpDefinition[] = [
  VReluOp,
  VSigmOp,
  VTanhOp,
  VSoftmaxOp,
  VAvgOp,
  VVAddOp,
  VVSubOp,
  VVMulOp,
  VVMaxOp,
  VVDMulOp,
  VMMOp,
  VMVOp,
  TransposeOp,
  ConcatOp,
];
