/**
 * The scheduled-compute, communication and synchronization ops of the `spat` dialect:
 * `spat.scheduled_compute`, `spat.scheduled_compute_batch`, `spat.block_yield`,
 * `spat.channel_send`, `spat.channel_receive`, `spat.host_store_sync`, `spat.host_wait_load`,
 * `spat.sync`, `spat.wait`, `spat.deferred_communication`, `spat.deferred_source_select`
 * (reference order). The dialect registration imports {@link SCHEDULING_OPS}.
 */
import {
  AnyType,
  DenseArrayAttr,
  DenseI32ArrayAttr,
  I32Attr,
  I64Attr,
  Index,
  IndexType,
  IntegerAttr,
  IntegerType,
  MemRefType,
  RankedTensorType,
  Region,
  Traits,
  UnrankedTensorType,
  VectorType,
  defineOp,
  implement,
  formatType,
  optAttr,
  optProp,
  prop,
  single,
  typeConstraint,
  variadic,
  type AnyOpDefinition,
  type Attribute,
  type NamedAttribute,
  type OpAsmArgument,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type OperationState,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import {
  parseBindingLists,
  parseBindingTypes,
  parseCompactFunctionType,
  parseIntegerRangeList,
  parseLaneRange,
  parseOptionalSharedOuts,
  printBindingLists,
  printBindingTypes,
  printCompactFunctionType,
  printIntegerRangeList,
  printLaneRange,
  printSharedOuts,
  resolveBindings,
  setComputeBlockArgumentNames,
} from '@raptor-pim/compact-asm';
import { SchedulingMessages as M } from '../../interpreter/scheduling-messages';
import { ComputeOpInterface, type ComputeBindings } from '../interfaces';
import { countUsedWeights } from './compute';

// ------------------------------------------------------------------ shared helpers

/** MLIR's `AnyShaped`: tensors, memrefs and vectors. */
export const AnyShaped = typeConstraint(
  'shaped of any type values',
  (t) => t instanceof RankedTensorType || t instanceof UnrankedTensorType || t instanceof MemRefType || t instanceof VectorType,
);

const SEGMENTS = 'operandSegmentSizes';

function setProperty(state: OperationState, name: string, value: Attribute): void {
  const props = state.properties instanceof Map ? new Map(state.properties) : new Map(Object.entries(state.properties ?? {}));
  props.set(name, value);
  state.properties = props;
}

function addAttributes(state: OperationState, list: readonly NamedAttribute[]): void {
  if (!list.length) return;
  const attrs = state.attributes instanceof Map ? new Map(state.attributes) : new Map(Object.entries(state.attributes ?? {}));
  for (const { name, value } of list) attrs.set(name, value);
  state.attributes = attrs;
}

function intValue(a: Attribute | undefined): number | undefined {
  return a instanceof IntegerAttr ? Number(a.value) : undefined;
}

function denseValues(a: Attribute | undefined): number[] | undefined {
  return a instanceof DenseArrayAttr ? (a.values as readonly (number | bigint)[]).map((v) => Number(v)) : undefined;
}

/** True when `op` is constant-like (`ConstantLike` trait or `*.constant`). */
function isConstantLike(op: Operation | null): boolean {
  return op !== null && (op.hasTrait(Traits.ConstantLike) || op.name.endsWith('.constant'));
}

/**
 * Number of distinct resident weights used by a compute body: distinct outer weight values
 * whose body argument has at least one use (the printer derives `crossbarWeights` from it).
 */
export function countResidentWeights(op: Operation, firstWeightArg: number, numWeights: number, weights: readonly Value[]): number {
  const body = op.regions[0];
  return body ? countUsedWeights(body, firstWeightArg, weights.slice(0, numWeights)) : 0;
}

function parseCrossbarWeights(p: OpAsmParser): { value: number; at: ReturnType<OpAsmParser['getCurrentLocation']> } | undefined {
  if (!p.parseKeyword('crossbarWeights')) return undefined;
  const at = p.getCurrentLocation();
  const value = p.parseInteger();
  return value === undefined ? undefined : { value, at };
}

function printCustomAttributes(op: Operation, p: OpAsmPrinter): void {
  p.printOptionalAttrDictWithKeyword(op.attributes);
}

/** The operand segment sizes `[weights, inputs]`. */
function segments(op: Operation): [number, number] {
  const s = denseValues(op.getAttr(SEGMENTS));
  return s && s.length === 2 ? [s[0]!, s[1]!] : [0, op.numOperands];
}

/**
 * Checks that values used inside `op`'s body and defined outside it are constants (or are
 * sources of a recorded `spat.deferred_communication`); direct captures of another compute's
 * result get a dedicated message.
 */
function verifyCaptures(op: Operation): boolean {
  let ok = true;
  op.walk((inner) => {
    if (!ok || inner === op) return;
    for (let i = 0; i < inner.numOperands; i++) {
      const v = inner.getOperand(i);
      const def = v.definingOp;
      const region = v.parentRegion;
      const inside = region !== null && region.parentOp !== null && op.isAncestor(region.parentOp);
      if (inside) continue;
      if (isConstantLike(def)) continue;
      if (inner.name === 'spat.deferred_communication') continue;
      if (def && /^spat\.(graph|scheduled)_compute(_batch)?$/.test(def.name)) {
        op.emitOpError(M.captureOfComputeResult(inner.name, def.name));
      } else {
        op.emitOpError(M.nonConstantCapture(inner.name));
      }
      ok = false;
      return;
    }
  });
  return ok;
}

function verifyWeightsConstant(op: Operation, weights: readonly Value[]): boolean {
  for (let k = 0; k < weights.length; k++) {
    if (!isConstantLike(weights[k]!.definingOp)) {
      op.emitOpError(M.weightNotConstant(k));
      return false;
    }
  }
  return true;
}

function verifyArgTypes(op: Operation, role: string, args: readonly Value[], outer: readonly Type[]): boolean {
  for (let k = 0; k < outer.length; k++) {
    if (args[k]!.type !== outer[k]) {
      op.emitOpError(M.argTypeMismatch(role, k, formatType(args[k]!.type), formatType(outer[k]!)));
      return false;
    }
  }
  return true;
}

function verifyYieldTypes(op: Operation, yielded: readonly Value[], results: readonly Type[]): boolean {
  if (yielded.length !== results.length) {
    op.emitOpError(M.yieldCount(yielded.length, results.length));
    return false;
  }
  for (let k = 0; k < results.length; k++) {
    if (yielded[k]!.type !== results[k]) {
      op.emitOpError(M.yieldType(k, formatType(yielded[k]!.type), formatType(results[k]!)));
      return false;
    }
  }
  return true;
}

/** The bindings of a scheduled op: `firstArg` is 1 for batches (lane argument first). */
function scheduledBindings(op: Operation, firstArg: number): ComputeBindings {
  const [nw, ni] = segments(op);
  const args = op.regions[0]?.firstBlock?.arguments ?? [];
  return {
    lane: firstArg ? args[0] : undefined,
    weights: op.operands.slice(0, nw),
    inputs: op.operands.slice(nw, nw + ni),
    weightArguments: args.slice(firstArg, firstArg + nw),
    inputArguments: args.slice(firstArg + nw, firstArg + nw + ni),
    outputArguments: args.slice(firstArg + nw + ni),
  };
}

// ------------------------------------------------------------------ spat.scheduled_compute

/**
 * `spat.scheduled_compute`: one placed compute node. Operands are weights then inputs
 * (`operandSegmentSizes`), bound to body arguments in that order; `coreId` (optional i32
 * property) is the placement; `crossbarWeights` is derived by the printer.
 */
export const ScheduledComputeOp = defineOp({
  name: 'spat.scheduled_compute',
  summary: 'Placed compute node',
  operands: { weights: variadic(), inputs: variadic() },
  results: { outputs: variadic() },
  attributes: { coreId: optProp(I32Attr) },
  regions: { body: { description: 'any region' } },
  interfaces: [
    implement(ComputeOpInterface, {
      getBindings: (op) => scheduledBindings(op, 0),
      getBody: (op) => op.regions[0]!,
      getLaneCount: () => 1,
    }),
  ],
  parse(p, state) {
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
    setProperty(state, SEGMENTS, DenseArrayAttr.i32(p.context, [bindings.weights.length, bindings.inputs.length]));
    if (coreId !== undefined) setProperty(state, 'coreId', IntegerAttr.get(IntegerType.get(p.context, 32), coreId));
    addAttributes(state, attrs);
    const region = new Region();
    state.regions = [region];
    if (!p.parseRegion(region, [...bindings.weightArgs, ...bindings.inputArgs])) return false;
    const derived = countUsedWeights(region, 0, operands.slice(0, bindings.weights.length));
    if (derived !== cw.value) {
      p.emitError(M.crossbarWeightsMismatch(cw.value, derived), cw.at);
      return false;
    }
    return true;
  },
  print(op, p) {
    const [nw] = segments(op);
    const entry = op.regions[0]?.firstBlock;
    const args = entry ? entry.arguments : [];
    p.print(' ');
    printBindingLists(p, args.slice(0, nw), op.operands.slice(0, nw), args.slice(nw), op.operands.slice(nw));
    const coreId = intValue(op.getAttr('coreId'));
    if (coreId !== undefined) p.print(` coreId ${coreId}`);
    p.print(` crossbarWeights ${countResidentWeights(op, 0, nw, op.operands.slice(0, nw))}`);
    printCustomAttributes(op, p);
    p.print(' : ');
    printBindingTypes(p, op.operands.slice(0, nw).map((v) => v.type), op.operands.slice(nw).map((v) => v.type), op.resultTypes);
    p.print(' ');
    p.printRegion(op.regions[0]!, false, true);
  },
  getAsmBlockArgumentNames(op, region, setName) {
    const [nw] = segments(op);
    const args = region.firstBlock?.arguments ?? [];
    setComputeBlockArgumentNames(setName, { weights: args.slice(0, nw), inputs: args.slice(nw), outputs: [] });
  },
  verifyRegions(view) {
    const op = view.op;
    const region = op.regions[0]!;
    if (region.empty) {
      view.emitOpError(M.emptyBody);
      return false;
    }
    const weights = view.weights;
    const inputs = view.inputs;
    let index = 0;
    for (let b = region.firstBlock; b; b = b.next, index++) {
      const args = b.arguments;
      if (args.length !== weights.length + inputs.length) {
        view.emitOpError(M.blockArgCount(index, weights.length + inputs.length, args.length, 'weights then inputs'));
        return false;
      }
      if (!verifyArgTypes(op, 'weight', args.slice(0, weights.length), weights.map((v) => v.type))) return false;
      if (!verifyArgTypes(op, 'input', args.slice(weights.length), inputs.map((v) => v.type))) return false;
    }
    const entry = region.firstBlock!;
    const last = entry.lastOp;
    if (region.firstBlock !== region.lastBlock || !last || last.name !== 'spat.yield') {
      let blocks = 0;
      for (let b = region.firstBlock; b; b = b.next) blocks++;
      view.emitOpError(M.scalarRegionShape(blocks, region.lastBlock?.lastOp?.name ?? '<none>'));
      return false;
    }
    if (!verifyYieldTypes(op, last.operands, op.resultTypes)) return false;
    for (let k = 0; k < inputs.length; k++) {
      if (entry.arguments[weights.length + k]!.useEmpty) {
        view.emitOpError(M.unusedInput(k));
        return false;
      }
    }
    if (!verifyWeightsConstant(op, weights)) return false;
    return verifyCaptures(op);
  },
});

// ------------------------------------------------------------------ spat.scheduled_compute_batch

/**
 * `spat.scheduled_compute_batch`: `laneCount` equivalent scheduled instances with one body
 * (arguments: lane, weights, inputs, shared outputs). `coreIds` (optional dense i32) places
 * lane k on core `coreIds[k]`.
 */
export const ScheduledComputeBatchOp = defineOp({
  name: 'spat.scheduled_compute_batch',
  summary: 'Placed batch of equivalent computations',
  operands: { weights: variadic(), inputs: variadic() },
  results: { outputs: variadic() },
  attributes: { laneCount: prop(I32Attr), coreIds: optProp(DenseI32ArrayAttr) },
  regions: { body: { description: 'any region' } },
  interfaces: [
    implement(ComputeOpInterface, {
      getBindings: (op) => scheduledBindings(op, 1),
      getBody: (op) => op.regions[0]!,
      getLaneCount: (op) => intValue(op.getAttr('laneCount')) ?? 0,
    }),
  ],
  parse(p, state) {
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
    const i32 = IntegerType.get(p.context, 32);
    setProperty(state, 'laneCount', IntegerAttr.get(i32, lane.upper));
    if (coreIds) setProperty(state, 'coreIds', DenseArrayAttr.i32(p.context, coreIds));
    setProperty(state, SEGMENTS, DenseArrayAttr.i32(p.context, [bindings.weights.length, bindings.inputs.length]));
    addAttributes(state, attrs);
    const region = new Region();
    state.regions = [region];
    if (!p.parseRegion(region, [lane.lane, ...bindings.weightArgs, ...bindings.inputArgs, ...outArgs])) return false;
    const derived = countUsedWeights(region, 1, operands.slice(0, bindings.weights.length));
    if (derived !== cw.value) {
      p.emitError(M.crossbarWeightsMismatch(cw.value, derived), cw.at);
      return false;
    }
    return true;
  },
  print(op, p) {
    const [nw, ni] = segments(op);
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
    p.print(` crossbarWeights ${countResidentWeights(op, 1, nw, op.operands.slice(0, nw))}`);
    printCustomAttributes(op, p);
    p.print(' : ');
    printBindingTypes(p, op.operands.slice(0, nw).map((v) => v.type), op.operands.slice(nw).map((v) => v.type), op.resultTypes);
    p.print(' ');
    p.printRegion(op.regions[0]!, false, true);
  },
  getAsmBlockArgumentNames(op, region, setName) {
    const [nw, ni] = segments(op);
    const args = region.firstBlock?.arguments ?? [];
    setComputeBlockArgumentNames(setName, {
      lane: args[0],
      weights: args.slice(1, 1 + nw),
      inputs: args.slice(1 + nw, 1 + nw + ni),
      outputs: args.slice(1 + nw + ni),
    });
  },
  verify(view) {
    const op = view.op;
    const laneCount = Number(view.laneCount.value);
    if (laneCount <= 0) {
      view.emitOpError(M.laneCountNotPositive(laneCount));
      return false;
    }
    const region = op.regions[0]!;
    if (region.empty) {
      view.emitOpError(M.emptyBody);
      return false;
    }
    const weights = view.weights;
    const inputs = view.inputs;
    const results = op.resultTypes;
    const expected = 1 + weights.length + inputs.length + results.length;
    let index = 0;
    for (let b = region.firstBlock; b; b = b.next, index++) {
      const args = b.arguments;
      if (args.length !== expected) {
        view.emitOpError(M.blockArgCount(index, expected, args.length, 'lane, weights, inputs, outputs'));
        return false;
      }
      if (!(args[0]!.type instanceof IndexType)) {
        view.emitOpError(M.laneArgNotIndex(formatType(args[0]!.type)));
        return false;
      }
      if (!verifyArgTypes(op, 'weight', args.slice(1, 1 + weights.length), weights.map((v) => v.type))) return false;
      if (!verifyArgTypes(op, 'input', args.slice(1 + weights.length), inputs.map((v) => v.type))) return false;
      if (!verifyArgTypes(op, 'output', args.slice(1 + weights.length + inputs.length), results)) return false;
    }
    if (!verifyWeightsConstant(op, weights)) return false;
    if (!verifyCaptures(op)) return false;
    const coreIds = view.coreIds ? denseValues(view.coreIds)! : undefined;
    if (coreIds) {
      if (coreIds.length !== laneCount) {
        view.emitOpError(M.coreIdsLength(coreIds.length, laneCount));
        return false;
      }
      const seen = new Map<number, number>();
      for (let k = 0; k < coreIds.length; k++) {
        const id = coreIds[k]!;
        if (id < 0) {
          view.emitOpError(M.coreIdNegative(k, id));
          return false;
        }
        const first = seen.get(id);
        if (first !== undefined) {
          view.emitOpError(M.coreIdDuplicate(id, first, k));
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
          view.emitOpError(M.batchResultfulTerminator(name));
          return false;
        }
      } else {
        if (name !== 'spat.yield') {
          view.emitOpError(M.batchResultlessTerminator(name));
          return false;
        }
        if (last!.numOperands) {
          view.emitOpError(M.batchYieldValues(last!.numOperands));
          return false;
        }
      }
    }
    return true;
  },
});

// ------------------------------------------------------------------ spat.block_yield

/** `spat.block_yield %a : T next ^bb1`: structural terminator of a scheduled block. */
export const BlockYieldOp = defineOp({
  name: 'spat.block_yield',
  summary: 'Structural scheduled block terminator',
  operands: { outputs: variadic() },
  successors: { next: { variadic: true } },
  traits: [Traits.IsTerminator, Traits.HasParent('spat.scheduled_compute')],
  parse(p, state) {
    const ops = p.parseOperandList();
    if (!ops) return false;
    const successors = [];
    if (p.parseOptionalKeyword('next') !== null) {
      const b = p.parseSuccessor();
      if (!b) return false;
      successors.push(b);
    }
    if (!p.parseColon()) return false;
    let types: Type[] = [];
    if (ops.length) {
      const t = p.parseTypeList();
      if (!t) return false;
      types = t;
    }
    const values: Value[] = [];
    if (!p.resolveOperands(ops, types, values, p.getNameLocation())) return false;
    state.operands = values;
    state.successors = successors;
    return true;
  },
  print(op, p) {
    if (op.numOperands) {
      p.print(' ');
      p.printOperands(op.operands);
    }
    if (op.numSuccessors) {
      p.print(' next ');
      p.printSuccessor(op.getSuccessor(0));
    }
    p.print(' :');
    if (op.numOperands) {
      p.print(' ');
      p.printTypes(op.operands.map((v) => v.type));
    }
  },
  verify(view) {
    const op = view.op;
    if (op.numSuccessors > 1) {
      view.emitOpError(M.blockYieldSuccessors(op.numSuccessors));
      return false;
    }
    if (op.numSuccessors === 1) {
      const args = op.getSuccessor(0).arguments;
      if (args.length !== op.numOperands) {
        view.emitOpError(M.blockYieldArgCount(op.numOperands, args.length));
        return false;
      }
      for (let k = 0; k < args.length; k++) {
        if (args[k]!.type !== op.getOperand(k).type) {
          view.emitOpError(M.blockYieldArgType(k, formatType(op.getOperand(k).type), formatType(args[k]!.type)));
          return false;
        }
      }
    }
    return true;
  },
});

// ------------------------------------------------------------------ channels

function parseIndexOperands(
  p: OpAsmParser,
  keywords: readonly (string | null)[],
): ReturnType<OpAsmParser['parseOperand']>[] | undefined {
  const out: ReturnType<OpAsmParser['parseOperand']>[] = [];
  for (const k of keywords) {
    if (k !== null && !p.parseKeyword(k)) return undefined;
    const o = p.parseOperand();
    if (!o) return undefined;
    out.push(o);
  }
  return out;
}

function resolveIndexOperands(p: OpAsmParser, ops: readonly NonNullable<ReturnType<OpAsmParser['parseOperand']>>[], out: Value[]): boolean {
  return p.resolveOperands(ops, IndexType.get(p.context), out, p.getNameLocation());
}

function printKeywordOperands(p: OpAsmPrinter, op: Operation, first: number, keywords: readonly string[]): void {
  for (let k = 0; k < keywords.length; k++) {
    p.print(` ${keywords[k]} `);
    p.printOperand(op.getOperand(first + k));
  }
}

/** Parses `%x <kw> %a <kw> %b ... : T` (payload + index operands); shared by send/store. */
function parsePayloadThenIndices(p: OpAsmParser, state: OperationState, keywords: readonly string[]): boolean {
  const payload = p.parseOperand();
  if (!payload) return false;
  const ids = parseIndexOperands(p, keywords);
  if (!ids) return false;
  const attrs = p.parseOptionalAttrDict();
  if (!attrs || !p.parseColon()) return false;
  const t = p.parseType();
  if (!t) return false;
  const values: Value[] = [];
  if (!p.resolveOperand(payload, t, values)) return false;
  if (!resolveIndexOperands(p, ids as NonNullable<(typeof ids)[number]>[], values)) return false;
  state.operands = values;
  addAttributes(state, attrs);
  return true;
}

/** Parses `<kw> %a <kw> %b ... : T` (index operands, one result of type T). */
function parseIndicesThenResult(p: OpAsmParser, state: OperationState, keywords: readonly string[]): boolean {
  const ids = parseIndexOperands(p, keywords);
  if (!ids) return false;
  const attrs = p.parseOptionalAttrDict();
  if (!attrs || !p.parseColon()) return false;
  const t = p.parseType();
  if (!t) return false;
  const values: Value[] = [];
  if (!resolveIndexOperands(p, ids as NonNullable<(typeof ids)[number]>[], values)) return false;
  state.operands = values;
  state.resultTypes = [t];
  addAttributes(state, attrs);
  return true;
}

const SEND_KEYWORDS = ['channel', 'from', 'to'] as const;
const STORE_KEYWORDS = ['from', 'to', 'host_offset', 'event'] as const;
const LOAD_KEYWORDS = ['from', 'to', 'host_offset', 'event', 'count'] as const;

/** `spat.channel_receive channel %c from %s to %t : T`: receives one complete payload. */
export const ChannelReceiveOp = defineOp({
  name: 'spat.channel_receive',
  summary: 'Receive a logical payload',
  operands: { channelId: single(Index), sourceCoreId: single(Index), targetCoreId: single(Index) },
  results: { output: single(AnyShaped) },
  parse: (p, state) => parseIndicesThenResult(p, state, SEND_KEYWORDS),
  print(op, p) {
    printKeywordOperands(p, op, 0, SEND_KEYWORDS);
    p.printOptionalAttrDict(op.attributes);
    p.print(' : ');
    p.printType(op.resultTypes[0]!);
  },
});

/** `spat.channel_send %x channel %c from %s to %t : T`: sends one complete payload. */
export const ChannelSendOp = defineOp({
  name: 'spat.channel_send',
  summary: 'Send a logical payload',
  operands: { input: single(AnyShaped), channelId: single(Index), sourceCoreId: single(Index), targetCoreId: single(Index) },
  parse: (p, state) => parsePayloadThenIndices(p, state, SEND_KEYWORDS),
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    printKeywordOperands(p, op, 1, SEND_KEYWORDS);
    p.printOptionalAttrDict(op.attributes);
    p.print(' : ');
    p.printType(op.getOperand(0).type);
  },
});

