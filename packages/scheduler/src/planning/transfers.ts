/**
 * The communication a plan implies: for every consumer replica and every producer fragment it
 * reads, whether the fragment is local (same core: SSA forwarding) or must be transferred, and
 * in which round of the consumer it is first needed. Materialization, the estimate and the
 * placement's traffic matrix all read this one list.
 */
import { rankReductionMask } from '@raptor-pim/upstream-dialects';
import type { RankedTensorType } from '@raptor-pim/ir-core';
import { elementsOf, type Workload, type WorkloadInput } from '../analysis/workload';
import { boundingBox, type Box } from '../analysis/fragment-needs';
import { coreOfLane, lanesOfReplica, readsThroughHost, replicaOfLane, type SchedulePlan } from './schedule-plan';
import { addTraffic, type TrafficMatrix } from './placement';
import { intersectBoxes, runWindow as lanesBox, streamingWindows, windowBytes, windowRunsOf } from './windows';

/** One fragment a consumer replica reads. */
export interface FragmentRead {
  /** Producer node. */
  readonly producer: number;
  /** Producer result index. */
  readonly resultIndex: number;
  /** Producer slot (graph lane; 0 for a scalar producer); the first of `count` consecutive slots. */
  readonly slot: number;
  /**
   * Consecutive slots moved in one message (1 unless both ends work at layer granularity,
   * where a producer replica's run of slots goes as one slice of its partial result).
   */
  readonly count: number;
  /** Core the fragment is produced on. */
  readonly fromCore: number;
  /** Consumer core. */
  readonly toCore: number;
  /** Bytes of the fragment. */
  readonly bytes: number;
  /** First consumer round that reads it. */
  readonly round: number;
  /** For a whole value read through slices: the window transferred (bytes counts only it). */
  readonly box?: Box;
  /** With exact windows: the piece of the fragment transferred (bytes counts only it). */
  readonly piece?: FragmentPiece;
}

/** The part of one fragment an exact-window run reads (`NodePlacement.exactWindows`). */
export interface FragmentPiece {
  /** The piece in the consumer input's logical coordinates (where it goes in the run's window). */
  readonly box: Box;
  /** Its offsets over the fragment's own dimensions. */
  readonly offsets: readonly number[];
  /** Its sizes over the fragment's own dimensions. */
  readonly sizes: readonly number[];
}

/** The reads of one consumer input by one consumer replica. */
export interface ReplicaInputReads {
  /** Consumer node. */
  readonly consumer: number;
  /** Consumer replica (scheduled lane). */
  readonly replica: number;
  /** Index among the consumer's input operands. */
  readonly inputIndex: number;
  /** Index of the source among the input's sources (blueprint fragment operand). */
  readonly sourceIndex: number;
  /** The producer node of the source. */
  readonly producer: number;
  /** The producer result read. */
  readonly resultIndex: number;
  /** Reads from other cores, ordered by round then slot. */
  readonly remote: readonly FragmentRead[];
  /** True when some read slot is produced on the consumer's core (bind the producer result). */
  readonly hasLocal: boolean;
}

