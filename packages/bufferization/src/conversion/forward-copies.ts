/**
 * Whole-buffer copies forwarded: `pim.memcp[0, 0](%dst, %src) {size = bytes}` that copies every
 * byte of `%src` into a buffer `%dst` of the same type, where the copy is the last use of `%src`
 * and the first use of `%dst`, makes `%dst` a second name of the same bytes. The copy is
 * dropped and `%dst`'s later accesses use `%src` (so one buffer is live instead of two at the
 * copy). spat-to-pim emits such copies when it moves a received fragment into the buffer that
 * reconstructs the input (once that buffer has the fragment's rows, {@link shrinkBuffersToAccesses}).
 */
import { ConstantOp, IntegerAttr, type Block, type Operation, type Value } from '@raptor-pim/ir-core';
import { MemcpOp } from '@raptor-pim/pim-dialect';
import { AllocOp } from '@raptor-pim/upstream-dialects';
import { byteSizeOf } from './bufferize-core';

function isConstantZero(v: Value): boolean {
  const c = v.definingOp ? ConstantOp.match(v.definingOp) : undefined;
  const a = c?.value;
  return a instanceof IntegerAttr && Number(a.value) === 0;
}

/** The top-level op of `body` holding `op` (itself when it is top-level). */
function inBody(body: Block, op: Operation): Operation | null {
  let o: Operation | null = op;
  while (o && o.parent !== body) o = o.getParentOp();
  return o;
}

/** Forwards the whole-buffer copies of one bufferized stream body; returns how many were dropped. */
export function forwardWholeCopies(body: Block): number {
  const positions = new Map<Operation, number>();
  let p = 0;
  for (let op = body.firstOp; op; op = op.next) positions.set(op, p++);
  /** First and last positions of the uses of `v`, other than `except`. */
  const useRange = (v: Value, except: Operation): { first: number; last: number } => {
    let first = Infinity;
    let last = -1;
    for (let u = v.firstUse; u; u = u.nextUse) {
      if (u.owner === except) continue;
      const top = inBody(body, u.owner);
      const at = top ? positions.get(top) : undefined;
      if (at === undefined) continue;
      first = Math.min(first, at);
      last = Math.max(last, at);
    }
    return { first, last };
  };
  let dropped = 0;
  for (let op = body.firstOp; op; ) {
    const next = op.next;
    const copy = MemcpOp.match(op);
    if (copy) {
      const dst = op.getOperand(0);
      const src = op.getOperand(1);
      const bytes = byteSizeOf(dst.type);
      const size = op.getProperty('size');
      const at = positions.get(op)!;
      if (
        dst !== src &&
        dst.type === src.type &&
        dst.definingOp?.definition === AllocOp &&
        src.definingOp?.definition === AllocOp &&
        dst.definingOp.parent === body &&
        src.definingOp.parent === body &&
        bytes !== undefined &&
        size instanceof IntegerAttr &&
        Number(size.value) === bytes &&
        isConstantZero(op.getOperand(2)) &&
        isConstantZero(op.getOperand(3)) &&
        useRange(src, op).last < at &&
        useRange(dst, op).first > at
      ) {
        const dstAlloc = dst.definingOp;
        op.getResult(0).replaceAllUsesWith(src);
        op.erase();
        dst.replaceAllUsesWith(src);
        dstAlloc.erase();
        dropped++;
      }
    }
    op = next;
  }
  return dropped;
}