// ------------------------------------------------------------------ deferred communication

/** True when a region enclosing `op` has an entry block with arguments. */
function hasAncestorEntryArguments(op: Operation): boolean {
  for (let r = op.parentRegion; r; r = r.parentOp?.parentRegion ?? null) {
    const entry = r.firstBlock;
    if (entry && entry.arguments.length) return true;
  }
  return false;
}

/**
 * `spat.deferred_communication`: records source selection and shaping for a scheduled
 * consumer. The custom form declares the body's entry arguments implicitly as `%arg0...`
 * (sources, then the index case argument when `specialization_count > 1`), as in the
 * reference; nested under other region arguments it names them explicitly after the
 * function type: `: (T) -> T (%arg3) {`.
 */
export const DeferredCommunicationOp = defineOp({
  name: 'spat.deferred_communication',
  summary: 'Describe a future payload transfer',
  operands: { sources: variadic(AnyShaped) },
  results: { output: single(AnyType) },
  attributes: { specialization_count: optAttr(I64Attr) },
  regions: { body: { description: 'any region' } },
  parse(p, state) {
    const at = p.getCurrentLocation();
    const ops = p.parseOperandList();
    if (!ops) return false;
    const attrs = p.parseOptionalAttrDict();
    if (!attrs || !p.parseColon()) return false;
    const fn = parseCompactFunctionType(p);
    if (!fn) return false;
    if (fn.inputs.length !== ops.length) {
      p.emitError(M.deferredTypeCount(fn.inputs.length, ops.length), at);
      return false;
    }
    if (fn.results.length !== 1) {
      p.emitError(M.expectedOneResultType, at);
      return false;
    }
    const values: Value[] = [];
    if (!p.resolveOperands(ops, fn.inputs, values, at)) return false;
    state.operands = values;
    state.resultTypes = fn.results;
    addAttributes(state, attrs);
    const count = intValue(attrs.find((a) => a.name === 'specialization_count')?.value) ?? 1;
    const loc = p.getCurrentLocation();
    const types = count > 1 ? [...fn.inputs, IndexType.get(p.context)] : fn.inputs;
    const named = p.parseArgumentList('optional-paren');
    if (!named) return false;
    if (named.length && named.length !== types.length) {
      p.emitError(M.deferredArgCount(types.length, named.length), loc);
      return false;
    }
    const args: OpAsmArgument[] = types.map((t, k) =>
      named.length ? { ...named[k]!, type: t } : { ssaName: { name: `arg${k}`, number: 0, location: loc }, type: t },
    );
    const region = new Region();
    state.regions = [region];
    return p.parseRegion(region, args, true);
  },
  print(op, p) {
    if (op.numOperands) {
      p.print(' ');
      p.printOperands(op.operands);
    }
    p.printOptionalAttrDict(op.attributes);
    p.print(' : ');
    printCompactFunctionType(p, op.operands.map((v) => v.type), op.resultTypes);
    const entry = op.regions[0]?.firstBlock;
    if (entry && entry.arguments.length && hasAncestorEntryArguments(op)) {
      // Nested under arguments of another region, the printer numbers the body arguments on
      // from those (`%arg3`): name them explicitly so the form parses back.
      p.print(' (');
      p.printOperands(entry.arguments);
      p.print(')');
    }
    p.print(' ');
    p.printRegion(op.regions[0]!, false, true);
  },
  verify(view) {
    const op = view.op;
    const sources = view.sources;
    if (sources.length === 0) {
      view.emitOpError(M.deferredNoSources);
      return false;
    }
    const countAttr = view.specialization_count;
    const count = countAttr ? Number(countAttr.value) : 1;
    if (count < 1) {
      view.emitOpError(M.specializationCountNotPositive(String(countAttr!.value)));
      return false;
    }
    const region = op.regions[0]!;
    let blocks = 0;
    for (let b = region.firstBlock; b; b = b.next) blocks++;
    if (blocks !== 1) {
      view.emitOpError(M.deferredBlocks(blocks));
      return false;
    }
    const block = region.firstBlock!;
    const expected = sources.length + (count > 1 ? 1 : 0);
    if (block.arguments.length !== expected) {
      view.emitOpError(M.deferredArgCount(expected, block.arguments.length));
      return false;
    }
    for (let k = 0; k < sources.length; k++) {
      if (block.arguments[k]!.type !== sources[k]!.type) {
        view.emitOpError(M.deferredSourceArgType(k, formatType(block.arguments[k]!.type), formatType(sources[k]!.type)));
        return false;
      }
    }
    if (count > 1 && !(block.arguments[sources.length]!.type instanceof IndexType)) {
      view.emitOpError(M.deferredCaseArgType(formatType(block.arguments[sources.length]!.type)));
      return false;
    }
    const last = block.lastOp;
    if (!last || last.name !== 'spat.yield') {
      view.emitOpError(M.deferredTerminator(last?.name ?? '<none>'));
      return false;
    }
    if (last.numOperands !== 1) {
      view.emitOpError(M.deferredYieldCount(last.numOperands));
      return false;
    }
    const fragment = last.getOperand(0).type;
    const output = op.resultTypes[0]!;
    if (count === 1) {
      if (fragment !== output) {
        view.emitOpError(M.deferredOrdinaryType(formatType(fragment), formatType(output)));
        return false;
      }
      return true;
    }
    const isStatic = (t: Type): t is RankedTensorType => t instanceof RankedTensorType && t.shape.every((d) => d >= 0);
    if (!isStatic(output)) {
      view.emitOpError(M.deferredGroupedStatic('output', formatType(output)));
      return false;
    }
    if (!isStatic(fragment)) {
      view.emitOpError(M.deferredGroupedStatic('fragment', formatType(fragment)));
      return false;
    }
    const want = [count, ...fragment.shape];
    if (want.length !== output.shape.length || want.some((d, k) => d !== output.shape[k])) {
      view.emitOpError(M.deferredGroupedShape(`[${output.shape.join(', ')}]`, `[${want.join(', ')}]`));
      return false;
    }
    if (output.elementType !== fragment.elementType) {
      view.emitOpError(M.deferredGroupedElement(formatType(output.elementType), formatType(fragment.elementType)));
      return false;
    }
    return true;
  },
});