/** All reads of a plan, in consumer order (node, replica, input, source). */
export function planReads(workload: Workload, plan: SchedulePlan): ReplicaInputReads[] {
  const out: ReplicaInputReads[] = [];
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    for (let j = 0; j < pl.replicas; j++) {
      const toCore = pl.cores[j]!;
      n.inputs.forEach((input) => {
        // Streaming windows: each run of rounds receives what its own window needs (the same runs
        // and windows for every source of the input).
        const runs = pl.windows && pl.windowRounds !== undefined && input.window ? windowRunsOf(pl, n.lanes, j) : [lanesOfReplica(pl, n.lanes, j)];
        const runBoxes = pl.windows ? streamingWindows(n, input, pl, j) : undefined;
        input.sources.forEach((s, sourceIndex) => {
          const pp = plan.placements[s.producer]!;
          // Readers of a host slot load what its writer stored; channels move only what is read.
          const channel = !readsThroughHost(plan, s.producer);
          const remote: FragmentRead[] = [];
          let hasLocal = false;
          let firstRound = 0;
          // Streaming windows over a collection: a slot is received once; a later run's window
          // starts as a copy of the previous window's overlap, so the slot is received again only
          // where that copy does not cover what the run reads of it (`valid`: what of each received
          // slot the current window still holds).
          const regions = runs.length > 1 ? input.window?.regions[sourceIndex] : undefined;
          const valid = new Map<number, Box | undefined>();
          let previous: Box | undefined;
          // Exact windows: each run moves only what it reads of each fragment.
          const exact = pl.exactWindows === true && pl.windowRounds !== undefined && runBoxes !== undefined && workload.nodes[s.producer]!.isBatch && input.window?.regions[sourceIndex] !== undefined;
          const fragmentShape = exact ? (workload.nodes[s.producer]!.op.getResult(s.resultIndex).type as RankedTensorType).shape.slice(1) : [];
          for (const [g, runLanes] of runs.entries()) {
            const first = new Map<number, number>();
            const runBox = regions ? runBoxes?.[g] : undefined;
            // What the run's lanes read (the window without the parts later runs read).
            const readBox = runBox ? lanesBox(input, runLanes) : undefined;
            if (regions && previous) {
              const overlap = runBox ? intersectBoxes(previous, runBox) : undefined;
              for (const [slot, piece] of valid) valid.set(slot, piece && overlap ? intersectBoxes(piece, overlap) : undefined);
            }
            runLanes.forEach((lane, i) => {
              for (const slot of s.slotsPerLane[lane] ?? []) {
                if (first.has(slot)) continue;
                if (regions && runBox) {
                  // What the run reads of the slot must still be in the window; a slot received
                  // now fills the whole window's part of it.
                  const region = regions[slot];
                  const need = region && readBox ? intersectBoxes(region, readBox) : undefined;
                  if (valid.has(slot) && (!need || contains(valid.get(slot), need))) continue;
                  valid.set(slot, region ? intersectBoxes(region, runBox) : undefined);
                }
                first.set(slot, firstRound + i);
              }
            });
            previous = runBox;
            firstRound += runLanes.length;
            const slots = [...first.keys()].sort((a, b) => first.get(a)! - first.get(b)! || a - b);
            // A whole value read through slices: only the bounding box of this replica's (run's) reads moves.
            let box: Box | undefined;
            if (s.boxesPerLane && channel) {
              const boxes = runLanes.map((l) => s.boxesPerLane![l]);
              if (boxes.every((b) => b !== undefined)) box = boundingBox(boxes as Box[]);
            }
            const producer = workload.nodes[s.producer]!;
            const grouped = producer.isBatch && pl.granularity === 'layer' && pp.granularity === 'layer' && channel;
            // A replica holding only its window receives runs no larger than that window.
            const window = runBoxes?.[g];
            const maxCount = window ? Math.max(1, Math.floor(windowBytes(input, window) / Math.max(1, s.slotBytes))) : Infinity;
            // (An exact window is the run's read box itself.)
            const exactBox = exact ? window : undefined;
            if (grouped) slots.sort((a, b) => a - b);
            for (let k = 0; k < slots.length; k++) {
              const slot = slots[k]!;
              const fromCore = coreOfLane(pp, producer.lanes, slot);
              const selfHost = fromCore === toCore && pl.selfHostReads === true && !channel;
              if ((fromCore === toCore && !selfHost) || pp.mirrors?.includes(toCore)) {
                hasLocal = true;
                continue;
              }
              let count = 1;
              let round = first.get(slot)!;
              if (grouped) {
                // A run of consecutive slots of one producer replica goes as one message.
                const replica = replicaOfLane(pp, producer.lanes, slot);
                while (count < maxCount && k + 1 < slots.length && slots[k + 1] === slot + count && replicaOfLane(pp, producer.lanes, slots[k + 1]!) === replica) {
                  round = Math.min(round, first.get(slots[k + 1]!)!);
                  count++;
                  k++;
                }
              }
              const piece = exactBox ? pieceOf(input, sourceIndex, slot, exactBox, fragmentShape) : undefined;
              if (exactBox && !piece) continue;
              const bytes = piece
                ? windowBytes(input, piece.box)
                : box
                  ? (s.slotBytes / Math.max(1, totalOf(workload, s.producer, s.resultIndex))) * box.sizes.reduce((a, b) => a * b, 1)
                  : s.slotBytes * count;
              remote.push({ producer: s.producer, resultIndex: s.resultIndex, slot, count, fromCore, toCore, bytes, round, ...(box ? { box } : {}), ...(piece ? { piece } : {}) });
            }
          }
          out.push({ consumer: n.index, replica: j, inputIndex: input.inputIndex, sourceIndex, producer: s.producer, resultIndex: s.resultIndex, remote, hasLocal });
        });
      });
    }
  }
  return out;
}

