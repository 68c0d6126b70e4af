// A copy of packages/ir-core/src/ir/verifier.ts before the fused walks (commit 4c032be), kept
// only as the baseline of verify-large.mjs, which transpiles it next to the current sources.
// Not part of the package.
import { M } from '../diagnostics/ir-messages';
import type { Block } from './block';
import { DominanceInfo } from './dominance';
import { formatOperation } from './format-hooks';
import type { Operation } from './operation';
import type { Region } from './region';
import { Traits } from './traits';

/** Options of {@link verify}. */
export interface VerifyOptions {
  /** Verify nested operations too (default true). */
  recursive?: boolean;
}

const enum Item {
  OpEnter,
  OpExit,
  OpFinish,
  BlockEnter,
  BlockExit,
  BlockContinue,
  Dominance,
}

function mightHaveTerminatorTrait(op: Operation): boolean {
  return !op.isRegistered || op.hasTrait(Traits.IsTerminator);
}

function mayBeValidWithoutTerminator(block: Block): boolean {
  const r = block.parent;
  if (!r) return true;
  if (!r.hasOneBlock) return false;
  const op = r.parentOp;
  return !op || !op.isRegistered || op.hasTrait(Traits.NoTerminator);
}

function isIsolatedWithRegions(op: Operation): boolean {
  return op.regions.length > 0 && op.hasTrait(Traits.IsolatedFromAbove);
}

function regionLocation(region: Region, fallback: Operation): Operation {
  return region.parentOp ?? fallback;
}

/**
 * Verifies `root` and (by default) everything nested in it, like MLIR's `mlir::verify`:
 * per-op definition invariants (counts, attributes, types, regions, traits, custom verify),
 * block terminators and successors, the unregistered-op policy, region invariants, then SSA
 * dominance (skipping graph regions). Reports the first failure as a diagnostic at the
 * offending op's location and returns false. Uses explicit stacks only, so any nesting depth
 * is safe.
 */
export function verify(root: Operation, options?: VerifyOptions): boolean {
  return new OperationVerifier(options?.recursive !== false).run(root);
}

class OperationVerifier {
  private readonly kinds: Item[] = [];
  private readonly targets: (Operation | Block)[] = [];
  private readonly dom = new DominanceInfo();

  constructor(private readonly recursive: boolean) {}

  run(root: Operation): boolean {
    this.push(Item.Dominance, root);
    this.push(Item.OpEnter, root);
    const kinds = this.kinds;
    const targets = this.targets;
    while (kinds.length > 0) {
      const k = kinds.pop()!;
      const t = targets.pop()!;
      let ok: boolean;
      switch (k) {
        case Item.OpEnter:
          ok = this.opEnter(t as Operation);
          break;
        case Item.OpExit:
          ok = this.opExit(t as Operation);
          break;
        case Item.OpFinish:
          ok = this.opFinish(t as Operation);
          break;
        case Item.BlockEnter:
          ok = this.blockEnter(t as Block);
          break;
        case Item.BlockExit:
          ok = this.blockExit(t as Block);
          break;
        case Item.BlockContinue:
          ok = this.continueBlock(t as Operation);
          break;
        case Item.Dominance:
          ok = this.verifyDominance(t as Operation);
          break;
      }
      if (!ok) return false;
    }
    return true;
  }

  private push(kind: Item, target: Operation | Block): void {
    this.kinds.push(kind);
    this.targets.push(target);
  }

  private opEnter(op: Operation): boolean {
    if (!this.verifyOpLocal(op)) return false;
    const regions = op.regions;
    this.push(Item.OpExit, op);
    if (this.recursive) {
      for (let i = regions.length - 1; i >= 0; i--) {
        for (let b = regions[i]!.lastBlock; b; b = b.prev) this.push(Item.BlockEnter, b);
      }
    }
    return true;
  }

