/**
 * `spat-split-oversized-computes`: splits every graph compute whose one copy of weights holds
 * more crossbars than one core has into column parts that fit a core, so the scheduler can place
 * each part on a core of its own.
 *
 * A splittable body publishes `concat(c_0, ..., c_{m-1})` along one axis, optionally followed by
 * column-wise element-wise ops (`spat.vadd` of a bias, `spat.relu`, ...), where each `c_j` is one
 * accumulation chain of `spat.wvmm`s over one block of output columns (the form plan lowering
 * emits for a convolution or a fully connected layer wider than a crossbar). The chains are
 * grouped into the fewest contiguous parts of at most a core's crossbars (balanced), and:
 *
 * - each part becomes a graph compute of its own, with the same lanes, only its weight slices,
 *   the inputs it reads, the ops its chains depend on, the concatenation of its chains and the
 *   element-wise ops on its column slice (side operands such as a bias are sliced); it publishes
 *   its columns as a fragment collection `[lanes, 1, ...columns]`;
 * - a fragment-assembly `spat.blueprint` places the parts' slots side by side in the original
 *   result type, and every consumer reads it instead of the original result, so each consumer
 *   lane receives its columns straight from the part that computed them (no extra gather hop).
 *
 * A part whose single chain alone exceeds a core (rows: partial sums across cores and an add)
 * is not split: the pass reports it as not supported yet, as it does for bodies of another form.
 * Planning ({@link planOversizedSplits}) never changes the IR, so a function with one
 * unsplittable compute is left entirely unchanged.
 *
 * The driver of the built-in strategies runs it before workload analysis (see
 * `createPlanScheduler`); as a pass it runs alone with
 * `raptor opt --pass-pipeline='builtin.module(spat-split-oversized-computes)'`.
 */
import {
  ArrayAttr,
  BlockArgument,
  DYNAMIC,
  DenseArrayAttr,
  Diagnostic,
  IRMapping,
  IntegerAttr,
  IntegerType,
  IndexType,
  Pass,
  RankedTensorType,
  ReturnOp,
  type Block,
  type Location,
  type OpBuilder,
  type Operation,
  type PatternRewriter,
  type Value,
} from '@raptor-pim/ir-core';
import {
  ConcatOp,
  GraphComputeBatchOp,
  GraphComputeOp,
  InParallelOp,
  ReluOp,
  SigmoidOp,
  VaddOp,
  VmaxOp,
  VmulOp,
  VsubOp,
  WvmmOp,
  YieldOp,
  createFragmentAssembly,
  type AssemblyPiece,
} from '@raptor-pim/spatial-dialect';
import { ParallelInsertSliceOp, TensorExpandShapeOp, createExtractSlice, createParallelInsertSlice, readSliceLists } from '@raptor-pim/upstream-dialects';
import { createCostModel, type CostModel } from '@raptor-pim/pim-target';
import { describeNode } from '../analysis/workload';
import { SchedulerMessages as M } from '../diagnostics';
import { targetOf } from '../target';
import { applyPlannedComputeRewrites } from './planned-rewrites';
import { functionsOf } from '../analysis/functions';

/** The crossbar geometry a split is planned for (from the target's cost model). */
export interface SplitLimits {
  /** Rows of one crossbar. */
  readonly crossbarRows: number;
  /** Columns of one crossbar. */
  readonly crossbarCols: number;
  /** Crossbars of one core: the most one part may hold. */
  readonly crossbarsPerCore: number;
  /** Crossbars of the whole target: a function needing more is left to the capacity check (B0). */
  readonly crossbars: number;
}

/** One column part of a split compute. */
export interface ComputeSplitPart {
  /** Indices of the accumulation chains (concat operands) of the part, contiguous. */
  readonly chains: readonly number[];
  /** First column (along the concat axis) of the part. */
  readonly offset: number;
  /** Columns of the part. */
  readonly width: number;
  /** Crossbars of one copy of the part's weights. */
  readonly crossbars: number;
}

