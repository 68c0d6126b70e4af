import type { Location, Type } from './attribute';
import type { Block } from './block';
import type { Operation } from './operation';
import type { Region } from './region';

/**
 * An SSA value: the result of an operation ({@link OpResult}) or an argument of a block
 * ({@link BlockArgument}). Every value keeps an intrusive doubly linked list of its uses
 * ({@link OpOperand}), so adding, removing and redirecting one use is O(1).
 *
 * Iterate uses without allocation: `for (let u = v.firstUse; u; u = u.nextUse) ...`.
 */
export abstract class Value {
  /**
   * Head of the use list (most recently added use first). Read-only for clients: change uses
   * through {@link OpOperand.set}, {@link Operation.setOperand} or {@link replaceAllUsesWith}.
   */
  firstUse: OpOperand | null = null;

  constructor(
    /** The value's type (mutable, like MLIR's `Value::setType`). */
    public type: Type,
  ) {}

  /** The operation that defines this value, or `null` for a block argument. */
  abstract get definingOp(): Operation | null;
  /** The block that contains the definition (an argument's block or a result's op's block). */
  abstract get parentBlock(): Block | null;
  /** The location of the definition (an argument's own location, or the op's location). */
  abstract get location(): Location;

  /** The region containing the definition, if any. */
  get parentRegion(): Region | null {
    const b = this.parentBlock;
    return b ? b.parent : null;
  }

  /** True when the value has no uses. */
  get useEmpty(): boolean {
    return this.firstUse === null;
  }

  /** True when the value has exactly one use. O(1). */
  hasOneUse(): boolean {
    return this.firstUse !== null && this.firstUse.nextUse === null;
  }

  /** Number of uses (O(uses)). */
  get numUses(): number {
    let n = 0;
    for (let u = this.firstUse; u; u = u.nextUse) n++;
    return n;
  }

  /** A snapshot array of the uses (safe to mutate the IR while iterating it). */
  get uses(): OpOperand[] {
    const out: OpOperand[] = [];
    for (let u = this.firstUse; u; u = u.nextUse) out.push(u);
    return out;
  }

  /** The operations using this value, one entry per use (an op using it twice appears twice). */
  get users(): Operation[] {
    const out: Operation[] = [];
    for (let u = this.firstUse; u; u = u.nextUse) out.push(u.owner);
    return out;
  }

  /** Redirects every use of this value to `replacement`. O(1) per use. */
  replaceAllUsesWith(replacement: Value): void {
    if (replacement === this) return;
    let u = this.firstUse;
    while (u) {
      const next = u.nextUse;
      u.set(replacement);
      u = next;
    }
  }

  /** Redirects the uses for which `predicate(use)` holds. */
  replaceUsesWithIf(replacement: Value, predicate: (use: OpOperand) => boolean): void {
    if (replacement === this) return;
    let u = this.firstUse;
    while (u) {
      const next = u.nextUse;
      if (predicate(u)) u.set(replacement);
      u = next;
    }
  }

  /** Redirects every use except those owned by `exceptedUser`. */
  replaceAllUsesExcept(replacement: Value, exceptedUser: Operation): void {
    if (replacement === this) return;
    let u = this.firstUse;
    while (u) {
      const next = u.nextUse;
      if (u.owner !== exceptedUser) u.set(replacement);
      u = next;
    }
  }

  /** Detaches every use (the using operands then have no value: only for erasure). */
  dropAllUses(): void {
    let u = this.firstUse;
    while (u) {
      const next = u.nextUse;
      u.drop();
      u = next;
    }
  }

  /** True when `op` uses this value. */
  isUsedBy(op: Operation): boolean {
    for (let u = this.firstUse; u; u = u.nextUse) if (u.owner === op) return true;
    return false;
  }
}

