/**
 * Live intervals of the local allocations of one core stream, from ir-core's `Liveness`
 * analysis over the linear (pre-order) op order of the stream body: an allocation is live from
 * its `memref.alloc` to its last use (a use inside a nested region extends it over that
 * region; a use of a view of it, `memref.collapse_shape` / `expand_shape`, counts too). After bufferization every pim op's result *is* its destination buffer and nothing
 * uses the result, so the uses of the allocation are all its accesses.
 */
import { DenseArrayAttr, IntegerAttr, Liveness, type Block, type Operation, type Value } from '@raptor-pim/ir-core';
import { CoreBatchOp, CoreOp } from '@raptor-pim/pim-dialect';
import { AllocOp } from '@raptor-pim/upstream-dialects';
import { byteSizeOf } from '../conversion/bufferize-core';
import { bufferViewAliases } from '../conversion/forward-copies';

/** One local allocation of a core stream. */
export interface CoreAllocation {
  /** The `memref.alloc`. */
  readonly op: Operation;
  /** Its buffer. */
  readonly value: Value;
  /** Position of the allocation among the stream's allocations (for messages: `allocation #k`). */
  readonly ordinal: number;
  /** Bytes of the buffer. */
  readonly bytes: number;
  /** Index of the alloc op in the linear order. */
  readonly start: number;
  /** Index of the last op where the buffer is live. */
  readonly end: number;
}

/** The allocations of a stream body with their intervals. */
export interface StreamLiveness {
  /** The allocations in program order. */
  readonly allocations: readonly CoreAllocation[];
}

/** The top-level op of `body` that contains `op`. */
export function topLevelAncestor(body: Block, op: Operation): Operation | null {
  let o: Operation | null = op;
  while (o && o.parent !== body) o = o.getParentOp();
  return o;
}

/**
 * The allocations of the stream `stream` and their live intervals (`liveness`: the analysis of
 * the stream or an ancestor, e.g. the pass's `getAnalysisOf(Liveness, stream)`; computed when
 * omitted). Only the allocations' intervals are computed (`values`), following views
 * (`aliasesOf`).
 */
export function computeStreamLiveness(stream: Operation, liveness: Liveness = new Liveness(stream)): StreamLiveness {
  const region = stream.regions[0]!;
  const isAllocation = (v: Value): boolean => v.definingOp?.definition === AllocOp && v.definingOp.parent?.parent === region;
  const intervals = liveness.getLiveIntervals(region, { aliasesOf: bufferViewAliases, values: isAllocation });
  const allocations: CoreAllocation[] = [];
  for (let op = region.firstBlock?.firstOp ?? null; op; op = op.next) {
    if (op.definition !== AllocOp) continue;
    const value = op.getResult(0);
    const iv = intervals.getInterval(value);
    const start = iv?.start ?? intervals.indexOf(op)!;
    allocations.push({ op, value, ordinal: allocations.length, bytes: byteSizeOf(value.type) ?? 0, start, end: iv?.end ?? start });
  }
  return { allocations };
}

/** The cores of a `pim.core` / `pim.core_batch` (lane order). */
export function coresOf(op: Operation): number[] {
  if (op.definition === CoreOp) {
    const id = op.getProperty('coreId');
    return [id instanceof IntegerAttr ? Number(id.value) : 0];
  }
  const ids = op.getProperty('coreIds');
  return ids instanceof DenseArrayAttr ? (ids.values as readonly (number | bigint)[]).map(Number) : [];
}

/** `core 3`, or `core batch [0, 1]` for the messages. */
export function describeStream(op: Operation): string {
  const cores = coresOf(op);
  return op.definition === CoreBatchOp ? `core batch on cores [${cores.join(', ')}]` : `core ${cores[0]}`;
}

/** True for `pim.core` and `pim.core_batch`. */
export function isStream(op: Operation): boolean {
  return op.definition === CoreOp || op.definition === CoreBatchOp;
}