/** How one oversized graph compute is split ({@link planComputeSplit}). */
export interface ComputeSplitPlan {
  /** The graph compute. */
  readonly op: Operation;
  /** Crossbars of one copy of its weights. */
  readonly crossbars: number;
  /** The concat axis in the published value's shape. */
  readonly axis: number;
  /** The parts, in column order. */
  readonly parts: readonly ComputeSplitPart[];
}

/** What {@link planOversizedSplits} found for one function. */
export interface OversizedSplits {
  /** The computes to split. */
  readonly plans: readonly ComputeSplitPlan[];
  /** Why some oversized compute cannot be split (then no compute of the function is split). */
  readonly diagnostics: readonly Diagnostic[];
}

/** The column-wise element-wise ops a split moves into every part (on the part's columns). */
const UNARY_COLUMNWISE = [ReluOp, SigmoidOp] as const;
const BINARY_COLUMNWISE = [VaddOp, VsubOp, VmulOp, VmaxOp] as const;

/** The limits of a cost model. */
export function splitLimitsOf(cost: CostModel): SplitLimits {
  return { crossbarRows: cost.crossbarRows, crossbarCols: cost.crossbarCols, crossbarsPerCore: cost.crossbarsPerCore, crossbars: cost.crossbars };
}

/** The body's structure: bound arguments and the published value (shared with `spat-split-input-channels`). */
export interface BodyShape {
  readonly entry: Block;
  readonly isBatch: boolean;
  readonly lanes: number;
  /** Weight operands with their body arguments. */
  readonly weights: readonly { readonly operand: Value; readonly arg: Value }[];
  /** Input operands with their body arguments. */
  readonly inputs: readonly { readonly operand: Value; readonly arg: Value }[];
  /** The published (batch) or yielded value. */
  readonly published: Value;
  /** The `tensor.parallel_insert_slice` publishing it (batches). */
  readonly insert?: Operation;
}

/** The column structure of a body: the concat, the chains and the ops after the concat. */
export interface ColumnForm {
  readonly concat: Operation;
  readonly axis: number;
  /** Element-wise ops from the concat to the published value, in order, with the operand position of the main value. */
  readonly post: readonly { readonly op: Operation; readonly main: number }[];
}

/** The structure of a graph compute's body, or why it has another form. */
export function bodyShape(op: Operation): BodyShape | string {
  const isBatch = GraphComputeBatchOp.isInstance(op);
  const region = op.regions[0];
  const entry = region?.firstBlock;
  if (!entry || entry !== region.lastBlock) return M.splitReasonBlocks();
  if (op.numResults !== 1) return M.splitReasonResults(op.numResults);
  const view = isBatch ? GraphComputeBatchOp.get(op) : GraphComputeOp.get(op);
  const weightOperands = view.weights as readonly Value[];
  const inputOperands = view.inputs as readonly Value[];
  const first = isBatch ? 1 : 0;
  const weights = weightOperands.map((operand, i) => ({ operand, arg: entry.arguments[first + i]! as Value }));
  const inputs = inputOperands.map((operand, k) => ({ operand, arg: entry.arguments[first + weightOperands.length + k]! as Value }));
  const term = entry.lastOp;
  if (isBatch) {
    const lanes = Number(GraphComputeBatchOp.get(op).laneCount.value);
    const par = term && InParallelOp.isInstance(term) ? term.regions[0]?.firstBlock : undefined;
    const insert = par?.firstOp;
    if (!insert || insert !== par.lastOp || !ParallelInsertSliceOp.isInstance(insert)) return M.splitReasonPublication();
    return { entry, isBatch, lanes, weights, inputs, published: insert.getOperand(0), insert };
  }
  if (!term || !YieldOp.isInstance(term) || term.numOperands !== 1) return M.splitReasonPublication();
  return { entry, isBatch, lanes: 1, weights, inputs, published: term.getOperand(0) };
}

