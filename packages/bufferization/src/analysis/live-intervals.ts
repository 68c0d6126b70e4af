/**
 * Live intervals of the local allocations of one core stream over the linear op order of its
 * body: an allocation is live from its `memref.alloc` to the last top-level op that uses it
 * (a use inside a nested region counts at its top-level ancestor). After bufferization every
 * pim op's result *is* its destination buffer and nothing uses the result, so the uses of the
 * allocation are all its accesses.
 */
import { DenseArrayAttr, IntegerAttr, type Block, type Operation, type Value } from '@raptor-pim/ir-core';
import { CoreBatchOp, CoreOp } from '@raptor-pim/pim-dialect';
import { AllocOp } from '@raptor-pim/upstream-dialects';
import { byteSizeOf } from '../conversion/bufferize-core';

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
  /** Position of the alloc op. */
  readonly start: number;
  /** Position of the last op that uses the buffer. */
  readonly end: number;
}

/** Op positions and allocations of a stream body. */
export interface StreamLiveness {
  /** Top-level op -> position. */
  readonly positions: ReadonlyMap<Operation, number>;
  /** The allocations in program order. */
  readonly allocations: readonly CoreAllocation[];
}

/** The top-level op of `body` that contains `op`. */
export function topLevelAncestor(body: Block, op: Operation): Operation | null {
  let o: Operation | null = op;
  while (o && o.parent !== body) o = o.getParentOp();
  return o;
}

/** Computes positions and allocation intervals of `body`. */
export function computeStreamLiveness(body: Block): StreamLiveness {
  const positions = new Map<Operation, number>();
  let k = 0;
  for (let op = body.firstOp; op; op = op.next) positions.set(op, k++);
  const allocations: CoreAllocation[] = [];
  for (let op = body.firstOp; op; op = op.next) {
    if (op.definition !== AllocOp) continue;
    const value = op.getResult(0);
    const start = positions.get(op)!;
    let end = start;
    for (let u = value.firstUse; u; u = u.nextUse) {
      const top = topLevelAncestor(body, u.owner);
      if (top) end = Math.max(end, positions.get(top)!);
    }
    allocations.push({ op, value, ordinal: allocations.length, bytes: byteSizeOf(value.type) ?? 0, start, end });
  }
  return { positions, allocations };
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
