import { Block } from './block';
import { cloneRegionInto } from './clone';
import { IRMapping } from './ir-mapping';
import type { Operation } from './operation';
import { walkRegion, WalkOrder, type WalkCallback, type WalkResult } from './walk';

/**
 * A region: an intrusive list of blocks owned by an operation. The first block is the entry
 * block; its arguments are the region's arguments.
 */
export class Region {
  /** First block (the entry block), or `null` when empty. */
  firstBlock: Block | null = null;
  /** Last block. */
  lastBlock: Block | null = null;

  constructor(
    /** The operation owning this region (`null` for a detached region). */
    public parentOp: Operation | null = null,
  ) {}

  /** True when the region has no blocks. */
  get empty(): boolean {
    return this.firstBlock === null;
  }

  /** The entry block. */
  get entryBlock(): Block | null {
    return this.firstBlock;
  }

  /** True when the region has exactly one block. */
  get hasOneBlock(): boolean {
    return this.firstBlock !== null && this.firstBlock === this.lastBlock;
  }

  /** The blocks (a new array). */
  get blocks(): Block[] {
    const out: Block[] = [];
    for (let b = this.firstBlock; b; b = b.next) out.push(b);
    return out;
  }

  /** Number of blocks (O(n)). */
  get numBlocks(): number {
    let n = 0;
    for (let b = this.firstBlock; b; b = b.next) n++;
    return n;
  }

  /** The index of this region in its parent op. */
  get regionNumber(): number {
    const p = this.parentOp;
    return p ? p.regions.indexOf(this) : -1;
  }

  /** The region containing the parent op, if any. */
  get parentRegion(): Region | null {
    return this.parentOp ? this.parentOp.parentRegion : null;
  }

  /** Appends detached `block`. */
  push(block: Block): void {
    this.insertBefore(block, null);
  }

  /** Inserts detached `block` before `before` (`null`: at the end). O(1). */
  insertBefore(block: Block, before: Block | null): void {
    if (block.parent !== null) throw new Error('internal error: inserting a block that is already in a region');
    block.parent = this;
    if (before === null) {
      const last = this.lastBlock;
      block.prev = last;
      block.next = null;
      if (last) last.next = block;
      else this.firstBlock = block;
      this.lastBlock = block;
      return;
    }
    if (before.parent !== this) throw new Error('internal error: insertion point is not in this region');
    const prev = before.prev;
    block.prev = prev;
    block.next = before;
    before.prev = block;
    if (prev) prev.next = block;
    else this.firstBlock = block;
  }

  /** Inserts detached `block` after `after`. */
  insertAfter(block: Block, after: Block): void {
    this.insertBefore(block, after.next);
  }

  /** @internal Unlinks `block`. Use {@link Block.remove}. */
  removeBlock(block: Block): void {
    const p = block.prev;
    const n = block.next;
    if (p) p.next = n;
    else this.firstBlock = n;
    if (n) n.prev = p;
    else this.lastBlock = p;
    block.prev = block.next = null;
    block.parent = null;
  }

  /** Creates a block with the given argument types/locations, appends it and returns it. */
  addBlock(block: Block = new Block()): Block {
    this.push(block);
    return block;
  }

  /** Moves all blocks of `other` into this (now emptied) region, replacing its contents. */
  takeBody(other: Region): void {
    this.dropAllReferences();
    while (this.firstBlock) this.firstBlock.erase();
    this.spliceBlocks(other, null);
  }

  /** Moves all blocks of `other` into this region before `before` (`null`: at the end). */
  spliceBlocks(other: Region, before: Block | null): void {
    let b = other.firstBlock;
    while (b) {
      const n: Block | null = b.next;
      other.removeBlock(b);
      this.insertBefore(b, before);
      b = n;
    }
  }

  /** True when `this` contains `other` (directly or nested), or is `other`. */
  isAncestor(other: Region): boolean {
    for (let r: Region | null = other; r; r = r.parentRegion) if (r === this) return true;
    return false;
  }

  /** The ancestor of `op` (or `op` itself) that lies directly in this region, if any. */
  findAncestorOpInRegion(op: Operation): Operation | null {
    let cur: Operation | null = op;
    while (cur) {
      const r: Region | null = cur.parentRegion;
      if (r === this) return cur;
      if (!r) return null;
      cur = r.parentOp;
    }
    return null;
  }

  /** The ancestor of `block` (or `block` itself) that lies directly in this region, if any. */
  findAncestorBlockInRegion(block: Block): Block | null {
    let cur: Block | null = block;
    while (cur) {
      const r: Region | null = cur.parent;
      if (r === this) return cur;
      if (!r || !r.parentOp) return null;
      cur = r.parentOp.parent;
    }
    return null;
  }

  /** Drops every reference held by nested operations. */
  dropAllReferences(): void {
    for (let b = this.firstBlock; b; b = b.next) b.dropAllReferences();
  }

  /**
   * Clones this region's blocks into `dest` before `before` (`null`: at the end), recording
   * the correspondence in `mapping`. Iterative (depth-safe).
   */
  cloneInto(dest: Region, before: Block | null = null, mapping: IRMapping = new IRMapping()): void {
    cloneRegionInto(this, dest, before, mapping);
  }

  /** Walks all operations in this region (iteratively). */
  walk(callback: WalkCallback, order: WalkOrder = WalkOrder.PostOrder): WalkResult {
    return walkRegion(this, callback, order);
  }
}