/** The ops of `entry` that `roots` depend on (transitively, nested regions included), and the entry arguments they read. */
export function coneOf(roots: readonly Value[], entry: Block): { ops: Set<Operation>; args: Set<Value> } {
  const ops = new Set<Operation>();
  const args = new Set<Value>();
  const stack: Value[] = [...roots];
  const visitValue = (v: Value): void => {
    const def = v.definingOp;
    if (!def) {
      if (v instanceof BlockArgument && v.owner === entry) args.add(v);
      return;
    }
    let top: Operation | null = def;
    while (top && top.parent !== entry) top = top.parent?.parentOp ?? null;
    if (!top || ops.has(top)) return;
    ops.add(top);
    top.walk((o: Operation) => {
      for (const operand of o.operands) stack.push(operand);
    });
  };
  while (stack.length) visitValue(stack.pop()!);
  return { ops, args };
}

/** The concat of accumulation chains the body publishes (through column-wise ops), or why it has another form. */
export function columnForm(shape: BodyShape): ColumnForm | string {
  const post: { op: Operation; main: number }[] = [];
  let v = shape.published;
  for (;;) {
    const def = v.definingOp;
    if (!def || def.parent !== shape.entry) return M.splitReasonNotConcat();
    if (ConcatOp.isInstance(def)) {
      post.reverse();
      return { concat: def, axis: Number(ConcatOp.get(def).axis.value), post };
    }
    if (UNARY_COLUMNWISE.some((d) => d.isInstance(def))) {
      post.push({ op: def, main: 0 });
      v = def.getOperand(0);
      continue;
    }
    if (BINARY_COLUMNWISE.some((d) => d.isInstance(def))) {
      const type = def.getResult(0).type;
      const leadsToConcat = (x: Value): boolean => [...coneOf([x], shape.entry).ops].some((o) => ConcatOp.isInstance(o));
      const main = leadsToConcat(def.getOperand(0)) ? 0 : leadsToConcat(def.getOperand(1)) ? 1 : -1;
      if (main < 0 || def.getOperand(0).type !== type || def.getOperand(1).type !== type) return M.splitReasonNotConcat();
      post.push({ op: def, main });
      v = def.getOperand(main);
      continue;
    }
    return M.splitReasonNotConcat();
  }
}

/** Crossbars of the distinct weights read by the `spat.wvmm`s of `ops`. */
export function crossbarsOfOps(ops: Iterable<Operation>, limits: SplitLimits, into = new Map<Value, number>()): Map<Value, number> {
  for (const o of ops) {
    o.walk((x: Operation) => {
      if (!WvmmOp.isInstance(x)) return;
      const w = x.getOperand(0);
      const t = w.type;
      if (into.has(w) || !(t instanceof RankedTensorType) || t.shape.length !== 2) return;
      into.set(w, Math.ceil(t.shape[0]! / limits.crossbarRows) * Math.ceil(t.shape[1]! / limits.crossbarCols));
    });
  }
  return into;
}

function sum(m: ReadonlyMap<unknown, number>): number {
  let s = 0;
  for (const x of m.values()) s += x;
  return s;
}

/** Crossbars of one copy of a graph compute's weights (distinct `spat.wvmm` weights of its body). */
export function crossbarsOfCompute(op: Operation, limits: SplitLimits): number {
  return sum(crossbarsOfOps(op.regions[0]?.firstBlock?.operations ?? [], limits));
}

/**
 * The fewest contiguous groups of `loads` with a sum of at most `limit` each, balanced (the
 * smallest maximum over partitions with that many groups). Every load must fit `limit`.
 */
