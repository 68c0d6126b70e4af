/**
 * Host memory in plans whose activations pass through host slots: the room the slots have (host
 * memory less what the graph's inputs, outputs and host constants take), the bytes the slots
 * keep live at once in node order, and the values a layer-after-layer plan keeps on chip where
 * its slots would not fit ({@link NodePlacement.onChip}).
 */
import { GraphComputeBatchOp, GraphComputeOp } from '@raptor-pim/spatial-dialect';
import { Traits, type Operation, type Value } from '@raptor-pim/ir-core';
import type { CostModel } from '@raptor-pim/pim-target';
import { byteSizeOfType, type Workload } from '../analysis/workload';
import { streamGroups, type NodePlacement } from './schedule-plan';

/**
 * Bytes of host memory the host slots may take: host memory less the graph's inputs and outputs
 * (the function's arguments and results) and the constants computes load from it (not the
 * crossbar weights), each aligned as local allocations are.
 */
export function hostSlotBudget(workload: Workload, cost: CostModel): number {
  const entry = workload.func.regions[0]?.firstBlock;
  const alignedBytes = (t: unknown): number => Math.ceil(byteSizeOfType(t) / cost.localAlignment) * cost.localAlignment;
  let reserved = 0;
  for (const a of entry?.arguments ?? []) reserved += alignedBytes(a.type);
  for (const v of entry?.terminator?.operands ?? []) reserved += alignedBytes(v.type);
  const hostConstants = new Set<Operation>();
  for (const n of workload.nodes) {
    const view = n.isBatch ? GraphComputeBatchOp.get(n.op) : GraphComputeOp.get(n.op);
    for (const v of view.inputs as readonly Value[]) {
      const def = v.definingOp;
      if (def && def.hasTrait(Traits.ConstantLike) && !hostConstants.has(def)) {
        hostConstants.add(def);
        reserved += alignedBytes(v.type);
      }
    }
  }
  return Math.max(0, cost.hostMemoryBytes - reserved);
}

/** The readers (graph computes) of every node, in node order. */
export function readersOfNodes(workload: Workload): number[][] {
  const readers = workload.nodes.map(() => [] as number[]);
  for (const n of workload.nodes) for (const p of new Set(n.inputs.flatMap((i) => i.sources.map((s) => s.producer)))) readers[p]!.push(n.index);
  return readers;
}

/** What {@link hostSlotPeak} finds. */
export interface HostSlotPeak {
  /** The most bytes the slots keep live at once. */
  readonly bytes: number;
  /** The nodes whose slots are live then (node order). */
  readonly live: readonly number[];
}

/**
 * The host slot bytes a layer-after-layer host plan keeps live at once, in node order: a node's
 * results (aligned) from the node to its last reader, where the nodes of a stream group (a node
 * kept on chip and its readers, {@link streamGroups}) all run at once. Nodes in `onChip` have no
 * slot. A lower bound of what materialization places (it may not share bytes between two slots
 * of one writer core).
 */
export function hostSlotPeak(workload: Workload, onChip: ReadonlySet<number>, cost: CostModel, readers: readonly (readonly number[])[] = readersOfNodes(workload)): HostSlotPeak {
  const placements = workload.nodes.map((n): Pick<NodePlacement, 'onChip'> => (onChip.has(n.index) ? { onChip: true } : {}));
  const groups = streamGroups({ placements: placements as NodePlacement[] }, (i) => readers[i]!);
  const count = workload.nodes.length;
  const delta = new Array<number>(count + 1).fill(0);
  const spans: { node: number; start: number; end: number }[] = [];
  for (const n of workload.nodes) {
    const rs = readers[n.index]!;
    if (onChip.has(n.index) || rs.length === 0) continue;
    const bytes = n.resultBytes.reduce((a, b) => a + Math.ceil(b / cost.localAlignment) * cost.localAlignment, 0);
    const start = groups.first[n.index]!;
    const end = Math.max(...rs.map((r) => groups.last[r]!));
    delta[start]! += bytes;
    delta[end + 1]! -= bytes;
    spans.push({ node: n.index, start, end });
  }
  let running = 0;
  let peak = 0;
  let at = -1;
  for (let i = 0; i < count; i++) {
    running += delta[i]!;
    if (running > peak) {
      peak = running;
      at = i;
    }
  }
  return { bytes: peak, live: spans.filter((s) => s.start <= at && at <= s.end).map((s) => s.node) };
}

/**
 * The nodes a layer-after-layer host plan keeps on chip so that its host slots fit: starting from
 * `keep`, while the slots live at the peak of the node-order model ({@link hostSlotPeak}) exceed
 * `budget` (default: the room, {@link hostSlotBudget}), the largest of them whose node may stream
 * into its readers (a lane batch whose results the host does not read, read only by lane
 * batches) is kept on chip. The model ignores what materialization saves (readers on a writer's
 * core take no slot) and what it cannot share (two slots of one writer core): callers scale
 * `budget` by what a materialized plan needed. Stops when no further node may stay on chip.
 */
export function valuesKeptOnChip(workload: Workload, cost: CostModel, options: { readonly budget?: number; readonly keep?: ReadonlySet<number> } = {}): Set<number> {
  const budget = options.budget ?? hostSlotBudget(workload, cost);
  const readers = readersOfNodes(workload);
  const bytesOf = (i: number): number => workload.nodes[i]!.resultBytes.reduce((a, b) => a + b, 0);
  const mayStream = (i: number): boolean => {
    const n = workload.nodes[i]!;
    return n.isBatch && !n.hostUse && readers[i]!.length > 0 && readers[i]!.every((r) => workload.nodes[r]!.isBatch);
  };
  const onChip = new Set<number>(options.keep ?? []);
  for (;;) {
    const peak = hostSlotPeak(workload, onChip, cost, readers);
    if (peak.bytes <= budget) return onChip;
    const next = peak.live.filter((i) => !onChip.has(i) && mayStream(i)).sort((a, b) => bytesOf(b) - bytesOf(a) || a - b)[0];
    if (next === undefined) return onChip;
    onChip.add(next);
  }
}

