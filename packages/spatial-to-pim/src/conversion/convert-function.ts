/**
 * The `spat-to-pim` conversion of one function: scheduled Spatial computes placed on cores ->
 * one PIM stream per core (`pim.core`) or per group of batches placed on the same cores
 * (`pim.core_batch`, lane expressions kept), with host memory as memrefs:
 *
 * - graph inputs (function arguments) become `memref` arguments read with `pim.memcp_hd`;
 * - graph outputs (results of scheduled computes returned by `func.return`) become
 *   `memref.alloc` buffers written with `pim.memcp_dh` and returned;
 * - the host slots of `spat.host_store_sync` / `spat.host_wait_load` live in one host buffer
 *   (`memref<Nxi8>`, N = the largest slot end).
 *
 * Computes placed on one core run in program order in one stream; batches whose lanes share
 * cores with other work are expanded lane by lane (the only case that copies a body).
 * Validation happens before anything changes: a failed conversion leaves the function as it
 * was and reports every problem.
 */
import {
  Block,
  BlockArgument,
  FunctionType,
  IndexType,
  IntegerAttr,
  IntegerType,
  IRMapping,
  MemRefType,
  applyFullConversion,
  type ConversionPattern,
  type ConversionTarget,
  Diagnostic,
  DYNAMIC,
  OpBuilder,
  RankedTensorType,
  Traits,
  TypeAttr,
  DenseArrayAttr,
  ReturnOp,
  type MLIRContext,
  type Operation,
  type Value,
  printType,
} from '@raptor-pim/ir-core';
import { CoreBatchOp, CoreOp, HaltOp, MemcpDhOp, MemcpHdOp } from '@raptor-pim/pim-dialect';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import {
  BlueprintOp,
  ChannelReceiveOp,
  ChannelSendOp,
  DeferredSourceSelectOp,
  HostStoreSyncOp,
  HostWaitLoadOp,
  SyncOp,
  WaitOp,
  InParallelOp,
  ScheduledComputeBatchOp,
  ScheduledComputeOp,
} from '@raptor-pim/spatial-dialect';
import { AffineApplyOp, EmptyOp, ExtractSliceOp, InsertSliceOp, ParallelInsertSliceOp, createAlloc, createExtractSlice, readSliceLists } from '@raptor-pim/upstream-dialects';
import { SpatToPimMessages as M } from '../diagnostics';
import { copyRuns, spatToPimPatterns, spatToPimTarget } from './patterns';
import { evaluateStaticIndex as evaluateStatic } from '@raptor-pim/upstream-dialects';
import { LoweringContext, NO_BINDINGS, staticTensor, type ConversionCounters, type HostBuffers } from './lowering-context';
import { BodyValidator } from './validate-bodies';
import { convertHostOnlyOutputs } from './host-outputs';

/** What one conversion did (the pass statistics). */
export interface SpatToPimStats extends ConversionCounters {
  /** `pim.core` streams created. */
  cores: number;
  /** `pim.core_batch` streams created. */
  coreBatches: number;
  /** Scheduled batches expanded lane by lane (their cores also run other work). */
  expandedBatches: number;
  /** Scheduled computes dropped: no result used and no transfer, host slot or event in the body. */
  droppedComputes: number;
}

/** The outcome of {@link convertScheduledFunction}. */
export interface SpatToPimResult {
  /** False when diagnostics were reported (the function is unchanged, see {@link convertScheduledFunction}). */
  readonly ok: boolean;
  /** Counters of the conversion. */
  readonly stats: SpatToPimStats;
}

/** A scheduled compute with its placement. */
interface Placed {
  readonly op: Operation;
  readonly batch: boolean;
  readonly cores: readonly number[];
  readonly order: number;
  /** A batch that must be expanded lane by lane (a loop bound or condition depends on the lane). */
  readonly expand?: boolean;
}

/** One stream to build: a core or a batch of lanes, and the work it runs in order. */
interface StreamPlan {
  readonly kind: 'core' | 'batch';
  readonly cores: readonly number[];
  /**
   * The work in program order. For `core`: the lane of a batch as a constant (undefined for a
   * scalar compute); for `batch`: undefined (the stream's lane is the batch's lane) or the
   * batch's lane as `scale * lane + offset` of the stream's lane.
   */
  readonly work: readonly { readonly compute: Placed; readonly lane: LaneOf }[];
}

/** How a stream names the lane of one scheduled batch (see {@link StreamPlan}). */
type LaneOf = number | { readonly scale: number; readonly offset: number } | undefined;

/**
 * The cores of one group that run the same computes in the same order as one stream: a
 * `pim.core_batch` when every batch's lane is an affine function of the position of the core
 * in the stream (`scale * j + offset`), else one `pim.core` per core (lanes as constants).
 */
function signatureStreams(cores: readonly number[], works: ReadonlyMap<number, { compute: Placed; lane: number | undefined }[]>): StreamPlan[] {
  const groups = new Map<string, number[]>();
  for (const core of cores) {
    const key = works.get(core)!.map((w) => w.compute.order).join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(core);
  }
  const streams: StreamPlan[] = [];
  for (const group of groups.values()) {
    const first = works.get(group[0]!)!;
    const batchable = group.length > 1 && first.every((w) => w.compute.batch && !w.compute.expand);
    if (batchable) {
      const ordered = [...group].sort((a, b) => works.get(a)![0]!.lane! - works.get(b)![0]!.lane!);
      const lanes = first.map((_, i) => ordered.map((c) => works.get(c)![i]!.lane!));
      const fits = lanes.map((l) => {
        const scale = l[1]! - l[0]!;
        return l.every((x, j) => x === l[0]! + scale * j) ? { scale, offset: l[0]! } : undefined;
      });
      if (fits.every((f) => f !== undefined)) {
        streams.push({
          kind: 'batch',
          cores: ordered,
          work: first.map((w, i) => ({ compute: w.compute, lane: fits[i]!.scale === 1 && fits[i]!.offset === 0 ? undefined : fits[i]! })),
        });
        continue;
      }
    }
    for (const core of group) streams.push({ kind: 'core', cores: [core], work: works.get(core)! });
  }
  return streams;
}

