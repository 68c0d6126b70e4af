/**
 * `spat-tile-parallel-computes`: a scalar `spat.graph_compute` whose body works independently
 * along one dimension `d` of its results (element-wise ops, concatenations along other
 * dimensions, slices that keep `d` whole, splat constants) becomes a `spat.graph_compute_batch`
 * with one lane per index of `d`: the lane reads the slice of every input at its index and
 * publishes the slice of every result, and a fragment-assembly `spat.blueprint` per result gives
 * the consumers the logical value. ONNX element-wise layers imported as one compute over a whole
 * feature map (Clip, HardSigmoid, broadcast Mul, Split, Concat, padding) then split over cores
 * like any batch, each replica holding only its rows (`planning/windows.ts`).
 *
 * The dimension is chosen among those of size > 1 in the order H, C, W, N for rank 4 (rows keep
 * a convolution's window small), else from the outermost; the first one every op of the body is
 * parallel along wins. A compute with weights, nested regions or any other op is left alone.
 *
 * Weightless computes no one dimension runs through (transposes, reshapes, depth-to-space) are
 * tiled in chunks of a dimension tracked per value instead, and concatenations of fragment
 * assemblies become one assembly (`chunk-tiling.ts`, see {@link ParallelTile}).
 */
import {
  ConstantOp,
  DenseArrayAttr,
  DenseElementsAttr,
  DYNAMIC,
  IndexType,
  IntegerAttr,
  IntegerType,
  IRMapping,
  OpBuilder,
  Pass,
  RankedTensorType,
  type Attribute,
  type Block,
  type Operation,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import {
  ConcatOp,
  GraphComputeBatchOp,
  GraphComputeOp,
  YieldOp,
  createFragmentAssembly,
  createInParallel,
  type AssemblyPiece,
} from '@raptor-pim/spatial-dialect';
import { ExtractSliceOp, InsertSliceOp, createExtractSlice, createParallelInsertSlice, readSliceLists } from '@raptor-pim/upstream-dialects';
import { createCostModel, type CostModel } from '@raptor-pim/pim-target';
import { Workload } from '../analysis/workload';
import { minimumFootprint } from '../planning/local-memory';
import { isPointwise, isStaticTensor, splatConstantOf as splatOf } from '../analysis/pointwise';
import { targetOf } from '../target';
import { functionsOf } from '../analysis/functions';
import { laneLiveBytes, laneSplitBudgets } from './split-lanes';
import {
  assembleConcat,
  canAssembleConcat,
  chooseChunks,
  concatAxis,
  fuseDataMovementProducers,
  fusibleInputs,
  replaceFusedCompute,
  tileComputeInChunks,
} from './chunk-tiling';

/** The shape of `t` with dimension `d` set to 1. */
function sliced(t: RankedTensorType, d: number): RankedTensorType {
  return RankedTensorType.get(t.context, t.shape.map((x, i) => (i === d ? 1 : x)), t.elementType, t.encoding);
}

/** True when `v` has rank `rank` and extent `lanes` along `d` (it is sliced per lane). */
function alongD(v: Value, rank: number, d: number, lanes: number): boolean {
  const t = v.type;
  return isStaticTensor(t) && t.shape.length === rank && t.shape[d] === lanes;
}

/**
 * The dimension along which every op of `compute`'s body is parallel, with its extent, or
 * undefined. Results and the inputs they read must all have that extent along it.
 */
export function parallelDimension(compute: Operation): { readonly d: number; readonly lanes: number } | undefined {
  if (!GraphComputeOp.isInstance(compute)) return undefined;
  const view = GraphComputeOp.get(compute);
  if ((view.weights as readonly Value[]).length > 0 || compute.numResults === 0) return undefined;
  const entry = compute.regions[0]?.firstBlock;
  if (!entry) return undefined;
  const first = compute.getResult(0).type;
  if (!isStaticTensor(first) || first.shape.length === 0) return undefined;
  const rank = first.shape.length;
  const order = rank === 4 ? [2, 1, 3, 0] : Array.from({ length: rank }, (_, i) => i);
  for (const d of order) {
    const lanes = first.shape[d]!;
    if (lanes <= 1) continue;
    if (compute.results.every((r) => alongD(r, rank, d, lanes)) && bodyParallel(entry, rank, d, lanes)) return { d, lanes };
  }
  return undefined;
}

function bodyParallel(entry: Block, rank: number, d: number, lanes: number): boolean {
  for (const a of entry.arguments) if (!a.useEmpty && !alongD(a, rank, d, lanes)) return false;
  for (const op of entry.operations) {
    if (op.numRegions > 0) return false;
    if (YieldOp.isInstance(op)) {
      if (!op.operands.every((v) => alongD(v, rank, d, lanes))) return false;
      continue;
    }
    if (!op.results.every((r) => alongD(r, rank, d, lanes))) return false;
    if (ConstantOp.isInstance(op)) {
      if (!splatOf(op)) return false;
      continue;
    }
    if (isPointwise(op)) {
      if (!op.operands.every((v) => alongD(v, rank, d, lanes))) return false;
      continue;
    }
    if (ConcatOp.isInstance(op)) {
      const axis = Number(ConcatOp.get(op).axis.value);
      if (axis === d || !op.operands.every((v) => alongD(v, rank, d, lanes))) return false;
      continue;
    }
    if (ExtractSliceOp.isInstance(op) || InsertSliceOp.isInstance(op)) {
      const lists = readSliceLists(op);
      if (lists.offsets[d] !== 0 || lists.sizes[d] !== lanes || lists.strides[d] !== 1) return false;
      const tensors = ExtractSliceOp.isInstance(op) ? [op.getOperand(0)] : [op.getOperand(0), op.getOperand(1)];
      if (!tensors.every((v) => alongD(v, rank, d, lanes))) return false;
      if (lists.sizes.some((x) => x === DYNAMIC)) return false;
      continue;
    }
    return false;
  }
  return true;
}

/**
 * Rewrites `compute` (see {@link parallelDimension}) into a batch of one lane per index of
 * `d` plus one fragment-assembly blueprint per result, replacing its uses. Returns the batch op.
 */
export function tileParallelCompute(compute: Operation, d: number, lanes: number): Operation {
  const ctx = compute.context;
  const view = GraphComputeOp.get(compute);
  const inputs = view.inputs as readonly Value[];
  const entry = compute.regions[0]!.firstBlock!;
  const loc = compute.location;
  const index = IndexType.get(ctx);
  const b = OpBuilder.before(compute);
  // Splat constants bound as inputs become splats of the lane's slice inside the body.
  const kept: number[] = [];
  inputs.forEach((v, k) => {
    if (!splatOf(v.definingOp) && !entry.arguments[k]!.useEmpty) kept.push(k);
  });
  const resultTypes = compute.results.map((r) => r.type as RankedTensorType);
  const fragments = resultTypes.map((t) => sliced(t, d));
  const collections = fragments.map((f) => RankedTensorType.get(ctx, [lanes, ...f.shape], f.elementType));
  const batch = GraphComputeBatchOp.build(
    b,
    { weights: [], inputs: kept.map((k) => inputs[k]!), outputs: collections, laneCount: IntegerAttr.get(IntegerType.get(ctx, 32), lanes) },
    loc,
  ).op;
  const argTypes: Type[] = [index, ...kept.map((k) => inputs[k]!.type), ...collections];
  const block = b.createBlock(batch.regions[0]!, null, argTypes, argTypes.map(() => loc));
  const lane = block.arguments[0]!;
  const bb = OpBuilder.atBlockEnd(block, ctx);
  const mapping = new IRMapping();
  const offsetsAt = (t: RankedTensorType): (number | Value)[] => t.shape.map((_, i) => (i === d ? lane : 0));
  inputs.forEach((v, k) => {
    const arg = entry.arguments[k]!;
    if (arg.useEmpty) return;
    const t = v.type as RankedTensorType;
    const splat = splatOf(v.definingOp);
    if (splat) {
      const type = sliced(t, d);
      mapping.map(arg, ConstantOp.build(bb, { value: DenseElementsAttr.splat(type, splat.getNumber(0)), result: type }, loc).result);
      return;
    }
    const a = block.arguments[1 + kept.indexOf(k)]!;
    mapping.map(arg, createExtractSlice(bb, loc, a, { offsets: offsetsAt(t), sizes: sliced(t, d).shape }));
  });
  let yielded: readonly Value[] = [];
  for (const op of entry.operations) {
    if (YieldOp.isInstance(op)) {
      yielded = op.operands.map((v) => mapping.lookupOrDefault(v));
      break;
    }
    const operands = op.operands.map((v) => mapping.lookupOrDefault(v));
    const types = op.results.map((r) => sliced(r.type as RankedTensorType, d));
    const properties = new Map<string, Attribute>(op.properties);
    if (ExtractSliceOp.isInstance(op) || InsertSliceOp.isInstance(op)) {
      const sizes = readSliceLists(op).sizes.map((x, i) => (i === d ? 1 : x));
      properties.set('static_sizes', DenseArrayAttr.i64(ctx, sizes));
    }
    if (ConstantOp.isInstance(op)) {
      const splat = splatOf(op)!;
      const created = ConstantOp.build(bb, { value: DenseElementsAttr.splat(types[0]!, splat.getNumber(0)), result: types[0]! }, op.location).result;
      mapping.map(op.getResult(0), created);
      continue;
    }
    const created = bb.create({ name: op.name, location: op.location, operands, resultTypes: types, properties, attributes: op.attributes });
    op.results.forEach((r, i) => mapping.map(r, created.getResult(i)));
  }
  const par = createInParallel(bb, loc);
  const pb = OpBuilder.atBlockEnd(par, ctx);
  yielded.forEach((v, k) => {
    const out = block.arguments[1 + kept.length + k]!;
    createParallelInsertSlice(pb, loc, v, out, { offsets: [lane, ...fragments[k]!.shape.map(() => 0)], sizes: [1, ...fragments[k]!.shape] });
  });
  // The logical results: lane f's fragment at index f along d.
  const ab = OpBuilder.before(compute);
  compute.results.forEach((r, k) => {
    const t = resultTypes[k]!;
    const pieces: AssemblyPiece[] = Array.from({ length: lanes }, (_, f) => ({
      operandIndex: 0,
      sourceSlot: f,
      sourceOffset: 0,
      offsets: t.shape.map((_, i) => (i === d ? f : 0)),
      sizes: fragments[k]!.shape,
      strides: t.shape.map(() => 1),
    }));
    const logical = createFragmentAssembly(ab, loc, [batch.getResult(k)], t, pieces);
    r.replaceAllUsesWith(logical);
  });
  compute.erase();
  return batch;
}

/**
 * A scalar compute to tile: `kind` `'dimension'` (default) tiles it along `d` with one lane per
 * index ({@link tileParallelCompute}); `'chunks'` (data movement whose dimension moves from value
 * to value, `d` and `lanes` unused) is tiled in chunks ({@link chooseChunks}), after taking in
 * producers whose lanes are too large ({@link fuseDataMovementProducers}); `'concat'` (a
 * concatenation along `d`) becomes a fragment assembly of its inputs' fragments where they are
 * assemblies or small weightless computes by then ({@link assembleConcat}), else is tiled in
 * chunks or along a dimension.
 */
export interface ParallelTile {
  readonly op: Operation;
  readonly d: number;
  readonly lanes: number;
  readonly kind?: 'dimension' | 'chunks' | 'concat';
}

/**
 * The scalar graph computes of `workload`'s function whose one copy needs more than a quarter of
 * a core's local memory (their minimum footprint, `minimumFootprint`): one compute holding a
 * whole feature map would leave too little room for the computes it shares a core with, and its
 * readers would load the whole value to take their windows of it. Those parallel along one
 * dimension shared by every value whose lanes then hold at most a quarter of a core are tiled
 * along it; the others are planned as concatenations or chunk tilings (see {@link ParallelTile}),
 * decided when applied since earlier tilings change their inputs. The rest is left to the
 * driver's memory check, which names them.
 */
export function planParallelTiles(workload: Workload, cost: CostModel): ParallelTile[] {
  const out: ParallelTile[] = [];
  const quarter = cost.localMemoryBytes / 4;
  const budget = chunkTilingBudget(cost);
  for (const n of workload.nodes) {
    if (n.isBatch) continue;
    const bytes = minimumFootprint(workload, n, cost).bodyBytes;
    if (bytes <= quarter) continue;
    const dim = parallelDimension(n.op);
    const axis = concatAxis(n.op);
    // A concatenation whose lanes along another dimension would still be large: an assembly.
    if (axis !== undefined && (!dim || bytes / dim.lanes > quarter) && canAssembleConcat(n.op)) out.push({ op: n.op, d: axis, lanes: 0, kind: 'concat' });
    else if (dim) out.push({ op: n.op, ...dim });
    else if (n.crossbars === 0 && (fusibleInputs(n.op, (b) => laneLiveBytes(b, cost.localAlignment) > budget).length > 0 || chooseChunks(n.op, budget))) {
      out.push({ op: n.op, d: -1, lanes: 0, kind: 'chunks' });
    }
  }
  return out;
}

/**
 * Tiles `op` in chunks, first taking in the producers whose lanes are larger than `budget`;
 * returns whether it changed anything.
 */
function tileInChunks(op: Operation, budget: number, alignment: number): boolean {
  const which = fusibleInputs(op, (batch) => laneLiveBytes(batch, alignment) > budget);
  if (which.length) {
    const fused = fuseDataMovementProducers(op, which);
    const tracking = fused && chooseChunks(fused, budget);
    if (fused && tracking) {
      replaceFusedCompute(op, fused, which);
      tileComputeInChunks(fused, tracking);
      return true;
    }
    fused?.erase();
  }
  const tracking = chooseChunks(op, budget);
  if (!tracking) return false;
  tileComputeInChunks(op, tracking);
  return true;
}

/** Applies one planned tile; returns whether it changed anything. */
function applyTile(t: ParallelTile, cost: CostModel): boolean {
  if (t.kind === 'concat' && canAssembleConcat(t.op)) {
    assembleConcat(t.op);
    return true;
  }
  const dim = t.kind === undefined || t.kind === 'dimension' ? { d: t.d, lanes: t.lanes } : parallelDimension(t.op);
  if (dim) {
    tileParallelCompute(t.op, dim.d, dim.lanes);
    return true;
  }
  return tileInChunks(t.op, chunkTilingBudget(cost), cost.localAlignment);
}

/** The bytes one lane of a chunk tiling may hold: the smallest lane budget, an eighth of a core. */
function chunkTilingBudget(cost: CostModel): number {
  const budgets = laneSplitBudgets(cost);
  return budgets[budgets.length - 1]!;
}

/** Tiles the computes {@link planParallelTiles} finds (or `tiles`), in program order; returns how many changed. */
export function tileOversizedParallelComputes(func: Operation, cost: CostModel, tiles: readonly ParallelTile[] = planParallelTiles(new Workload(func, cost), cost)): number {
  let changed = 0;
  for (const t of tiles) if (applyTile(t, cost)) changed++;
  return changed;
}

/** The pass `spat-tile-parallel-computes` (module level; the target from the pass context). */
export class TileParallelComputesPass extends Pass {
  override readonly argument = 'spat-tile-parallel-computes';
  override readonly description = 'Turns scalar graph computes too large for one core that work independently along a dimension into lane batches over it (and a blueprint per result)';
  override readonly opName = 'builtin.module';

  runOnOperation(module: Operation): void {
    const cost = createCostModel(targetOf(this));
    const funcs = functionsOf(module);
    let changed = 0;
    for (const func of funcs) changed += tileOversizedParallelComputes(func, cost);
    if (!changed) this.markAllAnalysesPreserved();
  }
}