/** `spat.deferred_source_select %sel of %a, %b : T`: selects `sources[selector]`. */
export const DeferredSourceSelectOp = defineOp({
  name: 'spat.deferred_source_select',
  summary: 'Select a published source',
  operands: { selector: single(Index), sources: variadic() },
  results: { output: single() },
  traits: [Traits.HasParent('spat.deferred_communication', 'spat.scheduled_compute', 'spat.scheduled_compute_batch')],
  parse(p, state) {
    const sel = p.parseOperand();
    if (!sel || !p.parseKeyword('of')) return false;
    const srcs = p.parseOperandList();
    if (!srcs) return false;
    const attrs = p.parseOptionalAttrDict();
    if (!attrs || !p.parseColon()) return false;
    const t = p.parseType();
    if (!t) return false;
    const values: Value[] = [];
    if (!p.resolveOperand(sel, IndexType.get(p.context), values)) return false;
    if (!p.resolveOperands(srcs, t, values, p.getNameLocation())) return false;
    state.operands = values;
    state.resultTypes = [t];
    addAttributes(state, attrs);
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    p.print(' of ');
    p.printOperands(op.operands.slice(1));
    p.printOptionalAttrDict(op.attributes);
    p.print(' : ');
    p.printType(op.resultTypes[0]!);
  },
  verify(view) {
    const sources = view.sources;
    if (sources.length === 0) {
      view.emitOpError(M.sourceSelectNoSources);
      return false;
    }
    const out = view.op.resultTypes[0]!;
    for (let k = 0; k < sources.length; k++) {
      if (sources[k]!.type !== out) {
        view.emitOpError(M.sourceSelectType(k, formatType(sources[k]!.type), formatType(out)));
        return false;
      }
    }
    return true;
  },
});