function isScheduled(op: Operation): boolean {
  return op.definition === ScheduledComputeOp || op.definition === ScheduledComputeBatchOp;
}

function isConstant(op: Operation | null): boolean {
  return op !== null && (op.hasTrait(Traits.ConstantLike) || op.name.endsWith('.constant'));
}

function placement(op: Operation): readonly number[] | undefined {
  if (op.definition === ScheduledComputeOp) {
    const id = op.getProperty('coreId');
    return id instanceof IntegerAttr ? [Number(id.value)] : undefined;
  }
  const ids = op.getProperty('coreIds');
  return ids instanceof DenseArrayAttr ? (ids.values as readonly (number | bigint)[]).map(Number) : undefined;
}

/** Weight and input operands of a scheduled compute or batch. */
function bindingsOf(op: Operation): { weights: readonly Value[]; inputs: readonly Value[] } {
  return op.definition === ScheduledComputeOp ? ScheduledComputeOp.get(op) : ScheduledComputeBatchOp.get(op);
}

function laneCount(op: Operation): number {
  const n = op.getProperty('laneCount');
  return n instanceof IntegerAttr ? Number(n.value) : 1;
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Groups placed computes into streams (see the file comment). */
export function planStreams(placed: readonly Placed[]): StreamPlan[] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.get(r)! !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  for (const p of placed) for (const c of p.cores) if (!parent.has(c)) parent.set(c, c);
  for (const p of placed) for (const c of p.cores.slice(1)) parent.set(find(c), find(p.cores[0]!));
  const groups = new Map<number, Placed[]>();
  for (const p of placed) {
    const root = find(p.cores[0]!);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = []));
    g.push(p);
  }
  const ordered = [...groups.values()].sort((a, b) => a[0]!.order - b[0]!.order);
  const streams: StreamPlan[] = [];
  for (const g of ordered) {
    const first = g[0]!;
    if (first.batch && g.every((p) => p.batch && !p.expand && sameList(p.cores, first.cores))) {
      streams.push({ kind: 'batch', cores: first.cores, work: g.map((compute) => ({ compute, lane: undefined })) });
      continue;
    }
    const cores = [...new Set(g.flatMap((p) => p.cores))].sort((a, b) => a - b);
    const works = new Map<number, { compute: Placed; lane: number | undefined }[]>();
    for (const core of cores) {
      const work: { compute: Placed; lane: number | undefined }[] = [];
      for (const p of g) {
        const k = p.cores.indexOf(core);
        if (k >= 0) work.push({ compute: p, lane: p.batch ? k : undefined });
      }
      works.set(core, work);
    }
    streams.push(...signatureStreams(cores, works));
  }
  return streams;
}

/** Host memref type of a tensor type. */
function memrefOf(ctx: MLIRContext, t: RankedTensorType): MemRefType {
  return MemRefType.get(ctx, t.shape, t.elementType);
}

/** Body ops whose effects other cores or the host observe. */
const OBSERVABLE: ReadonlySet<unknown> = new Set([ChannelSendOp, ChannelReceiveOp, HostStoreSyncOp, HostWaitLoadOp, SyncOp, WaitOp]);

/** True when no result of `op` is used and its body has no transfer, host slot or event. */
function unobservable(op: Operation): boolean {
  if (!op.results.every((r) => r.useEmpty)) return false;
  let seen = false;
  op.walk((inner) => {
    if (OBSERVABLE.has(inner.definition)) seen = true;
  });
  return !seen;
}

/** Validates the top level of `func`; reports every problem. */
function validate(func: Operation, block: Block): Placed[] | undefined {
  let ok = true;
  const placed: Placed[] = [];
  let order = 0;
  for (let op = block.firstOp; op; op = op.next) {
    if (isScheduled(op)) {
      const cores = placement(op);
      if (!cores) {
        op.emitError(M.unplaced(op.name));
        ok = false;
        continue;
      }
      const batch = op.definition === ScheduledComputeBatchOp;
      placed.push({ op, batch, cores, order: order++ });
      for (const input of op.operands) {
        const def = input.definingOp;
        if (input instanceof BlockArgument && input.owner === block) {
          if (!staticTensor(input.type)) {
            op.emitError(M.dynamicShape(op.name, printType(input.type)));
            ok = false;
          }
        } else if (def && isScheduled(def)) {
          // SSA forwarding: allowed between computes of one core (checked when streams form).
          const from = placement(def);
          if (!from || op.definition !== ScheduledComputeOp || def.definition !== ScheduledComputeOp || from[0] !== cores[0]) {
            op.emitError(M.capturedCompute(op.name));
            ok = false;
          }
        } else if (!isConstant(def)) {
          op.emitError(M.unsupportedInput(op.name, def?.name ?? 'a block argument'));
          ok = false;
        }
      }
      for (const r of op.results) {
        for (let u = r.firstUse; u; u = u.nextUse) {
          const d = u.owner.definition;
          if (d !== ReturnOp && d !== ExtractSliceOp && d !== InsertSliceOp && d !== BlueprintOp && !(isScheduled(u.owner) && u.owner.parent === block)) {
            op.emitError(M.notChannelized(op.name, u.owner.name));
            ok = false;
          }
        }
        if (!staticTensor(r.type)) {
          op.emitError(M.dynamicShape(op.name, printType(r.type)));
          ok = false;
        }
      }
    } else if (op.definition === ReturnOp || op.definition === EmptyOp || op.definition === ExtractSliceOp || op.definition === InsertSliceOp || op.definition === BlueprintOp) {
      // Graph outputs and their host reassembly: checked by hostPlacements.
    } else if (!isConstant(op)) {
      op.emitError(M.unsupportedTopLevel(op.name));
      ok = false;
    }
  }
  void func;
  return ok ? placed : undefined;
}

