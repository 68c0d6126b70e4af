import type { Block } from './block';
import type { Operation } from './operation';
import type { Region } from './region';

/** What a walk callback asks for next. */
export enum WalkResult {
  /** Continue the walk. */
  Advance = 0,
  /** Pre-order only: do not visit this operation's regions. */
  Skip = 1,
  /** Stop the walk. */
  Interrupt = 2,
}

/** The order in which a walk visits an operation and the operations nested in it. */
export enum WalkOrder {
  /** The operation before its nested operations. */
  PreOrder = 0,
  /** The nested operations before the operation (lets the callback erase the visited op). */
  PostOrder = 1,
}

/** A walk callback; returning nothing means {@link WalkResult.Advance}. */
export type WalkCallback = (op: Operation) => WalkResult | void;

interface Frame {
  op: Operation;
  regionIndex: number;
  block: Block | null;
  next: Operation | null;
}

/** The next operation to visit under frame `f`, advancing it; `null` when exhausted. */
function nextChild(f: Frame): Operation | null {
  for (;;) {
    const n = f.next;
    if (n !== null) {
      f.next = n.next;
      return n;
    }
    let b = f.block;
    if (b !== null) {
      b = b.next;
      f.block = b;
      if (b !== null) {
        f.next = b.firstOp;
        continue;
      }
    }
    const regions = f.op.regions;
    for (;;) {
      f.regionIndex++;
      if (f.regionIndex >= regions.length) return null;
      const first = regions[f.regionIndex]!.firstBlock;
      if (first !== null) {
        f.block = first;
        f.next = first.firstOp;
        break;
      }
    }
  }
}

/**
 * Walks `root` and all operations nested in it, with an explicit stack (no recursion, so any
 * nesting depth is safe). See {@link Operation.walk}.
 */
export function walkOperation(root: Operation, callback: WalkCallback, order: WalkOrder): WalkResult {
  const pre = order === WalkOrder.PreOrder;
  if (pre) {
    const r = callback(root);
    if (r === WalkResult.Interrupt) return WalkResult.Interrupt;
    if (r === WalkResult.Skip) return WalkResult.Advance;
  }
  if (root.regions.length === 0) {
    if (!pre && callback(root) === WalkResult.Interrupt) return WalkResult.Interrupt;
    return WalkResult.Advance;
  }
  const stack: Frame[] = [{ op: root, regionIndex: -1, block: null, next: null }];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    const child = nextChild(f);
    if (child === null) {
      stack.pop();
      if (!pre && callback(f.op) === WalkResult.Interrupt) return WalkResult.Interrupt;
      continue;
    }
    if (pre) {
      const r = callback(child);
      if (r === WalkResult.Interrupt) return WalkResult.Interrupt;
      if (r === WalkResult.Skip) continue;
      if (child.regions.length > 0) stack.push({ op: child, regionIndex: -1, block: null, next: null });
    } else if (child.regions.length === 0) {
      if (callback(child) === WalkResult.Interrupt) return WalkResult.Interrupt;
    } else {
      stack.push({ op: child, regionIndex: -1, block: null, next: null });
    }
  }
  return WalkResult.Advance;
}

/** Walks every operation in `block` (and nested in them), in order. */
export function walkBlock(block: Block, callback: WalkCallback, order: WalkOrder): WalkResult {
  let op = block.firstOp;
  while (op !== null) {
    const next = op.next;
    if (walkOperation(op, callback, order) === WalkResult.Interrupt) return WalkResult.Interrupt;
    op = next;
  }
  return WalkResult.Advance;
}

/** Walks every operation in `region` (and nested in them), block by block. */
export function walkRegion(region: Region, callback: WalkCallback, order: WalkOrder): WalkResult {
  for (let b = region.firstBlock; b !== null; b = b.next) {
    if (walkBlock(b, callback, order) === WalkResult.Interrupt) return WalkResult.Interrupt;
  }
  return WalkResult.Advance;
}