// ------------------------------------------------------------------ host transfers and events

/** `spat.host_store_sync %x from %s to %t host_offset %o event %e : T`. */
export const HostStoreSyncOp = defineOp({
  name: 'spat.host_store_sync',
  summary: 'Publish through shared host memory',
  operands: {
    input: single(AnyShaped),
    sourceCoreId: single(Index),
    targetCoreId: single(Index),
    hostOffset: single(Index),
    eventRegister: single(Index),
  },
  parse: (p, state) => parsePayloadThenIndices(p, state, STORE_KEYWORDS),
  print(op, p) {
    p.print(' ');
    p.printOperand(op.getOperand(0));
    printKeywordOperands(p, op, 1, STORE_KEYWORDS);
    p.printOptionalAttrDict(op.attributes);
    p.print(' : ');
    p.printType(op.getOperand(0).type);
  },
});

/** `%y = spat.host_wait_load from %s to %t host_offset %o event %e count %n : T`. */
export const HostWaitLoadOp = defineOp({
  name: 'spat.host_wait_load',
  summary: 'Wait and read a host payload',
  operands: {
    sourceCoreId: single(Index),
    targetCoreId: single(Index),
    hostOffset: single(Index),
    eventRegister: single(Index),
    waitValue: single(Index),
  },
  results: { output: single(AnyShaped) },
  parse: (p, state) => parseIndicesThenResult(p, state, LOAD_KEYWORDS),
  print(op, p) {
    printKeywordOperands(p, op, 0, LOAD_KEYWORDS);
    p.printOptionalAttrDict(op.attributes);
    p.print(' : ');
    p.printType(op.resultTypes[0]!);
  },
});

