/**
 * `spat-split-input-channels`: splits a weighted graph compute whose input window is too large
 * for a core's local memory into parts over disjoint input-channel ranges, plus one weightless
 * reduction compute that adds the parts' partial sums.
 *
 * A convolution lane over padded NHWC rows reads `kh` rows of the whole padded row width and of
 * every input channel: a streamed replica keeps the previous and the next such line buffer
 * (resnet18's 3x3x512 convolutions: 2 x 55 KiB, more than a core's 64 KiB). Plan lowering reads
 * each crossbar row tile straight from the padded rows, so a tile reads one channel range of one
 * kernel tap. When those ranges are disjoint and of one size (the input channels a multiple of
 * the crossbar rows), the row tiles are grouped into `s` contiguous channel groups and:
 *
 * - part `p` is a graph compute with the same lanes, only the weight tiles of its rows and the
 *   reads of its channels; per accumulation chain (output column block) it sums its own tiles'
 *   products and publishes the concatenation, the lane's partial sums (a collection
 *   `[lanes, ...columns]`, as the original);
 * - the reduction has the same lanes and result as the original compute: it adds the parts'
 *   partial sums of its lane (`spat.vadd`), applies the column-wise ops that followed the
 *   concatenation (bias, ReLU, ...) and publishes the lane as before; it replaces the original.
 *
 * ```
 * before:  conv [144 xbars, reads rows x 9 x 512]                             --> relu
 * after:   part 0 [36 xbars, reads channels   0..127] --\
 *          part 1 [36 xbars, reads channels 128..255] ---> reduce (sum + bias) --> relu
 *          part 2 ... part 3                          --/
 * ```
 *
 * A part's window holds its channels only (`1/s` of the line buffer). The split is chosen from
 * the target: the smallest `s` (a divisor of the number of channel ranges) whose streamed window
 * (two line buffers) fits half a core's local memory, else the largest possible. A compute of
 * more crossbars than a core that publishes one chain (plan lowering's column groups: one
 * weight, one array group, per row tile, so no column split exists) is split too, by the
 * smallest `s` that also brings each part within a core's crossbars. Computes of
 * other forms are left alone: the split only makes windows smaller, the scheduler's memory model
 * still decides whether everything fits. Partial sums are added in another order than in one
 * accumulation chain (float rounding may differ in the last bits).
 *
 * Channel blocks (plan lowering's form of a grouped convolution whose window is too large: each
 * accumulation chain reads its own channel range, no sum across chains) are split by columns
 * instead ({@link planChannelBlockSplit}): the fewest contiguous groups of chains whose windows fit
 * half a core become column parts, joined by a fragment assembly as
 * `spat-split-oversized-computes` joins its parts (no reduction compute).
 *
 * The driver of the built-in strategies runs it before `spat-split-oversized-computes`; as a pass:
 * `raptor opt --pass-pipeline='builtin.module(spat-split-input-channels)'`.
 */
import {
  DYNAMIC,
  IRMapping,
  IndexType,
  IntegerAttr,
  IntegerType,
  Pass,
  RankedTensorType,
  type Operation,
  type PatternRewriter,
  type Value,
} from '@raptor-pim/ir-core';
import { ConcatOp, GraphComputeBatchOp, GraphComputeOp, InParallelOp, VaddOp, WvmmOp, YieldOp } from '@raptor-pim/spatial-dialect';
import { ExtractSliceOp, TensorCollapseShapeOp, TensorExpandShapeOp, createExtractSlice, createParallelInsertSlice, readSliceLists } from '@raptor-pim/upstream-dialects';
import { createCostModel, type CostModel } from '@raptor-pim/pim-target';
import { targetOf } from '../target';
import { byteSizeOfType } from '../analysis/workload';
import { divisors } from '../planning/schedule-plan';
import { applyPlannedComputeRewrites } from './planned-rewrites';
import {
  bodyShape,
  buildPartCompute,
  columnForm,
  coneOf,
  crossbarsOfCompute,
  crossbarsOfOps,
  sideRootsOf,
  splitLimitsOf,
  splitOversizedComputes,
  splittableColumnForm,
  type BodyShape,
  type ColumnForm,
  type ComputeSplitPart,
  type ComputeSplitPlan,
} from './split-oversized-computes';
import { functionsOf } from '../analysis/functions';

