/**
 * The workload of a function for scheduling: its graph computes (`spat.graph_compute`,
 * `spat.graph_compute_batch`) as nodes with their resident weights and work per lane, and the
 * dataflow between them (directly or through a `spat.blueprint`) with the producer fragment
 * slots each consumer lane reads ({@link analyzeFragmentNeeds}).
 *
 * Built with the target's cost model (`new Workload(func, cost)`), so it is not created through
 * ir-core's analysis manager, which constructs analyses from the op alone.
 */
import {
  FuncOp,
  IntegerAttr,
  Operation,
  RankedTensorType,
  Traits,
  type Value,
} from '@raptor-pim/ir-core';
import {
  BlueprintOp,
  ConcatOp,
  ExtractRowsOp,
  GraphComputeBatchOp,
  GraphComputeOp,
  PLAN_OPS,
  WvmmOp,
  ELEMENTWISE_OPS,
} from '@raptor-pim/spatial-dialect';
import type { CostModel } from '@raptor-pim/pim-target';
import { analyzeFragmentNeeds, analyzeReadBoxes, sourceRegions, type Box } from './fragment-needs';

/** Bytes of a static shaped type (element bits rounded up to bytes), 0 when unknown. */
export function byteSizeOfType(t: unknown): number {
  if (!(t instanceof RankedTensorType) || t.shape.some((d) => d < 0)) return 0;
  const el = t.elementType as unknown as { width?: unknown };
  const bits = typeof el.width === 'number' ? el.width : 32;
  return elementsOf(t) * Math.ceil(bits / 8);
}

/** Elements of a static ranked tensor type, 0 otherwise. */
export function elementsOf(t: unknown): number {
  return t instanceof RankedTensorType && t.shape.every((d) => d >= 0) ? t.shape.reduce((a, b) => a * b, 1) : 0;
}

/** One producer result read by a consumer input, with the slots each consumer lane needs. */
export interface WorkloadSource {
  /** Index of the producing node. */
  readonly producer: number;
  /** Which result of the producer. */
  readonly resultIndex: number;
  /** Index of this source among the blueprint's fragment operands (0 without blueprint). */
  readonly viewOperand: number;
  /** Slots of the producer result each graph lane of the consumer reads (scalar producers: [0]). */
  readonly slotsPerLane: readonly (readonly number[])[];
  /** Bytes of one slot (scalar producers: the whole result). */
  readonly slotBytes: number;
  /**
   * Scalar producers read directly: the box each consumer lane reads (undefined: the whole
   * value), so only that window is transferred.
   */
  readonly boxesPerLane?: readonly (Box | undefined)[];
}

/**
 * What a batch consumer's lanes read of one logical input, when a replica can hold just the
 * window its lanes read instead of the whole value: every lane's reads are static slices
 * (`boxesPerLane`) and every source slot lands in the logical input as one box its fragment fills
 * whole (`regions`; see `sourceRegions`).
 */
export interface InputWindow {
  /** The logical input type (the bound argument's). */
  readonly logical: RankedTensorType;
  /** Bytes of one element of the logical input. */
  readonly elementBytes: number;
  /** The bounding box of what each graph lane reads. */
  readonly boxesPerLane: readonly Box[];
  /**
   * Per source, where each slot lands in the logical input; undefined for a scalar producer read
   * directly (its window is the lanes' boxes, sent or cut out of the whole value).
   */
  readonly regions: readonly ((readonly (Box | undefined)[]) | undefined)[];
}

/** One input binding of a consumer that comes from other graph computes. */
export interface WorkloadInput {
  /** Index of the bound value among the consumer's input operands. */
  readonly inputIndex: number;
  /** The blueprint between producers and consumer, when the input is a reconstruction. */
  readonly blueprint: Operation | null;
  /** The producer results read. */
  readonly sources: readonly WorkloadSource[];
  /** Set when replicas may hold only the window of this input their lanes read. */
  readonly window?: InputWindow;
}

