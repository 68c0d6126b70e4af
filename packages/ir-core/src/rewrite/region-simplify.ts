import type { Block } from '../ir/block';
import type { Region } from '../ir/region';
import type { RewriterBase } from './rewriter';

/**
 * Erases the blocks of `regions` (and of regions nested in their reachable blocks) that cannot
 * be reached from their region's entry block (MLIR's `eraseUnreachableBlocks`). Iterative.
 * Returns whether anything was erased.
 */
export function eraseUnreachableBlocks(rewriter: RewriterBase, regions: readonly Region[]): boolean {
  let changed = false;
  const work: Region[] = [...regions];
  while (work.length > 0) {
    const region = work.pop()!;
    const entry = region.firstBlock;
    if (!entry) continue;
    if (region.hasOneBlock) {
      for (let o = entry.firstOp; o; o = o.next) for (const r of o.regions) work.push(r);
      continue;
    }
    const reachable = new Set<Block>([entry]);
    const stack: Block[] = [entry];
    while (stack.length > 0) {
      const b = stack.pop()!;
      const t = b.lastOp;
      if (!t) continue;
      for (let i = 0; i < t.numSuccessors; i++) {
        const s = t.getSuccessor(i);
        if (s.parent === region && !reachable.has(s)) {
          reachable.add(s);
          stack.push(s);
        }
      }
    }
    const dead: Block[] = [];
    for (let b = region.firstBlock; b; b = b.next) {
      if (!reachable.has(b)) dead.push(b);
      else for (let o = b.firstOp; o; o = o.next) for (const r of o.regions) work.push(r);
    }
    if (dead.length === 0) continue;
    changed = true;
    for (const b of dead) b.dropAllReferences();
    for (const b of dead) {
      for (const a of b.arguments) a.dropAllUses();
      for (let o = b.firstOp; o; o = o.next) for (const r of o.results) r.dropAllUses();
      rewriter.eraseBlock(b);
    }
  }
  return changed;
}
