/**
 * Core streams of the `pim` dialect: `pim.core`, `pim.core_batch` and their terminator
 * `pim.halt`.
 */
import {
  DenseArrayAttr,
  DenseI32ArrayAttr,
  I32Attr,
  IndexType,
  IntegerAttr,
  IntegerType,
  Region,
  Traits,
  defineOp,
  optProp,
  prop,
  variadic,
  type AnyOpDefinition,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import {
  parseBindingLists,
  parseBindingTypes,
  parseCompactResultTypes,
  parseCompactTypeList,
  parseIntegerRangeList,
  formatIntegerRangeList,
  parseLaneRange,
  printBindingLists,
  printBindingTypes,
  printDelimitedCompactTypeList,
  resolveBindings,
  setComputeBlockArgumentNames,
} from '@raptor-pim/compact-asm';
import { PimMessages as M } from '../../diagnostics';
import { fmt, setStateProperty } from '../asm';
import { MemcpDhOp, MemcpHdOp } from './transfer';

const SEGMENTS = 'operandSegmentSizes';

/** True when `op` is constant-like (`ConstantLike` trait or a `*.constant` op). */
export function isConstantLike(op: Operation | null): boolean {
  return op !== null && (op.hasTrait(Traits.ConstantLike) || op.name.endsWith('.constant'));
}

/** True when operand `index` of `user` is an explicit host operand (memcp_hd source, memcp_dh destination). */
export function isHostOperand(user: Operation, index: number): boolean {
  return (MemcpHdOp.isInstance(user) && index === 1) || (MemcpDhOp.isInstance(user) && index === 0);
}

function intProp(op: Operation, name: string): number | undefined {
  const a = op.getProperty(name);
  return a instanceof IntegerAttr ? Number(a.value) : undefined;
}

function denseProp(op: Operation, name: string): number[] | undefined {
  const a = op.getProperty(name);
  return a instanceof DenseArrayAttr ? (a.values as readonly (number | bigint)[]).map(Number) : undefined;
}

/** Segment sizes `[weights, inputs]` of a core batch. */
export function coreBatchSegments(op: Operation): [number, number] {
  const s = denseProp(op, SEGMENTS);
  return s && s.length === 2 ? [s[0]!, s[1]!] : [0, op.numOperands];
}

function verifyCaptures(op: Operation): boolean {
  let ok = true;
  op.walk((inner) => {
    if (!ok || inner === op) return;
    for (let i = 0; i < inner.numOperands; i++) {
      const v = inner.getOperand(i);
      const region = v.parentRegion;
      const inside = region !== null && region.parentOp !== null && op.isAncestor(region.parentOp);
      if (inside || isConstantLike(v.definingOp) || isHostOperand(inner, i)) continue;
      op.emitOpError(M.coreCapture(inner.name));
      ok = false;
      return;
    }
  });
  return ok;
}

function verifyBody(op: Operation, expected: readonly Type[], order: string, laneFirst: boolean): boolean {
  const region = op.regions[0]!;
  let blocks = 0;
  for (let b = region.firstBlock; b; b = b.next) blocks++;
  if (blocks !== 1) {
    op.emitOpError(M.coreOneBlock(blocks));
    return false;
  }
  const args = region.firstBlock!.arguments;
  if (args.length !== expected.length) {
    op.emitOpError(M.coreArgCount(expected.length, args.length, order));
    return false;
  }
  for (let k = 0; k < args.length; k++) {
    if (args[k]!.type === expected[k]) continue;
    if (k === 0 && laneFirst) op.emitOpError(M.laneType(fmt(args[k]!.type)));
    else op.emitOpError(M.coreArgType(k, fmt(args[k]!.type), fmt(expected[k]!)));
    return false;
  }
  return verifyCaptures(op);
}

function parseBody(p: OpAsmParser, region: Region, args: Parameters<OpAsmParser['parseRegion']>[1]): boolean {
  return p.parseRegion(region, args);
}

function printBody(op: Operation, p: OpAsmPrinter): void {
  p.print(' ');
  p.printRegion(op.regions[0]!, false, true);
}

/**
 * `pim.core [%w] = [%x] coreId N : [T] -> () { ... }`: one core stream. Body arguments are the
 * weights. Verified: one block, one exact-type argument per weight, and the capture rule
 * (outside values used in the body are constants or explicit host-transfer operands).
 */
export const CoreOp = defineOp({
  name: 'pim.core',
  summary: 'Execute one core stream',
  operands: { weights: variadic() },
  attributes: { coreId: prop(I32Attr) },
  regions: { body: { description: 'the core stream' } },
  parse(p, state) {
    const args = p.parseArgumentList('square');
    if (!args || !p.parseEqual()) return false;
    const at = p.getCurrentLocation();
    const weights = p.parseOperandList('square');
    if (!weights || !p.parseKeyword('coreId')) return false;
    const coreId = p.parseInteger();
    if (coreId === undefined) return false;
    const attrs = p.parseOptionalAttrDictWithKeyword();
    if (!attrs || !p.parseColon()) return false;
    const types = parseCompactTypeList(p, 'square');
    if (!types || !p.parseArrow()) return false;
    const results = parseCompactResultTypes(p);
    if (!results) return false;
    if (args.length !== weights.length || types.length !== weights.length) {
      p.emitError(M.typeCount('weight', weights.length, args.length !== weights.length ? args.length : types.length), at);
      return false;
    }
    const operands: Value[] = [];
    for (let k = 0; k < weights.length; k++) {
      if (!p.resolveOperand(weights[k]!, types[k]!, operands)) return false;
      args[k]!.type = types[k]!;
    }
    state.operands = operands;
    state.resultTypes = results;
    setStateProperty(state, 'coreId', IntegerAttr.get(IntegerType.get(p.context, 32), coreId));
    const a = state.attributes instanceof Map ? new Map(state.attributes) : new Map(Object.entries(state.attributes ?? {}));
    for (const { name, value } of attrs) a.set(name, value);
    state.attributes = a;
    const region = new Region();
    state.regions = [region];
    return parseBody(p, region, args);
  },
  print(op, p) {
    const args = op.regions[0]?.firstBlock?.arguments ?? [];
    p.print(' [');
    p.printOperands(args);
    p.print('] = [');
    p.printOperands(op.operands);
    p.print(`] coreId ${intProp(op, 'coreId') ?? 0}`);
    p.printOptionalAttrDictWithKeyword(op.attributes);
    p.print(' : ');
    printDelimitedCompactTypeList(
      p,
      op.operands.map((v) => v.type),
      '[',
      ']'
    );
    p.print(' -> ()');
    printBody(op, p);
  },
  getAsmBlockArgumentNames(_op, region, setName) {
    setComputeBlockArgumentNames(setName, {
      weights: region.firstBlock?.arguments ?? [],
      inputs: [],
      outputs: [],
    });
  },
  verifyRegions: (v) =>
    verifyBody(
      v.op,
      v.op.operands.map((x) => x.type),
      'weights',
      false
    ),
});

/**
 * `pim.core_batch %lane = 0 to N [%w] = [%x] (%a) = (%y) coreIds [...] : [T] (U) -> () { ... }`:
 * `laneCount` equivalent core streams. Verified: one block; positive laneCount; body
 * arguments lane (index), weights, inputs with exact types; the capture rule.
 */
export const CoreBatchOp = defineOp({
  name: 'pim.core_batch',
  summary: 'Execute equivalent core streams',
  operands: { weights: variadic(), inputs: variadic() },
  attributes: { laneCount: prop(I32Attr), coreIds: optProp(DenseI32ArrayAttr) },
  regions: { body: { description: 'the common core stream' } },
  parse(p, state) {
    const at = p.getCurrentLocation();
    const lane = parseLaneRange(p);
    if (!lane) return false;
    if (lane.lower !== 0) {
      p.emitError(M.laneRangeStart(lane.lower), at);
      return false;
    }
    const bindings = parseBindingLists(p);
    if (!bindings) return false;
    let coreIds: number[] | undefined;
    if (p.parseOptionalKeyword('coreIds') !== null) {
      coreIds = parseIntegerRangeList(p);
      if (!coreIds) return false;
    }
    const attrs = p.parseOptionalAttrDictWithKeyword();
    if (!attrs || !p.parseColon()) return false;
    const types = parseBindingTypes(p);
    if (!types) return false;
    const operands: Value[] = [];
    if (!resolveBindings(p, bindings, types, operands)) return false;
    state.operands = operands;
    state.resultTypes = types.resultTypes;
    setStateProperty(state, 'laneCount', IntegerAttr.get(IntegerType.get(p.context, 32), lane.upper));
    if (coreIds) setStateProperty(state, 'coreIds', DenseArrayAttr.i32(p.context, coreIds));
    setStateProperty(state, SEGMENTS, DenseArrayAttr.i32(p.context, [bindings.weights.length, bindings.inputs.length]));
    const a = state.attributes instanceof Map ? new Map(state.attributes) : new Map(Object.entries(state.attributes ?? {}));
    for (const { name, value } of attrs) a.set(name, value);
    state.attributes = a;
    const region = new Region();
    state.regions = [region];
    return parseBody(p, region, [lane.lane, ...bindings.weightArgs, ...bindings.inputArgs]);
  },
  print(op, p) {
    const [nw] = coreBatchSegments(op);
    const args = op.regions[0]?.firstBlock?.arguments ?? [];
    p.print(' ');
    p.printOperand(args[0]!);
    p.print(` = 0 to ${intProp(op, 'laneCount') ?? 0} `);
    printBindingLists(p, args.slice(1, 1 + nw), op.operands.slice(0, nw), args.slice(1 + nw), op.operands.slice(nw));
    const coreIds = denseProp(op, 'coreIds');
    if (coreIds) p.print(` coreIds [${formatIntegerRangeList(coreIds)}]`);
    p.printOptionalAttrDictWithKeyword(op.attributes);
    p.print(' : ');
    printBindingTypes(
      p,
      op.operands.slice(0, nw).map((v) => v.type),
      op.operands.slice(nw).map((v) => v.type),
      op.resultTypes
    );
    printBody(op, p);
  },
  getAsmBlockArgumentNames(op, region, setName) {
    const [nw] = coreBatchSegments(op);
    const args = region.firstBlock?.arguments ?? [];
    setComputeBlockArgumentNames(setName, {
      lane: args[0],
      weights: args.slice(1, 1 + nw),
      inputs: args.slice(1 + nw),
      outputs: [],
    });
  },
  verify(v) {
    const n = Number(v.laneCount.value);
    if (n <= 0) {
      v.op.emitOpError(M.laneCount(n));
      return false;
    }
    return true;
  },
  verifyRegions: (v) => verifyBody(v.op, [IndexType.get(v.op.context), ...v.op.operands.map((x) => x.type)], 'lane, weights, inputs', true),
});

/** `pim.halt`: terminates a core stream. */
export const HaltOp = defineOp({
  name: 'pim.halt',
  summary: 'Stop a core stream',
  traits: [Traits.IsTerminator],
  parse: (p, state) => {
    const attrs = p.parseOptionalAttrDict();
    if (!attrs) return false;
    state.attributes = new Map(attrs.map((a) => [a.name, a.value]));
    return true;
  },
  print: (op, p) => p.printOptionalAttrDict(op.attributes),
});

/** The core-stream op definitions. */
export const CORE_OPS: readonly AnyOpDefinition[] = [CoreOp, CoreBatchOp, HaltOp];