function balancedGroups(loads: readonly number[], limit: number): number[][] {
  const greedy = (cap: number): number[][] => {
    const groups: number[][] = [];
    let current: number[] = [];
    let s = 0;
    loads.forEach((x, i) => {
      if (current.length && s + x > cap) {
        groups.push(current);
        current = [];
        s = 0;
      }
      current.push(i);
      s += x;
    });
    if (current.length) groups.push(current);
    return groups;
  };
  const fewest = greedy(limit).length;
  for (let cap = Math.max(...loads); cap < limit; cap++) {
    const g = greedy(cap);
    if (g.length <= fewest) return g;
  }
  return greedy(limit);
}

/**
 * The side roots of a column form: the operands of the ops after the concatenation other than
 * their main value (a bias, ...) and the publication offsets.
 */
export function sideRootsOf(shape: BodyShape, form: ColumnForm): Value[] {
  return [...form.post.flatMap((p) => p.op.operands.filter((_, k) => k !== p.main)), ...(shape.insert ? shape.insert.operands.slice(2) : [])];
}

/**
 * The body shape and column form of `op` when its accumulation chains may be regrouped into
 * parts (by columns or by input channels), or why not: one publication, read only by graph
 * computes or returned, a concatenation of chains, and no weights beside the chains.
 */
export function splittableColumnForm(op: Operation, limits: SplitLimits): { readonly shape: BodyShape; readonly form: ColumnForm } | string {
  const shape = bodyShape(op);
  if (typeof shape === 'string') return shape;
  for (const user of op.getResult(0).users) {
    // Weights are constants, so a graph compute reads the result as an input; a returned
    // result becomes the returned blueprint.
    if (!GraphComputeBatchOp.isInstance(user) && !GraphComputeOp.isInstance(user) && !ReturnOp.isInstance(user)) return M.splitReasonUser(user.name);
  }
  const form = columnForm(shape);
  if (typeof form === 'string') return form;
  // Every weight must belong to a chain: side operands and publication offsets hold none.
  if (sum(crossbarsOfOps(coneOf(sideRootsOf(shape, form), shape.entry).ops, limits)) > 0) return M.splitReasonSideWeights();
  return { shape, form };
}

/**
 * How `op` (a `spat.graph_compute` or `spat.graph_compute_batch`) is split into column parts
 * that fit one core: undefined when it already fits, a message saying why it cannot be split
 * otherwise. Changes nothing.
 */
export function planComputeSplit(op: Operation, limits: SplitLimits): ComputeSplitPlan | string | undefined {
  const crossbars = crossbarsOfCompute(op, limits);
  if (crossbars <= limits.crossbarsPerCore) return undefined;
  const splittable = splittableColumnForm(op, limits);
  if (typeof splittable === 'string') return splittable;
  const { shape, form } = splittable;
  const chains = form.concat.operands;
  const chainCones = chains.map((c) => coneOf([c], shape.entry));
  const chainCrossbars = chainCones.map((c) => sum(crossbarsOfOps(c.ops, limits)));
  const tooLarge = chainCrossbars.findIndex((x) => x > limits.crossbarsPerCore);
  if (tooLarge >= 0) return M.splitReasonRows(tooLarge, chainCrossbars[tooLarge]!);
  const widths = chains.map((c) => (c.type as RankedTensorType).shape[form.axis]!);
  const groups = balancedGroups(chainCrossbars, limits.crossbarsPerCore);
  let offset = 0;
  const parts = groups.map((g) => {
    const width = g.reduce((a, j) => a + widths[j]!, 0);
    const part: ComputeSplitPart = { chains: g, offset, width, crossbars: sum(crossbarsOfOps(g.flatMap((j) => [...chainCones[j]!.ops]), limits)) };
    offset += width;
    return part;
  });
  return { op, crossbars, axis: form.axis, parts };
}

/**
 * The splits of every oversized graph compute of `func`, or the diagnostics of those that cannot
 * be split. A function needing more crossbars than the whole target is skipped (the capacity
 * check B0 reports it). Changes nothing.
 */
