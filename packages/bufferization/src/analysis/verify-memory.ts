/**
 * The memory-plan checker (`pim-verify-memory`), independent of the planner: it re-reads the
 * recorded plan (`pim.address`, `pim.live`, `pim.local_memory_size`) and recomputes the op
 * positions and accesses from the IR itself. Checks, each failure a diagnostic naming the
 * core, the allocations and the byte ranges:
 *
 * - every local allocation has a nonnegative, aligned address and lies inside the arena;
 * - no two allocations whose recorded live intervals overlap share a byte;
 * - every access of an allocation happens inside its recorded live interval;
 * - every byte-addressed access (`pim.memcp*`, `pim.receive`, `pim.send`, `pim.vmv`) stays
 *   inside its allocation, for every lane of a batch;
 * - `pim.local_memory_size` covers every allocation.
 */
import { DenseArrayAttr, IntegerAttr, MemRefType, WalkOrder, printType, type Attribute, type Operation, type Value } from '@raptor-pim/ir-core';
import { CoreBatchOp } from '@raptor-pim/pim-dialect';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import { AllocOp, SubViewOp, canonicalStrides, getStridesAndOffset } from '@raptor-pim/upstream-dialects';
import { byteSizeOf, elementBytes } from '../conversion/bufferize-core';
import { byteAccessesOf, resolveByteAccess } from './byte-accesses';
import { isBufferView } from '../conversion/forward-copies';
import { BufferizationMessages as M } from '../diagnostics';
import { localMemoryOf } from '../target';
import { coresOf, describeStream } from './live-intervals';
import { MemoryPlanAttributes as A } from './plan-module';

interface Recorded {
  readonly op: Operation;
  readonly ordinal: number;
  readonly address: number;
  readonly bytes: number;
  readonly start: number;
  readonly end: number;
  /** For a slice view of the allocation: how accesses through it name it. */
  readonly label?: string;
}

function describeAlloc(ordinal: number, op: Operation): string {
  return `allocation #${ordinal} (${printType(op.getResult(0).type)})`;
}

