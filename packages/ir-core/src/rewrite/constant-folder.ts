import type { Attribute } from '../ir/attribute';
import type { Block } from '../ir/block';
import type { Operation } from '../ir/operation';
import type { Region } from '../ir/region';
import { Traits } from '../ir/traits';
import { getConstantValue } from './folding';
import type { RewriterBase } from './rewriter';

/**
 * The region folded constants are hoisted into: the closest enclosing region whose parent op is
 * isolated from above, unregistered, or top-level (MLIR's `getInsertionRegion`).
 */
export function getConstantInsertionRegion(block: Block): Region | null {
  let b: Block | null = block;
  while (b) {
    const region: Region | null = b.parent;
    if (!region) return null;
    const parent: Operation | null = region.parentOp;
    if (!parent || !parent.isRegistered || parent.hasTrait(Traits.IsolatedFromAbove) || parent.parent === null) return region;
    b = parent.parent;
  }
  return null;
}

function keyOf(op: Operation, value: Attribute): string {
  return `${op.dialectNamespace}|${value.id}|${op.getResult(0).type.id}`;
}

/**
 * Uniques constant ops per insertion region and keeps them at the start of the region's entry
 * block (MLIR's `OperationFolder` as the greedy driver uses it: `insertKnownConstant` and
 * `notifyRemoval`).
 */
export class ConstantFolder {
  private readonly scopes = new Map<Region, Map<string, Operation>>();
  private readonly owned = new Map<Operation, string>();

  /** True when `op` is a constant this folder uniqued. */
  isFolderOwnedConstant(op: Operation | null): boolean {
    return op !== null && this.owned.has(op);
  }

  /**
   * Records constant `op` (with value `value`). If an equal constant is already known in the same
   * insertion region, `op`'s uses are redirected to it, `op` is erased through `rewriter` and
   * `false` is returned. Otherwise `op` is moved to the front of the insertion block (unless it
   * already follows a uniqued constant there) and `true` is returned.
   */
  insertKnownConstant(op: Operation, value: Attribute, rewriter: RewriterBase): boolean {
    const opBlock = op.parent;
    if (!opBlock) return true;
    if (this.owned.has(op)) {
      if (opBlock.firstOp !== op && !this.isFolderOwnedConstant(op.prev)) op.moveBefore(opBlock.firstOp!);
      return true;
    }
    const region = getConstantInsertionRegion(opBlock);
    if (!region || !region.firstBlock) return true;
    let scope = this.scopes.get(region);
    if (!scope) this.scopes.set(region, (scope = new Map()));
    const key = keyOf(op, value);
    const existing = scope.get(key);
    if (existing) {
      rewriter.replaceOp(op, existing);
      return false;
    }
    const insertBlock = region.firstBlock;
    if (opBlock !== insertBlock || (insertBlock.firstOp !== op && !this.isFolderOwnedConstant(op.prev))) {
      op.moveBefore(insertBlock.firstOp!);
    }
    scope.set(key, op);
    this.owned.set(op, key);
    return true;
  }

  /** Forgets `op` if it is a uniqued constant (call before erasing it). */
  notifyRemoval(op: Operation): void {
    const key = this.owned.get(op);
    if (key === undefined) return;
    this.owned.delete(op);
    for (const scope of this.scopes.values()) if (scope.get(key) === op) scope.delete(key);
  }

  /** The constant value of `op` if it is constant-like. */
  static constantValueOf(op: Operation): Attribute | undefined {
    if (!op.hasTrait(Traits.ConstantLike) || op.numResults !== 1) return undefined;
    return getConstantValue(op.getResult(0));
  }
}