export function planOversizedSplits(func: Operation, limits: SplitLimits): OversizedSplits {
  const plans: ComputeSplitPlan[] = [];
  const diagnostics: Diagnostic[] = [];
  const body = func.regions[0]?.firstBlock;
  if (!body) return { plans, diagnostics };
  const computes = body.operations.filter((o) => GraphComputeOp.isInstance(o) || GraphComputeBatchOp.isInstance(o));
  const total = computes.reduce((a, o) => a + crossbarsOfCompute(o, limits), 0);
  if (total > limits.crossbars) return { plans, diagnostics };
  computes.forEach((op, index) => {
    const p = planComputeSplit(op, limits);
    if (p === undefined) return;
    if (typeof p === 'string') {
      diagnostics.push(new Diagnostic('error', op.location, M.splitImpossible(describeNode(index, op), crossbarsOfCompute(op, limits), limits.crossbarsPerCore, p)));
      return;
    }
    plans.push(p);
  });
  return { plans, diagnostics };
}

function i64Array(b: OpBuilder, values: readonly number[]): DenseArrayAttr {
  return DenseArrayAttr.i64(b.context, [...values]);
}

/** `tensor.expand_shape` of `v` to `[1] ++ shape(v)`. */
function expandLeadingUnit(b: OpBuilder, loc: Location, v: Value): Value {
  const t = v.type as RankedTensorType;
  const shape = [1, ...t.shape];
  const i64 = IntegerType.get(b.context, 64);
  const groups = t.shape.length === 0 ? [] : t.shape.map((_, i) => (i === 0 ? [0, 1] : [i + 1]));
  return TensorExpandShapeOp.build(
    b,
    {
      src: v,
      output_shape: [],
      result: RankedTensorType.get(b.context, shape, t.elementType),
      reassociation: ArrayAttr.get(b.context, groups.map((g) => ArrayAttr.get(b.context, g.map((d) => IntegerAttr.get(i64, d))))),
      static_output_shape: i64Array(b, shape),
    },
    loc,
  ).result;
}

/** `v` restricted to `[offset, offset + width)` along `axis`. */
function columnSlice(b: OpBuilder, loc: Location, v: Value, axis: number, offset: number, width: number): Value {
  const t = v.type as RankedTensorType;
  return createExtractSlice(b, loc, v, {
    offsets: t.shape.map((_, i) => (i === axis ? offset : 0)),
    sizes: t.shape.map((d, i) => (i === axis ? width : d)),
  });
}

/** A new part of a compute: the op, its entry block, the mapping from the original body and the insertion point to restore. */
export interface PartCompute {
  readonly op: Operation;
  readonly block: Block;
  readonly mapping: IRMapping;
  readonly saved: ReturnType<PatternRewriter['saveInsertionPoint']>;
}

/**
 * Builds a graph compute (a batch with the same lanes when `shape` is one) at the rewriter's
 * insertion point, binding `weights` and `inputs` of the original body, with result type
 * `resultType`; its entry block starts with clones of the original body's ops in `cloned` (in
 * order). The rewriter is left inside the new block; restore it with `saved`.
 */
export function buildPartCompute(
  rewriter: PatternRewriter,
  shape: BodyShape,
  weights: BodyShape['weights'],
  inputs: BodyShape['inputs'],
  resultType: RankedTensorType,
  cloned: ReadonlySet<Operation>,
  loc: Location,
): PartCompute {
  const ctx = rewriter.context;
  const bindings = { weights: weights.map((w) => w.operand), inputs: inputs.map((x) => x.operand), outputs: [resultType] };
  const op = shape.isBatch
    ? GraphComputeBatchOp.build(rewriter, { ...bindings, laneCount: IntegerAttr.get(IntegerType.get(ctx, 32), shape.lanes) }, loc).op
    : GraphComputeOp.build(rewriter, bindings, loc).op;
  const argTypes = [...(shape.isBatch ? [IndexType.get(ctx)] : []), ...weights.map((w) => w.arg.type), ...inputs.map((x) => x.arg.type), ...(shape.isBatch ? [resultType] : [])];
  const saved = rewriter.saveInsertionPoint();
  const block = rewriter.createBlock(op.regions[0]!, null, argTypes, argTypes.map(() => loc));
  const mapping = new IRMapping();
  let next = 0;
  if (shape.isBatch) mapping.map(shape.entry.arguments[0]!, block.arguments[next++]!);
  for (const w of weights) mapping.map(w.arg, block.arguments[next++]!);
  for (const x of inputs) mapping.map(x.arg, block.arguments[next++]!);
  for (const o of shape.entry.operations) if (cloned.has(o)) rewriter.clone(o, mapping);
  return { op, block, mapping, saved };
}