/** Checks the plan of one stream; returns false after reporting diagnostics. */
export function verifyStreamMemory(stream: Operation, config: HardwareConfig): boolean {
  const { capacity, alignment } = localMemoryOf(config);
  const core = describeStream(stream);
  const body = stream.regions[0]!.firstBlock!;
  // Op indices in pre-order (an op before the ops of its regions), as the plan records them.
  const positions = new Map<Operation, number>();
  let p = 0;
  for (let op = body.firstOp; op; op = op.next) {
    op.walk((inner) => void positions.set(inner, p++), WalkOrder.PreOrder);
  }
  let ok = true;
  const fail = (at: Operation, message: string, note?: [Operation, string]): void => {
    const d = at.emitError(message);
    if (note) d.attachNote(note[1], note[0].location);
    ok = false;
  };
  const allocs = new Map<Value, Recorded>();
  let ordinal = 0;
  let reach = 0;
  for (let op = body.firstOp; op; op = op.next) {
    if (op.definition !== AllocOp) continue;
    const k = ordinal++;
    const name = (): string => describeAlloc(k, op);
    const addr = op.getDiscardableAttr(A.address);
    const live = op.getDiscardableAttr(A.live);
    const bytes = byteSizeOf(op.getResult(0).type) ?? 0;
    if (!(addr instanceof IntegerAttr) || !(live instanceof DenseArrayAttr) || live.values.length !== 2) {
      fail(op, M.noAddress(core, name()));
      continue;
    }
    const address = Number(addr.value);
    const [start, end] = (live.values as readonly (number | bigint)[]).map(Number) as [number, number];
    if (address < 0) fail(op, M.negativeAddress(core, name(), address));
    else if (address % alignment !== 0) fail(op, M.misaligned(core, name(), address, alignment));
    else if (address + bytes > capacity) fail(op, M.outOfArena(core, name(), address, address + bytes, capacity));
    reach = Math.max(reach, address + bytes);
    allocs.set(op.getResult(0), { op, ordinal: k, address, bytes, start, end });
  }
  // Pairs live at the same time: a sweep by interval start with the allocations still live.
  const list = [...allocs.values()].sort((a, b) => a.start - b.start || a.ordinal - b.ordinal);
  let active: Recorded[] = [];
  for (const b of list) {
    active = active.filter((a) => a.end >= b.start);
    for (const a of active) {
      const lo = Math.max(a.address, b.address);
      const hi = Math.min(a.address + a.bytes, b.address + b.bytes);
      if (lo < hi) {
        const [first, second] = a.ordinal < b.ordinal ? [a, b] : [b, a];
        const an = describeAlloc(first.ordinal, first.op);
        fail(second.op, M.overlap(core, an, describeAlloc(second.ordinal, second.op), lo, hi), [first.op, `${an} allocated here`]);
      }
    }
    active.push(b);
  }
  const recordedSize = stream.getDiscardableAttr(A.localMemorySize);
  if (recordedSize instanceof IntegerAttr && Number(recordedSize.value) < reach) {
    fail(stream, M.localMemorySize(core, Number(recordedSize.value), reach));
  }
  // Accesses: inside the live interval, inside the allocation (every lane).
  const lanes = stream.definition === CoreBatchOp ? coresOf(stream).length : 1;
  const laneArg = stream.definition === CoreBatchOp ? body.arguments[0] : undefined;
  const bindings = Array.from({ length: lanes }, (_, k) => new Map<Value, number>(laneArg ? [[laneArg, k]] : []));
  for (let op = body.firstOp; op; op = op.next) {
    op.walk((inner) => {
      // A view of an allocation (forwarded copies) is the same bytes from byte 0.
      const viewed = isBufferView(inner) ? allocs.get(inner.getOperand(0)) : undefined;
      if (viewed) allocs.set(inner.getResult(0), viewed);
      // A slice view (forwarded slice copies): its bytes inside its source's, accesses from its own byte 0.
      const sliced = inner.definition === SubViewOp ? allocs.get(inner.getOperand(0)) : undefined;
      if (sliced) {
        const range = subviewByteRange(inner);
        if (!range) fail(inner, M.notStatic(core, inner.name, 'the slice of its source'));
        else if (range.offset < 0 || range.offset + range.size > sliced.bytes)
          fail(inner, M.accessOutside(core, describeAlloc(sliced.ordinal, sliced.op), inner.name, range.offset, range.offset + range.size, sliced.bytes));
        else
          allocs.set(inner.getResult(0), {
            ...sliced,
            bytes: range.size,
            label: `the slice [${range.offset}, ${range.offset + range.size}) of ${sliced.label ?? describeAlloc(sliced.ordinal, sliced.op)}`,
          });
      }
      for (let i = 0; i < inner.numOperands; i++) {
        const r = allocs.get(inner.getOperand(i));
        if (!r || inner === r.op) continue;
        const at = positions.get(inner)!;
        if (at < r.start || at > r.end) fail(inner, M.useAfterEnd(core, describeAlloc(r.ordinal, r.op), inner.name, at, r.start, r.end));
      }
    });
    for (const acc of byteAccessesOf(op)) {
      const r = allocs.get(op.getOperand(acc.operand));
      if (!r) continue;
      for (const env of bindings) {
        const range = resolveByteAccess(acc, env);
        if ('unresolved' in range) {
          fail(op, M.notStatic(core, op.name, range.unresolved === 'stride' ? 'the source stride' : `the offset of operand #${acc.operand}`));
          break;
        }
        if (range.offset < 0 || range.offset + range.size > r.bytes) {
          fail(op, M.accessOutside(core, r.label ?? describeAlloc(r.ordinal, r.op), op.name, range.offset, range.offset + range.size, r.bytes));
          break;
        }
      }
    }
  }
  return ok;
}

/**
 * The bytes a static `memref.subview` spans (from its first to its last element), relative to
 * its source's first element (a row-major buffer, or a strided view with static strides);
 * undefined for dynamic ones.
 */
function subviewByteRange(op: Operation): { offset: number; size: number } | undefined {
  const view = SubViewOp.match(op);
  const source = op.getOperand(0).type;
  if (!view || view.offsets.length > 0 || view.sizes.length > 0 || view.strides.length > 0 || !(source instanceof MemRefType)) return undefined;
  const ints = (a: Attribute): number[] => (a instanceof DenseArrayAttr ? (a.values as readonly (number | bigint)[]).map(Number) : []);
  const offsets = ints(view.static_offsets);
  const sizes = ints(view.static_sizes);
  const steps = ints(view.static_strides);
  const eb = elementBytes(source.elementType);
  const rank = source.shape.length;
  const strides = source.layout === undefined ? canonicalStrides(source.shape) : getStridesAndOffset(source)?.strides;
  if (eb === undefined || !strides || strides.some((x) => !Number.isSafeInteger(x) || x < 0)) return undefined;
  if (offsets.length !== rank || sizes.length !== rank || steps.length !== rank || sizes.some((n) => n <= 0)) return undefined;
  let first = 0;
  let last = 0;
  for (let d = 0; d < rank; d++) {
    first += offsets[d]! * strides[d]!;
    last += (offsets[d]! + (sizes[d]! - 1) * steps[d]!) * strides[d]!;
  }
  return { offset: first * eb, size: (last - first + 1) * eb };
}