/** Where (part of) a compute result lands in a graph output buffer. */
export interface HostPlacement {
  /** The output buffer. */
  readonly out: Value;
  /** The part of the result that is stored (undefined: all of it). */
  readonly source?: { readonly offsets: readonly number[]; readonly sizes: readonly number[] };
  /** Or: a contiguous part of the result, from this byte offset (a blueprint slice). */
  readonly sourceByte?: number;
  /** Where it lands in the output (undefined: the whole output). */
  readonly dest?: { readonly offsets: readonly number[]; readonly sizes: readonly number[] };
  /** Or (with `sourceByte`): `bytes` contiguous bytes landing at this byte offset of the output. */
  readonly destByte?: number;
  /** The byte count of a `destByte` placement. */
  readonly bytes?: number;
}

function staticSlice(op: Operation): { offsets: number[]; sizes: number[] } | undefined {
  const l = readSliceLists(op);
  if ([...l.offsets, ...l.sizes].some((x) => x === DYNAMIC) || l.strides.some((x) => x !== 1)) return undefined;
  return { offsets: [...l.offsets], sizes: [...l.sizes] };
}

/**
 * The graph outputs: each returned value is a compute result, or a host reassembly
 * (`tensor.insert_slice` chains into a `tensor.empty`, of compute results or static slices of
 * them, as the scheduler writes when replicas produce parts of a result). Returns, per compute
 * result, where its parts land, after allocating one host buffer per returned operand (a value
 * returned twice is two graph outputs of the bundle, each stored); `outputs[k]` is the buffer of
 * return operand k. Undefined after a diagnostic.
 */
function hostPlacements(ret: Operation | null, alloc: (t: RankedTensorType) => Value): { placements: Map<Value, HostPlacement[]>; outputs: Value[] } | undefined {
  const placements = new Map<Value, HostPlacement[]>();
  const outputs: Value[] = [];
  if (!ret || ret.definition !== ReturnOp) return { placements, outputs };
  const add = (r: Value, p: HostPlacement): void => {
    let list = placements.get(r);
    if (!list) placements.set(r, (list = []));
    list.push(p);
  };
  let ok = true;
  const fail = (op: Operation | null, at: Operation): void => {
    at.emitError(M.unsupportedOutput(op?.name ?? 'a function argument'));
    ok = false;
  };
  for (const v of ret.operands) {
    const out = alloc(v.type as RankedTensorType);
    outputs.push(out);
    for (let cur: Value | undefined = v; cur; ) {
      const def: Operation | null = cur.definingOp;
      if (def && isScheduled(def)) {
        add(cur, { out });
        break;
      }
      if (def?.definition === EmptyOp) break;
      if (def?.definition === BlueprintOp) {
        if (!placeBlueprint(def, out, add)) fail(def, def);
        break;
      }
      if (def?.definition !== InsertSliceOp) {
        fail(def, ret);
        break;
      }
      const ins = InsertSliceOp.get(def);
      const dest = staticSlice(def);
      const src = ins.source.definingOp;
      if (!dest) {
        fail(def, def);
        break;
      }
      if (src && isScheduled(src)) add(ins.source, { out, dest });
      else if (src?.definition === ExtractSliceOp && ExtractSliceOp.get(src).source.definingOp && isScheduled(ExtractSliceOp.get(src).source.definingOp!)) {
        const source = staticSlice(src);
        if (!source) {
          fail(src, src);
          break;
        }
        add(ExtractSliceOp.get(src).source, { out, source, dest });
      } else {
        fail(src, def);
        break;
      }
      cur = ins.dest;
    }
  }
  return ok ? { placements, outputs } : undefined;
}

function ints(a: DenseArrayAttr | undefined): number[] {
  return a ? (a.values as readonly (number | bigint)[]).map(Number) : [];
}

/**
 * A graph output assembled by a host-level `spat.blueprint` of compute results: each slice k
 * is a contiguous range of slot `sourceSlots[k]` (from flat element `sourceOffsets[k]`) of
 * fragment collection `operandIndices[k]`, stored at its destination slice; a physical view
 * is the whole collection. False when a fragment is not a compute result.
 */
function placeBlueprint(op: Operation, out: Value, add: (r: Value, p: HostPlacement) => void): boolean {
  const view = BlueprintOp.get(op);
  const frags = view.fragments;
  if (!frags.every((f) => f.definingOp && isScheduled(f.definingOp))) return placeAssembledBlueprint(op, out, add);
  if (view.mode.value === 'physical_view') {
    add(frags[0]!, { out });
    return true;
  }
  const outInfo = staticTensor(op.getResult(0).type);
  if (!outInfo) return false;
  const rank = outInfo.shape.length;
  const offsets = ints(view.offsets);
  const sizes = ints(view.sizes);
  const indices = ints(view.operandIndices);
  const slots = ints(view.sourceSlots);
  const sourceOffsets = ints(view.sourceOffsets);
  for (let k = 0; rank > 0 && k < offsets.length / rank; k++) {
    const frag = frags[indices[k]!]!;
    const info = staticTensor(frag.type);
    if (!info) return false;
    const slotBytes = info.bytes / info.shape[0]!;
    add(frag, {
      out,
      sourceByte: slots[k]! * slotBytes + sourceOffsets[k]! * info.elementBytes,
      dest: { offsets: offsets.slice(k * rank, (k + 1) * rank), sizes: sizes.slice(k * rank, (k + 1) * rank) },
    });
  }
  return true;
}

