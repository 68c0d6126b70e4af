import type { Block } from './block';
import { RegionKindInterface } from './core-interfaces';
import type { Operation } from './operation';
import type { Region } from './region';
import { Traits } from './traits';
import type { Value } from './value';

/** Dominator tree of one region (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm"). */
class RegionDominance {
  /** Reverse post-order number of reachable blocks. */
  readonly rpo = new Map<Block, number>();
  /** Immediate dominator by RPO number (entry: itself). */
  readonly idom: number[] = [];
  /** Reachable blocks in reverse post-order. */
  order: Block[] = [];

  constructor(region: Region) {
    const entry = region.firstBlock;
    if (!entry) return;
    // Iterative DFS post-order over successors.
    const post: Block[] = [];
    const visited = new Set<Block>([entry]);
    const stack: Block[] = [entry];
    const succIdx: number[] = [0];
    while (stack.length > 0) {
      const b = stack[stack.length - 1]!;
      const term = b.lastOp;
      const n = term ? term.numSuccessors : 0;
      const i = succIdx[succIdx.length - 1]!;
      if (i < n) {
        succIdx[succIdx.length - 1] = i + 1;
        const s = term!.getSuccessor(i);
        if (s.parent === region && !visited.has(s)) {
          visited.add(s);
          stack.push(s);
          succIdx.push(0);
        }
      } else {
        stack.pop();
        succIdx.pop();
        post.push(b);
      }
    }
    const order = post.reverse();
    this.order = order;
    for (let i = 0; i < order.length; i++) this.rpo.set(order[i]!, i);
    const idom = this.idom;
    idom.length = order.length;
    idom.fill(-1);
    idom[0] = 0;
    let changed = true;
    while (changed) {
      changed = false;
      for (let i = 1; i < order.length; i++) {
        let newIdom = -1;
        for (let u = order[i]!.firstUse; u; u = u.nextUse) {
          const pb = u.owner.parent;
          if (!pb) continue;
          const p = this.rpo.get(pb);
          if (p === undefined || idom[p] === -1) continue;
          newIdom = newIdom === -1 ? p : this.intersect(p, newIdom);
        }
        if (newIdom !== -1 && idom[i] !== newIdom) {
          idom[i] = newIdom;
          changed = true;
        }
      }
    }
  }

  private intersect(a: number, b: number): number {
    const idom = this.idom;
    while (a !== b) {
      while (a > b) a = idom[a]!;
      while (b > a) b = idom[b]!;
    }
    return a;
  }

  isReachable(b: Block): boolean {
    return this.rpo.has(b);
  }

  /** True when `a` dominates `b` (unreachable `b` is dominated by everything). */
  dominates(a: Block, b: Block): boolean {
    if (a === b) return true;
    const nb = this.rpo.get(b);
    if (nb === undefined) return true;
    const na = this.rpo.get(a);
    if (na === undefined) return false;
    let x = nb;
    while (x > na) x = this.idom[x]!;
    return x === na;
  }
}

/**
 * Dominance information for the regions under an operation, computed lazily per region
 * (MLIR's `DominanceInfo`). Graph regions (`HasOnlyGraphRegion` or a
 * {@link RegionKindInterface} saying `graph`) impose no dominance.
 */
export class DominanceInfo {
  private readonly regions = new Map<Region, RegionDominance>();

  private info(region: Region): RegionDominance {
    let d = this.regions.get(region);
    if (!d) {
      d = new RegionDominance(region);
      this.regions.set(region, d);
    }
    return d;
  }

  /** Forgets cached trees (call after changing a region's CFG). */
  invalidate(region?: Region): void {
    if (region) this.regions.delete(region);
    else this.regions.clear();
  }

  /** True when `region` obeys SSA dominance. */
  static hasSSADominance(region: Region): boolean {
    const op = region.parentOp;
    if (!op) return true;
    if (op.hasTrait(Traits.HasOnlyGraphRegion)) return false;
    const k = op.getInterface(RegionKindInterface);
    return !k || k.getRegionKind(op, op.regions.indexOf(region)) === 'ssacfg';
  }

  /** True when `block` is reachable from its region's entry. */
  isReachableFromEntry(block: Block): boolean {
    const r = block.parent;
    if (!r || r.hasOneBlock) return true;
    return this.info(r).isReachable(block);
  }

  /**
   * The reachable blocks of `region` in reverse post-order (every block after its immediate
   * dominator), for dominator-tree scoped walks.
   */
  reachableBlocksInReversePostOrder(region: Region): readonly Block[] {
    if (region.hasOneBlock) return [region.firstBlock!];
    return this.info(region).order;
  }

  /** The immediate dominator of reachable `block` (`null` for the entry or unreachable blocks). */
  getImmediateDominator(block: Block): Block | null {
    const r = block.parent;
    if (!r || r.hasOneBlock) return null;
    const d = this.info(r);
    const n = d.rpo.get(block);
    if (n === undefined || n === 0) return null;
    return d.order[d.idom[n]!] ?? null;
  }

  /** True when block `a` dominates block `b` (both in the same region, or `b` nested in it). */
  dominatesBlock(a: Block, b: Block): boolean {
    const r = a.parent;
    if (!r) return a === b;
    const bb = r.findAncestorBlockInRegion(b);
    if (!bb) return false;
    if (bb === a || r.hasOneBlock) return true;
    if (!DominanceInfo.hasSSADominance(r)) return true;
    return this.info(r).dominates(a, bb);
  }

  /**
   * True when `value` properly dominates `user`: its definition is visible at `user` (MLIR's
   * `DominanceInfo::properlyDominates(Value, Operation*)`). An op's result does not dominate
   * ops nested in that op.
   */
  properlyDominates(value: Value, user: Operation): boolean {
    const defOp = value.definingOp;
    if (defOp === null) {
      const defBlock = value.parentBlock!;
      const region = defBlock.parent;
      if (!region) return user.parent === defBlock;
      const ub = user.parent ? region.findAncestorBlockInRegion(user.parent) : null;
      if (!ub) return false;
      if (ub === defBlock || region.hasOneBlock) return ub === defBlock;
      if (!DominanceInfo.hasSSADominance(region)) return true;
      return this.info(region).dominates(defBlock, ub);
    }
    const region = defOp.parentRegion;
    if (!region) return false;
    const anc = region.findAncestorOpInRegion(user);
    if (!anc || anc === defOp) return false;
    if (!DominanceInfo.hasSSADominance(region)) return true;
    const db = defOp.parent!;
    const ab = anc.parent!;
    if (db === ab) return defOp.isBeforeInBlock(anc);
    return this.info(region).dominates(db, ab);
  }
}
