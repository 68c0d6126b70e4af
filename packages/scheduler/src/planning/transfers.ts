/**
 * The communication a plan implies: for every consumer replica and every producer fragment it
 * reads, whether the fragment is local (same core: SSA forwarding) or must be transferred, and
 * in which round of the consumer it is first needed. Materialization, the estimate and the
 * placement's traffic matrix all read this one list.
 */
import { elementsOf, type Workload } from '../analysis/workload';
import { boundingBox, type Box } from '../analysis/fragment-needs';
import { coreOfLane, lanesOfReplica, replicaOfLane, type SchedulePlan } from './schedule-plan';
import { addTraffic, type TrafficMatrix } from './placement';
import { replicaWindow, windowBytes } from './windows';

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
        input.sources.forEach((s, sourceIndex) => {
          const pp = plan.placements[s.producer]!;
          const first = new Map<number, number>();
          lanesOfReplica(pl, n.lanes, j).forEach((lane, round) => {
            for (const slot of s.slotsPerLane[lane] ?? []) if (!first.has(slot)) first.set(slot, round);
          });
          const remote: FragmentRead[] = [];
          let hasLocal = false;
          const slots = [...first.keys()].sort((a, b) => first.get(a)! - first.get(b)! || a - b);
          // A whole value read through slices: only the bounding box of this replica's reads moves.
          let box: Box | undefined;
          if (s.boxesPerLane && plan.transfer === 'channel') {
            const boxes = lanesOfReplica(pl, n.lanes, j).map((l) => s.boxesPerLane![l]);
            if (boxes.every((b) => b !== undefined)) box = boundingBox(boxes as Box[]);
          }
          const producer = workload.nodes[s.producer]!;
          const grouped = producer.isBatch && pl.granularity === 'layer' && pp.granularity === 'layer' && plan.transfer === 'channel';
          // A replica holding only its window receives runs no larger than that window.
          const window = pl.windows ? replicaWindow(n, input, pl.replicas, j) : undefined;
          const maxCount = window ? Math.max(1, Math.floor(windowBytes(input, window) / Math.max(1, s.slotBytes))) : Infinity;
          if (grouped) slots.sort((a, b) => a - b);
          for (let k = 0; k < slots.length; k++) {
            const slot = slots[k]!;
            const fromCore = coreOfLane(pp, producer.lanes, slot);
            if (fromCore === toCore || pp.mirrors?.includes(toCore)) {
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
            const bytes = box ? (s.slotBytes / Math.max(1, totalOf(workload, s.producer, s.resultIndex))) * box.sizes.reduce((a, b) => a * b, 1) : s.slotBytes * count;
            remote.push({ producer: s.producer, resultIndex: s.resultIndex, slot, count, fromCore, toCore, bytes, round, ...(box ? { box } : {}) });
          }
          out.push({ consumer: n.index, replica: j, inputIndex: input.inputIndex, sourceIndex, producer: s.producer, resultIndex: s.resultIndex, remote, hasLocal });
        });
      });
    }
  }
  return out;
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