/** One product of an accumulation chain: `spat.wvmm` of a weight tile and a row-tile read. */
interface ChainLeaf {
  readonly wvmm: Operation;
  /** The row-tile read (`tensor.extract_slice` of an input argument). */
  readonly read: Value;
}

/** How one graph compute is split over its input channels ({@link planInputChannelSplits}). */
export interface InputChannelSplitPlan {
  /** The graph compute. */
  readonly op: Operation;
  /** The input channel range `[from, to)` of every part, in order. */
  readonly channels: readonly (readonly [number, number])[];
  /** Bytes of the streamed window (two line buffers) of the whole compute, per lane run (a part's: this over the parts). */
  readonly windowBytes: number;
}

/** The leaves of the `spat.vadd` tree of `root` (a chain), or undefined when it is not a sum of products. */
function chainLeaves(root: Value, shape: BodyShape): ChainLeaf[] | undefined {
  const leaves: ChainLeaf[] = [];
  const visit = (v: Value): boolean => {
    const def = v.definingOp;
    if (!def || def.parent !== shape.entry) return false;
    if (WvmmOp.isInstance(def)) {
      leaves.push({ wvmm: def, read: def.getOperand(1) });
      return true;
    }
    if (VaddOp.isInstance(def) && def.getResult(0).users.length === 1) return visit(def.getOperand(0)) && visit(def.getOperand(1));
    return false;
  };
  return visit(root) ? leaves : undefined;
}

/**
 * What one row-tile read takes of an input argument: the argument, the row key, the rows from it
 * and the channel range (last dimension).
 */
interface TileRead {
  readonly arg: Value;
  readonly row: Value | number;
  readonly rows: number;
  readonly from: number;
  readonly to: number;
}

/**
 * The read of `read`: a slice of an input argument, or a reshape of one (a window of several
 * rows and taps collapsed into one crossbar row tile: plan lowering's channel blocks).
 */
function tileRead(read: Value, shape: BodyShape): TileRead | undefined {
  let def = read.definingOp;
  while (def && def.parent === shape.entry && (TensorCollapseShapeOp.isInstance(def) || TensorExpandShapeOp.isInstance(def))) def = def.getOperand(0).definingOp;
  if (!def || !ExtractSliceOp.isInstance(def) || def.parent !== shape.entry) return undefined;
  const source = def.getOperand(0);
  if (!shape.inputs.some((x) => x.arg === source)) return undefined;
  const lists = readSliceLists(def);
  const last = lists.offsets.length - 1;
  if (last < 1 || lists.offsets[last] === DYNAMIC || lists.sizes[last] === DYNAMIC || lists.strides[last] !== 1) return undefined;
  const row = lists.offsets[0] === DYNAMIC ? def.getOperand(1) : lists.offsets[0]!;
  const rows = lists.sizes[0] === DYNAMIC ? 1 : lists.sizes[0]!;
  return { arg: source, row, rows, from: lists.offsets[last]!, to: lists.offsets[last]! + lists.sizes[last]! };
}

/**
 * Bytes of the streamed window (two line buffers) of the reads `all` of one input argument: the
 * rows they read (per row key its most rows) times a row slot of the argument.
 */