/** Builds part `part` of `plan` before the original compute; returns its result (a collection `[lanes, 1, ...columns]`). */
function buildPart(rewriter: PatternRewriter, plan: ComputeSplitPlan, shape: BodyShape, form: ColumnForm, part: ComputeSplitPart): Value {
  const op = plan.op;
  const ctx = op.context;
  const loc = op.location;
  const chains = part.chains.map((j) => form.concat.getOperand(j));
  const cone = coneOf([...chains, ...sideRootsOf(shape, form)], shape.entry);
  const weights = shape.weights.filter((w) => cone.args.has(w.arg));
  const inputs = shape.inputs.filter((x) => cone.args.has(x.arg));
  const published = shape.published.type as RankedTensorType;
  const columns = published.shape.map((d, i) => (i === plan.axis ? part.width : d));
  const fragment = RankedTensorType.get(ctx, [1, ...columns], published.elementType);
  const resultType = shape.isBatch ? RankedTensorType.get(ctx, [shape.lanes, 1, ...columns], published.elementType) : fragment;
  const { op: partOp, block, mapping, saved } = buildPartCompute(rewriter, shape, weights, inputs, resultType, cone.ops, loc);
  const mapped = chains.map((c) => mapping.lookupOrDefault(c));
  let value =
    mapped.length === 1
      ? mapped[0]!
      : ConcatOp.build(
          rewriter,
          { inputs: mapped, output: RankedTensorType.get(ctx, columns, published.elementType), axis: IntegerAttr.get(IntegerType.get(ctx, 64), plan.axis) },
          form.concat.location,
        ).output;
  for (const p of form.post) {
    const type = RankedTensorType.get(ctx, columns, published.elementType);
    const unary = UNARY_COLUMNWISE.find((d) => d.isInstance(p.op));
    if (unary) {
      value = unary.build(rewriter, { input: value, output: type }, p.op.location).output;
      continue;
    }
    const binary = BINARY_COLUMNWISE.find((d) => d.isInstance(p.op))!;
    const other = columnSlice(rewriter, p.op.location, mapping.lookupOrDefault(p.op.getOperand(1 - p.main)), plan.axis, part.offset, part.width);
    const [lhs, rhs] = p.main === 0 ? [value, other] : [other, value];
    value = binary.build(rewriter, { lhs, rhs, output: type }, p.op.location).output;
  }
  const fragmentValue = expandLeadingUnit(rewriter, loc, value);
  if (shape.isBatch) {
    const lists = readSliceLists(shape.insert!);
    const slot = lists.offsets[0] === DYNAMIC ? mapping.lookupOrDefault(shape.insert!.getOperand(2)) : lists.offsets[0]!;
    const par = InParallelOp.build(rewriter, {}, shape.insert!.parent!.parentOp!.location);
    rewriter.createBlock(par.op.regions[0]!, null, [], []);
    createParallelInsertSlice(rewriter, shape.insert!.location, fragmentValue, block.arguments[block.arguments.length - 1]!, {
      offsets: [slot, ...fragment.shape.map(() => 0)],
      sizes: [1, ...fragment.shape],
    });
  } else {
    YieldOp.build(rewriter, { outputs: [fragmentValue] }, loc);
  }
  rewriter.restoreInsertionPoint(saved);
  return partOp.getResult(0);
}

