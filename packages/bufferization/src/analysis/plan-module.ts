/**
 * The memory plan of a bufferized PIM module: a per-stream local plan (offsets from the live
 * intervals, {@link planMemory}) recorded on the ops, and the host layout of the function
 * (graph inputs, outputs, host slots at aligned addresses).
 *
 * Recorded attributes: `pim.address` (byte offset, i64) and `pim.live` (`array<i64: start,
 * end>`, indices in the pre-order op order of the stream body) on every local `memref.alloc`; `pim.local_memory_size` (planned peak)
 * and `pim.memory_lower_bound` on every `pim.core` / `pim.core_batch`; `pim.host_address` on
 * every host `memref.alloc` and host constant (a tensor constant streams read with
 * `pim.memcp_hd`) of the function, `pim.host_arg_addresses` and
 * `pim.host_memory_size` on the function.
 */
import { DenseArrayAttr, FuncOp, IntegerAttr, IntegerType, Liveness, Traits, type Operation } from '@raptor-pim/ir-core';
import { isHostOperand } from '@raptor-pim/pim-dialect';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import { AllocOp } from '@raptor-pim/upstream-dialects';
import { byteSizeOf } from '../conversion/bufferize-core';
import { BufferizationMessages as M } from '../diagnostics';
import { localMemoryOf } from '../target';
import { computeStreamLiveness, coresOf, describeStream, isStream } from './live-intervals';
import { alignUp, liveBytesLowerBound, planMemory, type PlanningOrder } from './memory-plan';

/** The plan of one stream. */
export interface StreamMemoryReport {
  /** `core 3` / `core batch on cores [...]`. */
  readonly stream: string;
  /** Its cores. */
  readonly cores: readonly number[];
  /** Local allocations planned. */
  readonly buffers: number;
  /** Planned peak bytes. */
  readonly peak: number;
  /** Largest total of simultaneously live bytes. */
  readonly lowerBound: number;
  /** Local memory of one core. */
  readonly capacity: number;
  /** The first-fit order that gave the plan (`unplanned`: the live data exceeds the capacity, no offsets were placed). */
  readonly strategy: PlanningOrder | 'unplanned';
}

/** The memory plan of a module. */
export interface ModuleMemoryReport {
  /** One entry per stream op. */
  readonly streams: readonly StreamMemoryReport[];
  /** Host bytes laid out (inputs, outputs, host slots). */
  readonly hostBytes: number;
  /** Largest planned peak / lower bound over the streams (1 when every plan is optimal). */
  readonly worstRatio: number;
  /** False when some plan exceeds its capacity (diagnostics were reported). */
  readonly ok: boolean;
}

const ADDRESS = 'pim.address';
const LIVE = 'pim.live';
const HOST_ADDRESS = 'pim.host_address';

/** The recorded attribute names (for the verifier and code generation). */
export const MemoryPlanAttributes = {
  address: ADDRESS,
  live: LIVE,
  localMemorySize: 'pim.local_memory_size',
  lowerBound: 'pim.memory_lower_bound',
  hostAddress: HOST_ADDRESS,
  hostArgAddresses: 'pim.host_arg_addresses',
  hostMemorySize: 'pim.host_memory_size',
} as const;