/**
 * What the read box `read` of a run takes of slot `slot` of source `sourceIndex` of `input`, in
 * logical coordinates and over the fragment's dimensions (those of the slot's region that are
 * not rank-reduced away), or undefined when it takes nothing.
 */
function pieceOf(input: WorkloadInput, sourceIndex: number, slot: number, read: Box, fragmentShape: readonly number[]): FragmentPiece | undefined {
  const region = input.window!.regions[sourceIndex]![slot];
  const box = region ? intersectBoxes(region, read) : undefined;
  if (!region || !box) return undefined;
  const dropped = rankReductionMask(region.sizes, fragmentShape);
  if (!dropped) throw new Error(`planReads: a slot region ${region.sizes.join('x')} does not match its fragment ${fragmentShape.join('x')}`);
  const offsets: number[] = [];
  const sizes: number[] = [];
  box.offsets.forEach((o, d) => {
    if (dropped.has(d)) return;
    offsets.push(o - region.offsets[d]!);
    sizes.push(box.sizes[d]!);
  });
  return { box, offsets, sizes };
}

/** `reads` grouped by consumer replica (key `consumer:replica`), in their order. */
export function readsByConsumerReplica(reads: readonly ReplicaInputReads[]): Map<string, ReplicaInputReads[]> {
  const out = new Map<string, ReplicaInputReads[]>();
  for (const r of reads) {
    const k = `${r.consumer}:${r.replica}`;
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(r);
  }
  return out;
}

/** True when box `outer` contains box `inner`. */
function contains(outer: Box | undefined, inner: Box): boolean {
  if (!outer || outer.offsets.length !== inner.offsets.length) return false;
  return inner.offsets.every((o, d) => o >= outer.offsets[d]! && o + inner.sizes[d]! <= outer.offsets[d]! + outer.sizes[d]!);
}

/** Elements of a producer result. */
function totalOf(workload: Workload, producer: number, resultIndex: number): number {
  return elementsOf(workload.nodes[producer]!.op.getResult(resultIndex).type);
}

/** Bytes per inference between cores. */
export function trafficOf(reads: readonly ReplicaInputReads[]): TrafficMatrix {
  const m: TrafficMatrix = new Map();
  for (const r of reads) for (const f of r.remote) addTraffic(m, f.fromCore, f.toCore, f.bytes);
  return m;
}

/** The plan with every core id mapped through `physical`. */
export function remapPlan(plan: SchedulePlan, physical: readonly number[]): SchedulePlan {
  return {
    ...plan,
    placements: plan.placements.map((p) => ({ ...p, cores: p.cores.map((c) => physical[c]!), ...(p.mirrors ? { mirrors: p.mirrors.map((c) => physical[c]!) } : {}) })),
  };
}
