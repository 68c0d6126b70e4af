/**
 * What the logical compute ops (`spat.graph_compute`, `spat.graph_compute_batch`) and their
 * scheduled counterparts (`spat.scheduled_compute`, `spat.scheduled_compute_batch`) share: the
 * custom assembly (binding lists, lane range, shared outputs, derived `crossbarWeights`), the
 * body-argument names, the bindings of the compute interface and the structural checks of a
 * body. The two families word their diagnostics differently, so every function that reports
 * takes the family's message table.
 */
import {
  DenseArrayAttr,
  IndexType,
  IntegerAttr,
  IntegerType,
  Region,
  Traits,
  formatType,
  implement,
  type OpAsmArgument,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type OperationState,
  type SetValueNameFn,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import {
  parseBindingLists,
  parseBindingTypes,
  parseIntegerRangeList,
  parseLaneRange,
  parseOptionalSharedOuts,
  printBindingLists,
  printBindingTypes,
  printIntegerRangeList,
  printLaneRange,
  printSharedOuts,
  resolveBindings,
  setComputeBlockArgumentNames,
} from '@raptor-pim/compact-asm';
import { ComputeOpInterface, type ComputeBindings } from '../interfaces';
import { denseValues, intValue } from '../type-checks';
import { addParsedAttributes, setParsedProperty } from './elementwise';

const SEGMENTS = 'operandSegmentSizes';

/** The messages the shared parsers emit (each op family has its own wording). */
export interface ComputeAssemblyMessages {
  crossbarWeightsMismatch(written: number, derived: number): string;
  sharedOutsCount(outs: number, results: number): string;
  laneRangeMustStartAtZero(lower: number): string;
}

/** The messages the shared body checks emit. */
export interface ComputeVerifyMessages {
  argTypeMismatch(role: string, index: number, argType: string, outerType: string): string;
  weightNotConstant(index: number): string;
  captureOfComputeResult(user: string, producer: string): string;
  nonConstantCapture(user: string): string;
  emptyBody: string;
  blockArgCount(block: number, expected: number, got: number, order: string): string;
  laneArgNotIndex(type: string): string;
  laneCountNotPositive(n: number): string;
  coreIdsLength(got: number, lanes: number): string;
  coreIdNegative(index: number, id: number): string;
  coreIdDuplicate(id: number, first: number, second: number): string;
  batchResultfulTerminator(name: string): string;
  batchResultlessTerminator(name: string): string;
  batchYieldValues(n: number): string;
}

/** True when `op` is constant-like (`ConstantLike` trait or a `*.constant` op). */
export function isConstantLike(op: Operation | null): boolean {
  return op !== null && (op.hasTrait(Traits.ConstantLike) || op.name.endsWith('.constant'));
}

/** The `[weights, inputs]` operand segment sizes of a compute op. */
export function computeSegments(op: Operation): [number, number] {
  const s = denseValues(op.getAttr(SEGMENTS));
  return s && s.length === 2 ? [s[0]!, s[1]!] : [0, op.numOperands];
}

/** Distinct outer weights whose body argument (from `firstWeightArg`) is used in some block. */
export function countUsedWeights(region: Region, firstWeightArg: number, weights: readonly Value[]): number {
  const used = new Set<Value>();
  for (let b = region.firstBlock; b; b = b.next) {
    for (let k = 0; k < weights.length; k++) {
      const arg = b.arguments[firstWeightArg + k];
      if (arg && !arg.useEmpty) used.add(weights[k]!);
    }
  }
  return used.size;
}

/** The `crossbarWeights` a compute op prints: its used resident weights (0 without a body). */
function derivedCrossbarWeights(op: Operation, firstWeightArg: number): number {
  const body = op.regions[0];
  return body ? countUsedWeights(body, firstWeightArg, op.operands.slice(0, computeSegments(op)[0])) : 0;
}

/** The ComputeOpInterface of the graph and scheduled compute ops: single (one lane) or batched. */
export function computeOpInterface(batch: boolean) {
  return implement(ComputeOpInterface, {
    getBindings: (op) => computeBindingsOf(op, batch),
    getBody: (op) => op.regions[0]!,
    getLaneCount: batch ? (op) => intValue(op.getAttr('laneCount')) ?? 0 : () => 1,
  });
}

/** The bindings of a compute op; `hasLane` for batches (lane argument first). */
export function computeBindingsOf(op: Operation, hasLane: boolean): ComputeBindings {
  const [nw, ni] = computeSegments(op);
  const args = op.regions[0]?.firstBlock?.arguments ?? [];
  const base = hasLane ? 1 : 0;
  return {
    lane: hasLane ? args[0] : undefined,
    weights: op.operands.slice(0, nw),
    inputs: op.operands.slice(nw, nw + ni),
    weightArguments: args.slice(base, base + nw),
    inputArguments: args.slice(base + nw, base + nw + ni),
    outputArguments: args.slice(base + nw + ni),
  };
}

function parseCrossbarWeights(p: OpAsmParser): { value: number; at: ReturnType<OpAsmParser['getCurrentLocation']> } | undefined {
  if (!p.parseKeyword('crossbarWeights')) return undefined;
  const at = p.getCurrentLocation();
  const value = p.parseInteger();
  return value === undefined ? undefined : { value, at };
}

/** Parses the body and checks the written `crossbarWeights` against the one it derives. */
function parseBodyAndCheckWeights(
  p: OpAsmParser,
  state: OperationState,
  args: readonly OpAsmArgument[],
  firstWeightArg: number,
  weights: readonly Value[],
  cw: { value: number; at: ReturnType<OpAsmParser['getCurrentLocation']> },
  M: ComputeAssemblyMessages,
): boolean {
  const region = new Region();
  state.regions = [region];
  if (!p.parseRegion(region, args)) return false;
  const derived = countUsedWeights(region, firstWeightArg, weights);
  if (derived !== cw.value) {
    p.emitError(M.crossbarWeightsMismatch(cw.value, derived), cw.at);
    return false;
  }
  return true;
}

/** The type lists after the colon and the body, as both families print them. */
function printTypesAndBody(op: Operation, p: OpAsmPrinter, nw: number): void {
  p.printOptionalAttrDictWithKeyword(op.attributes);
  p.print(' : ');
  printBindingTypes(p, op.operands.slice(0, nw).map((v) => v.type), op.operands.slice(nw).map((v) => v.type), op.resultTypes);
  p.print(' ');
  p.printRegion(op.regions[0]!, false, true);
}

// ------------------------------------------------------------------ one compute node

/**
 * Parses `[%warg] = [%w] (%arg) = (%x) [coreId N] crossbarWeights N [attributes {...}] :
 * [W] (I) -> R { body }` (after the op name).
 */
export function parseCompute(p: OpAsmParser, state: OperationState, M: ComputeAssemblyMessages): boolean {
  const bindings = parseBindingLists(p);
  if (!bindings) return false;
  let coreId: number | undefined;
  if (p.parseOptionalKeyword('coreId') !== null) {
    const v = p.parseInteger();
    if (v === undefined) return false;
    coreId = v;
  }
  const cw = parseCrossbarWeights(p);
  if (!cw) return false;
  const attrs = p.parseOptionalAttrDictWithKeyword();
  if (!attrs || !p.parseColon()) return false;
  const types = parseBindingTypes(p);
  if (!types) return false;
  const operands: Value[] = [];
  if (!resolveBindings(p, bindings, types, operands)) return false;
  state.operands = operands;
  state.resultTypes = types.resultTypes;
  setParsedProperty(state, SEGMENTS, DenseArrayAttr.i32(p.context, [bindings.weights.length, bindings.inputs.length]));
  if (coreId !== undefined) setParsedProperty(state, 'coreId', IntegerAttr.get(IntegerType.get(p.context, 32), coreId));
  addParsedAttributes(state, attrs);
  return parseBodyAndCheckWeights(p, state, [...bindings.weightArgs, ...bindings.inputArgs], 0, operands.slice(0, bindings.weights.length), cw, M);
}

/** Prints what {@link parseCompute} reads. */
export function printCompute(op: Operation, p: OpAsmPrinter): void {
  const [nw] = computeSegments(op);
  const args = op.regions[0]?.firstBlock?.arguments ?? [];
  p.print(' ');
  printBindingLists(p, args.slice(0, nw), op.operands.slice(0, nw), args.slice(nw), op.operands.slice(nw));
  const coreId = intValue(op.getAttr('coreId'));
  if (coreId !== undefined) p.print(` coreId ${coreId}`);
  p.print(` crossbarWeights ${derivedCrossbarWeights(op, 0)}`);
  printTypesAndBody(op, p, nw);
}

/** Body arguments `%warg`, `%arg` (the names of the reference examples). */
export function setComputeArgumentNames(op: Operation, region: Region, setName: SetValueNameFn): void {
  const [nw] = computeSegments(op);
  const args = region.firstBlock?.arguments ?? [];
  setComputeBlockArgumentNames(setName, { weights: args.slice(0, nw), inputs: args.slice(nw), outputs: [] });
}

// ------------------------------------------------------------------ batches

/**
 * Parses `%lane = 0 to N [%warg] = [%w] (%arg) = (%x) [shared_outs(%out)] [coreIds [...]]
 * crossbarWeights N [attributes {...}] : [W] (I) -> R { body }` (after the op name).
 */
export function parseComputeBatch(p: OpAsmParser, state: OperationState, M: ComputeAssemblyMessages): boolean {
  const at = p.getCurrentLocation();
  const lane = parseLaneRange(p);
  if (!lane) return false;
  if (lane.lower !== 0) {
    p.emitError(M.laneRangeMustStartAtZero(lane.lower), at);
    return false;
  }
  const bindings = parseBindingLists(p);
  if (!bindings) return false;
  const outsAt = p.getCurrentLocation();
  const outs = parseOptionalSharedOuts(p);
  if (outs === undefined) return false;
  let coreIds: number[] | undefined;
  if (p.parseOptionalKeyword('coreIds') !== null) {
    coreIds = parseIntegerRangeList(p);
    if (!coreIds) return false;
  }
  const cw = parseCrossbarWeights(p);
  if (!cw) return false;
  const attrs = p.parseOptionalAttrDictWithKeyword();
  if (!attrs || !p.parseColon()) return false;
  const types = parseBindingTypes(p);
  if (!types) return false;
  const outArgs: OpAsmArgument[] = outs ?? [];
  if (outArgs.length !== types.resultTypes.length) {
    p.emitError(M.sharedOutsCount(outArgs.length, types.resultTypes.length), outsAt);
    return false;
  }
  outArgs.forEach((o, k) => (o.type = types.resultTypes[k]));
  const operands: Value[] = [];
  if (!resolveBindings(p, bindings, types, operands)) return false;
  state.operands = operands;
  state.resultTypes = types.resultTypes;
  setParsedProperty(state, 'laneCount', IntegerAttr.get(IntegerType.get(p.context, 32), lane.upper));
  if (coreIds) setParsedProperty(state, 'coreIds', DenseArrayAttr.i32(p.context, coreIds));
  setParsedProperty(state, SEGMENTS, DenseArrayAttr.i32(p.context, [bindings.weights.length, bindings.inputs.length]));
  addParsedAttributes(state, attrs);
  const args = [lane.lane, ...bindings.weightArgs, ...bindings.inputArgs, ...outArgs];
  return parseBodyAndCheckWeights(p, state, args, 1, operands.slice(0, bindings.weights.length), cw, M);
}

/** Prints what {@link parseComputeBatch} reads. */
export function printComputeBatch(op: Operation, p: OpAsmPrinter): void {
  const [nw, ni] = computeSegments(op);
  const args = op.regions[0]?.firstBlock?.arguments ?? [];
  p.print(' ');
  printLaneRange(p, args[0]!, 0, intValue(op.getAttr('laneCount')) ?? 0);
  p.print(' ');
  printBindingLists(p, args.slice(1, 1 + nw), op.operands.slice(0, nw), args.slice(1 + nw, 1 + nw + ni), op.operands.slice(nw));
  const outs = args.slice(1 + nw + ni);
  if (outs.length) {
    p.print(' ');
    printSharedOuts(p, outs);
  }
  const coreIds = denseValues(op.getAttr('coreIds'));
  if (coreIds) {
    p.print(' coreIds ');
    printIntegerRangeList(p, coreIds);
  }
  p.print(` crossbarWeights ${derivedCrossbarWeights(op, 1)}`);
  printTypesAndBody(op, p, nw);
}

/** Body arguments `%lane`, `%warg`, `%arg`, `%out`. */
export function setComputeBatchArgumentNames(op: Operation, region: Region, setName: SetValueNameFn): void {
  const [nw, ni] = computeSegments(op);
  const args = region.firstBlock?.arguments ?? [];
  setComputeBlockArgumentNames(setName, { lane: args[0], weights: args.slice(1, 1 + nw), inputs: args.slice(1 + nw, 1 + nw + ni), outputs: args.slice(1 + nw + ni) });
}

// ------------------------------------------------------------------ body checks

/** Each body argument has the exact type of the value bound to it. */
export function verifyArgTypes(op: Operation, role: string, args: readonly Value[], outer: readonly Type[], M: ComputeVerifyMessages): boolean {
  for (let k = 0; k < outer.length; k++) {
    if (args[k]!.type !== outer[k]) {
      op.emitOpError(M.argTypeMismatch(role, k, formatType(args[k]!.type), formatType(outer[k]!)));
      return false;
    }
  }
  return true;
}

/** Weights are compile-time computable (defined by constant-like ops). */
export function verifyWeightsConstant(op: Operation, weights: readonly Value[], M: ComputeVerifyMessages): boolean {
  for (let k = 0; k < weights.length; k++) {
    if (!isConstantLike(weights[k]!.definingOp)) {
      op.emitOpError(M.weightNotConstant(k));
      return false;
    }
  }
  return true;
}

/**
 * Values used in the body and defined outside it are constants (or sources of a recorded
 * `spat.deferred_communication`); direct captures of another compute's result get their own
 * message.
 */
export function verifyCaptures(op: Operation, M: ComputeVerifyMessages): boolean {
  let ok = true;
  op.walk((inner) => {
    if (!ok || inner === op) return;
    for (let i = 0; i < inner.numOperands; i++) {
      const v = inner.getOperand(i);
      const region = v.parentRegion;
      const inside = region !== null && region.parentOp !== null && op.isAncestor(region.parentOp);
      if (inside) continue;
      const def = v.definingOp;
      if (isConstantLike(def) || inner.name === 'spat.deferred_communication') continue;
      if (def && def.getInterface(ComputeOpInterface)) op.emitOpError(M.captureOfComputeResult(inner.name, def.name));
      else op.emitOpError(M.nonConstantCapture(inner.name));
      ok = false;
      return;
    }
  });
  return ok;
}

/**
 * The body checks of a single compute node: a nonempty body whose blocks all take (weights,
 * inputs) with the bound types.
 */
export function verifyComputeArguments(op: Operation, M: ComputeVerifyMessages): boolean {
  const region = op.regions[0]!;
  if (region.empty) {
    op.emitOpError(M.emptyBody);
    return false;
  }
  const [nw, ni] = computeSegments(op);
  const weights = op.operands.slice(0, nw);
  const inputs = op.operands.slice(nw, nw + ni);
  let index = 0;
  for (let b = region.firstBlock; b; b = b.next, index++) {
    const args = b.arguments;
    if (args.length !== weights.length + inputs.length) {
      op.emitOpError(M.blockArgCount(index, weights.length + inputs.length, args.length, 'weights then inputs'));
      return false;
    }
    if (!verifyArgTypes(op, 'weight', args.slice(0, weights.length), weights.map((v) => v.type), M)) return false;
    if (!verifyArgTypes(op, 'input', args.slice(weights.length), inputs.map((v) => v.type), M)) return false;
  }
  return true;
}

/**
 * The checks both batch ops make: a positive lane count, a nonempty body whose blocks take
 * (lane: index, weights, inputs, outputs) with the bound types, constant weights, no
 * nonconstant captures, `coreIds` (when present) one distinct nonnegative core per lane, and
 * each block ending in `spat.in_parallel` (with results) or an empty `spat.yield`.
 */
export function verifyComputeBatch(op: Operation, M: ComputeVerifyMessages): boolean {
  const laneCount = intValue(op.getAttr('laneCount')) ?? 0;
  if (laneCount <= 0) {
    op.emitOpError(M.laneCountNotPositive(laneCount));
    return false;
  }
  const region = op.regions[0]!;
  if (region.empty) {
    op.emitOpError(M.emptyBody);
    return false;
  }
  const [nw, ni] = computeSegments(op);
  const weights = op.operands.slice(0, nw);
  const inputs = op.operands.slice(nw, nw + ni);
  const results = op.resultTypes;
  const expected = 1 + weights.length + inputs.length + results.length;
  let index = 0;
  for (let b = region.firstBlock; b; b = b.next, index++) {
    const args = b.arguments;
    if (args.length !== expected) {
      op.emitOpError(M.blockArgCount(index, expected, args.length, 'lane, weights, inputs, outputs'));
      return false;
    }
    if (!(args[0]!.type instanceof IndexType)) {
      op.emitOpError(M.laneArgNotIndex(formatType(args[0]!.type)));
      return false;
    }
    if (!verifyArgTypes(op, 'weight', args.slice(1, 1 + weights.length), weights.map((v) => v.type), M)) return false;
    if (!verifyArgTypes(op, 'input', args.slice(1 + weights.length), inputs.map((v) => v.type), M)) return false;
    if (!verifyArgTypes(op, 'output', args.slice(1 + weights.length + inputs.length), results, M)) return false;
  }
  if (!verifyWeightsConstant(op, weights, M) || !verifyCaptures(op, M)) return false;
  const coreIds = denseValues(op.getAttr('coreIds'));
  if (coreIds) {
    if (coreIds.length !== laneCount) {
      op.emitOpError(M.coreIdsLength(coreIds.length, laneCount));
      return false;
    }
    const seen = new Map<number, number>();
    for (let k = 0; k < coreIds.length; k++) {
      const id = coreIds[k]!;
      if (id < 0) {
        op.emitOpError(M.coreIdNegative(k, id));
        return false;
      }
      const first = seen.get(id);
      if (first !== undefined) {
        op.emitOpError(M.coreIdDuplicate(id, first, k));
        return false;
      }
      seen.set(id, k);
    }
  }
  for (let b = region.firstBlock; b; b = b.next) {
    const last = b.lastOp;
    const name = last?.name ?? '<none>';
    if (results.length) {
      if (name !== 'spat.in_parallel') {
        op.emitOpError(M.batchResultfulTerminator(name));
        return false;
      }
    } else if (name !== 'spat.yield') {
      op.emitOpError(M.batchResultlessTerminator(name));
      return false;
    } else if (last!.numOperands) {
      op.emitOpError(M.batchYieldValues(last!.numOperands));
      return false;
    }
  }
  return true;
}
