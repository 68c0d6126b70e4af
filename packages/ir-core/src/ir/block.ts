import type { Location, Type } from './attribute';
import type { Operation } from './operation';
import type { Region } from './region';
import { Traits } from './traits';
import { BlockArgument, type BlockOperand } from './value';
import { walkBlock, WalkOrder, type WalkCallback, type WalkResult } from './walk';

/**
 * A basic block: a list of arguments (typed, with locations) and an intrusive list of
 * operations. Blocks live in an intrusive list inside a {@link Region}. Inserting and removing
 * an operation is O(1); ordering queries use lazily recomputed indices.
 */
export class Block {
  /** The region containing this block, or `null` when detached. */
  parent: Region | null = null;
  /** Previous block in the region. */
  prev: Block | null = null;
  /** Next block in the region. */
  next: Block | null = null;
  /** First operation, or `null` when empty. */
  firstOp: Operation | null = null;
  /** Last operation, or `null` when empty. */
  lastOp: Operation | null = null;
  /**
   * Head of the list of successor uses targeting this block (its predecessors). Read-only for
   * clients.
   */
  firstUse: BlockOperand | null = null;
  /** The arguments, in order. Mutate through {@link addArgument} and friends. */
  readonly arguments: BlockArgument[] = [];
  private orderValid = true;
  private opsWithSuccessors = 0;

  /** Creates a detached block with arguments of `types` at `locations`. */
  constructor(types: readonly Type[] = [], locations: readonly Location[] = []) {
    if (types.length !== locations.length && types.length > 0) {
      throw new Error('internal error: block argument types and locations differ in length');
    }
    for (let i = 0; i < types.length; i++) this.arguments.push(new BlockArgument(types[i]!, this, i, locations[i]!));
  }

  // ---------------------------------------------------------------- arguments

  /** Number of arguments. */
  get numArguments(): number {
    return this.arguments.length;
  }
  /** Argument `i`. */
  getArgument(i: number): BlockArgument {
    const a = this.arguments[i];
    if (!a) throw new Error(`internal error: block argument #${i} out of range`);
    return a;
  }
  /** The argument types (a new array). */
  get argumentTypes(): Type[] {
    return this.arguments.map((a) => a.type);
  }
  /** Appends an argument and returns it. */
  addArgument(type: Type, location: Location): BlockArgument {
    const a = new BlockArgument(type, this, this.arguments.length, location);
    this.arguments.push(a);
    return a;
  }
  /** Inserts an argument at `index` and returns it. */
  insertArgument(index: number, type: Type, location: Location): BlockArgument {
    const a = new BlockArgument(type, this, index, location);
    this.arguments.splice(index, 0, a);
    for (let i = index + 1; i < this.arguments.length; i++) this.arguments[i]!.index = i;
    return a;
  }
  /** Erases argument `index`, which must have no uses. */
  eraseArgument(index: number): void {
    const a = this.getArgument(index);
    if (a.firstUse !== null) throw new Error(`internal error: erasing block argument #${index} that still has uses`);
    this.arguments.splice(index, 1);
    for (let i = index; i < this.arguments.length; i++) this.arguments[i]!.index = i;
  }

  // ---------------------------------------------------------------- operations

  /** True when the block has no operations. */
  get empty(): boolean {
    return this.firstOp === null;
  }

  /** The operations (a new array). Hot paths iterate `firstOp`/`next` instead. */
  get operations(): Operation[] {
    const out: Operation[] = [];
    for (let o = this.firstOp; o; o = o.next) out.push(o);
    return out;
  }

  /** Number of operations (O(n)). */
  get numOperations(): number {
    let n = 0;
    for (let o = this.firstOp; o; o = o.next) n++;
    return n;
  }

  /** Appends `op` (which must be detached). O(1). */
  push(op: Operation): void {
    this.insertBefore(op, null);
  }

  /** Prepends `op`. O(1). */
  pushFront(op: Operation): void {
    this.insertBefore(op, this.firstOp);
  }

  /** Inserts detached `op` before `before` (`null`: at the end). O(1). */
  insertBefore(op: Operation, before: Operation | null): void {
    if (op.parent !== null) throw new Error(`internal error: inserting '${op.name}' that is already in a block`);
    if (before !== null && before.parent !== this) throw new Error('internal error: insertion point is not in this block');
    op.parent = this;
    if (op.numSuccessors !== 0) this.opsWithSuccessors++;
    if (before === null) {
      const last = this.lastOp;
      op.prev = last;
      op.next = null;
      if (last) {
        last.next = op;
        op.orderIndex = last.orderIndex + 1;
      } else {
        this.firstOp = op;
        op.orderIndex = 0;
      }
      this.lastOp = op;
      return;
    }
    const prev = before.prev;
    op.prev = prev;
    op.next = before;
    before.prev = op;
    if (prev) prev.next = op;
    else this.firstOp = op;
    this.orderValid = false;
  }