/** Plans one stream and records the plan on its ops. */
export function planStreamMemory(stream: Operation, config: HardwareConfig, liveness?: Liveness): StreamMemoryReport & { ok: boolean } {
  const { capacity, alignment } = localMemoryOf(config);
  const { allocations } = computeStreamLiveness(stream, liveness);
  const buffers = allocations.map((a) => ({ id: a.ordinal, size: a.bytes, start: a.start, end: a.end }));
  const ctx = stream.context;
  const i64 = IntegerType.get(ctx, 64);
  const name = describeStream(stream);
  const bound = liveBytesLowerBound(buffers, alignment);
  if (bound.bytes > capacity) {
    // Live data beyond the capacity fails whatever the offsets: reported without placing any
    // (placement is quadratic in the buffers live together: 12,547 on one core of resnet18).
    stream.setDiscardableAttr(MemoryPlanAttributes.lowerBound, IntegerAttr.get(i64, bound.bytes));
    stream.emitError(M.capacity(name, bound.bytes, bound.position, capacity));
    return { ok: false, stream: name, cores: coresOf(stream), buffers: allocations.length, peak: bound.bytes, lowerBound: bound.bytes, capacity, strategy: 'unplanned' };
  }
  const plan = planMemory(buffers, alignment);
  allocations.forEach((a, i) => {
    a.op.setDiscardableAttr(ADDRESS, IntegerAttr.get(i64, plan.buffers[i]!.offset));
    a.op.setDiscardableAttr(LIVE, DenseArrayAttr.i64(ctx, [a.start, a.end]));
  });
  stream.setDiscardableAttr(MemoryPlanAttributes.localMemorySize, IntegerAttr.get(i64, plan.peak));
  stream.setDiscardableAttr(MemoryPlanAttributes.lowerBound, IntegerAttr.get(i64, plan.lowerBound));
  let ok = true;
  if (plan.peak > capacity) {
    stream.emitError(M.plannedPeak(name, plan.peak, plan.lowerBound, capacity));
    ok = false;
  }
  return {
    ok,
    stream: name,
    cores: coresOf(stream),
    buffers: allocations.length,
    peak: plan.peak,
    lowerBound: plan.lowerBound,
    capacity,
    strategy: plan.strategy,
  };
}

/** A constant tensor of the function read by a stream as host data (`pim.memcp_hd` source). */
function isHostConstant(op: Operation): boolean {
  if (!op.hasTrait(Traits.ConstantLike) || op.numResults !== 1) return false;
  for (let u = op.getResult(0).firstUse; u; u = u.nextUse) if (isHostOperand(u.owner, u.index)) return true;
  return false;
}

/** Lays out the host buffers of `func` (arguments, then host allocs, in order). */
export function planHostMemory(func: Operation, config: HardwareConfig): { bytes: number; ok: boolean } {
  const { alignment } = localMemoryOf(config);
  const block = func.regions[0]?.firstBlock;
  if (!block) return { bytes: 0, ok: true };
  const ctx = func.context;
  const i64 = IntegerType.get(ctx, 64);
  let next = 0;
  const argAddresses: number[] = [];
  for (const a of block.arguments) {
    argAddresses.push(next);
    next = alignUp(next + (byteSizeOf(a.type) ?? 0), alignment);
  }
  for (let op = block.firstOp; op; op = op.next) {
    if (op.definition !== AllocOp && !isHostConstant(op)) continue;
    op.setDiscardableAttr(HOST_ADDRESS, IntegerAttr.get(i64, next));
    next = alignUp(next + (byteSizeOf(op.getResult(0).type) ?? 0), alignment);
  }
  func.setDiscardableAttr(MemoryPlanAttributes.hostArgAddresses, DenseArrayAttr.i64(ctx, argAddresses));
  func.setDiscardableAttr(MemoryPlanAttributes.hostMemorySize, IntegerAttr.get(i64, next));
  const capacity = config.chip_config.global_memory_config.memory_size;
  if (next > capacity) {
    func.emitError(M.hostCapacity(next, capacity));
    return { bytes: next, ok: false };
  }
  return { bytes: next, ok: true };
}

/**
 * Plans every stream and the host layout of every function of `module`; `livenessOf` gives the
 * `Liveness` analysis of a stream (the pass asks its analysis manager; computed when omitted).
 */
export function planModuleMemory(
  module: Operation,
  config: HardwareConfig,
  livenessOf: (stream: Operation) => Liveness = (stream) => new Liveness(stream),
): ModuleMemoryReport {
  const streams: StreamMemoryReport[] = [];
  let hostBytes = 0;
  let ok = true;
  for (const func of module.regions[0]?.firstBlock?.operations ?? []) {
    if (func.definition !== FuncOp) continue;
    for (const op of func.regions[0]?.firstBlock?.operations ?? []) {
      if (!isStream(op)) continue;
      const r = planStreamMemory(op, config, livenessOf(op));
      if (!r.ok) ok = false;
      const { ok: _ok, ...report } = r;
      void _ok;
      streams.push(report);
    }
    const host = planHostMemory(func, config);
    hostBytes += host.bytes;
    if (!host.ok) ok = false;
  }
  const worstRatio = streams.reduce((w, s) => Math.max(w, s.lowerBound === 0 ? 1 : s.peak / s.lowerBound), 1);
  return { streams, hostBytes, worstRatio, ok };
}