/** A graph compute to place. */
export interface WorkloadNode {
  /** Position in program order. */
  readonly index: number;
  /** The graph compute. */
  readonly op: Operation;
  /** True for `spat.graph_compute_batch`. */
  readonly isBatch: boolean;
  /** Graph lanes (1 for a scalar compute). */
  readonly lanes: number;
  /**
   * Runs of consecutive lanes that compute chunks of a group of their own (`spat.lane_groups` of
   * a lane split, 1 otherwise): replica counts that are multiples of it keep each replica within
   * one group (replica planning prefers them).
   */
  readonly laneGroups: number;
  /** Name for reports: `#<index> <op name>` plus the source location. */
  readonly name: string;
  /** Crossbars of one copy of the node's resident weights (X). */
  readonly crossbars: number;
  /** Distinct weight tiles. */
  readonly weightTiles: number;
  /** Array-group MVM issues per lane (one per distinct wvmm input). */
  readonly mvmIssuesPerLane: number;
  /** Crossbar MVMs per lane (sum over wvmm ops of their crossbars). */
  readonly crossbarMvmsPerLane: number;
  /** Vector elements per lane (element-wise ops, partial sums, activations). */
  readonly vectorElementsPerLane: number;
  /** Estimated compute time of one lane on one core (MVM sequence + vector ops), ns. */
  readonly laneComputeNs: number;
  /** Vector-unit part of {@link WorkloadNode.laneComputeNs}, ns. */
  readonly laneVectorNs: number;
  /** Estimated time of one lane's transfers (receiving what it reads, sending what it publishes, one hop), ns. */
  readonly laneTransferNs: number;
  /** Bytes a lane publishes (all results, one fragment each). */
  readonly outputBytesPerLane: number;
  /** Estimated live local memory of one lane in bytes (inputs read + outputs + largest temporary). */
  readonly localBytesPerLane: number;
  /** Bytes of each result (the whole value; for a batch, the collection of every lane's fragment). */
  readonly resultBytes: readonly number[];
  /** Aligned bytes of the largest value a lane body computes (a temporary of one round). */
  readonly largestTemporaryBytes: number;
  /**
   * Aligned bytes loaded whole from host memory: constants, and for a scalar compute its graph
   * inputs (a batch lane reads slices of a graph input straight from host memory).
   */
  readonly hostDataBytes: number;
  /** True when some result is read outside the graph computes (a function result). */
  readonly hostUse: boolean;
  /** Inputs coming from other nodes. */
  readonly inputs: readonly WorkloadInput[];
  /** Bytes read from graph inputs (function arguments) per inference. */
  readonly hostInputBytes: number;
  /** Bytes of results returned by the function. */
  readonly hostOutputBytes: number;
}

/**
 * The discardable attribute a split batch with lane groups carries (`G`, an integer > 1): its
 * lanes form `G` equal runs of consecutive lanes, each the chunks `g * k / G ..` of every old
 * lane. A schedule whose replica count is a multiple of `G` gives each replica chunks of one
 * group only ({@link WorkloadNode.laneGroups}; set by `splitLanes`).
 */
export const LANE_GROUPS_ATTR = 'spat.lane_groups';

/** A reason the function cannot be scheduled, with the op to report it at. */
export interface WorkloadProblem {
  /** The op. */
  readonly op: Operation;
  /** What is wrong. */
  readonly message: string;
}

const ELEMENTWISE = new Set(ELEMENTWISE_OPS);
const PLANS = new Set(PLAN_OPS);

/** Descriptive name of an op for reports. */
export function describeNode(index: number, op: Operation): string {
  const loc = op.location as { name?: unknown; toString(): string };
  const name = typeof loc.name === 'string' ? loc.name : undefined;
  return name ? `#${index} ${name}` : `#${index} ${op.name}`;
}

/**
 * The scheduling workload of one `func.func`: nodes in program order and their dataflow.
 * Cost-dependent fields use `cost` (from the target).
 */
export class Workload {
  /** The nodes, in program order. */
  readonly nodes: WorkloadNode[] = [];
  /** Node of each graph compute. */
  readonly nodeOf = new Map<Operation, WorkloadNode>();
  /** Ops the scheduler cannot handle (unlowered plans, unsupported forms). */
  readonly problems: WorkloadProblem[] = [];

  constructor(
    /** The function. */
    readonly func: Operation,
    cost: CostModel,
  ) {
    const body = func.regions[0]?.firstBlock;
    if (!body || !FuncOp.isInstance(func)) return;
    const ops = body.operations;
    const index = new Map<Operation, number>();
    for (const op of ops) {
      if (op.definition && PLANS.has(op.definition)) this.problems.push({ op, message: 'plan' });
      if (GraphComputeOp.isInstance(op) || GraphComputeBatchOp.isInstance(op)) index.set(op, index.size);
    }
    const returned = new Set<Value>(body.terminator ? body.terminator.operands : []);
    for (const op of ops) {
      const i = index.get(op);
      if (i === undefined) continue;
      const node = buildNode(i, op, index, returned, cost, this.problems);
      this.nodes.push(node);
      this.nodeOf.set(op, node);
    }
  }

  /** Sum of crossbars of one copy of every node's weights. */
  get crossbars(): number {
    return this.nodes.reduce((a, n) => a + n.crossbars, 0);
  }

  /** The node with most crossbars per copy. */
  get largestNode(): WorkloadNode | undefined {
    let best: WorkloadNode | undefined;
    for (const n of this.nodes) if (!best || n.crossbars > best.crossbars) best = n;
    return best;
  }
}

