/**
 * Static evaluation of a bufferized PIM module into per-core streams of resolved operations.
 *
 * This is the one place where batches are expanded: every lane of a `pim.core_batch` becomes
 * the stream of its core (`coreIds[lane]`), with the lane bound to its index, and every lane,
 * address, peer, event and loop-bound expression is folded to a constant in that stream's
 * scope (`scf.for` loops with static bounds are unrolled). Each pim op becomes one or more
 * {@link StaticOp}s: byte addresses, sizes, lengths and peers, nothing symbolic left. The
 * verification rules of code generation (the dialect reference's "Verification and code
 * generation" and pim-isa.md §16) are checked on the way, each failure a diagnostic at its op
 * through the {@link Reporter}.
 */
import {
  DenseElementsAttr,
  FloatType,
  IntegerAttr,
  MemRefType,
  RankedTensorType,
  OpResult,
  Traits,
  type AnyOpDefinition,
  type Attribute,
  type Block,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import { FuncOp, ReturnOp } from '@raptor-pim/ir-core';
import {
  AllocOp,
  AllocaOp,
  CastOp,
  CollapseShapeOp,
  DeallocOp,
  ExpandShapeOp,
  ForOp,
  GetGlobalOp,
  GlobalOp,
  ReinterpretCastOp,
  SubViewOp,
  YieldOp,
} from '@raptor-pim/upstream-dialects';
import {
  ConcatOp,
  CoreBatchOp,
  CoreOp,
  HaltOp,
  MemcpDhOp,
  MemcpHdOp,
  MemcpOp,
  ReceiveOp,
  SendOp,
  SyncOp,
  TransposeOp,
  VAvgOp,
  VMMOp,
  VMVOp,
  VReluOp,
  VSigmOp,
  VSoftmaxOp,
  VTanhOp,
  VVAddOp,
  VVDMulOp,
  VVMaxOp,
  VVMulOp,
  VVSubOp,
  WaitOp,
} from '@raptor-pim/pim-dialect';
import { EVENT_REGISTER_COUNT, type Target } from '@raptor-pim/pim-target';
import { CodegenMessages as M } from '../diagnostics';
import { isContiguous, resolveBuffer, viewBytes, viewElements, type BufferEnvironment, type BufferView, type MemorySpace } from './buffers';
import { ADDRESS_ATTR, HostLayout, type HostBuffer } from './host-layout';
import type { Reporter } from './reporter';
import { StaticScope } from './static-eval';
import { isF32, staticByteSize, typeText } from './types';

/** The attribute on a core op that holds its planned local arena size in bytes. */
export const LOCAL_MEMORY_SIZE_ATTR = 'pim.local_memory_size';
/** Largest value of a 32-bit signed ISA field (sizes, lengths, register contents). */
export const MAX_FIELD = 0x7fffffff;
/** Most iterations a loop of a core stream may unroll to. */
export const MAX_UNROLL = 1 << 20;

/** A compile-time weight matrix used by `pim.vmm`, resident in one array group. */
export interface ResidentWeight {
  /** The constant value it comes from (the key array groups are allocated by). */
  readonly key: Value;
  /** Rows (the mvmul input length). */
  readonly rows: number;
  /** Columns (the mvmul output length). */
  readonly cols: number;
  /** Row-major f32 values. */
  readonly data: Float32Array;
}

/** The vector mnemonics a static op can carry. */
export type VectorMnemonic = 'vvadd' | 'vvsub' | 'vvmul' | 'vvmax' | 'vvdmul' | 'vrelu' | 'vtanh' | 'vsigm' | 'vsoftmax' | 'vavg';

/** One resolved operation of a core stream: every operand a number. */
export type StaticOp =
  | { readonly kind: 'lmv'; readonly dst: number; readonly src: number; readonly size: number; readonly op: Operation }
  | { readonly kind: 'ld'; readonly dst: number; readonly src: number; readonly size: number; readonly host: HostBuffer; readonly op: Operation }
  /** A host-constant load whose bytes are all `value`: a local memset (`lldi`), no global memory access. */
  | { readonly kind: 'fill'; readonly dst: number; readonly value: number; readonly size: number; readonly host: HostBuffer; readonly op: Operation }
  | { readonly kind: 'st'; readonly dst: number; readonly src: number; readonly size: number; readonly host: HostBuffer; readonly op: Operation }
  | { readonly kind: 'vmv'; readonly dst: number; readonly src: number; readonly stride: number; readonly length: number; readonly op: Operation }
  | {
      readonly kind: 'vector';
      readonly mnemonic: VectorMnemonic;
      readonly dst: number;
      readonly lhs: number;
      readonly rhs?: number;
      readonly len: number;
      readonly op: Operation;
    }
  | { readonly kind: 'mvmul'; readonly dst: number; readonly src: number; readonly weight: ResidentWeight; readonly op: Operation }
  | { readonly kind: 'send'; readonly src: number; readonly size: number; readonly peer: number; readonly op: Operation }
  | { readonly kind: 'recv'; readonly dst: number; readonly size: number; readonly peer: number; readonly op: Operation }
  | { readonly kind: 'sync'; readonly peer: number; readonly event: number; readonly op: Operation }
  | { readonly kind: 'wait'; readonly event: number; readonly count: number; readonly op: Operation };

/** The resolved stream of one core. */
export interface StaticStream {
  /** The physical core. */
  readonly coreId: number;
  /** The batch lane, for streams of a `pim.core_batch`. */
  readonly lane: number | undefined;
  /** The `pim.core` / `pim.core_batch` op. */
  readonly coreOp: Operation;
  /** The planned arena size (`pim.local_memory_size`). */
  readonly localMemorySize: number;
  /** The operations in program order. */
  readonly ops: StaticOp[];
}

/** A module after static evaluation. */
export interface StaticProgram {
  /** The entry function (holds the core ops). */
  readonly func: Operation;
  /** Streams sorted by core id. */
  readonly streams: StaticStream[];
  /** The host memory layout. */
  readonly host: HostLayout;
  /** One more than the highest core id with a stream. */
  readonly coreCount: number;
}

/** The entry function: `@main` if it holds core ops, else the first function that does. */
export function findEntryFunction(module: Operation): Operation | undefined {
  const funcs: Operation[] = [];
  for (let o = module.regions[0]?.firstBlock?.firstOp ?? null; o; o = o.next) if (FuncOp.isInstance(o)) funcs.push(o);
  const hasCores = (f: Operation): boolean => {
    let found = false;
    f.walk((o) => {
      if (CoreOp.isInstance(o) || CoreBatchOp.isInstance(o)) found = true;
    });
    return found;
  };
  const withCores = funcs.filter(hasCores);
  return withCores.find((f) => FuncOp.get(f).sym_name.value === 'main') ?? withCores[0];
}

interface StreamSeed {
  readonly coreId: number;
  readonly lane: number | undefined;
  readonly coreOp: Operation;
  readonly body: Block;
  readonly scope: StaticScope;
  readonly outer: Map<Value, Value>;
}

/**
 * Evaluates `module` for `target`: streams, host layout and resolved ops. Diagnostics go to
 * `report`; the result is undefined when the module has no entry function with core streams.
 */
export function buildStaticProgram(module: Operation, target: Target, report: Reporter): StaticProgram | undefined {
  const func = findEntryFunction(module);
  if (!func) {
    report.error(module, M.noCoreStreams());
    return undefined;
  }
  const config = target.config;
  const host = HostLayout.build(module, func, config.chip_config.global_memory_config.memory_size, report);
  const seeds = collectStreams(func, target, report);
  const shared: SharedWeights = { byValue: new Map(), globals: undefined };
  const streams = seeds.map((seed) => evaluateStream(seed, module, host, target, report, shared));
  streams.sort((a, b) => a.coreId - b.coreId);
  const coreCount = streams.reduce((m, s) => Math.max(m, s.coreId + 1), 0);
  checkPeers(streams, report);
  return { func, streams, host, coreCount };
}

function collectStreams(func: Operation, target: Target, report: Reporter): StreamSeed[] {
  const cores = target.config.chip_config.core_cnt;
  const seeds: StreamSeed[] = [];
  const owner = new Map<number, Operation>();
  const claim = (core: number, op: Operation): boolean => {
    if (core < 0 || core >= cores) {
      report.error(op, M.coreIdRange(core, cores));
      return false;
    }
    if (owner.has(core)) {
      report.error(op, M.twoStreamsOnCore(core));
      return false;
    }
    owner.set(core, op);
    return true;
  };
  for (let op = func.regions[0]?.firstBlock?.firstOp ?? null; op; op = op.next) {
    if (CoreOp.isInstance(op) || CoreBatchOp.isInstance(op) || ReturnOp.isInstance(op) || AllocOp.isInstance(op) || isLazy(op) || op.hasTrait(Traits.ConstantLike)) continue;
    report.error(op, M.hostOp(op.name));
  }
  func.walk((op) => {
    if ((CoreOp.isInstance(op) || CoreBatchOp.isInstance(op)) && op.getParentOp() !== func) {
      report.error(op, M.nestedCore());
      return;
    }
    const single = CoreOp.match(op);
    if (single) {
      const body = op.regions[0]!.firstBlock!;
      const core = Number(single.coreId.value);
      const outer = new Map<Value, Value>();
      body.arguments.forEach((a, k) => outer.set(a, op.getOperand(k)));
      if (claim(core, op)) seeds.push({ coreId: core, lane: undefined, coreOp: op, body, scope: new StaticScope(op.context), outer });
      return;
    }
    const batch = CoreBatchOp.match(op);
    if (!batch) return;
    const lanes = Number(batch.laneCount.value);
    const ids = batch.coreIds ? (batch.coreIds.values as readonly (number | bigint)[]).map(Number) : undefined;
    if (!ids) {
      report.error(op, M.batchWithoutCoreIds());
      return;
    }
    if (ids.length !== lanes) {
      report.error(op, M.coreIdsLength(ids.length, lanes));
      return;
    }
    const body = op.regions[0]!.firstBlock!;
    for (let lane = 0; lane < lanes; lane++) {
      const scope = new StaticScope(op.context);
      scope.bindIndex(body.getArgument(0), lane);
      const outer = new Map<Value, Value>();
      for (let k = 1; k < body.numArguments; k++) outer.set(body.getArgument(k), op.getOperand(k - 1));
      if (claim(ids[lane]!, op)) seeds.push({ coreId: ids[lane]!, lane, coreOp: op, body, scope, outer });
    }
  });
  return seeds;
}

/**
 * The weights every stream reads, resolved once per module: replicas of a layer on many cores
 * share one matrix (a view of the constant's own f32 data where it has one), and the module's
 * `memref.global`s by name.
 */
interface SharedWeights {
  readonly byValue: Map<Value, ResidentWeight>;
  globals: Map<string, Attribute | undefined> | undefined;
}

/** Everything the op lowering of one stream needs. */
interface StreamState {
  readonly seed: StreamSeed;
  readonly module: Operation;
  readonly host: HostLayout;
  readonly target: Target;
  readonly report: Reporter;
  readonly ops: StaticOp[];
  readonly arena: number;
  readonly weights: Map<Value, ResidentWeight | null>;
  readonly shared: SharedWeights;
  readonly roots: Map<Value, BufferView>;
}

function evaluateStream(seed: StreamSeed, module: Operation, host: HostLayout, target: Target, report: Reporter, shared: SharedWeights): StaticStream {
  const coreOp = seed.coreOp;
  const capacity = target.config.chip_config.core_config.local_memory_config.memory_size;
  const attr = coreOp.getDiscardableAttr(LOCAL_MEMORY_SIZE_ATTR);
  let arena = capacity;
  if (!(attr instanceof IntegerAttr)) report.error(coreOp, M.noLocalMemorySize());
  else {
    arena = Number(attr.value);
    if (arena > capacity) report.error(coreOp, M.localMemoryTooBig(arena, capacity));
  }
  const last = seed.body.lastOp;
  if (!last || !HaltOp.isInstance(last)) report.error(coreOp, M.noHalt());
  const state: StreamState = { seed, module, host, target, report, ops: [], arena, weights: new Map(), shared, roots: new Map() };
  walkBlock(state, seed.body, seed.scope, new Map());
  return { coreId: seed.coreId, lane: seed.lane, coreOp, localMemorySize: arena, ops: elideSelfSyncs(state.ops, seed.coreId, report) };
}

/**
 * A core signalling its own event register (which pimsim-nn cannot deliver: a core has no
 * route to itself) only adds a token that a later `wait` of the same stream consumes, so the
 * pair is resolved at compile time: each self-`sync` is dropped and the next waits on that
 * register wait for that many fewer signals (a wait left with zero is dropped). A self-signal
 * no later wait consumes is reported.
 */
function elideSelfSyncs(ops: readonly StaticOp[], core: number, report: Reporter): StaticOp[] {
  const pending = new Map<number, Operation[]>();
  const out: StaticOp[] = [];
  for (const op of ops) {
    if (op.kind === 'sync' && op.peer === core) {
      const list = pending.get(op.event) ?? [];
      list.push(op.op);
      pending.set(op.event, list);
      continue;
    }
    if (op.kind === 'wait') {
      const list = pending.get(op.event) ?? [];
      const used = Math.min(list.length, op.count);
      list.splice(0, used);
      if (op.count - used > 0) out.push(used > 0 ? { ...op, count: op.count - used } : op);
      continue;
    }
    out.push(op);
  }
  for (const [event, list] of [...pending.entries()].sort((a, b) => a[0] - b[0])) {
    if (list.length > 0) report.warning(list[0]!, M.selfSyncUnconsumed(core, event, list.length));
  }
  return out;
}

function laneText(state: StreamState): string {
  return M.laneSuffix(state.seed.coreId, state.seed.lane);
}

function env(state: StreamState, scope: StaticScope, bound: ReadonlyMap<Value, BufferView>): BufferEnvironment {
  return { scope, bound, outer: state.seed.outer, host: (v) => state.host.lookup(v), coreOp: state.seed.coreOp, roots: state.roots };
}

/** True for ops evaluated on demand (index arithmetic, constants) or pure views. */
function isLazy(op: Operation): boolean {
  if (SubViewOp.isInstance(op) || CollapseShapeOp.isInstance(op) || ExpandShapeOp.isInstance(op)) return true;
  if (CastOp.isInstance(op) || ReinterpretCastOp.isInstance(op) || GetGlobalOp.isInstance(op)) return true;
  if (op.regions.length > 0) return false;
  return (op.hasTrait(Traits.Pure) || op.hasTrait(Traits.ConstantLike)) && op.results.every((r) => !(r.type instanceof MemRefType));
}

function walkBlock(state: StreamState, block: Block, scope: StaticScope, bound: Map<Value, BufferView>): void {
  for (let op = block.firstOp; op; op = op.next) {
    if (HaltOp.isInstance(op) || YieldOp.isInstance(op) || DeallocOp.isInstance(op) || isLazy(op)) continue;
    if (AllocOp.isInstance(op) || AllocaOp.isInstance(op)) {
      checkAllocation(state, op);
      continue;
    }
    const loop = ForOp.match(op);
    if (loop) {
      unrollLoop(state, op, scope, bound);
      continue;
    }
    if (!lowerPimOp(state, op, scope, bound)) state.report.error(op, M.unsupportedOp(op.name));
  }
}

function checkAllocation(state: StreamState, op: Operation): void {
  const type = op.getResult(0).type;
  if (!(type instanceof MemRefType) || type.shape.some((d) => d < 0)) {
    state.report.error(op, M.dynamicShape(typeText(type)));
    return;
  }
  const address = op.getDiscardableAttr(ADDRESS_ATTR);
  if (!(address instanceof IntegerAttr)) {
    state.report.error(op, M.notPlanned());
    return;
  }
  const a = Number(address.value);
  const bytes = staticByteSize(type) ?? 0;
  const alignment = state.target.config.raptor_config.local_memory_alignment;
  if (a < 0) state.report.error(op, M.negativeAddress(a));
  else if (a % alignment !== 0) state.report.error(op, M.misaligned(a, alignment));
  else if (a + bytes > state.arena) state.report.error(op, M.outsideArena(a, bytes, state.arena));
}

function unrollLoop(state: StreamState, op: Operation, scope: StaticScope, bound: Map<Value, BufferView>): void {
  const loop = ForOp.get(op);
  const lb = scope.integer(loop.lowerBound);
  const ub = scope.integer(loop.upperBound);
  const step = scope.integer(loop.step);
  if (lb === undefined || ub === undefined || step === undefined || step <= 0) {
    state.report.error(op, M.notStatic('loop bound or step', laneText(state)));
    return;
  }
  const trips = ub > lb ? Math.ceil((ub - lb) / step) : 0;
  if (trips > MAX_UNROLL) {
    state.report.error(op, M.loopTooLong(trips, MAX_UNROLL));
    return;
  }
  const body = op.regions[0]!.firstBlock!;
  const iterArgs = body.arguments.slice(1);
  const e = env(state, scope, bound);
  let carried: (BufferView | undefined)[] = loop.initArgs.map((v) => {
    const r = v.type instanceof MemRefType ? resolveBuffer(v, e, 'loop-carried buffer') : undefined;
    return r && 'view' in r ? r.view : undefined;
  });
  const carriedStatic: (Attribute | undefined)[] = loop.initArgs.map((v) => scope.attribute(v));
  for (let iv = lb; iv < ub; iv += step) {
    const inner = scope.child();
    inner.bindIndex(body.getArgument(0), iv);
    const innerBound = new Map(bound);
    iterArgs.forEach((a, k) => {
      const c = carried[k];
      if (c) innerBound.set(a, c);
      const s = carriedStatic[k];
      if (s) inner.bind(a, s);
    });
    walkBlock(state, body, inner, innerBound);
    const yielded = body.lastOp && YieldOp.isInstance(body.lastOp) ? body.lastOp.operands : [];
    const ye = env(state, inner, innerBound);
    carried = yielded.map((v) => {
      if (!(v.type instanceof MemRefType)) return undefined;
      const r = resolveBuffer(v, ye, 'loop-carried buffer');
      return 'view' in r ? r.view : undefined;
    });
    for (let k = 0; k < yielded.length; k++) carriedStatic[k] = inner.attribute(yielded[k]!);
  }
  op.results.forEach((r, k) => {
    const c = carried[k];
    if (c) bound.set(r, c);
    const s = carriedStatic[k];
    if (s) scope.bind(r, s);
  });
}

// ------------------------------------------------------------------ operand resolution

interface Operands {
  readonly state: StreamState;
  readonly op: Operation;
  readonly env: BufferEnvironment;
  ok: boolean;
}

function view(o: Operands, value: Value, what: string, space: MemorySpace): BufferView | undefined {
  const r = resolveBuffer(value, o.env, what);
  if (!('view' in r)) {
    o.state.report.error(r.at ?? o.op, r.error);
    o.ok = false;
    return undefined;
  }
  if (r.view.space !== space) {
    o.state.report.error(o.op, M.wrongSpace(what, space, r.view.space));
    o.ok = false;
    return undefined;
  }
  return r.view;
}

function contiguous(o: Operands, v: BufferView | undefined, what: string): BufferView | undefined {
  if (v && !isContiguous(v)) {
    o.state.report.error(o.op, M.notContiguous(what));
    o.ok = false;
    return undefined;
  }
  return v;
}

/** A contiguous f32 (4-byte element) local buffer, element-aligned. */
function vectorBuffer(o: Operands, value: Value, what: string): BufferView | undefined {
  const type = value.type;
  if (type instanceof MemRefType && !isF32(type.elementType)) {
    o.state.report.error(o.op, M.elementType(what, typeText(type.elementType)));
    o.ok = false;
    return undefined;
  }
  const v = contiguous(o, view(o, value, what, 'local'), what);
  if (v && v.address % 4 !== 0) {
    o.state.report.error(o.op, M.elementMisaligned(what, v.address));
    o.ok = false;
    return undefined;
  }
  return v;
}

function integer(o: Operands, value: Value, what: string): number | undefined {
  const n = o.env.scope.integer(value);
  if (n === undefined) {
    o.state.report.error(o.op, M.notStatic(what, laneText(o.state)));
    o.ok = false;
  }
  return n;
}

function nonNegative(o: Operands, value: Value, what: string): number | undefined {
  const n = integer(o, value, what);
  if (n !== undefined && n < 0) {
    o.state.report.error(o.op, M.negativeValue(what, n));
    o.ok = false;
    return undefined;
  }
  return n;
}

function inBounds(o: Operands, v: BufferView, offset: number, bytes: number, what: string): boolean {
  // A contiguous view bounds its own bytes; a strided one (a gather source) its allocation.
  const limit = isContiguous(v) ? viewBytes(v) : v.rootBytes - (v.address - v.rootAddress);
  if (offset < 0 || offset + bytes > limit) {
    o.state.report.error(o.op, M.outOfBounds(what, offset, offset + bytes, limit));
    o.ok = false;
    return false;
  }
  return true;
}

function field(o: Operands, name: string, value: number): boolean {
  if (value <= 0) {
    o.state.report.error(o.op, M.positiveSize(name, value));
    o.ok = false;
    return false;
  }
  if (value > MAX_FIELD) {
    o.state.report.error(o.op, M.fieldRange(name, value, MAX_FIELD));
    o.ok = false;
    return false;
  }
  return true;
}

function sizeProperty(op: Operation): number {
  const a = op.getProperty('size');
  return a instanceof IntegerAttr ? Number(a.value) : 0;
}

function peer(o: Operands, value: Value, what: string, allowSelf = false): number | undefined {
  const p = integer(o, value, what);
  if (p === undefined) return undefined;
  const cores = o.state.target.config.chip_config.core_cnt;
  if (p < 0 || p >= cores) {
    o.state.report.error(o.op, M.peerRange(what, p, cores));
    o.ok = false;
    return undefined;
  }
  if (p === o.state.seed.coreId && !allowSelf) {
    o.state.report.error(o.op, M.peerSelf(what, p));
    o.ok = false;
    return undefined;
  }
  return p;
}

function event(o: Operands, value: Value): number | undefined {
  const e = integer(o, value, 'event register');
  if (e !== undefined && (e < 0 || e >= EVENT_REGISTER_COUNT)) {
    o.state.report.error(o.op, M.eventRange(e, EVENT_REGISTER_COUNT));
    o.ok = false;
    return undefined;
  }
  return e;
}

// ------------------------------------------------------------------ weights

function residentWeight(state: StreamState, op: Operation, value: Value): ResidentWeight | undefined {
  const outer = state.seed.outer.get(value) ?? value;
  const cached = state.weights.get(outer);
  if (cached !== undefined) return cached ?? undefined;
  // Diagnostics stay per stream (each core's use is reported); a valid matrix is shared.
  const weight = state.shared.byValue.get(outer) ?? weightOf(state, op, outer);
  state.weights.set(outer, weight ?? null);
  if (weight) state.shared.byValue.set(outer, weight);
  return weight;
}

function weightOf(state: StreamState, op: Operation, value: Value): ResidentWeight | undefined {
  const type = value.type;
  if (!(type instanceof RankedTensorType || type instanceof MemRefType) || type.shape.length !== 2 || !isF32(type.elementType)) {
    state.report.error(op, M.weightType(typeText(type)));
    return undefined;
  }
  let attr: Attribute | undefined;
  const def = value instanceof OpResult ? value.definingOp : null;
  if (def && def.hasTrait(Traits.ConstantLike)) attr = def.getProperty('value') ?? def.getAttr('value');
  const get = def ? GetGlobalOp.match(def) : undefined;
  if (get) {
    attr = constantGlobals(state).get(get.name.root);
  }
  if (!(attr instanceof DenseElementsAttr) || !(attr.type.elementType instanceof FloatType)) {
    state.report.error(op, M.weightNotConstant());
    return undefined;
  }
  const [rows, cols] = [type.shape[0]!, type.shape[1]!];
  const xbarRows = state.target.config.chip_config.core_config.matrix_config.xbar_size[0];
  if (rows > xbarRows) {
    state.report.error(op, M.weightRows(rows, xbarRows));
    return undefined;
  }
  const src = attr.data as ArrayLike<number>;
  // The constant's own f32 storage when it holds exactly this matrix (never written: the
  // bundle and the array groups only read it); a copy otherwise.
  if (src instanceof Float32Array && !attr.isSplat && src.length === rows * cols) return { key: value, rows, cols, data: src };
  const data = new Float32Array(rows * cols);
  if (attr.isSplat) data.fill(Number(src[0]));
  else for (let i = 0; i < data.length; i++) data[i] = Number(src[i]);
  return { key: value, rows, cols, data };
}

/** The initial values of the module's constant `memref.global`s by name. */
function constantGlobals(state: StreamState): Map<string, Attribute | undefined> {
  let globals = state.shared.globals;
  if (globals) return globals;
  globals = new Map();
  for (let o = state.module.regions[0]?.firstBlock?.firstOp ?? null; o; o = o.next) {
    const g = GlobalOp.match(o);
    if (g && g.constant !== undefined) globals.set(g.sym_name.value, g.initial_value);
  }
  return (state.shared.globals = globals);
}

// ------------------------------------------------------------------ pim ops

const UNARY: ReadonlyMap<AnyOpDefinition, VectorMnemonic> = new Map<AnyOpDefinition, VectorMnemonic>([
  [VReluOp, 'vrelu'],
  [VTanhOp, 'vtanh'],
  [VSigmOp, 'vsigm'],
  [VSoftmaxOp, 'vsoftmax'],
  [VAvgOp, 'vavg'],
]);
const BINARY: ReadonlyMap<AnyOpDefinition, VectorMnemonic> = new Map<AnyOpDefinition, VectorMnemonic>([
  [VVAddOp, 'vvadd'],
  [VVSubOp, 'vvsub'],
  [VVMulOp, 'vvmul'],
  [VVMaxOp, 'vvmax'],
  [VVDMulOp, 'vvdmul'],
]);
/** The byte copies: destination and source memory spaces. */
const COPIES: ReadonlyMap<AnyOpDefinition, readonly [MemorySpace, MemorySpace]> = new Map<AnyOpDefinition, readonly [MemorySpace, MemorySpace]>([
  [MemcpOp, ['local', 'local']],
  [MemcpHdOp, ['local', 'host']],
  [MemcpDhOp, ['host', 'local']],
]);

/**
 * The byte every byte of `[offset, offset + size)` of the host constant `host` holds, or
 * undefined when they differ or the buffer is not a constant with known contents. A load of such
 * a range (the zero padding buffers of convolutions) becomes a local memset instead of a global
 * memory read, which all cores share.
 */
function uniformConstantByte(host: HostBuffer, offset: number, size: number): number | undefined {
  const init = host.initialValue;
  if (!init || !(host.type instanceof RankedTensorType) || size <= 0) return undefined;
  const data = init.data;
  const width = data.BYTES_PER_ELEMENT;
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (init.isSplat) {
    for (let i = 1; i < width; i++) if (bytes[i] !== bytes[0]) return undefined;
    return bytes[0];
  }
  if (offset < 0 || offset + size > bytes.length) return undefined;
  const first = bytes[offset]!;
  for (let i = offset + 1; i < offset + size; i++) if (bytes[i] !== first) return undefined;
  return first;
}

/** Lowers one pim op of a stream; false when `op` is not a pim op code generation knows. */
function lowerPimOp(state: StreamState, op: Operation, scope: StaticScope, bound: Map<Value, BufferView>): boolean {
  const o: Operands = { state, op, env: env(state, scope, bound), ok: true };
  const push = (s: StaticOp): void => {
    if (o.ok) state.ops.push(s);
  };
  const def = op.definition;
  const unary = def ? UNARY.get(def) : undefined;
  if (unary) {
    const mnemonic = unary;
    if (mnemonic === 'vsoftmax' && !state.target.config.raptor_config.allow_vsoftmax) {
      state.report.error(op, M.vsoftmaxDisabled());
      return true;
    }
    const x = vectorBuffer(o, op.getOperand(0), 'input');
    const d = vectorBuffer(o, op.getOperand(1), 'destination');
    if (!x || !d) return true;
    const len = viewElements(x);
    if (mnemonic === 'vavg') {
      if (viewElements(d) !== 1) {
        state.report.error(op, M.vavgDestination(viewElements(d)));
        return true;
      }
    } else if (viewElements(d) !== len) {
      state.report.error(op, M.lengthMismatch('destination', viewElements(d), len));
      return true;
    }
    if (!field(o, 'length', len)) return true;
    push({ kind: 'vector', mnemonic, dst: d.address, lhs: x.address, len, op });
    return true;
  }
  const binary = def ? BINARY.get(def) : undefined;
  if (binary) {
    const mnemonic = binary;
    const a = vectorBuffer(o, op.getOperand(0), 'lhs');
    const b = vectorBuffer(o, op.getOperand(1), 'rhs');
    const d = vectorBuffer(o, op.getOperand(2), 'destination');
    if (!a || !b || !d) return true;
    const len = viewElements(a);
    if (viewElements(b) !== len) {
      state.report.error(op, M.lengthMismatch('rhs', viewElements(b), len));
      return true;
    }
    const want = mnemonic === 'vvdmul' ? 1 : len;
    if (viewElements(d) !== want) {
      state.report.error(op, M.lengthMismatch('destination', viewElements(d), want));
      return true;
    }
    if (!field(o, 'length', len)) return true;
    push({ kind: 'vector', mnemonic, dst: d.address, lhs: a.address, rhs: b.address, len, op });
    return true;
  }
  const vmm = VMMOp.match(op);
  if (vmm) {
    const x = vectorBuffer(o, vmm.input, 'input');
    const d = vectorBuffer(o, vmm.outputBuffer, 'destination');
    const w = residentWeight(state, op, vmm.weight);
    if (!x || !d || !w) return true;
    if (viewElements(x) !== w.rows) {
      state.report.error(op, M.vmmInputWidth(viewElements(x), w.rows));
      return true;
    }
    if (viewElements(d) !== w.cols) {
      state.report.error(op, M.lengthMismatch('destination', viewElements(d), w.cols));
      return true;
    }
    push({ kind: 'mvmul', dst: d.address, src: x.address, weight: w, op });
    return true;
  }
  const vmv = VMVOp.match(op);
  if (vmv) {
    const d = contiguous(o, view(o, vmv.target, 'target', 'local'), 'target');
    const s = view(o, vmv.source, 'source', 'local');
    const dOff = nonNegative(o, vmv.targetOffset, 'target offset');
    const sOff = nonNegative(o, vmv.sourceOffset, 'source offset');
    const stride = nonNegative(o, vmv.sourceStride, 'source stride');
    const length = Number(vmv.length.value);
    if (!d || !s || dOff === undefined || sOff === undefined || stride === undefined || !field(o, 'length', length)) return true;
    if (d.elementBytes !== 4 || s.elementBytes !== 4) {
      state.report.error(op, M.elementType('target or source', typeText((vmv.target.type as MemRefType).elementType)));
      return true;
    }
    if (!inBounds(o, d, dOff, length * 4, 'target range') || !inBounds(o, s, sOff, ((length - 1) * stride + 1) * 4, 'source range')) return true;
    push({ kind: 'vmv', dst: d.address + dOff, src: s.address + sOff, stride, length, op });
    return true;
  }
  const copy = def ? COPIES.get(def) : undefined;
  if (copy) {
    const [dstSpace, srcSpace] = copy;
    const d = contiguous(o, view(o, op.getOperand(0), 'destination', dstSpace), 'destination');
    const s = contiguous(o, view(o, op.getOperand(1), 'source', srcSpace), 'source');
    const dOff = nonNegative(o, op.getOperand(2), 'destination offset');
    const sOff = nonNegative(o, op.getOperand(3), 'source offset');
    const size = sizeProperty(op);
    if (!d || !s || dOff === undefined || sOff === undefined || !field(o, 'size', size)) return true;
    if (!inBounds(o, d, dOff, size, 'destination range') || !inBounds(o, s, sOff, size, 'source range')) return true;
    const dst = d.address + dOff;
    const src = s.address + sOff;
    if (dstSpace === 'local' && srcSpace === 'local') push({ kind: 'lmv', dst, src, size, op });
    else if (dstSpace === 'local') {
      const byte = uniformConstantByte(s.host!, src - s.host!.address, size);
      push(byte === undefined ? { kind: 'ld', dst, src, size, host: s.host!, op } : { kind: 'fill', dst, value: byte, size, host: s.host!, op });
    }
    else push({ kind: 'st', dst, src, size, host: d.host!, op });
    return true;
  }
  const send = SendOp.match(op);
  if (send) {
    const x = contiguous(o, view(o, send.input, 'payload', 'local'), 'payload');
    const p = peer(o, send.targetCoreId, 'target core');
    const size = sizeProperty(op);
    if (!x || p === undefined || !field(o, 'size', size) || !inBounds(o, x, 0, size, 'payload range')) return true;
    push({ kind: 'send', src: x.address, size, peer: p, op });
    return true;
  }
  const recv = ReceiveOp.match(op);
  if (recv) {
    const d = contiguous(o, view(o, recv.outputBuffer, 'destination', 'local'), 'destination');
    const off = nonNegative(o, recv.outputOffset, 'destination offset');
    const p = peer(o, recv.sourceCoreId, 'source core');
    const size = sizeProperty(op);
    if (!d || off === undefined || p === undefined || !field(o, 'size', size) || !inBounds(o, d, off, size, 'destination range')) return true;
    push({ kind: 'recv', dst: d.address + off, size, peer: p, op });
    return true;
  }
  if (SyncOp.isInstance(op)) {
    const p = peer(o, op.getOperand(0), 'target core', true);
    const e = event(o, op.getOperand(1));
    if (p !== undefined && e !== undefined) push({ kind: 'sync', peer: p, event: e, op });
    return true;
  }
  if (WaitOp.isInstance(op)) {
    // Operands: event register, wait value.
    const e = event(o, op.getOperand(0));
    const count = nonNegative(o, op.getOperand(1), 'wait value');
    if (e !== undefined && count !== undefined && count > MAX_FIELD) state.report.error(op, M.fieldRange('wait value', count, MAX_FIELD));
    else if (e !== undefined && count !== undefined && count > 0) push({ kind: 'wait', event: e, count, op });
    return true;
  }
  const transpose = TransposeOp.match(op);
  if (transpose) {
    lowerTranspose(o, transpose.input, transpose.outputBuffer, transpose.permutation.elements.map((a) => (a instanceof IntegerAttr ? Number(a.value) : -1)));
    return true;
  }
  const concat = ConcatOp.match(op);
  if (concat) {
    lowerConcat(o, concat.inputs, concat.outputBuffer, Number(concat.axis.value));
    return true;
  }
  return false;
}

/**
 * `pim.transpose` as static runs (the dialect reference: one copy when the permutation
 * preserves storage, else runs of copies or strided gathers): one run per output row, an
 * `lmv` when its source elements are adjacent, else a `vmv` with the source stride.
 */
function lowerTranspose(o: Operands, input: Value, output: Value, perm: number[]): void {
  const x = view(o, input, 'input', 'local');
  const d = contiguous(o, view(o, output, 'destination', 'local'), 'destination');
  if (!x || !d) return;
  const rank = x.shape.length;
  const sorted = [...perm].sort((a, b) => a - b);
  if (perm.length !== rank || sorted.some((p, i) => p !== i)) {
    o.state.report.error(o.op, M.permutation(`[${perm.join(', ')}]`, rank));
    return;
  }
  const expected = perm.map((p) => x.shape[p]!);
  if (expected.length !== d.shape.length || expected.some((n, i) => n !== d.shape[i])) {
    o.state.report.error(o.op, M.transposeShape(`[${d.shape.join('x')}]`, `[${expected.join('x')}]`));
    return;
  }
  const eb = x.elementBytes;
  if (rank === 0 || viewElements(d) === 0) return;
  const inner = d.shape[rank - 1]!;
  const innerStride = x.strides[perm[rank - 1]!]!;
  const rows = viewElements(d) / inner;
  const idx = new Array<number>(rank - 1).fill(0);
  for (let r = 0; r < rows; r++) {
    let src = 0;
    for (let k = 0; k < rank - 1; k++) src += idx[k]! * x.strides[perm[k]!]!;
    const dst = d.address + r * inner * eb;
    const from = x.address + src * eb;
    if (innerStride === 1 || inner === 1) o.state.ops.push({ kind: 'lmv', dst, src: from, size: inner * eb, op: o.op });
    else if (eb === 4) o.state.ops.push({ kind: 'vmv', dst, src: from, stride: innerStride, length: inner, op: o.op });
    else {
      o.state.report.error(o.op, M.elementType('input', typeText((input.type as MemRefType).elementType)));
      return;
    }
    for (let k = rank - 2; k >= 0; k--) {
      if (++idx[k]! < d.shape[k]!) break;
      idx[k] = 0;
    }
  }
}

/** `pim.concat` as contiguous block copies, one per input and outer coordinate. */
function lowerConcat(o: Operands, inputs: readonly Value[], output: Value, axis: number): void {
  const d = contiguous(o, view(o, output, 'destination', 'local'), 'destination');
  const xs = inputs.map((v, i) => contiguous(o, view(o, v, `input #${i}`, 'local'), `input #${i}`));
  if (!d || xs.some((x) => !x)) return;
  const outer = d.shape.slice(0, axis).reduce((a, b) => a * b, 1);
  const eb = d.elementBytes;
  const blocks = xs.map((x) => x!.shape.slice(axis).reduce((a, b) => a * b, 1) * eb);
  const rowBytes = d.shape.slice(axis).reduce((a, b) => a * b, 1) * eb;
  if (blocks.reduce((a, b) => a + b, 0) !== rowBytes) {
    o.state.report.error(o.op, M.concatShape());
    return;
  }
  for (let r = 0; r < outer; r++) {
    let at = d.address + r * rowBytes;
    xs.forEach((x, i) => {
      const size = blocks[i]!;
      if (size > 0) o.state.ops.push({ kind: 'lmv', dst: at, src: x!.address + r * size, size, op: o.op });
      at += size;
    });
  }
}

/** Every peer named by a transfer or sync runs a stream. */
function checkPeers(streams: readonly StaticStream[], report: Reporter): void {
  const cores = new Set(streams.map((s) => s.coreId));
  for (const s of streams) {
    for (const op of s.ops) {
      if ((op.kind === 'send' || op.kind === 'recv' || op.kind === 'sync') && !cores.has(op.peer)) {
        report.error(op.op, M.peerNoStream(op.kind === 'recv' ? 'source core' : 'target core', op.peer));
      }
    }
  }
}