/** The `index`-th result of an operation. */
export class OpResult extends Value {
  constructor(
    type: Type,
    /** The operation that produces this result. */
    readonly owner: Operation,
    /** The result number. */
    readonly index: number,
  ) {
    super(type);
  }

  /** @inheritDoc */
  get definingOp(): Operation {
    return this.owner;
  }
  /** @inheritDoc */
  get parentBlock(): Block | null {
    return this.owner.parent;
  }
  /** @inheritDoc */
  get location(): Location {
    return this.owner.location;
  }
}

/** The `index`-th argument of a block, with its own location. */
export class BlockArgument extends Value {
  constructor(
    type: Type,
    /** The block that owns this argument. */
    readonly owner: Block,
    /** The argument number (kept up to date when arguments are inserted or erased). */
    public index: number,
    /** Where the argument was declared. */
    public loc: Location,
  ) {
    super(type);
  }

  /** Always `null`: block arguments have no defining operation. */
  get definingOp(): null {
    return null;
  }
  /** @inheritDoc */
  get parentBlock(): Block {
    return this.owner;
  }
  /** @inheritDoc */
  get location(): Location {
    return this.loc;
  }
}

/** What an {@link IROperand} refers to: the head of its list of uses. */
interface UseListHead<U> {
  firstUse: U | null;
}

/**
 * A use of an IR object (MLIR's `IROperand`): slot `index` of operation `owner`, linked into
 * the used object's use list while it refers to one, so the list is O(1) to maintain.
 * {@link OpOperand} (a value's uses) and {@link BlockOperand} (a block's predecessors) are one.
 */
abstract class IROperand<T extends UseListHead<U>, U extends IROperand<T, U>> {
  /** Previous use of the same object (towards its `firstUse`). */
  prevUse: U | null = null;
  /** Next use of the same object. */
  nextUse: U | null = null;
  /** The used object, `null` once dropped. */
  protected current: T | null = null;

  constructor(
    /** The operation that owns this use. */
    readonly owner: Operation,
    /** The slot number (kept up to date when slots are inserted or erased). */
    public index: number,
    target: T | null,
  ) {
    if (target) this.link(target);
  }

  /** Makes this use refer to `target` instead. O(1). */
  set(target: T): void {
    if (this.current === target) return;
    this.unlink();
    this.link(target);
  }

  /** Removes this use from its object's use list (it then refers to nothing). */
  drop(): void {
    this.unlink();
  }

  private link(target: T): void {
    const self = this as unknown as U;
    this.current = target;
    const head = target.firstUse;
    this.nextUse = head;
    this.prevUse = null;
    if (head) head.prevUse = self;
    target.firstUse = self;
  }

  private unlink(): void {
    const t = this.current;
    if (t === null) return;
    const p = this.prevUse;
    const n = this.nextUse;
    if (p) p.nextUse = n;
    else t.firstUse = n;
    if (n) n.prevUse = p;
    this.prevUse = this.nextUse = null;
    this.current = null;
  }
}

/**
 * One use of a value: operand number `index` of operation `owner`. It is linked into the
 * value's use list while it holds a value.
 */
export class OpOperand extends IROperand<Value, OpOperand> {
  /** The used value. Throws if the operand was dropped (only during erasure). */
  get value(): Value {
    const v = this.current;
    if (v === null) throw new Error('internal error: use of a dropped operand');
    return v;
  }

  /** The used value, or `null` once dropped. */
  get valueOrNull(): Value | null {
    return this.current;
  }
}

/**
 * One successor of a terminator: successor number `index` of `owner`, referring to a block.
 * Linked into the target block's predecessor list, so predecessors are O(1) to maintain.
 */
export class BlockOperand extends IROperand<Block, BlockOperand> {
  /** The target block. */
  get block(): Block {
    const b = this.current;
    if (b === null) throw new Error('internal error: use of a dropped successor');
    return b;
  }

  /** The target block, or `null` once dropped. */
  get blockOrNull(): Block | null {
    return this.current;
  }
}