  /** Inserts detached `op` after `after`. O(1). */
  insertAfter(op: Operation, after: Operation): void {
    this.insertBefore(op, after.next);
  }

  /** @internal Unlinks `op` from this block. O(1). Use {@link Operation.remove}. */
  removeOp(op: Operation): void {
    const p = op.prev;
    const n = op.next;
    if (p) p.next = n;
    else this.firstOp = n;
    if (n) n.prev = p;
    else this.lastOp = p;
    op.prev = op.next = null;
    op.parent = null;
    if (op.numSuccessors !== 0) this.opsWithSuccessors--;
  }

  /**
   * @internal The number of operations of this block that have successors (kept up to date
   * as operations are inserted and removed), so the verifier need not look at every operation
   * to find a branch that is not the last one.
   */
  get numOpsWithSuccessors(): number {
    return this.opsWithSuccessors;
  }

  /** @internal An operation of this block got (`+1`) or lost (`-1`) all its successors. */
  noteSuccessorsChanged(delta: 1 | -1): void {
    this.opsWithSuccessors += delta;
  }

  /** @internal Recomputes operation order indices if needed. */
  ensureOrder(): void {
    if (this.orderValid) return;
    let i = 0;
    for (let o = this.firstOp; o; o = o.next) o.orderIndex = i++;
    this.orderValid = true;
  }

  /** @internal Marks order indices stale. */
  invalidateOrder(): void {
    this.orderValid = false;
  }

  /**
   * The terminator: the last operation if it is (or, unregistered, might be) a terminator;
   * `null` otherwise.
   */
  get terminator(): Operation | null {
    const last = this.lastOp;
    if (last === null) return null;
    if (!last.isRegistered || last.hasTrait(Traits.IsTerminator)) return last;
    return null;
  }

  /**
   * Moves the operations from `op` (inclusive) to the end into a new block inserted after this
   * one, and returns it (MLIR's `splitBlock`).
   */
  splitBlock(op: Operation): Block {
    if (op.parent !== this) throw new Error('internal error: splitBlock at an op of another block');
    const nb = new Block();
    if (this.parent) this.parent.insertAfter(nb, this);
    let o: Operation | null = op;
    while (o) {
      const n: Operation | null = o.next;
      this.removeOp(o);
      nb.push(o);
      o = n;
    }
    return nb;
  }

  /** Moves all operations of `other` to the end of this block (before `before` if given). */
  spliceFrom(other: Block, before: Operation | null = null): void {
    let o = other.firstOp;
    while (o) {
      const n: Operation | null = o.next;
      other.removeOp(o);
      this.insertBefore(o, before);
      o = n;
    }
  }

  // ---------------------------------------------------------------- CFG

  /** The operation containing this block's region. */
  get parentOp(): Operation | null {
    return this.parent ? this.parent.parentOp : null;
  }

  /** True when this is the first block of its region. */
  get isEntryBlock(): boolean {
    return this.parent !== null && this.parent.firstBlock === this;
  }

  /** The blocks whose terminators branch here, one entry per successor edge. */
  get predecessors(): Block[] {
    const out: Block[] = [];
    for (let u = this.firstUse; u; u = u.nextUse) {
      const b = u.owner.parent;
      if (b) out.push(b);
    }
    return out;
  }

  /** True when some terminator branches here. */
  get hasPredecessors(): boolean {
    return this.firstUse !== null;
  }

  /** The successors of this block's terminator (a new array). */
  get successors(): Block[] {
    const last = this.lastOp;
    return last ? last.successors : [];
  }

  /** Unlinks this block from its region. */
  remove(): void {
    if (this.parent) this.parent.removeBlock(this);
  }

  /** Drops every reference held by the ops of this block (and nested ops). */
  dropAllReferences(): void {
    for (let o = this.firstOp; o; o = o.next) o.dropAllReferences();
  }

  /**
   * Unlinks and destroys this block and its operations. Its arguments and results must have
   * no remaining uses outside the block.
   */
  erase(): void {
    this.dropAllReferences();
    let o = this.lastOp;
    while (o) {
      const p: Operation | null = o.prev;
      o.erase();
      o = p;
    }
    this.remove();
  }

  /** Moves this block right before `other` (possibly into another region). */
  moveBefore(other: Block): void {
    const r = other.parent;
    if (!r) throw new Error('internal error: moveBefore a detached block');
    this.remove();
    r.insertBefore(this, other);
  }

  /** Walks the operations of this block and all nested ones (iteratively). */
  walk(callback: WalkCallback, order: WalkOrder = WalkOrder.PostOrder): WalkResult {
    return walkBlock(this, callback, order);
  }
}