function parseTwoIndices(p: OpAsmParser, state: OperationState, keyword: string): boolean {
  const ids = parseIndexOperands(p, [null, keyword]);
  if (!ids) return false;
  const attrs = p.parseOptionalAttrDict();
  if (!attrs) return false;
  const values: Value[] = [];
  if (!resolveIndexOperands(p, ids as NonNullable<(typeof ids)[number]>[], values)) return false;
  state.operands = values;
  addAttributes(state, attrs);
  return true;
}

function printTwoIndices(op: Operation, p: OpAsmPrinter, keyword: string): void {
  p.print(' ');
  p.printOperand(op.getOperand(0));
  p.print(` ${keyword} `);
  p.printOperand(op.getOperand(1));
  p.printOptionalAttrDict(op.attributes);
}

/** `spat.sync %target event %event`: increments an event register on the target core. */
export const SyncOp = defineOp({
  name: 'spat.sync',
  summary: 'Signal an event register',
  operands: { targetCoreId: single(Index), eventRegister: single(Index) },
  parse: (p, state) => parseTwoIndices(p, state, 'event'),
  print: (op, p) => printTwoIndices(op, p, 'event'),
});

/** `spat.wait %event value %count`: waits until the local register equals the count, then resets it. */
export const WaitOp = defineOp({
  name: 'spat.wait',
  summary: 'Wait for an exact event count',
  operands: { eventRegister: single(Index), waitValue: single(Index) },
  parse: (p, state) => parseTwoIndices(p, state, 'value'),
  print: (op, p) => printTwoIndices(op, p, 'value'),
});

/** The 11 scheduling/communication op definitions, in reference order (registered by the dialect). */
export const SCHEDULING_OPS: readonly AnyOpDefinition[] = [
  BlockYieldOp,
  ChannelReceiveOp,
  ChannelSendOp,
  DeferredCommunicationOp,
  DeferredSourceSelectOp,
  HostStoreSyncOp,
  HostWaitLoadOp,
  ScheduledComputeOp,
  ScheduledComputeBatchOp,
  SyncOp,
  WaitOp,
];

/** Names of the ops in {@link SCHEDULING_OPS}. */
export const SCHEDULING_OP_NAMES: readonly string[] = SCHEDULING_OPS.map((d) => d.name);