/** The blueprint placing the parts' slots side by side in the original result type. */
function assemble(rewriter: PatternRewriter, plan: ComputeSplitPlan, shape: BodyShape, parts: readonly Value[]): Value {
  const resultType = plan.op.getResult(0).type as RankedTensorType;
  const published = shape.published.type as RankedTensorType;
  const pieces: AssemblyPiece[] = [];
  const slots = shape.isBatch ? shape.lanes : 1;
  for (let s = 0; s < slots; s++) {
    plan.parts.forEach((part, p) => {
      const columns = published.shape.map((d, i) => (i === plan.axis ? part.width : d));
      pieces.push({
        operandIndex: p,
        sourceSlot: s,
        sourceOffset: 0,
        offsets: [...(shape.isBatch ? [s] : []), ...published.shape.map((_, i) => (i === plan.axis ? part.offset : 0))],
        sizes: [...(shape.isBatch ? [1] : []), ...columns],
        strides: resultType.shape.map(() => 1),
      });
    });
  }
  return createFragmentAssembly(rewriter, plan.op.location, parts, resultType, pieces);
}

/**
 * Rewrites `plan.op` into its parts and the assembling blueprint (through `rewriter`, which is
 * positioned anywhere; the new ops go before the original compute, which is erased).
 */
export function applyComputeSplit(plan: ComputeSplitPlan, rewriter: PatternRewriter): void {
  const shape = bodyShape(plan.op);
  const form = typeof shape === 'string' ? shape : columnForm(shape);
  if (typeof shape === 'string' || typeof form === 'string') throw new Error(`internal error: split of ${plan.op.name} planned but its form changed`);
  rewriter.setInsertionPoint(plan.op);
  const parts = plan.parts.map((part) => buildPart(rewriter, plan, shape, form, part));
  rewriter.setInsertionPoint(plan.op);
  const whole = assemble(rewriter, plan, shape, parts);
  rewriter.replaceOp(plan.op, [whole]);
}

/** What {@link splitOversizedComputes} did. */
export interface SplitResult {
  /** Computes split. */
  readonly split: number;
  /** Parts created. */
  readonly parts: number;
  /** Why some compute could not be split (then `func` is unchanged). */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Splits the oversized graph computes of `func` (a `func.func`) for `limits` with a rewrite
 * pattern rooted on the planned computes; unchanged when one cannot be split. `planned` is
 * {@link planOversizedSplits} of the same function and limits, when the caller has it already.
 */
export function splitOversizedComputes(func: Operation, limits: SplitLimits, planned: OversizedSplits = planOversizedSplits(func, limits)): SplitResult {
  const { plans, diagnostics } = planned;
  if (diagnostics.length || !plans.length) return { split: 0, parts: 0, diagnostics };
  applyPlannedComputeRewrites(func, plans, applyComputeSplit, 'split-oversized');
  return { split: plans.length, parts: plans.reduce((a, p) => a + p.parts.length, 0), diagnostics: [] };
}

/** The `spat-split-oversized-computes` pass (on `builtin.module`; the target from `'raptor.target'`). */
export class SplitOversizedComputesPass extends Pass {
  override readonly argument = 'spat-split-oversized-computes';
  override readonly description = 'Splits graph computes holding more crossbars than one core into column parts of at most a core (and a blueprint assembling them)';
  override readonly opName = 'builtin.module';

  runOnOperation(module: Operation): void {
    const limits = splitLimitsOf(createCostModel(targetOf(this)));
    const funcs = functionsOf(module);
    let failed = false;
    let changed = false;
    for (const func of funcs) {
      const r = splitOversizedComputes(func, limits);
      for (const d of r.diagnostics) module.context.diagnostics.emit(d);
      failed ||= r.diagnostics.length > 0;
      changed ||= r.split > 0;
    }
    if (failed) this.signalPassFailure();
    else if (!changed) this.markAllAnalysesPreserved();
  }
}
