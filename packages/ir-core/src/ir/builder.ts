import type { Location, Type } from './attribute';
import { Block } from './block';
import type { MLIRContext } from './context';
import { IRMapping } from './ir-mapping';
import { Operation, type OperationState } from './operation';
import type { Region } from './region';

/**
 * Receives notifications from an {@link OpBuilder} (and a rewriter, which extends this).
 */
export interface BuilderListener {
  /** `op` was inserted (created, moved or cloned) at the builder's insertion point. */
  notifyOperationInserted?(op: Operation, previous: { block: Block | null; before: Operation | null }): void;
  /** `block` was created and inserted. */
  notifyBlockInserted?(block: Block): void;
}

/** A saved insertion point: insert before `before` in `block` (`before === null`: at the end). */
export interface InsertionPoint {
  /** The block to insert into (`null`: no insertion point). */
  readonly block: Block | null;
  /** The op to insert before (`null`: at the end of `block`). */
  readonly before: Operation | null;
}

/** Fields of {@link OperationState} other than the context, which the builder supplies. */
export type BuilderState = Omit<OperationState, 'context'>;

/**
 * Creates operations and inserts them at an insertion point (MLIR's `OpBuilder`).
 * @example
 * ```ts
 * const b = new OpBuilder(ctx);
 * b.setInsertionPointToEnd(block);
 * const op = b.create({ name: 'test.op', location: loc, resultTypes: [i32] });
 * ```
 */
export class OpBuilder {
  private block: Block | null = null;
  private before: Operation | null = null;

  constructor(
    /** The context ops are created in. */
    readonly context: MLIRContext,
    /** Optional listener notified of insertions. */
    public listener: BuilderListener | null = null,
  ) {}

  /** A builder inserting at the end of `block`. */
  static atBlockEnd(block: Block, context: MLIRContext, listener: BuilderListener | null = null): OpBuilder {
    const b = new OpBuilder(context, listener);
    b.setInsertionPointToEnd(block);
    return b;
  }

  /** A builder inserting right before `op`. */
  static before(op: Operation, listener: BuilderListener | null = null): OpBuilder {
    const b = new OpBuilder(op.context, listener);
    b.setInsertionPoint(op);
    return b;
  }

  // ---------------------------------------------------------------- insertion point

  /** The block ops are inserted into, if any. */
  get insertionBlock(): Block | null {
    return this.block;
  }
  /** The op new ops are inserted before (`null`: the end of the block). */
  get insertionPointOp(): Operation | null {
    return this.before;
  }
  /** Insert before `op`. */
  setInsertionPoint(op: Operation): void {
    if (!op.parent) throw new Error('internal error: insertion point at a detached operation');
    this.block = op.parent;
    this.before = op;
  }
  /** Insert right after `op`. */
  setInsertionPointAfter(op: Operation): void {
    if (!op.parent) throw new Error('internal error: insertion point at a detached operation');
    this.block = op.parent;
    this.before = op.next;
  }
  /** Insert at the start of `block`. */
  setInsertionPointToStart(block: Block): void {
    this.block = block;
    this.before = block.firstOp;
  }
  /** Insert at the end of `block`. */
  setInsertionPointToEnd(block: Block): void {
    this.block = block;
    this.before = null;
  }
  /** Forget the insertion point (created ops stay detached). */
  clearInsertionPoint(): void {
    this.block = null;
    this.before = null;
  }
  /** The current insertion point. */
  saveInsertionPoint(): InsertionPoint {
    return { block: this.block, before: this.before };
  }
  /** Restores a saved insertion point. */
  restoreInsertionPoint(ip: InsertionPoint): void {
    this.block = ip.block;
    this.before = ip.before;
  }
  /** Runs `body` and restores the insertion point afterwards (MLIR's `InsertionGuard`). */
  withGuard<T>(body: () => T): T {
    const ip = this.saveInsertionPoint();
    try {
      return body();
    } finally {
      this.restoreInsertionPoint(ip);
    }
  }

  // ---------------------------------------------------------------- creation

  /** Inserts detached `op` at the insertion point (if any) and returns it. */
  insert(op: Operation): Operation {
    const b = this.block;
    if (b) {
      b.insertBefore(op, this.before);
      this.listener?.notifyOperationInserted?.(op, { block: null, before: null });
    }
    return op;
  }

  /** Creates an operation from `state` and inserts it. */
  create(state: BuilderState): Operation {
    // The fields Operation.create reads, in one literal (cheaper than spreading `state`).
    return this.insert(
      Operation.create({
        context: this.context,
        name: state.name,
        location: state.location,
        operands: state.operands,
        resultTypes: state.resultTypes,
        properties: state.properties,
        attributes: state.attributes,
        successors: state.successors,
        regions: state.regions,
      }),
    );
  }

  /**
   * Creates a block with arguments of `types` at `locations`, inserts it in `region` before
   * `before` (`null`: at the end) and moves the insertion point to its end.
   */
  createBlock(
    region: Region,
    before: Block | null = null,
    types: readonly Type[] = [],
    locations: readonly Location[] = [],
  ): Block {
    const block = new Block(types, locations);
    region.insertBefore(block, before);
    this.setInsertionPointToEnd(block);
    this.listener?.notifyBlockInserted?.(block);
    return block;
  }

  /** Clones `op` (with `mapping`), inserts the clone and returns it. */
  clone(op: Operation, mapping: IRMapping = new IRMapping()): Operation {
    const c = op.clone(mapping);
    this.insert(c);
    return c;
  }
}
