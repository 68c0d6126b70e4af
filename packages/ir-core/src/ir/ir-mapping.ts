import type { Block } from './block';
import type { Operation } from './operation';
import type { Value } from './value';

/**
 * A correspondence from original IR to cloned IR: values, blocks and operations (MLIR's
 * `IRMapping`). Used by {@link Operation.clone} and region inlining.
 */
export class IRMapping {
  private readonly values = new Map<Value, Value>();
  private readonly blocks = new Map<Block, Block>();
  private readonly ops = new Map<Operation, Operation>();

  /** Maps value `from` to `to`. */
  map(from: Value, to: Value): void {
    this.values.set(from, to);
  }
  /** Maps block `from` to `to`. */
  mapBlock(from: Block, to: Block): void {
    this.blocks.set(from, to);
  }
  /** Maps operation `from` to `to`. */
  mapOp(from: Operation, to: Operation): void {
    this.ops.set(from, to);
  }
  /** Maps each of `from` to the value at the same position in `to`. */
  mapAll(from: readonly Value[], to: readonly Value[]): void {
    for (let i = 0; i < from.length; i++) this.values.set(from[i]!, to[i]!);
  }

  /** The value mapped from `v`, or `undefined`. */
  lookupOrNull(v: Value): Value | undefined {
    return this.values.get(v);
  }
  /** The value mapped from `v`, or `v` itself. */
  lookupOrDefault(v: Value): Value {
    return this.values.get(v) ?? v;
  }
  /** The value mapped from `v`; an internal error if there is none. */
  lookup(v: Value): Value {
    const r = this.values.get(v);
    if (r === undefined) throw new Error('internal error: value not in IRMapping');
    return r;
  }
  /** The block mapped from `b`, or `b` itself. */
  lookupBlockOrDefault(b: Block): Block {
    return this.blocks.get(b) ?? b;
  }
  /** The block mapped from `b`, or `undefined`. */
  lookupBlockOrNull(b: Block): Block | undefined {
    return this.blocks.get(b);
  }
  /** The operation mapped from `op`, or `undefined`. */
  lookupOpOrNull(op: Operation): Operation | undefined {
    return this.ops.get(op);
  }
  /** True when `v` is mapped. */
  contains(v: Value): boolean {
    return this.values.has(v);
  }
  /** True when block `b` is mapped. */
  containsBlock(b: Block): boolean {
    return this.blocks.has(b);
  }
  /** Removes the mapping of value `v`. */
  erase(v: Value): void {
    this.values.delete(v);
  }
  /** Removes every mapping. */
  clear(): void {
    this.values.clear();
    this.blocks.clear();
    this.ops.clear();
  }
}