  /** Entrance checks of one op: operands, dialect attributes, definition invariants, regions. */
  private verifyOpLocal(op: Operation): boolean {
    const operands = op.opOperands;
    for (let i = 0; i < operands.length; i++) {
      if (operands[i]!.valueOrNull === null) {
        op.emitError('null operand found');
        return false;
      }
    }
    if (op.attributes.size > 0) this.checkDialectAttributes(op);
    if (this.failedDialectAttr) return false;
    const def = op.definition;
    if (def && !def.verifyInvariants(op)) return false;
    const regions = op.regions;
    if (regions.length > 0) {
      for (let i = 0; i < regions.length; i++) {
        const r = regions[i]!;
        if (def && !r.empty && !r.hasOneBlock && !DominanceInfo.hasSSADominance(r)) {
          op.emitOpError(M.expectsGraphRegionZeroOrOneBlock(i));
          return false;
        }
        if (r.firstBlock && r.firstBlock.hasPredecessors) {
          regionLocation(r, op).emitError(M.entryBlockHasPredecessors);
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Verifies the ops of a block from `op` on: ops without regions completely and in place
   * (the common case, no stack traffic); at the first op with regions, schedules it and the
   * rest of the block. Isolated ops are skipped (their parent's exit verifies them).
   */
  private continueBlock(op: Operation | null): boolean {
    for (let o = op; o; o = o.next) {
      if (o.regions.length === 0) {
        if (!this.verifyOpLocal(o) || !this.opFinish(o)) return false;
        continue;
      }
      if (isIsolatedWithRegions(o)) continue;
      if (o.next) this.push(Item.BlockContinue, o.next);
      this.push(Item.OpEnter, o);
      return true;
    }
    return true;
  }

  private failedDialectAttr = false;

  private checkDialectAttributes(op: Operation): void {
    for (const [name, value] of op.attributes) {
      const dot = name.indexOf('.');
      if (dot <= 0) continue;
      const dialect = op.context.getDialect(name.substring(0, dot));
      if (dialect?.verifyOperationAttribute && !dialect.verifyOperationAttribute(op, name, value)) {
        this.failedDialectAttr = true;
        return;
      }
    }
  }

  private blockEnter(block: Block): boolean {
    if (block.empty) {
      if (mayBeValidWithoutTerminator(block)) return true;
      const owner = block.parent!.parentOp;
      if (owner) owner.emitError(M.emptyBlockNeedsTerminator);
      return false;
    }
    for (let o = block.firstOp; o; o = o.next) {
      if (o.numSuccessors !== 0 && o !== block.lastOp) {
        o.emitError(M.successorsMustTerminate);
        return false;
      }
    }
    this.push(Item.BlockExit, block);
    return this.continueBlock(block.firstOp);
  }

  private blockExit(block: Block): boolean {
    const last = block.lastOp!;
    for (let i = 0; i < last.numSuccessors; i++) {
      if (last.getSuccessor(i).parent !== block.parent) {
        last.emitOpError(M.branchToOtherRegion);
        return false;
      }
    }
    if (mayBeValidWithoutTerminator(block)) return true;
    if (!mightHaveTerminatorTrait(last)) {
      last.emitError(M.blockWithNoTerminator(formatOperation(last)));
      return false;
    }
    return true;
  }

  private opExit(op: Operation): boolean {
    this.push(Item.OpFinish, op);
    if (!this.recursive) return true;
    const isolated: Operation[] = [];
    for (const r of op.regions) {
      for (let b = r.firstBlock; b; b = b.next) {
        for (let o = b.firstOp; o; o = o.next) if (isIsolatedWithRegions(o)) isolated.push(o);
      }
    }
    for (let i = isolated.length - 1; i >= 0; i--) {
      this.push(Item.Dominance, isolated[i]!);
      this.push(Item.OpEnter, isolated[i]!);
    }
    return true;
  }

  private opFinish(op: Operation): boolean {
    const def = op.definition;
    if (def) return def.verifyRegionInvariants(op);
    const ns = op.dialectNamespace;
    const dialect = op.context.getDialect(ns);
    if (!dialect) {
      if (!op.context.allowUnregisteredDialects) {
        op.emitOpError(M.unregisteredDialect);
        return false;
      }
      return true;
    }
    if (!dialect.allowsUnknownOperations) {
      op.emitError(M.unregisteredOpInDialect(op.name, ns));
      return false;
    }
    return true;
  }

  private verifyDominance(root: Operation): boolean {
    if (root.regions.length === 0) return true;
    const dom = this.dom;
    const work: Operation[] = [root];
    while (work.length > 0) {
      const op = work.pop()!;
      for (const region of op.regions) {
        const ssa = DominanceInfo.hasSSADominance(region);
        for (let b = region.firstBlock; b; b = b.next) {
          const reachable = !ssa || dom.isReachableFromEntry(b);
          if (ssa && reachable) b.ensureOrder();
          for (let o = b.firstOp; o; o = o.next) {
            if (ssa && reachable) {
              const n = o.numOperands;
              for (let i = 0; i < n; i++) {
                const v = o.getOperand(i);
                // Fast path: a value defined earlier in the same block.
                const d = v.definingOp;
                if (d !== null && d.parent === b) {
                  if (d.orderIndex < o.orderIndex) continue;
                } else if (d === null && v.parentBlock === b) {
                  continue;
                } else if (dom.properlyDominates(v, o)) {
                  continue;
                }
                diagnoseInvalidOperandDominance(o, i);
                return false;
              }
            } else if (!ssa) {
              // Graph region: values must still be visible (defined in an enclosing region).
              const n = o.numOperands;
              for (let i = 0; i < n; i++) {
                const v = o.getOperand(i);
                if (!dom.properlyDominates(v, o) && !(v.parentRegion && v.parentRegion.isAncestor(region))) {
                  diagnoseInvalidOperandDominance(o, i);
                  return false;
                }
              }
            }
            if (this.recursive && o.regions.length > 0 && !o.hasTrait(Traits.IsolatedFromAbove)) work.push(o);
          }
        }
      }
    }
    return true;
  }
}

function relation(userRegion: Region | null, defRegion: Region | null): string {
  if (userRegion === defRegion) return 'same region';
  if (defRegion && userRegion && defRegion.isAncestor(userRegion)) return 'parent region';
  if (defRegion && userRegion && userRegion.isAncestor(defRegion)) return 'child region';
  return 'neither';
}

function diagnoseInvalidOperandDominance(op: Operation, index: number): void {
  const diag = op.emitError(M.operandDoesNotDominate(index));
  const v = op.getOperand(index);
  const defOp = v.definingOp;
  if (defOp) {
    const b1 = op.parent;
    const b2 = defOp.parent;
    let where: string;
    if (b1 === b2) where = 'op in the same block';
    else {
      const rel = relation(b1?.parent ?? null, b2?.parent ?? null);
      where =
        rel === 'same region'
          ? 'op in the same region'
          : rel === 'parent region'
          ? 'op in a parent region'
          : rel === 'child region'
          ? 'op in a child region'
          : 'op is neither in a parent nor in a child region';
    }
    diag.attachNote(M.operandDefinedHere(where), defOp.location);
    return;
  }
  const block2 = v.parentBlock!;
  const region2 = block2.parent;
  const loc = block2.parentOp?.location ?? op.location;
  if (!region2) {
    diag.attachNote(' (block without parent)', loc);
    return;
  }
  let index2 = 0;
  for (let b = region2.firstBlock; b && b !== block2; b = b.next) index2++;
  const rel = relation(op.parentRegion, region2);
  const where =
    rel === 'same region' ? 'in the same region)' : rel === 'parent region' ? 'in a parent region)' : rel === 'child region' ? 'in a child region)' : 'neither in a parent nor in a child region)';
  diag.attachNote(M.operandDefinedAsBlockArgument(index2, where.slice(0, -1)), loc);
}
