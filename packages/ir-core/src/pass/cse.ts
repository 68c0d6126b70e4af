import type { Operation } from '../ir/operation';
import type { Block } from '../ir/block';
import { DominanceInfo } from '../ir/dominance';
import type { Region } from '../ir/region';
import { getMemoryEffects, isMemoryEffectFree, mayHaveEffect } from '../ir/side-effects';
import { Traits } from '../ir/traits';
import type { Value } from '../ir/value';
import { isOpTriviallyDead } from '../rewrite/folding';
import { Pass } from './pass';

/** Numbers values on first sight so ops can be keyed by their operands. */
class ValueNumbering {
  private readonly ids = new Map<Value, number>();
  id(v: Value): number {
    let n = this.ids.get(v);
    if (n === undefined) this.ids.set(v, (n = this.ids.size));
    return n;
  }
}

function attrsKey(m: ReadonlyMap<string, { id: number }>): string {
  if (m.size === 0) return '';
  const names = [...m.keys()].sort();
  let k = '';
  for (const n of names) k += `${n}=${m.get(n)!.id};`;
  return k;
}

/**
 * The structural key of `op` for CSE (MLIR's `OperationEquivalence`): name, operands (as a
 * multiset for `Commutative` ops), result types, properties and attributes.
 */
function opKey(op: Operation, numbering: ValueNumbering): string {
  const ids: number[] = [];
  for (let i = 0; i < op.numOperands; i++) ids.push(numbering.id(op.getOperand(i)));
  if (op.hasTrait(Traits.Commutative)) ids.sort((a, b) => a - b);
  let types = '';
  for (const r of op.results) types += `${r.type.id},`;
  return `${op.name}(${ids.join(',')})->${types}<${attrsKey(op.properties)}>{${attrsKey(op.attributes)}}`;
}

/**
 * How `op` may be replaced by an equivalent earlier op: `free` (no memory effects: any
 * dominating equivalent), `read` (only reads: an equivalent earlier in the same block with no
 * write in between, as MLIR's CSE), or `null` (never).
 */
function cseKind(op: Operation): 'free' | 'read' | null {
  if (op.numRegions !== 0 || op.numSuccessors !== 0 || op.numResults === 0 || !op.isRegistered || op.hasTrait(Traits.IsTerminator)) {
    return null;
  }
  if (isMemoryEffectFree(op)) return 'free';
  const effects = getMemoryEffects(op);
  return effects !== undefined && effects.length > 0 && effects.every((e) => e.kind === 'read') ? 'read' : null;
}

/** True when an op strictly between `from` and `to` (same block) may write or free memory. */
function hasWriteBetween(from: Operation, to: Operation): boolean {
  for (let o = from.next; o && o !== to; o = o.next) {
    if (mayHaveEffect(o, 'write') || mayHaveEffect(o, 'free')) return true;
  }
  return false;
}

/**
 * `cse` (MLIR's CSE pass): replaces a side-effect-free op by an equivalent op that dominates it
 * (a read-only op by an equivalent earlier in its block with no write or free in between) and
 * erases trivially dead ops. Scopes follow the region tree: values known in a region are
 * visible in regions nested in it (except below isolated-from-above and unregistered ops, as
 * MLIR's `mightHaveTrait<IsIsolatedFromAbove>`); within a region, a block sees the values of its
 * dominators (dominator-tree scoping); unreachable blocks and multi-block graph regions are not
 * touched; single-block graph regions only get dead-op erasure. Iterative (explicit stack).
 * Dominance comes from the analysis manager (`getAnalysis(DominanceInfo)`) and is preserved.
 */
export class CSEPass extends Pass {
  override readonly argument = 'cse';
  override readonly description = 'Eliminate common sub-expressions';

  override get name(): string {
    return 'CSE';
  }

  runOnOperation(root: Operation): void {
    const numbering = new ValueNumbering();
    const cse = this.statistic("num-cse'd", "Number of operations CSE'd");
    const dce = this.statistic("num-dce'd", "Number of operations DCE'd");
    const toErase: Operation[] = [];
    // Work items: a region with the scope (chain of maps) it inherits.
    type Scope = { map: Map<string, Operation>; parent: Scope | null };
    const lookup = (s: Scope | null, k: string): Operation | undefined => {
      for (let c = s; c; c = c.parent) {
        const v = c.map.get(k);
        if (v) return v;
      }
      return undefined;
    };
    const work: { region: Region; scope: Scope | null }[] = root.regions.map((region) => ({ region, scope: null }));
    const dom = this.getAnalysis(DominanceInfo);
    while (work.length > 0) {
      const { region, scope } = work.pop()!;
      if (region.empty) continue;
      const ssa = DominanceInfo.hasSSADominance(region);
      // Multi-block graph regions are left alone (as MLIR does); SSA regions follow the
      // dominator tree: a block sees the values of its dominators.
      if (!ssa && !region.hasOneBlock) continue;
      const scopes = new Map<Block, Scope>();
      for (const b of dom.reachableBlocksInReversePostOrder(region)) {
        const idom = dom.getImmediateDominator(b);
        const blockScope: Scope = { map: new Map(), parent: idom ? scopes.get(idom)! : scope };
        scopes.set(b, blockScope);
        for (let op = b.firstOp; op; op = op.next) {
          if (isOpTriviallyDead(op)) {
            toErase.push(op);
            dce.value++;
            continue;
          }
          if (op.numRegions > 0) {
            const inner = !op.isRegistered || op.hasTrait(Traits.IsolatedFromAbove) ? null : blockScope;
            for (let i = op.regions.length - 1; i >= 0; i--) work.push({ region: op.regions[i]!, scope: inner });
            continue;
          }
          const kind = ssa ? cseKind(op) : null;
          if (kind === null) continue;
          const key = opKey(op, numbering);
          const existing = lookup(blockScope, key);
          if (existing && (kind === 'free' || (existing.parent === op.parent && !hasWriteBetween(existing, op)))) {
            op.replaceAllUsesWith(existing.results);
            toErase.push(op);
            cse.value++;
          } else {
            blockScope.map.set(key, op);
          }
        }
      }
    }
    for (let i = toErase.length - 1; i >= 0; i--) {
      const op = toErase[i]!;
      if (op.useEmpty) op.erase();
    }
    // Erasing ops changes no block structure: dominance stays valid (as MLIR's CSE declares).
    if (toErase.length === 0) this.markAllAnalysesPreserved();
    else this.markAnalysesPreserved(DominanceInfo);
  }
}