/** One element of a fragment collection: element `flat` (row-major) of compute result `result`. */
interface ElementSource {
  readonly result: Value;
  readonly flat: number;
}

/** Row-major flat indices of the elements of the static slice `offsets`/`sizes` of `shape`, in slice order. */
function sliceElements(shape: readonly number[], offsets: readonly number[], sizes: readonly number[]): number[] {
  const rank = shape.length;
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const count = sizes.reduce((a, b) => a * b, 1);
  const idx = new Array<number>(rank).fill(0);
  const out = new Array<number>(count);
  for (let e = 0; e < count; e++) {
    let linear = 0;
    for (let d = 0; d < rank; d++) linear += (offsets[d]! + idx[d]!) * strides[d]!;
    out[e] = linear;
    for (let d = rank - 1; d >= 0; d--) {
      if (++idx[d]! < sizes[d]!) break;
      idx[d] = 0;
    }
  }
  return out;
}

/**
 * Where each element of a fragment collection comes from: a compute result (itself), or a host
 * reassembly of compute results (`tensor.insert_slice` chain into a `tensor.empty` of compute
 * results or static slices of them; a later insert overrides an earlier one). Elements of the
 * `tensor.empty` no insert covers are undefined. Undefined when the collection is anything else.
 */
function collectionElements(v: Value): (ElementSource | undefined)[] | undefined {
  const info = staticTensor(v.type);
  if (!info) return undefined;
  const total = info.bytes / info.elementBytes;
  const def = v.definingOp;
  if (def && isScheduled(def)) return Array.from({ length: total }, (_, flat) => ({ result: v, flat }));
  const map = new Array<ElementSource | undefined>(total).fill(undefined);
  for (let cur: Value = v; ; ) {
    const d = cur.definingOp;
    if (d?.definition === EmptyOp) return map;
    if (d?.definition !== InsertSliceOp) return undefined;
    const ins = InsertSliceOp.get(d);
    const dest = staticSlice(d);
    if (!dest) return undefined;
    const src = ins.source.definingOp;
    let result: Value;
    let from: number[];
    if (src && isScheduled(src)) {
      result = ins.source;
      from = Array.from({ length: dest.sizes.reduce((a, b) => a * b, 1) }, (_, i) => i);
    } else if (src?.definition === ExtractSliceOp && ExtractSliceOp.get(src).source.definingOp && isScheduled(ExtractSliceOp.get(src).source.definingOp!)) {
      const slice = staticSlice(src);
      result = ExtractSliceOp.get(src).source;
      const rInfo = staticTensor(result.type);
      if (!slice || !rInfo) return undefined;
      from = sliceElements(rInfo.shape, slice.offsets, slice.sizes);
    } else return undefined;
    const to = sliceElements(info.shape, dest.offsets, dest.sizes);
    if (to.length !== from.length) return undefined;
    // Walking from the last insert back: an element already placed was overwritten later.
    to.forEach((t, i) => {
      if (!map[t]) map[t] = { result, flat: from[i]! };
    });
    cur = ins.dest;
  }
}

/**
 * A `spat.blueprint` over host reassemblies of compute results: every output element is traced
 * to the compute result element it holds, and consecutive elements contiguous on both sides
 * become one `pim.memcp_dh` placement (`sourceByte`/`destByte`). False when a fragment is not a
 * compute result or a host reassembly of them, or when the blueprint reads an element no compute
 * writes.
 */
function placeAssembledBlueprint(op: Operation, out: Value, add: (r: Value, p: HostPlacement) => void): boolean {
  const view = BlueprintOp.get(op);
  const outInfo = staticTensor(op.getResult(0).type);
  if (!outInfo) return false;
  const collections: (ElementSource | undefined)[][] = [];
  for (const f of view.fragments) {
    const m = collectionElements(f);
    if (!m) return false;
    collections.push(m);
  }
  // sources[i]: the source of output element i (row-major).
  const outElems = outInfo.bytes / outInfo.elementBytes;
  const sources = new Array<ElementSource | undefined>(outElems).fill(undefined);
  if (view.mode.value === 'physical_view') {
    const c = collections[0]!;
    if (c.length !== outElems) return false;
    for (let i = 0; i < outElems; i++) {
      if (!c[i]) return false;
      sources[i] = c[i];
    }
  } else {
    const rank = outInfo.shape.length;
    const offsets = ints(view.offsets);
    const sizes = ints(view.sizes);
    const indices = ints(view.operandIndices);
    const slots = ints(view.sourceSlots);
    const sourceOffsets = ints(view.sourceOffsets);
    for (let k = 0; rank > 0 && k < offsets.length / rank; k++) {
      const c = collections[indices[k]!];
      const fInfo = c ? staticTensor(view.fragments[indices[k]!]!.type) : undefined;
      if (!c || !fInfo) return false;
      const slotElems = c.length / fInfo.shape[0]!;
      const base = slots[k]! * slotElems + sourceOffsets[k]!;
      const to = sliceElements(outInfo.shape, offsets.slice(k * rank, (k + 1) * rank), sizes.slice(k * rank, (k + 1) * rank));
      for (let e = 0; e < to.length; e++) {
        const s = c[base + e];
        if (!s) return false;
        sources[to[e]!] = s;
      }
    }
  }
  const eb = outInfo.elementBytes;
  for (let i = 0; i < outElems; ) {
    const s = sources[i];
    if (!s) {
      i++;
      continue;
    }
    let n = 1;
    while (i + n < outElems && sources[i + n]?.result === s.result && sources[i + n]!.flat === s.flat + n) n++;
    add(s.result, { out, sourceByte: s.flat * eb, destByte: i * eb, bytes: n * eb });
    i += n;
  }
  return true;
}

