import { Block } from './block';
import type { IRMapping } from './ir-mapping';
import { Operation } from './operation';
import type { Region } from './region';
import type { Value } from './value';

/** Options of {@link Operation.clone}. */
export interface CloneOptions {
  /** Clone region contents (default true); otherwise the copy gets empty regions. */
  cloneRegions?: boolean;
}

/** Copies `op` without operands, successors or region contents; maps its results. */
function shallowCopy(op: Operation, mapping: IRMapping): Operation {
  const copy = Operation.create({
    context: op.context,
    name: op.name,
    location: op.location,
    resultTypes: op.resultTypes,
    properties: op.properties,
    attributes: op.attributes,
    regions: op.numRegions,
  });
  const rs = op.results;
  for (let i = 0; i < rs.length; i++) mapping.map(rs[i]!, copy.results[i]!);
  mapping.mapOp(op, copy);
  return copy;
}

/**
 * Clones the blocks of every (source, destination) region pair on `work`, and the ops in
 * them, queueing nested regions (explicit worklist, no recursion). Every (original, copy) op
 * pair is appended to `pairs`; operands and successors are set afterwards by
 * {@link remapOperands}, so forward references (graph regions, later blocks) resolve.
 */
function cloneRegions(
  work: { src: Region; dest: Region; before: Block | null }[],
  mapping: IRMapping,
  pairs: Operation[],
): void {
  while (work.length > 0) {
    const { src, dest, before } = work.pop()!;
    for (let b = src.firstBlock; b; b = b.next) {
      const nb = new Block();
      for (const a of b.arguments) mapping.map(a, nb.addArgument(a.type, a.loc));
      mapping.mapBlock(b, nb);
      dest.insertBefore(nb, before);
    }
    for (let b = src.firstBlock; b; b = b.next) {
      const nb = mapping.lookupBlockOrNull(b)!;
      for (let o = b.firstOp; o; o = o.next) {
        const c = shallowCopy(o, mapping);
        nb.push(c);
        pairs.push(o, c);
        for (let i = 0; i < o.regions.length; i++) {
          work.push({ src: o.regions[i]!, dest: c.regions[i]!, before: null });
        }
      }
    }
  }
}

/** Sets operands and successors of each copy in `pairs` from its original, through `mapping`. */
function remapOperands(pairs: Operation[], mapping: IRMapping): void {
  const vals: Value[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const orig = pairs[i]!;
    const copy = pairs[i + 1]!;
    const n = orig.numOperands;
    vals.length = n;
    for (let k = 0; k < n; k++) vals[k] = mapping.lookupOrDefault(orig.getOperand(k));
    copy.setOperands(vals);
    const ns = orig.numSuccessors;
    if (ns > 0) {
      const blocks: Block[] = new Array(ns);
      for (let k = 0; k < ns; k++) blocks[k] = mapping.lookupBlockOrDefault(orig.getSuccessor(k));
      copy.setSuccessorsInternal(blocks);
    }
  }
}

/** Implements {@link Operation.clone}. */
export function cloneOperation(op: Operation, mapping: IRMapping, options?: CloneOptions): Operation {
  const copy = shallowCopy(op, mapping);
  const pairs: Operation[] = [op, copy];
  if (options?.cloneRegions !== false && op.numRegions > 0) {
    const work = op.regions.map((r, i) => ({ src: r, dest: copy.regions[i]!, before: null }));
    cloneRegions(work, mapping, pairs);
  }
  remapOperands(pairs, mapping);
  return copy;
}

/** Implements {@link Region.cloneInto}. */
export function cloneRegionInto(src: Region, dest: Region, before: Block | null, mapping: IRMapping): void {
  const pairs: Operation[] = [];
  cloneRegions([{ src, dest, before }], mapping, pairs);
  remapOperands(pairs, mapping);
}