function streamedWindowBytes(all: readonly TileRead[]): number | undefined {
  const type = all[0]?.arg.type;
  if (!(type instanceof RankedTensorType) || type.shape.some((d) => d < 0)) return undefined;
  const rowBytes = byteSizeOfType(type) / type.shape[0]!;
  const rowsByKey = new Map<Value | number, number>();
  for (const r of all) rowsByKey.set(r.row, Math.max(rowsByKey.get(r.row) ?? 0, r.rows));
  let rows = 0;
  for (const n of rowsByKey.values()) rows += n;
  return 2 * rows * rowBytes;
}

/** The channel split of `op` for `cost`, or undefined when it has no such form or needs none. Changes nothing. */
export function planInputChannelSplit(op: Operation, cost: CostModel): InputChannelSplitPlan | undefined {
  const limits = splitLimitsOf(cost);
  const splittable = splittableColumnForm(op, limits);
  if (typeof splittable === 'string') return undefined;
  const { shape, form } = splittable;
  const chains: ChainLeaf[][] = [];
  for (const c of form.concat.operands) {
    const leaves = chainLeaves(c, shape);
    if (!leaves) return undefined;
    chains.push(leaves);
  }
  const reads = new Map<Value, TileRead>();
  for (const leaf of chains.flat()) {
    const r = tileRead(leaf.read, shape);
    if (!r) return undefined;
    reads.set(leaf.read, r);
  }
  const all = [...reads.values()];
  const arg = all[0]?.arg;
  if (!arg || all.some((r) => r.arg !== arg)) return undefined;
  // Disjoint channel ranges of one size.
  const ranges = [...new Map(all.map((r) => [`${r.from}:${r.to}`, [r.from, r.to] as const])).values()].sort((a, b) => a[0] - b[0]);
  const width = ranges[0]![1] - ranges[0]![0];
  if (ranges.length < 2 || ranges.some((r, i) => r[1] - r[0] !== width || (i > 0 && r[0] < ranges[i - 1]![1]))) return undefined;
  const windowBytes = streamedWindowBytes(all);
  if (windowBytes === undefined) return undefined;
  const budget = cost.localMemoryBytes / 2;
  // A compute of more crossbars than a core whose chains cannot be cut by columns (one chain of
  // column-grouped weights, one array group per row tile) must be cut by channels.
  const crossbars = crossbarsOfCompute(op, limits);
  const oversizedChain = crossbars > limits.crossbarsPerCore && chains.length === 1;
  if (windowBytes <= budget && !oversizedChain) return undefined;
  const options = divisors(ranges.length).filter((d) => d > 1);
  const fits = (d: number): boolean => windowBytes / d <= budget && (!oversizedChain || crossbars / d <= limits.crossbarsPerCore);
  const s = options.find(fits) ?? options[options.length - 1];
  if (s === undefined) return undefined;
  const per = ranges.length / s;
  const channels = Array.from({ length: s }, (_, p) => [ranges[p * per]![0], ranges[p * per + per - 1]![1]] as const);
  // Every chain needs a product in every part (no part publishes a zero column block).
  const inPart = (leaf: ChainLeaf, p: number): boolean => {
    const r = reads.get(leaf.read)!;
    return r.from >= channels[p]![0] && r.to <= channels[p]![1];
  };
  if (chains.some((leaves) => channels.some((_, p) => !leaves.some((l) => inPart(l, p))))) return undefined;
  return { op, channels, windowBytes };
}

/**
 * The column split of `op` by channel blocks for `cost`, or undefined when it has no such form or
 * needs none: each accumulation chain reads its own channel range of one input argument (plan
 * lowering's channel blocks of a grouped convolution: no sum across chains), the ranges in chain
 * order, and the streamed window of all of them exceeds half a core's local memory. The chains
 * are grouped into the fewest contiguous parts whose windows (their channels' share) fit that
 * budget (a chain alone may not); each part publishes its columns and a fragment assembly joins
 * them, as {@link applyComputeSplit} does for oversized computes. Changes nothing.
 */