/**
 * Every `tensor.parallel_insert_slice` of a resultful batch publishes into a whole graph
 * output (checked before anything moves; reports every other publication).
 */
function checkPublications(placed: readonly Placed[], placements: ReadonlyMap<Value, readonly HostPlacement[]>): boolean {
  let ok = true;
  for (const p of placed) {
    const entry = p.op.regions[0]!.firstBlock!;
    const term = entry.terminator;
    if (term?.definition !== InParallelOp) continue;
    const outputArgs = entry.arguments.slice(entry.numArguments - p.op.numResults);
    for (let ins = term.regions[0]!.firstBlock?.firstOp ?? null; ins; ins = ins.next) {
      if (ins.definition !== ParallelInsertSliceOp) continue;
      const k = (outputArgs as readonly Value[]).indexOf(ParallelInsertSliceOp.get(ins).dest);
      const places = k >= 0 ? placements.get(p.op.getResult(k)) : undefined;
      if (!(places && places.length === 1 && !places[0]!.source && !places[0]!.dest && places[0]!.sourceByte === undefined)) {
        ins.emitError(M.badPublication(ins.name));
        ok = false;
      }
    }
  }
  return ok;
}

/** Largest byte end of the host slots used by the schedule, or undefined after a diagnostic. */
function hostSlotExtent(placed: readonly Placed[]): number | undefined {
  let end = 0;
  let ok = true;
  for (const p of placed) {
    const lanes = p.batch ? laneCount(p.op) : 1;
    const laneArg = p.batch ? p.op.regions[0]!.firstBlock!.arguments[0] : undefined;
    p.op.walk((inner) => {
      const isStore = inner.definition === HostStoreSyncOp;
      if (!isStore && inner.definition !== HostWaitLoadOp) return;
      const payload = isStore ? inner.getOperand(0).type : inner.getResult(0).type;
      const info = staticTensor(payload);
      const offset = isStore ? HostStoreSyncOp.get(inner).hostOffset : HostWaitLoadOp.get(inner).hostOffset;
      for (let k = 0; k < lanes; k++) {
        const o = evaluateStatic(offset, laneArg ? new Map([[laneArg as Value, k]]) : NO_BINDINGS);
        if (o === undefined || !info) {
          if (ok) inner.emitError(M.notStatic(inner.name, 'the host offset'));
          ok = false;
          return;
        }
        end = Math.max(end, o + info.bytes);
      }
    });
  }
  return ok ? end : undefined;
}

/**
 * Converts the scheduled computes of `func` to PIM streams (see the file comment). Returns
 * `ok: false` after reporting diagnostics; the function is then unchanged (every refusal is
 * found by the checks that run before body ops move; only an internal error of a pattern after
 * that leaves the streams in place).
 */
export function convertScheduledFunction(func: Operation, config: HardwareConfig): SpatToPimResult {
  const stats: SpatToPimStats = {
    cores: 0,
    coreBatches: 0,
    expandedBatches: 0,
    droppedComputes: 0,
    hostLoads: 0,
    hostStores: 0,
    copies: 0,
    transfers: 0,
    vectorOps: 0,
    matrixOps: 0,
    aliases: 0,
    unrolledIterations: 0,
  };
  const block = func.regions[0]?.firstBlock;
  if (!block) return { ok: true, stats };
  let first: Operation | null = null;
  for (let op = block.firstOp; op && !first; op = op.next) if (isScheduled(op)) first = op;
  if (!first) return { ok: convertHostOnlyOutputs(func, block, config, stats), stats };
  const ctx = func.context;
  const validated = validate(func, block);
  if (!validated) return { ok: false, stats };
  const slotBytes = hostSlotExtent(validated);
  if (slotBytes === undefined) return { ok: false, stats };
  const probe = new LoweringContext(ctx, config, { slots: undefined, outputs: new Map() }, stats);
  const bodies = new BodyValidator(new Set(spatToPimPatterns(probe).map((p) => p.rootName).filter((n): n is string => n !== null)), config);
  let bodiesOk = true;
  const placed = validated.map((p) => {
    const r = bodies.check(p.op);
    if (!r.ok) bodiesOk = false;
    return r.laneDependent && p.batch ? { ...p, expand: true } : p;
  });
  if (!bodiesOk) return { ok: false, stats };
  // A compute nothing observes (no result used, no transfer, host slot or event) is dropped:
  // it would only occupy its core, and replicas of it (one per core) would keep the cores of a
  // batch from forming one stream.
  const live = placed.filter((p) => !unobservable(p.op));
  stats.droppedComputes += placed.length - live.length;

  // Host buffers and streams go right before the return: every constant of the function
  // dominates them. Everything that can refuse the function was checked above, so a refused
  // function stays exactly as it was; from here on body ops move into the streams.
  const created: Operation[] = [];
  const ret = block.terminator;
  const b = ret ? OpBuilder.before(ret) : OpBuilder.atBlockEnd(block, ctx);
  const graphOutputs = hostPlacements(ret, (t) => {
    const alloc = createAlloc(b, ret!.location, memrefOf(ctx, t));
    created.push(alloc.definingOp!);
    return alloc;
  });
  if (!graphOutputs) {
    for (const op of created.reverse()) op.erase();
    return { ok: false, stats };
  }
  const { placements, outputs } = graphOutputs;
  if (!checkPublications(live, placements)) {
    for (const op of created.reverse()) op.erase();
    return { ok: false, stats };
  }
  let slots: Value | undefined;
  if (slotBytes > 0) {
    slots = createAlloc(b, first.location, MemRefType.get(ctx, [slotBytes], IntegerType.get(ctx, 8)));
    created.push(slots.definingOp!);
  }
  const host: HostBuffers = { slots, outputs: placements };

  let ok = true;
  const lowering = new LoweringContext(ctx, config, host, stats);
  const patterns = spatToPimPatterns(lowering);
  const target = spatToPimTarget();
  const streams = planStreams(live);
  const remainingUses = new Map<Operation, number>();
  for (const plan of streams) for (const w of plan.work) remainingUses.set(w.compute.op, (remainingUses.get(w.compute.op) ?? 0) + 1);
  for (const plan of streams) {
    const core = buildStream(b, ctx, plan, lowering, stats, target, patterns, remainingUses);
    created.push(core.op);
    if (!core.ok) ok = false;
  }
  if (!ok) {
    // Before any body moved (a refusal of the stream forming), the function is restored; after
    // (a conversion failure the body checks did not foresee: an internal error), the streams
    // hold moved ops and stay, and the pass fails.
    const moved = [...remainingUses.values()].some((n) => n === 0);
    if (!moved) for (const op of created.reverse()) op.erase();
    return { ok: false, stats };
  }

  // Commit: outputs returned as host buffers, scheduled ops erased, host arguments as memrefs.
  if (ret && ret.definition === ReturnOp) ret.setOperands(ret.operands.map((v, k) => outputs[k] ?? v));
  const reassembly: Operation[] = [];
  for (let op = block.firstOp; op; op = op.next) {
    if (op.definition === EmptyOp || op.definition === ExtractSliceOp || op.definition === InsertSliceOp || op.definition === BlueprintOp) reassembly.push(op);
  }
  for (const op of reassembly.reverse()) op.erase();
  for (const p of [...placed].reverse()) p.op.erase();
  for (const arg of block.arguments) if (arg.type instanceof RankedTensorType) arg.type = memrefOf(ctx, arg.type);
  const fnType = FunctionType.get(
    ctx,
    block.arguments.map((a) => a.type),
    ret ? ret.operands.map((v) => v.type) : [],
  );
  func.setAttr('function_type', TypeAttr.get(fnType));
  return { ok: true, stats };
}

