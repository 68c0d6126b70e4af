/**
 * Sinks the slices and reshapes of a scheduled body to their first use, so the body's program
 * order keeps them live only where they are used, as the local-memory model assumes (a round's
 * temporaries are the values alive around one op).
 *
 * A lowered pooling or reduction body makes every operand slice first and then combines them
 * (`extract_slice` x25, then `vmax` x24): in that order the 25 slices are live together, and a
 * slice that is not contiguous in its source is a copy after bufferization, so the core holds 25
 * copies at once. Sunk to their first users the body interleaves them
 * (`extract_slice, extract_slice, vmax, extract_slice, vmax, ...`) and holds two.
 *
 * Only `tensor.extract_slice`, `tensor.expand_shape` and `tensor.collapse_shape` move (pure, no
 * regions); they move later, never earlier, and stay before every user, so the body computes the
 * same values. Ops whose users are in other blocks (or nested regions) stay where they are.
 *
 * The new order is computed in one reverse pass and applied by one stable sort of the block:
 * an op that moves takes the position of its first user (after that user's own move) one level
 * earlier, so a chain of views sinks together in its order.
 */
import type { Block, Operation } from '@raptor-pim/ir-core';
import { ExtractSliceOp, TensorCollapseShapeOp, TensorExpandShapeOp } from '@raptor-pim/upstream-dialects';

/** True for the views {@link sinkViewsToFirstUse} moves. */
function isSinkableView(op: Operation): boolean {
  return ExtractSliceOp.isInstance(op) || TensorExpandShapeOp.isInstance(op) || TensorCollapseShapeOp.isInstance(op);
}

/** Where an op ends up: before the op at original position `anchor`, at `level` (lower first), then by original position. */
interface SortKey {
  readonly anchor: number;
  readonly level: number;
  readonly position: number;
}

function compareKeys(a: SortKey, b: SortKey): number {
  return a.anchor - b.anchor || a.level - b.level || a.position - b.position;
}

/**
 * Moves every slice and reshape of `block` right before its first user in the block (see the
 * file comment). Returns the number of views placed at a user other than the op that follows them
 * (0: the block is unchanged). The terminator stays last.
 *
 * @example
 * ```ts
 * // %a = extract_slice %w[0]; %b = extract_slice %w[1]; %c = extract_slice %w[2]
 * // %m = vmax %a, %b; %n = vmax %m, %c
 * sinkViewsToFirstUse(body); // %a, %b, %m = vmax, %c, %n = vmax
 * ```
 */
export function sinkViewsToFirstUse(block: Block): number {
  const ops: Operation[] = [];
  for (let op = block.firstOp; op; op = op.next) ops.push(op);
  const positionOf = new Map<Operation, number>();
  ops.forEach((op, i) => positionOf.set(op, i));
  const keys: SortKey[] = ops.map((_, i) => ({ anchor: i, level: 0, position: i }));
  let moved = 0;
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i]!;
    if (!isSinkableView(op) || op === block.lastOp) continue;
    let first: SortKey | undefined;
    let local = true;
    for (const r of op.results) {
      for (let u = r.firstUse; u; u = u.nextUse) {
        const p = positionOf.get(u.owner);
        if (p === undefined) {
          local = false; // a user in another block or a nested region
          break;
        }
        if (!first || compareKeys(keys[p]!, first) < 0) first = keys[p]!;
      }
      if (!local) break;
    }
    if (!local || !first) continue;
    // Already right before its first user: nothing between them.
    if (first.anchor === i + 1 && first.level === 0) continue;
    keys[i] = { anchor: first.anchor, level: first.level - 1, position: i };
    moved++;
  }
  if (moved === 0) return 0;
  const order = ops.map((_, i) => i).sort((a, b) => compareKeys(keys[a]!, keys[b]!));
  // Re-link the block in the new order (the terminator's key is the largest: it stays last).
  let prev: Operation | undefined;
  for (const i of order) {
    const op = ops[i]!;
    if (prev) op.moveAfter(prev);
    else if (block.firstOp !== op) op.moveBefore(block.firstOp!);
    prev = op;
  }
  return moved;
}