export function planChannelBlockSplit(op: Operation, cost: CostModel): ComputeSplitPlan | undefined {
  const limits = splitLimitsOf(cost);
  const splittable = splittableColumnForm(op, limits);
  if (typeof splittable === 'string') return undefined;
  const { shape, form } = splittable;
  const chains = form.concat.operands;
  if (chains.length < 2) return undefined;
  const ranges: (readonly [number, number])[] = [];
  const all: TileRead[] = [];
  for (const c of chains) {
    const leaves = chainLeaves(c, shape);
    if (!leaves) return undefined;
    const reads = leaves.map((l) => tileRead(l.read, shape));
    if (reads.some((r) => r === undefined)) return undefined;
    const own = reads as TileRead[];
    all.push(...own);
    ranges.push([Math.min(...own.map((r) => r.from)), Math.max(...own.map((r) => r.to))]);
  }
  const arg = all[0]!.arg;
  if (all.some((r) => r.arg !== arg) || ranges.some((r, i) => i > 0 && r[0] < ranges[i - 1]![1])) return undefined;
  const windowBytes = streamedWindowBytes(all);
  const channels = (arg.type as RankedTensorType).shape.at(-1)!;
  const budget = cost.localMemoryBytes / 2;
  if (windowBytes === undefined || windowBytes <= budget) return undefined;
  const windowOf = (from: number, to: number): number => (windowBytes * (to - from)) / channels;
  const groups: number[][] = [];
  for (let j = 0; j < chains.length; j++) {
    const current = groups[groups.length - 1];
    if (current && windowOf(ranges[current[0]!]![0], ranges[j]![1]) <= budget) current.push(j);
    else groups.push([j]);
  }
  if (groups.length < 2) return undefined;
  const widths = chains.map((c) => (c.type as RankedTensorType).shape[form.axis]!);
  let offset = 0;
  const parts = groups.map((g): ComputeSplitPart => {
    const width = g.reduce((a, j) => a + widths[j]!, 0);
    const ops = g.flatMap((j) => [...coneOf([chains[j]!], shape.entry).ops]);
    const part = { chains: g, offset, width, crossbars: [...crossbarsOfOps(ops, limits).values()].reduce((a, b) => a + b, 0) };
    offset += width;
    return part;
  });
  return { op, crossbars: crossbarsOfCompute(op, limits), axis: form.axis, parts };
}

/** `plan` of every graph compute of `func` (a `func.func`) that has one, in program order. */
function plansOfComputes<P>(func: Operation, plan: (op: Operation) => P | undefined): P[] {
  const plans: P[] = [];
  for (const op of func.regions[0]?.firstBlock?.operations ?? []) {
    if (!GraphComputeOp.isInstance(op) && !GraphComputeBatchOp.isInstance(op)) continue;
    const p = plan(op);
    if (p) plans.push(p);
  }
  return plans;
}

/** The channel-block splits ({@link planChannelBlockSplit}) of every graph compute of `func` for `cost`. Changes nothing. */
export function planChannelBlockSplits(func: Operation, cost: CostModel): ComputeSplitPlan[] {
  return plansOfComputes(func, (op) => planChannelBlockSplit(op, cost));
}

/** Splits the computes {@link planChannelBlockSplits} finds in `func` (or `plans`) into column parts; returns how many. */
export function splitChannelBlocks(func: Operation, cost: CostModel, plans: readonly ComputeSplitPlan[] = planChannelBlockSplits(func, cost)): number {
  if (!plans.length) return 0;
  splitOversizedComputes(func, splitLimitsOf(cost), { plans, diagnostics: [] });
  return plans.length;
}

/** The channel splits of every graph compute of `func` (a `func.func`) for `cost`. Changes nothing. */
export function planInputChannelSplits(func: Operation, cost: CostModel): InputChannelSplitPlan[] {
  return plansOfComputes(func, (op) => planInputChannelSplit(op, cost));
}