/** Builds one stream op before the builder's insertion point: forms the stream, then converts it. */
function buildStream(
  b: OpBuilder,
  ctx: MLIRContext,
  plan: StreamPlan,
  lowering: LoweringContext,
  stats: SpatToPimStats,
  target: ConversionTarget,
  patterns: readonly ConversionPattern[],
  remainingUses: Map<Operation, number>,
): { op: Operation; ok: boolean } {
  const loc = plan.work[0]!.compute.op.location;
  const weights: Value[] = [];
  for (const w of plan.work) for (const v of bindingsOf(w.compute.op).weights) if (!weights.includes(v)) weights.push(v);
  const isBatch = plan.kind === 'batch';
  const op = isBatch
    ? CoreBatchOp.build(
        b,
        { weights, inputs: [], laneCount: IntegerAttr.get(IntegerType.get(ctx, 32), plan.cores.length), coreIds: DenseArrayAttr.i32(ctx, [...plan.cores]) },
        loc,
      ).op
    : CoreOp.build(b, { weights, coreId: IntegerAttr.get(IntegerType.get(ctx, 32), plan.cores[0]!) }, loc).op;
  if (isBatch) stats.coreBatches++;
  else stats.cores++;
  const body = new Block();
  op.regions[0]!.push(body);
  const lane = isBatch ? body.addArgument(IndexType.get(ctx), loc) : undefined;
  const weightArgs = weights.map((w) => body.addArgument(w.type, loc));
  const sb = OpBuilder.atBlockEnd(body, ctx);
  const expanded = new Set<Operation>();
  const forwarded = new Map<Value, Value>();
  let ok = true;
  for (const w of plan.work) {
    if (typeof w.lane === 'number') expanded.add(w.compute.op);
    // The last (usually the only) stream a compute goes to takes its body ops; earlier lanes
    // of an expanded batch get copies.
    const left = (remainingUses.get(w.compute.op) ?? 1) - 1;
    remainingUses.set(w.compute.op, left);
    if (!formCompute(sb, lowering, w.compute, w.lane, lane, weights, weightArgs, forwarded, op, left === 0)) {
      ok = false;
      break;
    }
  }
  stats.expandedBatches += expanded.size;
  HaltOp.build(sb, {}, loc);
  if (!ok) return { op, ok };
  // The ops of the stream: every spat op, tensor slice and structured op converted by the patterns.
  // No rollback snapshot (a clone of the whole stream): a stream that fails to convert fails the
  // pass with its body ops already moved into it, so nothing would restore it anyway.
  const r = applyFullConversion(op, target, patterns, { emitDiagnostics: false, allowPatternRollback: false });
  if (!r.success) {
    lowering.forget(body);
    for (const f of r.failures) if (!lowering.wasReported(f.opName, f.location)) ctx.diagnostics.emit(new Diagnostic('error', f.location, M.unsupportedOp(f.opName)));
    return { op, ok: false };
  }
  lowering.forget(body);
  eraseDeadIndexArithmetic(body);
  return { op, ok: true };
}

/**
 * Erases the index arithmetic of `body` nothing uses any more (offsets, selectors and bounds
 * the patterns folded to constants), last op first so chains go at once.
 */
function eraseDeadIndexArithmetic(body: Block): void {
  for (let op = body.lastOp; op; ) {
    const prev: Operation | null = op.prev;
    if (op.numRegions === 0 && op.numResults > 0 && (op.definition === AffineApplyOp || op.name.startsWith('arith.')) && op.results.every((r) => r.useEmpty)) op.erase();
    op = prev;
  }
}