function buildNode(
  index: number,
  op: Operation,
  nodeIndex: ReadonlyMap<Operation, number>,
  returned: ReadonlySet<Value>,
  cost: CostModel,
  problems: WorkloadProblem[],
): WorkloadNode {
  const isBatch = GraphComputeBatchOp.isInstance(op);
  const lanes = isBatch ? Number(GraphComputeBatchOp.get(op).laneCount.value) : 1;
  const view = isBatch ? GraphComputeBatchOp.get(op) : GraphComputeOp.get(op);
  const weights = view.weights as readonly Value[];
  const inputs = view.inputs as readonly Value[];
  const entry = op.regions[0]!.firstBlock!;
  const firstWeightArg = isBatch ? 1 : 0;
  const firstInputArg = firstWeightArg + weights.length;

  // Weights, MVMs and vector work of one lane.
  const tileCrossbars = new Map<Value, number>();
  const mvmInputs = new Set<Value>();
  let crossbarMvms = 0;
  let vectorElements = 0;
  let vectorNs = 0;
  let largestTemporary = 0;
  op.regions[0]!.walk((o: Operation) => {
    for (const r of o.results) largestTemporary = Math.max(largestTemporary, byteSizeOfType(r.type));
    if (WvmmOp.isInstance(o)) {
      const w = o.getOperand(0);
      const t = w.type;
      let x = 0;
      if (t instanceof RankedTensorType && t.shape.length === 2) {
        x = Math.ceil(t.shape[0]! / cost.crossbarRows) * Math.ceil(t.shape[1]! / cost.crossbarCols);
      }
      tileCrossbars.set(w, x);
      crossbarMvms += x;
      mvmInputs.add(o.getOperand(1));
      return;
    }
    if (o.definition && ELEMENTWISE.has(o.definition) && !ConcatOp.isInstance(o) && !ExtractRowsOp.isInstance(o)) {
      const n = o.numResults ? elementsOf(o.getResult(0).type) : 0;
      vectorElements += n;
      vectorNs += cost.vectorNs(n);
    }
  });
  let crossbars = 0;
  for (const x of tileCrossbars.values()) crossbars += x;

  // Outputs: one fragment per lane per result.
  let outputBytesPerLane = 0;
  let hostOutputBytes = 0;
  for (const r of op.results) {
    const b = byteSizeOfType(r.type);
    outputBytesPerLane += isBatch ? b / lanes : b;
    if (returned.has(r)) hostOutputBytes += b;
  }

  // Inputs from other nodes, directly or through a blueprint.
  const nodeInputs: WorkloadInput[] = [];
  let hostInputBytes = 0;
  let hostDataBytes = 0;
  let inputBytesPerLane = 0;
  for (let k = 0; k < inputs.length; k++) {
    const v = inputs[k]!;
    const arg = entry.arguments[firstInputArg + k]!;
    const def = v.definingOp;
    const lane = isBatch ? entry.arguments[0]! : undefined;
    const producerIndex = def ? nodeIndex.get(def) : undefined;
    if (def && producerIndex !== undefined) {
      const resultIndex = def.results.indexOf(v as never);
      const producerLanes = GraphComputeBatchOp.isInstance(def) ? Number(GraphComputeBatchOp.get(def).laneCount.value) : 1;
      const needs = analyzeFragmentNeeds(arg, lane, lanes, producerLanes > 1 || GraphComputeBatchOp.isInstance(def) ? v.type : undefined, null);
      const isBatchProducer = GraphComputeBatchOp.isInstance(def);
      const slotBytes = isBatchProducer ? byteSizeOfType(v.type) / producerLanes : byteSizeOfType(v.type);
      const boxesPerLane = isBatchProducer ? undefined : analyzeReadBoxes(arg, lane, lanes);
      const window = isBatch ? inputWindow(arg, lane, lanes, [isBatchProducer ? sourceRegions(v.type, null, 0) : undefined], [isBatchProducer]) : undefined;
      nodeInputs.push({
        inputIndex: k,
        blueprint: null,
        sources: [{ producer: producerIndex, resultIndex, viewOperand: 0, slotsPerLane: needs[0]!, slotBytes, ...(boxesPerLane ? { boxesPerLane } : {}) }],
        ...(window ? { window } : {}),
      });
      inputBytesPerLane += maxNeeded(needs[0]!) * slotBytes;
      continue;
    }
    if (def && BlueprintOp.isInstance(def) && def.operands.every((f) => f.definingOp && nodeIndex.has(f.definingOp))) {
      const needs = analyzeFragmentNeeds(arg, lane, lanes, undefined, def);
      const sources: WorkloadSource[] = def.operands.map((f, j) => {
        const p = f.definingOp!;
        const pl = GraphComputeBatchOp.isInstance(p) ? Number(GraphComputeBatchOp.get(p).laneCount.value) : 1;
        return {
          producer: nodeIndex.get(p)!,
          resultIndex: p.results.indexOf(f as never),
          viewOperand: j,
          slotsPerLane: needs[j]!,
          slotBytes: GraphComputeBatchOp.isInstance(p) ? byteSizeOfType(f.type) / pl : byteSizeOfType(f.type),
        };
      });
      for (const s of sources) inputBytesPerLane += maxNeeded(s.slotsPerLane) * s.slotBytes;
      const window = isBatch ? inputWindow(arg, lane, lanes, def.operands.map((f, j) => sourceRegions(f.type, def, j)), def.operands.map(() => true)) : undefined;
      nodeInputs.push({ inputIndex: k, blueprint: def, sources, ...(window ? { window } : {}) });
      continue;
    }
    // Constants are loaded whole; a batch lane reads the slices it uses of a graph input straight
    // from host memory (round temporaries), a scalar compute loads the whole input.
    if (def || !isBatch) hostDataBytes += align(byteSizeOfType(v.type), cost.localAlignment);
    if (def && def.hasTrait(Traits.ConstantLike)) continue;
    if (!def) hostInputBytes += byteSizeOfType(v.type);
    else problems.push({ op: def, message: 'host-op' });
    inputBytesPerLane += byteSizeOfType(v.type);
  }
  const localBytesPerLane = align(inputBytesPerLane, cost.localAlignment) + align(outputBytesPerLane, cost.localAlignment) + 2 * align(largestTemporary, cost.localAlignment);
  return {
    index,
    op,
    isBatch,
    lanes,
    laneGroups: laneGroupsOf(op, lanes),
    name: describeNode(index, op),
    crossbars,
    weightTiles: tileCrossbars.size,
    mvmIssuesPerLane: mvmInputs.size,
    crossbarMvmsPerLane: crossbarMvms,
    vectorElementsPerLane: vectorElements,
    laneComputeNs: cost.mvmSequenceNs(mvmInputs.size) + vectorNs,
    laneVectorNs: vectorNs,
    laneTransferNs: cost.transferNs(inputBytesPerLane - hostInputBytes / lanes, 0, 1) + cost.transferNs(outputBytesPerLane, 0, 1),
    outputBytesPerLane,
    localBytesPerLane,
    resultBytes: op.results.map((r) => byteSizeOfType(r.type)),
    largestTemporaryBytes: align(largestTemporary, cost.localAlignment),
    hostDataBytes,
    hostUse: op.results.some((r) => r.users.some((u) => !nodeIndex.has(u) && !(BlueprintOp.isInstance(u) && u.getResult(0).users.every((x) => nodeIndex.has(x))))),
    inputs: nodeInputs,
    hostInputBytes,
    hostOutputBytes,
  };
}