/** The slot a batch body publishes to (a static slot or its value in `mapping`'s new body). */
function publishedSlot(shape: BodyShape, mapping: IRMapping): Value | number {
  const lists = readSliceLists(shape.insert!);
  return lists.offsets[0] === DYNAMIC ? mapping.lookupOrDefault(shape.insert!.getOperand(2)) : lists.offsets[0]!;
}

/** Builds part `p` before the original compute; returns its result (the lane's partial sums). */
function buildChannelPart(rewriter: PatternRewriter, plan: InputChannelSplitPlan, shape: BodyShape, form: ColumnForm, p: number): Value {
  const op = plan.op;
  const ctx = op.context;
  const loc = op.location;
  const [from, to] = plan.channels[p]!;
  const chains = form.concat.operands.map((c) => chainLeaves(c, shape)!);
  const mine = chains.map((leaves) =>
    leaves.filter((l) => {
      const r = tileRead(l.read, shape)!;
      return r.from >= from && r.to <= to;
    }),
  );
  const slotRoots = shape.insert ? shape.insert.operands.slice(2) : [];
  const cone = coneOf([...mine.flat().map((l) => l.read), ...slotRoots], shape.entry);
  const usedWeights = new Set(mine.flat().map((l) => l.wvmm.getOperand(0)));
  const weights = shape.weights.filter((w) => usedWeights.has(w.arg));
  const inputs = shape.inputs.filter((x) => cone.args.has(x.arg));
  const concatType = form.concat.getResult(0).type as RankedTensorType;
  const resultType = shape.isBatch ? RankedTensorType.get(ctx, [shape.lanes, ...concatType.shape], concatType.elementType) : concatType;
  const { op: partOp, block, mapping, saved } = buildPartCompute(rewriter, shape, weights, inputs, resultType, cone.ops, loc);
  const sums = mine.map((leaves) => {
    let acc: Value | undefined;
    for (const l of leaves) {
      const product = rewriter.clone(l.wvmm, mapping).getResult(0);
      acc = acc ? VaddOp.build(rewriter, { lhs: acc, rhs: product, output: product.type }, l.wvmm.location).output : product;
    }
    return acc!;
  });
  const value =
    sums.length === 1 ? sums[0]! : ConcatOp.build(rewriter, { inputs: sums, output: concatType, axis: IntegerAttr.get(IntegerType.get(ctx, 64), form.axis) }, form.concat.location).output;
  if (shape.isBatch) {
    const par = InParallelOp.build(rewriter, {}, shape.insert!.parent!.parentOp!.location);
    rewriter.createBlock(par.op.regions[0]!, null, [], []);
    createParallelInsertSlice(rewriter, shape.insert!.location, value, block.arguments[block.arguments.length - 1]!, {
      offsets: [publishedSlot(shape, mapping), ...concatType.shape.map(() => 0)],
      sizes: [1, ...concatType.shape],
    });
  } else {
    YieldOp.build(rewriter, { outputs: [value] }, loc);
  }
  rewriter.restoreInsertionPoint(saved);
  return partOp.getResult(0);
}