/** Replaces the operands of `op` and of the ops nested in it that `mapping` maps. */
function remapNested(op: Operation, mapping: IRMapping): void {
  op.walk((o) => {
    for (let i = 0; i < o.numOperands; i++) {
      const m = mapping.lookupOrNull(o.getOperand(i));
      if (m) o.setOperand(i, m);
    }
  });
}

/**
 * Forms one scheduled compute (or one lane of a batch) in the stream: lane, weights and
 * constant inputs are remapped, host inputs are loaded with `pim.memcp_hd` right before their
 * first use (a slice of a host input is read straight from host memory), the body's ops are
 * moved into the stream as they are (`move`; copied for the earlier lanes of an expanded
 * batch) for the patterns to convert, and graph outputs are stored with `pim.memcp_dh`.
 */
function formCompute(
  b: OpBuilder,
  ctx: LoweringContext,
  compute: Placed,
  lane: LaneOf,
  laneArg: Value | undefined,
  weights: readonly Value[],
  weightArgs: readonly Value[],
  forwarded: Map<Value, Value>,
  stream: Operation,
  move: boolean,
): boolean {
  const op = compute.op;
  const view = bindingsOf(op);
  const entry = op.regions[0]!.firstBlock!;
  const args = entry.arguments;
  const mapping = new IRMapping();
  const host = new Map<Value, Value>();
  let k = 0;
  if (compute.batch) {
    const spatLane = args[k++]!;
    mapping.map(
      spatLane,
      typeof lane === 'number' ? ctx.constant(b, lane) : lane ? ctx.materialize(b, ctx.add(b, ctx.scale(b, laneArg!, lane.scale, op.location), lane.offset, op.location)) : laneArg!,
    );
  }
  view.weights.forEach((w) => mapping.map(args[k++]!, weightArgs[weights.indexOf(w)]!));
  for (const input of view.inputs) {
    const arg = args[k++]!;
    if (input instanceof BlockArgument || input.type instanceof RankedTensorType && isConstant(input.definingOp)) {
      host.set(arg, input); // a graph input, or a constant tensor held in host memory
    } else if (input.definingOp && isScheduled(input.definingOp)) {
      const v = forwarded.get(input);
      if (!v) return ctx.error(op, M.capturedCompute(op.name));
      mapping.map(arg, v); // SSA forwarding from an earlier compute of this core
    } else mapping.map(arg, input); // a captured constant
  }
  const outputArgs = args.slice(k);
  const load = (v: Value, at: Operation): void => {
    const info = staticTensor(v.type)!;
    const zero = ctx.constant(b, 0);
    const dst = ctx.empty(b, v.type, at.location);
    const y = MemcpHdOp.build(b, { dst, src: host.get(v)!, dstOffset: zero, srcOffset: zero, output: v.type, size: ctx.i32(info.bytes) }, at.location).output;
    ctx.counters.hostLoads++;
    mapping.map(v, y);
  };
  const loadOperands = (inner: Operation): void => {
    inner.walk((o) => {
      for (const v of o.operands) if (host.has(v) && !mapping.contains(v)) load(v, inner);
    });
  };
  for (let inner = entry.firstOp; inner; ) {
    const next: Operation | null = inner.next;
    if (inner.hasTrait(Traits.IsTerminator)) {
      if (!storeOutputs(b, ctx, compute, inner, outputArgs, mapping, forwarded)) return false;
      inner = next;
      continue;
    }
    if (isConstant(inner) && inner.numResults === 1 && inner.getResult(0).type instanceof RankedTensorType) {
      // A constant tensor of the body lives in host memory (like the function's constants):
      // hoisted before the stream and read with pim.memcp_hd where it is used. Equal constants
      // (one per replica or tile of a compute) are hoisted once: host memory holds one copy.
      const value = inner.properties.get('value');
      let hoisted = value !== undefined ? ctx.hoistedConstants.get(value) : undefined;
      if (!hoisted) {
        if (move) {
          inner.moveBefore(stream);
          hoisted = inner;
        } else hoisted = OpBuilder.before(stream).clone(inner, new IRMapping());
        if (value !== undefined) ctx.hoistedConstants.set(value, hoisted);
      }
      host.set(inner.getResult(0), hoisted.getResult(0));
      inner = next;
      continue;
    }
    if (inner.definition === ExtractSliceOp && host.has(inner.getOperand(0)) && !mapping.contains(inner.getOperand(0))) {
      if (!readHostSlice(b, ctx, inner, host.get(inner.getOperand(0))!, mapping)) return false;
      inner = next;
      continue;
    }
    if (inner.definition === DeferredSourceSelectOp) {
      // A static selector picks its source here, so an unselected host input is never loaded.
      const sel = DeferredSourceSelectOp.get(inner);
      const k = evaluateStatic(mapping.lookupOrDefault(sel.selector), NO_BINDINGS);
      const picked = k === undefined ? undefined : sel.sources[k];
      if (picked) {
        if (host.has(picked) && !mapping.contains(picked)) load(picked, inner);
        mapping.map(inner.getResult(0), mapping.lookupOrDefault(picked));
        inner = next;
        continue;
      }
    }
    loadOperands(inner);
    if (move) {
      inner.remove();
      b.insert(inner);
      remapNested(inner, mapping);
    } else {
      const c = b.clone(inner, mapping);
      inner.results.forEach((r, i) => mapping.map(r, c.getResult(i)));
    }
    inner = next;
  }
  return true;
}