/**
 * The {@link InputWindow} of a batch input bound to `arg`, or undefined when some lane's reads are
 * not static slices or some collection source has no regions (`collections[k]`: source k is a
 * fragment collection, else a scalar producer read directly).
 */
function inputWindow(
  arg: Value,
  lane: Value | undefined,
  lanes: number,
  regions: readonly ((readonly (Box | undefined)[]) | undefined)[],
  collections: readonly boolean[],
): InputWindow | undefined {
  const logical = arg.type;
  if (!(logical instanceof RankedTensorType) || logical.shape.some((d) => d < 0)) return undefined;
  if (regions.some((r, k) => collections[k] && !r)) return undefined;
  // Materialization rebases the reads it clones op by op: only reads in the body's own block.
  if (arg.uses.some((u) => u.owner.parent !== arg.parentBlock)) return undefined;
  const boxes = analyzeReadBoxes(arg, lane, lanes);
  if (boxes.some((b) => !b)) return undefined;
  const elementBytes = byteSizeOfType(logical) / Math.max(1, elementsOf(logical));
  return { logical, elementBytes, boxesPerLane: boxes as Box[], regions };
}

/** The lane groups a split batch records ({@link WorkloadNode.laneGroups}); 1 when absent or not a divisor of `lanes`. */
function laneGroupsOf(op: Operation, lanes: number): number {
  const a = op.getAttr(LANE_GROUPS_ATTR);
  const g = a instanceof IntegerAttr ? Number(a.value) : 1;
  return Number.isInteger(g) && g > 1 && lanes % g === 0 ? g : 1;
}

function maxNeeded(perLane: readonly (readonly number[])[]): number {
  let m = 0;
  for (const s of perLane) m = Math.max(m, s.length);
  return m;
}

function align(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}