/** Builds the reduction of the parts before the original compute; returns its result (the original result type). */
function buildReduction(rewriter: PatternRewriter, plan: InputChannelSplitPlan, shape: BodyShape, form: ColumnForm, parts: readonly Value[]): Value {
  const op = plan.op;
  const ctx = op.context;
  const loc = op.location;
  const cone = coneOf(sideRootsOf(shape, form), shape.entry);
  const inputs = shape.inputs.filter((x) => cone.args.has(x.arg));
  const resultType = op.getResult(0).type as RankedTensorType;
  const bindings = { weights: [], inputs: [...parts, ...inputs.map((x) => x.operand)], outputs: [resultType] };
  const reduceOp = shape.isBatch
    ? GraphComputeBatchOp.build(rewriter, { ...bindings, laneCount: IntegerAttr.get(IntegerType.get(ctx, 32), shape.lanes) }, loc).op
    : GraphComputeOp.build(rewriter, bindings, loc).op;
  const argTypes = [...(shape.isBatch ? [IndexType.get(ctx)] : []), ...parts.map((v) => v.type), ...inputs.map((x) => x.arg.type), ...(shape.isBatch ? [resultType] : [])];
  const saved = rewriter.saveInsertionPoint();
  const block = rewriter.createBlock(reduceOp.regions[0]!, null, argTypes, argTypes.map(() => loc));
  const mapping = new IRMapping();
  let next = 0;
  if (shape.isBatch) mapping.map(shape.entry.arguments[0]!, block.arguments[next++]!);
  const partArgs = parts.map(() => block.arguments[next++]!);
  for (const x of inputs) mapping.map(x.arg, block.arguments[next++]!);
  if (shape.isBatch) mapping.map(shape.entry.arguments[shape.entry.arguments.length - 1]!, block.arguments[next++]!);
  for (const o of shape.entry.operations) if (cone.ops.has(o)) rewriter.clone(o, mapping);
  const concatType = form.concat.getResult(0).type as RankedTensorType;
  const slot = shape.isBatch ? publishedSlot(shape, mapping) : 0;
  const partials = partArgs.map((a) =>
    shape.isBatch ? createExtractSlice(rewriter, loc, a, { offsets: [slot, ...concatType.shape.map(() => 0)], sizes: [1, ...concatType.shape] }, concatType) : a,
  );
  let sum = partials[0]!;
  for (const v of partials.slice(1)) sum = VaddOp.build(rewriter, { lhs: sum, rhs: v, output: concatType }, form.concat.location).output;
  mapping.map(form.concat.getResult(0), sum);
  for (const p of form.post) rewriter.clone(p.op, mapping);
  rewriter.clone(shape.entry.lastOp!, mapping);
  rewriter.restoreInsertionPoint(saved);
  return reduceOp.getResult(0);
}

/** Rewrites `plan.op` into its channel parts and their reduction (before the original, which is erased). */
export function applyInputChannelSplit(plan: InputChannelSplitPlan, rewriter: PatternRewriter): void {
  const shape = bodyShape(plan.op);
  const form = typeof shape === 'string' ? shape : columnForm(shape);
  if (typeof shape === 'string' || typeof form === 'string') throw new Error(`internal error: channel split of ${plan.op.name} planned but its form changed`);
  rewriter.setInsertionPoint(plan.op);
  const parts = plan.channels.map((_, p) => buildChannelPart(rewriter, plan, shape, form, p));
  rewriter.setInsertionPoint(plan.op);
  const reduced = buildReduction(rewriter, plan, shape, form, parts);
  rewriter.replaceOp(plan.op, [reduced]);
}

/** Splits the computes {@link planInputChannelSplits} finds in `func` (or `plans`); returns how many. */
export function splitInputChannels(func: Operation, cost: CostModel, plans: readonly InputChannelSplitPlan[] = planInputChannelSplits(func, cost)): number {
  if (!plans.length) return 0;
  applyPlannedComputeRewrites(func, plans, applyInputChannelSplit, 'split-input-channels');
  return plans.length;
}

/** The `spat-split-input-channels` pass (on `builtin.module`; the target from `'raptor.target'`). */
export class SplitInputChannelsPass extends Pass {
  override readonly argument = 'spat-split-input-channels';
  override readonly description =
    'Splits weighted graph computes whose input window exceeds half a core into input-channel parts and a reduction adding their partial sums, or, when their chains read their own channels (channel blocks), into column parts';
  override readonly opName = 'builtin.module';

  runOnOperation(module: Operation): void {
    const cost = createCostModel(targetOf(this));
    const funcs = functionsOf(module);
    let changed = 0;
    for (const func of funcs) changed += splitInputChannels(func, cost) + splitChannelBlocks(func, cost);
    if (!changed) this.markAllAnalysesPreserved();
  }
}
