/**
 * The scheduled-compute, communication and synchronization ops of the `spat` dialect:
 * `spat.scheduled_compute`, `spat.scheduled_compute_batch`, `spat.block_yield`,
 * `spat.channel_send`, `spat.channel_receive`, `spat.host_store_sync`, `spat.host_wait_load`,
 * `spat.sync`, `spat.wait`, `spat.deferred_communication`, `spat.deferred_source_select`
 * (reference order). The dialect registration imports {@link SCHEDULING_OPS}.
 */
import {
  AnyType,
  DenseI32ArrayAttr,
  I32Attr,
  I64Attr,
  Index,
  IndexType,
  MemRefType,
  RankedTensorType,
  Region,
  Traits,
  UnrankedTensorType,
  MemoryEffects,
  VectorType,
  bufferEffects,
  defineOp,
  defineSideEffectResource,
  formatType,
  memoryEffects,
  optAttr,
  optProp,
  prop,
  single,
  typeConstraint,
  variadic,
  type AnyOpDefinition,
  type OpAsmArgument,
  type OpAsmParser,
  type OpAsmPrinter,
  type Operation,
  type OperationState,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import { parseCompactFunctionType, printCompactFunctionType } from '@raptor-pim/compact-asm';
import { SchedulingMessages as M } from '../../interpreter/scheduling-messages';
import { intValue } from '../type-checks';
import { addParsedAttributes } from './elementwise';
import {
  computeOpInterface,
  countUsedWeights,
  parseCompute,
  parseComputeBatch,
  printCompute,
  printComputeBatch,
  setComputeArgumentNames,
  setComputeBatchArgumentNames,
  verifyCaptures,
  verifyComputeArguments,
  verifyComputeBatch,
  verifyWeightsConstant,
} from './compute-structure';
import { YieldOp } from './compute';

// ------------------------------------------------------------------ shared helpers

/** MLIR's `AnyShaped`: tensors, memrefs and vectors. */
export const AnyShaped = typeConstraint(
  'shaped of any type values',
  (t) => t instanceof RankedTensorType || t instanceof UnrankedTensorType || t instanceof MemRefType || t instanceof VectorType,
);

/**
 * Number of distinct resident weights used by a compute body: distinct outer weight values
 * whose body argument has at least one use (the printer derives `crossbarWeights` from it).
 */
export function countResidentWeights(op: Operation, firstWeightArg: number, numWeights: number, weights: readonly Value[]): number {
  const body = op.regions[0];
  return body ? countUsedWeights(body, firstWeightArg, weights.slice(0, numWeights)) : 0;
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
    computeOpInterface(false),
  ],
  parse: (p, state) => parseCompute(p, state, M),
  print: printCompute,
  getAsmBlockArgumentNames: setComputeArgumentNames,
  verifyRegions(view) {
    const op = view.op;
    if (!verifyComputeArguments(op, M)) return false;
    const region = op.regions[0]!;
    const weights = view.weights;
    const inputs = view.inputs;
    const entry = region.firstBlock!;
    const last = entry.lastOp;
    if (region.firstBlock !== region.lastBlock || !last || !YieldOp.isInstance(last)) {
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
    if (!verifyWeightsConstant(op, weights, M)) return false;
    return verifyCaptures(op, M);
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
    computeOpInterface(true),
  ],
  parse: (p, state) => parseComputeBatch(p, state, M),
  print: printComputeBatch,
  getAsmBlockArgumentNames: setComputeBatchArgumentNames,
  verify: (view) => verifyComputeBatch(view.op, M),
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
  addParsedAttributes(state, attrs);
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
  addParsedAttributes(state, attrs);
  return true;
}

/** Prints what {@link parsePayloadThenIndices} reads. */
function printPayloadThenIndices(op: Operation, p: OpAsmPrinter, keywords: readonly string[]): void {
  p.print(' ');
  p.printOperand(op.getOperand(0));
  printKeywordOperands(p, op, 1, keywords);
  p.printOptionalAttrDict(op.attributes);
  p.print(' : ');
  p.printType(op.getOperand(0).type);
}

/** Prints what {@link parseIndicesThenResult} reads. */
function printIndicesThenResult(op: Operation, p: OpAsmPrinter, keywords: readonly string[]): void {
  printKeywordOperands(p, op, 0, keywords);
  p.printOptionalAttrDict(op.attributes);
  p.print(' : ');
  p.printType(op.resultTypes[0]!);
}

/** The logical channels between cores: `spat.channel_send` writes, `spat.channel_receive` consumes. */
export const SpatChannelResource = defineSideEffectResource('spat.channel');
/** The cores' event registers: `spat.sync` increments, `spat.wait` reads and resets. */
export const SpatEventRegisterResource = defineSideEffectResource('spat.event_register');
/** Shared host memory written by `spat.host_store_sync` and read by `spat.host_wait_load`. */
export const SpatHostMemoryResource = defineSideEffectResource('spat.host_memory');

const SEND_KEYWORDS = ['channel', 'from', 'to'] as const;
const STORE_KEYWORDS = ['from', 'to', 'host_offset', 'event'] as const;
const LOAD_KEYWORDS = ['from', 'to', 'host_offset', 'event', 'count'] as const;

/** `spat.channel_receive channel %c from %s to %t : T`: receives one complete payload. */
export const ChannelReceiveOp = defineOp({
  name: 'spat.channel_receive',
  summary: 'Receive a logical payload',
  operands: { channelId: single(Index), sourceCoreId: single(Index), targetCoreId: single(Index) },
  results: { output: single(AnyShaped) },
  interfaces: [memoryEffects(() => [MemoryEffects.read(SpatChannelResource), MemoryEffects.write(SpatChannelResource)])],
  parse: (p, state) => parseIndicesThenResult(p, state, SEND_KEYWORDS),
  print: (op, p) => printIndicesThenResult(op, p, SEND_KEYWORDS),
});

/** `spat.channel_send %x channel %c from %s to %t : T`: sends one complete payload. */
export const ChannelSendOp = defineOp({
  name: 'spat.channel_send',
  summary: 'Send a logical payload',
  operands: { input: single(AnyShaped), channelId: single(Index), sourceCoreId: single(Index), targetCoreId: single(Index) },
  interfaces: [memoryEffects((op) => [MemoryEffects.write(SpatChannelResource), ...bufferEffects([op.getOperand(0)], [])])],
  parse: (p, state) => parsePayloadThenIndices(p, state, SEND_KEYWORDS),
  print: (op, p) => printPayloadThenIndices(op, p, SEND_KEYWORDS),
});

// ------------------------------------------------------------------ deferred communication

/** True when `args` print as `%arg0, %arg1, ...`: the names the custom parser declares. */
function hasImplicitArgumentNames(p: OpAsmPrinter, args: readonly Value[]): boolean {
  for (let k = 0; k < args.length; k++) if (p.getValueName(args[k]!) !== `%arg${k}`) return false;
  return true;
}

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
    addParsedAttributes(state, attrs);
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
    if (entry && entry.arguments.length && (hasAncestorEntryArguments(op) || !hasImplicitArgumentNames(p, entry.arguments))) {
      // Nested under arguments of another region, the printer numbers the body arguments on
      // from those (`%arg3`), and retained source names (`%a0`) differ from the implicit
      // `%arg0...`: name them explicitly so the form parses back.
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
    if (!last || !YieldOp.isInstance(last)) {
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
    addParsedAttributes(state, attrs);
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
  interfaces: [
    memoryEffects((op) => [
      MemoryEffects.write(SpatHostMemoryResource),
      MemoryEffects.write(SpatEventRegisterResource),
      ...bufferEffects([op.getOperand(0)], []),
    ]),
  ],
  parse: (p, state) => parsePayloadThenIndices(p, state, STORE_KEYWORDS),
  print: (op, p) => printPayloadThenIndices(op, p, STORE_KEYWORDS),
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
  interfaces: [
    memoryEffects(() => [
      MemoryEffects.read(SpatHostMemoryResource),
      MemoryEffects.read(SpatEventRegisterResource),
      MemoryEffects.write(SpatEventRegisterResource),
    ]),
  ],
  parse: (p, state) => parseIndicesThenResult(p, state, LOAD_KEYWORDS),
  print: (op, p) => printIndicesThenResult(op, p, LOAD_KEYWORDS),
});

function parseTwoIndices(p: OpAsmParser, state: OperationState, keyword: string): boolean {
  const ids = parseIndexOperands(p, [null, keyword]);
  if (!ids) return false;
  const attrs = p.parseOptionalAttrDict();
  if (!attrs) return false;
  const values: Value[] = [];
  if (!resolveIndexOperands(p, ids as NonNullable<(typeof ids)[number]>[], values)) return false;
  state.operands = values;
  addParsedAttributes(state, attrs);
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
  interfaces: [memoryEffects(() => [MemoryEffects.write(SpatEventRegisterResource)])],
  parse: (p, state) => parseTwoIndices(p, state, 'event'),
  print: (op, p) => printTwoIndices(op, p, 'event'),
});

/** `spat.wait %event value %count`: waits until the local register equals the count, then resets it. */
export const WaitOp = defineOp({
  name: 'spat.wait',
  summary: 'Wait for an exact event count',
  operands: { eventRegister: single(Index), waitValue: single(Index) },
  interfaces: [memoryEffects(() => [MemoryEffects.read(SpatEventRegisterResource), MemoryEffects.write(SpatEventRegisterResource)])],
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