/** A slice of a host input: `pim.memcp_hd` per contiguous run, straight from host memory. */
function readHostSlice(b: OpBuilder, ctx: LoweringContext, op: Operation, source: Value, mapping: IRMapping): boolean {
  const view = ExtractSliceOp.get(op);
  const src = staticTensor(view.source.type);
  if (!src || !staticTensor(op.getResult(0).type)) return ctx.error(op, M.dynamicShape(op.name, printType(view.source.type)));
  const lists = ctx.sliceLists(
    op,
    view.offsets.map((v) => mapping.lookupOrDefault(v)),
  );
  if (!lists) return false;
  const { base, runs } = ctx.sliceRuns(b, src.shape, lists.offsets, lists.sizes, src.elementBytes, op.location, lists.strides);
  const dst = ctx.empty(b, op.getResult(0).type, op.location);
  mapping.map(op.getResult(0), copyRuns(ctx, b, op.location, MemcpHdOp, dst, source, runs, base, true));
  ctx.counters.hostLoads += runs.length;
  ctx.counters.copies -= runs.length; // counted as host loads, not local copies
  return true;
}

/** `spat.yield` of a resultful compute and `spat.in_parallel` publications -> host outputs (`pim.memcp_dh`). */
function storeOutputs(
  b: OpBuilder,
  ctx: LoweringContext,
  compute: Placed,
  term: Operation,
  outputArgs: readonly Value[],
  mapping: IRMapping,
  forwarded: Map<Value, Value>,
): boolean {
  if (term.definition === InParallelOp) {
    const inner = term.regions[0]!.firstBlock!;
    for (let ins = inner.firstOp; ins; ins = ins.next) {
      if (ins.definition !== ParallelInsertSliceOp) continue;
      const view = ParallelInsertSliceOp.get(ins);
      const k = outputArgs.indexOf(view.dest);
      const places = k >= 0 ? ctx.host.outputs.get(compute.op.getResult(k)) : undefined;
      const out = places && places.length === 1 && !places[0]!.source && !places[0]!.dest ? places[0]!.out : undefined;
      if (!out) return ctx.error(ins, M.badPublication(ins.name));
      const dest = staticTensor(view.dest.type);
      if (!dest) return ctx.error(ins, M.dynamicShape(ins.name, printType(view.dest.type)));
      const lists = ctx.sliceLists(
        ins,
        view.offsets.map((v) => mapping.lookupOrDefault(v)),
      );
      if (!lists) return false;
      const src = mapping.lookupOrDefault(view.source);
      const { base, runs } = ctx.sliceRuns(b, dest.shape, lists.offsets, lists.sizes, dest.elementBytes, ins.location, lists.strides);
      copyRuns(ctx, b, ins.location, MemcpDhOp, out, src, runs, base, false);
      ctx.counters.hostStores += runs.length;
      ctx.counters.copies -= runs.length;
    }
    return true;
  }
  // spat.yield: values of a scalar compute go to later computes of the core (SSA forwarding)
  // and to the graph outputs they are part of; a batch yields nothing.
  for (let i = 0; i < term.numOperands; i++) {
    const result = compute.op.getResult(i);
    const y = mapping.lookupOrDefault(term.getOperand(i));
    forwarded.set(result, y);
    for (const place of ctx.host.outputs.get(result) ?? []) {
      const loc = term.location;
      const yInfo = staticTensor(y.type)!;
      const outType = place.out.type as MemRefType;
      if (place.sourceByte !== undefined) {
        // A contiguous source range scattered to the destination runs.
        const dst = place.destByte !== undefined
          ? { base: place.destByte, runs: [{ delta: 0, bytes: place.bytes! }] }
          : place.dest
          ? ctx.sliceRuns(b, outType.shape, place.dest.offsets, place.dest.sizes, yInfo.elementBytes, loc)
          : { base: 0, runs: [{ delta: 0, bytes: yInfo.bytes }] };
        copyRuns(ctx, b, loc, MemcpDhOp, place.out, y, dst.runs, dst.base, false, place.sourceByte);
        ctx.counters.hostStores += dst.runs.length;
        ctx.counters.copies -= dst.runs.length;
        continue;
      }
      if (place.source) {
        // One contiguous run on both sides: store straight from the result, no local copy.
        const src = ctx.sliceRuns(b, yInfo.shape, place.source.offsets, place.source.sizes, yInfo.elementBytes, loc);
        const dst = place.dest
          ? ctx.sliceRuns(b, outType.shape, place.dest.offsets, place.dest.sizes, yInfo.elementBytes, loc)
          : { base: 0, runs: [{ delta: 0, bytes: src.runs.reduce((n, r) => n + r.bytes, 0) }] };
        if (src.runs.length === 1 && dst.runs.length === 1 && src.runs[0]!.bytes === dst.runs[0]!.bytes) {
          MemcpDhOp.build(
            b,
            {
              dst: place.out,
              src: y,
              dstOffset: ctx.materialize(b, ctx.add(b, dst.base, dst.runs[0]!.delta, loc)),
              srcOffset: ctx.materialize(b, ctx.add(b, src.base, src.runs[0]!.delta, loc)),
              output: place.out.type,
              size: ctx.i32(src.runs[0]!.bytes),
            },
            loc,
          );
          ctx.counters.hostStores++;
          continue;
        }
      }
      const frag = place.source ? createExtractSlice(b, loc, y, place.source) : y;
      const info = staticTensor(frag.type)!;
      const runs = place.dest
        ? ctx.sliceRuns(b, outType.shape, place.dest.offsets, place.dest.sizes, info.elementBytes, loc)
        : { base: 0, runs: [{ delta: 0, bytes: info.bytes }] };
      copyRuns(ctx, b, loc, MemcpDhOp, place.out, frag, runs.runs, runs.base, false);
      ctx.counters.hostStores += runs.runs.length;
      ctx.counters.copies -= runs.runs.length;
    }
  }
  return true;
}