/** What {@link placeSharedSlots} needs of a host slot. */
export interface SharedSlot {
  /** The node writing the slot. */
  readonly producer: number;
  /** The core of the writer replica. */
  readonly writer: number;
  /** The reader instances; `consumer` is the reading node. */
  readonly readers: readonly { readonly consumer: number }[];
}

/** Host slot offsets that share bytes ({@link placeSharedSlots}). */
export interface SharedSlotPlacement {
  /** Each slot's byte offset (in the order of the slots given). */
  readonly offsets: number[];
  /** The bytes used: the largest offset plus size. */
  readonly peak: number;
  /** Pairs of slot indices (earlier writer first) whose bytes overlap. */
  readonly pairs: [number, number][];
}

/**
 * Offsets for host slots that share bytes where their lifetimes allow: a slot may take bytes of
 * another only when every reader of the other runs before its writer (in node order; nodes
 * streaming into one another count as one) and the two have different writers (the checker pairs
 * a load with its writer's store at that offset). Two placements are tried and the smaller kept
 * (the first on a tie): first fit in the order the writers run, and greedy by size (largest slot
 * first, each in the smallest gap between the slots it may not share bytes with that fits it, as
 * TFLite Micro's greedy planner). `groups` are the stream groups of the nodes ({@link streamGroups}).
 *
 * @example
 * // Two slots of node 0 on cores 0 and 1, both read by node 1; a slot of node 2 read by node 3:
 * // the last may take the bytes of either of the first two.
 * const slots = [{ producer: 0, writer: 0, readers: [{ consumer: 1 }] }, { producer: 0, writer: 1, readers: [{ consumer: 1 }] }, { producer: 2, writer: 2, readers: [{ consumer: 3 }] }];
 * placeSharedSlots(slots, () => 64, { first: [0, 1, 2, 3], last: [0, 1, 2, 3] }).peak; // 128
 */
export function placeSharedSlots<S extends SharedSlot>(
  slots: readonly S[],
  bytesOf: (s: S) => number,
  groups: { readonly first: readonly number[]; readonly last: readonly number[] },
): SharedSlotPlacement {
  const count = slots.length;
  const size = new Float64Array(count);
  // A slot's live span in node order (its writer's stream group's first node to its last
  // reader's group's last) and its writer, read many times per pair below.
  const from = new Int32Array(count);
  const until = new Int32Array(count);
  const writer = new Int32Array(count);
  slots.forEach((s, i) => {
    size[i] = bytesOf(s);
    from[i] = groups.first[s.producer]!;
    until[i] = groups.last[Math.max(...s.readers.map((r) => r.consumer))]!;
    writer[i] = s.writer;
  });
  const order = slots.map((_, i) => i).sort((a, b) => slots[a]!.producer - slots[b]!.producer || a - b);
  // Nodes that stream into one another (streamGroups) run side by side: a slot read in a group
  // is live until the group's last node, a slot written in one from the group's first.
  const compatible = (early: number, late: number): boolean => until[early]! < from[late]! && writer[early] !== writer[late];
  /** Places the slots in `sequence`, each at the gap `pick` chooses among the slots it conflicts with. */
  const place = (sequence: readonly number[], bestFit: boolean): { offsets: number[]; peak: number } => {
    const offsets = new Array<number>(count).fill(-1);
    // The slots placed so far by offset (then index): the ones a slot may not share bytes with
    // are visited in that order.
    const byOffset: number[] = [];
    let peak = 0;
    for (const i of sequence) {
      const bytes = size[i]!;
      let offset = 0;
      let best = -1;
      let bestGap = Number.POSITIVE_INFINITY;
      for (const j of byOffset) {
        if (compatible(j, i) || compatible(i, j)) continue;
        const gap = offsets[j]! - offset;
        if (gap >= bytes) {
          if (!bestFit) break;
          if (gap < bestGap) {
            best = offset;
            bestGap = gap;
          }
        }
        offset = Math.max(offset, offsets[j]! + size[j]!);
      }
      if (bestFit && best >= 0) offset = best;
      offsets[i] = offset;
      let lo = 0;
      let hi = byOffset.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const m = byOffset[mid]!;
        if (offsets[m]! < offset || (offsets[m] === offset && m < i)) lo = mid + 1;
        else hi = mid;
      }
      byOffset.splice(lo, 0, i);
      peak = Math.max(peak, offset + bytes);
    }
    return { offsets, peak };
  };
  const bySize = slots.map((_, i) => i).sort((a, b) => size[b]! - size[a]! || slots[a]!.producer - slots[b]!.producer || a - b);
  const inOrder = place(order, false);
  const greedy = place(bySize, true);
  const { offsets, peak } = greedy.peak < inOrder.peak ? greedy : inOrder;
  const pairs: [number, number][] = [];
  for (const i of order) {
    const oi = offsets[i]!;
    const ei = oi + size[i]!;
    for (const j of order) {
      if (j === i || !compatible(j, i)) continue;
      if (offsets[j]! < ei && oi < offsets[j]! + size[j]!) pairs.push([j, i]);
    }
  }
  return { offsets, peak, pairs };
}
