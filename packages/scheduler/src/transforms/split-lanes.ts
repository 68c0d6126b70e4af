/**
 * `spat-split-lanes`: a weightless `spat.graph_compute_batch` whose lanes are too large for a
 * core and whose body works independently along one dimension of its fragment (element-wise ops,
 * slices, paddings and concatenations that take that dimension whole: resnet18's 112-pixel x
 * 64-channel ReLU, padding, max-pool and residual-add row strips along the channels) becomes a
 * batch of `L * k` lanes, each computing one of `k` chunks of that dimension of one old lane, plus
 * one fragment-assembly `spat.blueprint` per result that gives the consumers the old collection.
 *
 * Lane numbering is lane-major: new lane `n = l * k + q` computes chunk `q` of old lane `l`
 * (`l = n floordiv k`, `q = n mod k`, both affine maps of the new lane argument), so the chunks
 * of one old lane are consecutive lanes. A producer streaming into the split batch (kept on chip)
 * then sends each old lane's chunks as it computes them; with chunk-major numbering the consumer
 * would take chunk 0 of every old lane first, and the producer would have to hold all its results
 * until the last chunk (resnet18's stem: 12,544 pixels, 3.2 MB on one core). Every value of
 * the body keeps its shape but for `E / k` along the tracked dimension; reads of block arguments
 * take the chunk at `q * E / k`, splat constants shrink, dense constants are sliced. The new
 * collection is `[L * k, 1, ...fragment with E / k along d]`: a fragment assembly needs
 * collections of one rank more than the value it assembles (the old collection `[L, ...fragment]`),
 * so the fragment gets a leading unit dimension, as `spat-split-oversized-computes`' parts.
 *
 * ```
 * before:  relu  [112 lanes: row strip 112 x 64]                         --> consumer
 * after:   relu' [448 lanes: 4l+q = row l, channels 16q..16q+15]     --> blueprint --> consumer
 * ```
 *
 * A consumer split by the same `k` as its producer reads chunk `q` of its input, which the
 * blueprint maps to the producer's slots `l * k + q` only: the chunks stay 1:1.
 */
import {
  AffineMap,
  AffineMapAttr,
  ArrayAttr,
  ConstantOp,
  DenseArrayAttr,
  DenseElementsAttr,
  DYNAMIC,
  getAffineDimExpr,
  getAffineSymbolExpr,
  IndexType,
  IntegerAttr,
  IntegerType,
  IRMapping,
  OpBuilder,
  Pass,
  RankedTensorType,
  ReturnOp,
  simplifyAffineMap,
  uintOption,
  type AffineExpr,
  type Attribute,
  type Block,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import {
  ConcatOp,
  GraphComputeBatchOp,
  GraphComputeOp,
  InParallelOp,
  createFragmentAssembly,
  createInParallel,
  type AssemblyPiece,
} from '@raptor-pim/spatial-dialect';
import {
  AffineApplyOp,
  ExtractSliceOp,
  InsertSliceOp,
  ParallelInsertSliceOp,
  TensorCollapseShapeOp,
  TensorExpandShapeOp,
  createAffineApply,
  createExtractSlice,
  createParallelInsertSlice,
  readSliceLists,
  type IndexOrValue,
} from '@raptor-pim/upstream-dialects';
import { createCostModel, type CostModel } from '@raptor-pim/pim-target';
import { LANE_GROUPS_ATTR, Workload, byteSizeOfType } from '../analysis/workload';
import { fullPosition, reducedPosition, resized } from '../analysis/rank-reduction';
import { chunkOfConstant, cloneWithOperands } from './lane-body';
import { isPointwise, isStaticTensor } from '../analysis/pointwise';
import { divisors } from '../planning/schedule-plan';
import { targetOf } from '../target';
import { functionsOf } from '../analysis/functions';

/** The dimension of a weightless batch's fragments along which its lanes can be split. */
export interface LaneSplitDimension {
  /** The dimension of the fragment (the collection's dimension `d + 1`). */
  readonly d: number;
  /** The fragment's extent along it (E). */
  readonly extent: number;
}

/**
 * Which dimension of every tensor value of a batch body corresponds to the fragment's dimension
 * `d` (block arguments, op results, constants), or undefined when some op does not take it whole.
 */
interface Tracking {
  readonly entry: Block;
  readonly lane: Value;
  /** The tracked dimension of every tensor value of the body (input arguments included). */
  readonly dims: Map<Value, number>;
  /** The extent E every tracked dimension has. */
  readonly extent: number;
  /** Per result: its publication. */
  readonly publications: readonly Operation[];
  /** Ops of the body no publication depends on (dropped by the rewrite). */
  readonly dead: ReadonlySet<Operation>;
}

/** The input block arguments of a batch body (after the lane and weights). */
function inputArguments(batch: Operation, entry: Block): readonly Value[] {
  const view = GraphComputeBatchOp.get(batch);
  const first = 1 + (view.weights as readonly Value[]).length;
  return entry.arguments.slice(first, first + (view.inputs as readonly Value[]).length);
}

/** The reassociation groups of an expand/collapse shape op. */
function reassociationOf(op: Operation): number[][] | undefined {
  const a = op.getAttr('reassociation');
  if (!(a instanceof ArrayAttr)) return undefined;
  const out: number[][] = [];
  for (const g of a.elements) {
    if (!(g instanceof ArrayAttr)) return undefined;
    const group: number[] = [];
    for (const x of g.elements) {
      if (!(x instanceof IntegerAttr)) return undefined;
      group.push(Number(x.value));
    }
    out.push(group);
  }
  return out;
}

/**
 * For a reshape between `wide` (the side with more dimensions) and `narrow` with `groups` (one
 * group of wide dimensions per narrow dimension): the narrow dimension of wide dimension `w`, if
 * every other dimension of its group has size 1.
 */
function narrowOf(groups: readonly (readonly number[])[], wide: readonly number[], w: number): number {
  const g = groups.findIndex((group) => group.includes(w));
  if (g < 0) return -1;
  return groups[g]!.every((x) => x === w || wide[x] === 1) ? g : -1;
}

/** The wide dimension of narrow dimension `n`: the only one of its group of size > 1. */
function wideOf(groups: readonly (readonly number[])[], wide: readonly number[], n: number): number {
  const group = groups[n];
  if (!group) return -1;
  const big = group.filter((x) => wide[x] !== 1);
  return big.length === 1 ? big[0]! : -1;
}

/**
 * Tracks fragment dimension `d` of `batch` backwards from its publications through the body;
 * undefined when some op does not take the tracked dimension whole.
 */
function trackDimension(batch: Operation, d: number): Tracking | undefined {
  const entry = batch.regions[0]?.firstBlock;
  if (!entry || batch.regions[0]!.blocks.length !== 1 || batch.numResults === 0) return undefined;
  const term = entry.lastOp;
  if (!term || !InParallelOp.isInstance(term)) return undefined;
  const lane = entry.arguments[0]!;
  const outArgs = entry.arguments.slice(entry.arguments.length - batch.numResults);
  const inputs = new Set<Value>(inputArguments(batch, entry));
  const dims = new Map<Value, number>();
  let extent = -1;
  let ok = true;
  const set = (v: Value, dim: number): void => {
    const t = v.type;
    if (!isStaticTensor(t) || dim < 0 || dim >= t.shape.length || t.shape[dim] !== extent) {
      ok = false;
      return;
    }
    const had = dims.get(v);
    if (had !== undefined && had !== dim) ok = false;
    dims.set(v, dim);
  };
  // The publications: one per result, `[slot, 0, ...]` with sizes `[1, ...fragment]`.
  const publications: Operation[] = [];
  const inserts = term.regions[0]?.firstBlock?.operations ?? [];
  for (let k = 0; k < batch.numResults; k++) {
    const ins = inserts.find((o) => ParallelInsertSliceOp.isInstance(o) && o.getOperand(1) === outArgs[k]);
    const collection = batch.getResult(k).type;
    if (!ins || !isStaticTensor(collection)) return undefined;
    const fragment = collection.shape.slice(1);
    if (d >= fragment.length) return undefined;
    if (extent < 0) extent = fragment[d]!;
    if (fragment[d] !== extent || extent <= 1) return undefined;
    const source = ins.getOperand(0);
    if (!isStaticTensor(source.type) || source.type.shape.join('x') !== fragment.join('x')) return undefined;
    const lists = readSliceLists(ins);
    if (lists.offsets.slice(1).some((o) => o !== 0)) return undefined;
    if (!publicationSlotSupported(ins, lane, lists.offsets[0]!)) return undefined;
    set(source, d);
    publications.push(ins);
  }
  // Users come after definitions: walking backwards, every value's users are seen before it.
  // Ops whose results nothing live reads are dead: the rewrite drops them.
  const ops = entry.operations.filter((o) => o !== term);
  const dead = new Set<Operation>();
  for (let i = ops.length - 1; i >= 0 && ok; i--) {
    const op = ops[i]!;
    if (op.numRegions > 0) return undefined;
    if (op.numResults > 0 && op.results.every((r) => r.users.every((u) => dead.has(u)))) {
      dead.add(op);
      continue;
    }
    const tensorResults = op.results.filter((r) => r.type instanceof RankedTensorType);
    const tensorOperands = op.operands.filter((v) => v.type instanceof RankedTensorType);
    if (!tensorResults.length) {
      // Index computations only.
      if (tensorOperands.length || !(AffineApplyOp.isInstance(op) || ConstantOp.isInstance(op))) return undefined;
      continue;
    }
    if (tensorResults.length !== 1 || op.numResults !== 1) return undefined;
    const result = op.getResult(0);
    const rd = dims.get(result);
    if (rd === undefined) return undefined; // not on a path to a publication
    const rt = result.type as RankedTensorType;
    if (ConstantOp.isInstance(op)) {
      if (!(op.getAttr('value') instanceof DenseElementsAttr)) return undefined;
      continue;
    }
    if (isPointwise(op)) {
      for (const v of op.operands) {
        if (!isStaticTensor(v.type) || v.type.shape.join('x') !== rt.shape.join('x')) return undefined;
        set(v, rd);
      }
      continue;
    }
    if (ConcatOp.isInstance(op)) {
      if (Number(ConcatOp.get(op).axis.value) === rd) return undefined;
      for (const v of op.operands) set(v, rd);
      continue;
    }
    if (ExtractSliceOp.isInstance(op) || InsertSliceOp.isInstance(op)) {
      const lists = readSliceLists(op);
      if (lists.sizes.some((x) => x === DYNAMIC) || lists.strides.some((x) => x === DYNAMIC)) return undefined;
      const isExtract = ExtractSliceOp.isInstance(op);
      // The full-rank dimension of the slice that is tracked.
      const sliceValue = isExtract ? result : op.getOperand(0);
      const sliceShape = (sliceValue.type as RankedTensorType).shape;
      const full = isExtract ? fullPosition(lists.sizes, sliceShape, rd) : rd;
      if (full < 0) return undefined;
      if (lists.offsets[full] !== 0 || lists.sizes[full] !== extent || lists.strides[full] !== 1) return undefined;
      if (isExtract) set(op.getOperand(0), full);
      else {
        const pos = reducedPosition(lists.sizes, sliceShape, full);
        if (pos < 0) return undefined;
        set(op.getOperand(0), pos);
        set(op.getOperand(1), full);
      }
      continue;
    }
    if (TensorExpandShapeOp.isInstance(op) || TensorCollapseShapeOp.isInstance(op)) {
      const groups = reassociationOf(op);
      const src = op.getOperand(0);
      if (!groups || !isStaticTensor(src.type) || op.numOperands !== 1) return undefined;
      const sd = TensorExpandShapeOp.isInstance(op) ? narrowOf(groups, rt.shape, rd) : wideOf(groups, src.type.shape, rd);
      if (sd < 0) return undefined;
      set(src, sd);
      continue;
    }
    return undefined;
  }
  if (!ok) return undefined;
  // Every tensor value used in the body is tracked; arguments are only inputs read.
  for (const op of ops) {
    if (dead.has(op)) continue;
    for (const v of op.operands) {
      if (!(v.type instanceof RankedTensorType)) continue;
      if (!dims.has(v)) return undefined;
      if (v.definingOp === null && !inputs.has(v)) return undefined;
    }
  }
  return { entry, lane, dims, extent, publications, dead };
}

/** Slots `[lane]`, `[f(lane)]` (an affine.apply of the lane alone) or static 0 with one lane. */
function publicationSlotSupported(ins: Operation, lane: Value, staticSlot: number): boolean {
  if (staticSlot !== DYNAMIC) return false;
  const slot = (ParallelInsertSliceOp.get(ins).offsets as readonly Value[])[0];
  if (slot === lane) return true;
  const def = slot?.definingOp;
  return !!def && AffineApplyOp.isInstance(def) && def.operands.every((o) => o === lane) && AffineApplyOp.get(def).map.value.numSymbols === 0;
}

/**
 * The dimension of `batch`'s fragments along which its lane body is parallel in the strict sense
 * of this pass, with its extent E; undefined for a batch with weights or no such dimension.
 *
 * Tracking which dimension of every tensor value of the body corresponds to it (rank-reducing
 * slices map it through the kept dimensions; `tensor.expand_shape`/`collapse_shape` only where it
 * is not merged with another dimension of size > 1), every op must take it whole: slices at offset
 * 0 with the full extent and stride 1 along it; `spat.relu`, `sigmoid`, `vadd`, `vsub`, `vmul`,
 * `vmax` on equal shapes; `spat.concat` along another axis; dense constants (splats are resized,
 * the others sliced); the publications take it whole. With several results every fragment must
 * have the same extent along the same dimension. The innermost dimension (channels) is preferred.
 *
 * @example
 * // relu over row strips [112, 64]: the channels
 * laneSplitDimension(batch); // { d: 1, extent: 64 }
 */
export function laneSplitDimension(batch: Operation): LaneSplitDimension | undefined {
  if (!GraphComputeBatchOp.isInstance(batch)) return undefined;
  if ((GraphComputeBatchOp.get(batch).weights as readonly Value[]).length > 0 || batch.numResults === 0) return undefined;
  const first = batch.getResult(0).type;
  if (!isStaticTensor(first)) return undefined;
  for (let d = first.shape.length - 2; d >= 0; d--) {
    const t = trackDimension(batch, d);
    if (t) return { d, extent: t.extent };
  }
  return undefined;
}

// ------------------------------------------------------------------ the rewrite

function tensorWith(t: RankedTensorType, dim: number, size: number): RankedTensorType {
  return RankedTensorType.get(t.context, resized(t.shape, dim, size), t.elementType, t.encoding);
}

/** The mixed offsets of a slice op: static entries, dynamic ones mapped through `mapping`. */
function mixedOffsets(op: Operation, dynamic: readonly Value[], mapping: IRMapping): IndexOrValue[] {
  const lists = readSliceLists(op);
  let next = 0;
  return lists.offsets.map((o) => (o === DYNAMIC ? mapping.lookupOrDefault(dynamic[next++]!) : o));
}

/** `tensor.expand_shape` of `v` with a leading unit dimension. */
function expandLeadingUnit(b: OpBuilder, v: Value, loc: Operation['location']): Value {
  const t = v.type as RankedTensorType;
  const shape = [1, ...t.shape];
  const i64 = IntegerType.get(b.context, 64);
  const groups = t.shape.map((_, i) => (i === 0 ? [0, 1] : [i + 1]));
  return TensorExpandShapeOp.build(
    b,
    {
      src: v,
      output_shape: [],
      result: RankedTensorType.get(b.context, shape, t.elementType, t.encoding),
      reassociation: ArrayAttr.get(b.context, groups.map((g) => ArrayAttr.get(b.context, g.map((x) => IntegerAttr.get(i64, x))))),
      static_output_shape: DenseArrayAttr.i64(b.context, shape),
    },
    loc,
  ).result;
}

/** Affine expressions of the new lane numbering of {@link splitLanes}. */
interface LaneNumbering {
  /** The old lane of new lane `n`. */
  oldLane(n: AffineExpr): AffineExpr;
  /** The chunk index `q` of new lane `n`. */
  chunk(n: AffineExpr): AffineExpr;
  /** The new slot of the chunk new lane `n` computes, of old slot `oldSlot`. */
  slot(oldSlot: AffineExpr, n: AffineExpr): AffineExpr;
  /** The old lane and chunk index of new lane (or new slot of an identity publication) `n`, as numbers. */
  at(n: number): { readonly oldLane: number; readonly chunk: number };
}

/**
 * The numbering of `L * k` new lanes in `groups` groups of `L * k / groups` consecutive lanes:
 * `n = g * (L * k / G) + l * (k / G) + q'` computes chunk `q = g * k / G + q'` of old lane `l`.
 * One group is lane-major numbering: `n = l * k + q`.
 */
function laneNumbering(L: number, k: number, groups: number): LaneNumbering {
  if (groups === 1) {
    return {
      oldLane: (n) => n.floorDiv(k),
      chunk: (n) => n.mod(k),
      slot: (s, n) => s.mul(k).add(n.mod(k)),
      at: (n) => ({ oldLane: Math.floor(n / k), chunk: n % k }),
    };
  }
  const per = k / groups;
  const run = L * per;
  return {
    oldLane: (n) => n.mod(run).floorDiv(per),
    chunk: (n) => n.floorDiv(run).mul(per).add(n.mod(per)),
    slot: (s, n) => n.floorDiv(run).mul(run).add(s.mul(per)).add(n.mod(per)),
    at: (n) => ({ oldLane: Math.floor((n % run) / per), chunk: Math.floor(n / run) * per + (n % per) }),
  };
}

/**
 * Rewrites weightless `batch` (see {@link laneSplitDimension}; `d` its fragment dimension, `k` a
 * divisor of its extent E) into a batch of `L * k` lanes (new lane `l * k + q` computes chunk `q`
 * of `E / k` elements along `d` of old lane `l`) publishing `[L * k, 1, ...fragment with E / k
 * along d]`, plus one fragment-assembly `spat.blueprint` per result that rebuilds the old
 * collection and replaces every use of it. With `groups` G > 1 (a divisor of `k`), the lanes form
 * G runs of `L * k / G` consecutive lanes, run `g` computing chunks `g * k / G ..` of every old
 * lane, lane-major within the run (see {@link LANE_GROUPS_ATTR}). Returns the new batch. Throws
 * (an internal error) when the batch is not parallel along `d`, `k` does not divide E or G does
 * not divide `k`: call it on what the analysis accepted.
 *
 * @example
 * const dim = laneSplitDimension(batch);
 * if (dim) splitLanes(batch, dim.d, 4); // 112 lanes of [112, 64] -> 448 lanes of [1, 112, 16]
 * if (dim) splitLanes(batch, dim.d, 4, 2); // the same lanes in 2 runs: channels 0..31, then 32..63
 */
export function splitLanes(batch: Operation, d: number, k: number, groups = 1): Operation {
  const tracking = trackDimension(batch, d);
  if (!tracking) throw new Error(`internal error: splitLanes: ${batch.name} is not parallel along fragment dimension ${d}`);
  const E = tracking.extent;
  if (!Number.isInteger(k) || k < 1 || E % k !== 0) throw new Error(`internal error: splitLanes: ${k} does not divide the extent ${E}`);
  if (!Number.isInteger(groups) || groups < 1 || k % groups !== 0) throw new Error(`internal error: splitLanes: ${groups} lane groups do not divide ${k} chunks`);
  const chunk = E / k;
  const ctx = batch.context;
  const loc = batch.location;
  const view = GraphComputeBatchOp.get(batch);
  const L = Number(view.laneCount.value);
  const inputs = view.inputs as readonly Value[];
  const { entry, dims } = tracking;
  const oldInputArgs = inputArguments(batch, entry);
  const inputIndex = new Map<Value, number>(oldInputArgs.map((a, i) => [a, i]));
  const resultTypes = batch.results.map((r) => r.type as RankedTensorType);
  const fragments = resultTypes.map((t) => [1, ...resized(t.shape.slice(1), d, chunk)]);
  const collections = fragments.map((f, i) => RankedTensorType.get(ctx, [L * k, ...f], resultTypes[i]!.elementType, resultTypes[i]!.encoding));

  const b = OpBuilder.before(batch);
  const newBatch = GraphComputeBatchOp.build(
    b,
    { weights: [], inputs: [...inputs], outputs: collections, laneCount: IntegerAttr.get(IntegerType.get(ctx, 32), L * k) },
    loc,
  ).op;
  const index = IndexType.get(ctx);
  const argTypes = [index, ...inputs.map((v) => v.type), ...collections];
  const block = b.createBlock(newBatch.regions[0]!, null, argTypes, argTypes.map(() => loc));
  const lane = block.arguments[0]!;
  if (groups > 1) newBatch.setDiscardableAttr(LANE_GROUPS_ATTR, IntegerAttr.get(IntegerType.get(ctx, 64), groups));
  const numbering = laneNumbering(L, k, groups);
  const bb = OpBuilder.atBlockEnd(block, ctx);
  const d0 = getAffineDimExpr(ctx, 0);
  const apply = (expr: AffineExpr): Value => createAffineApply(bb, loc, AffineMap.get(ctx, 1, 0, [expr]), [lane]);
  let oldLane: Value | undefined;
  let chunkOffset: Value | undefined;
  const oldLaneValue = (): Value => (oldLane ??= apply(numbering.oldLane(d0)));
  const chunkOffsetValue = (): Value => (chunkOffset ??= apply(numbering.chunk(d0).mul(chunk)));
  const mapping = new IRMapping();
  oldInputArgs.forEach((a, i) => mapping.map(a, block.arguments[1 + i]!));
  // An input argument used other than as the source of a slice: its chunk, read once.
  const chunks = new Map<Value, Value>();
  const operandOf = (v: Value): Value => {
    if (v === tracking.lane) return oldLaneValue();
    const i = inputIndex.get(v);
    if (i === undefined || !(v.type instanceof RankedTensorType)) return mapping.lookupOrDefault(v);
    let c = chunks.get(v);
    if (!c) {
      const t = v.type;
      const dim = dims.get(v)!;
      c = createExtractSlice(bb, loc, block.arguments[1 + i]!, { offsets: t.shape.map((_, j) => (j === dim ? chunkOffsetValue() : 0)), sizes: resized(t.shape, dim, chunk) });
      chunks.set(v, c);
    }
    return c;
  };
  const newType = (v: Value): RankedTensorType => tensorWith(v.type as RankedTensorType, dims.get(v)!, chunk);

  for (const op of entry.operations) {
    if (op === entry.lastOp) break;
    if (tracking.dead.has(op)) continue;
    if (AffineApplyOp.isInstance(op)) {
      // Compose: the old lane becomes its expression of the new lane (`newLane floordiv k`) inside the map.
      const map = AffineApplyOp.get(op).map.value;
      const replDims = Array.from({ length: map.numDims }, (_, i) => (op.getOperand(i) === tracking.lane ? numbering.oldLane(getAffineDimExpr(ctx, i)) : getAffineDimExpr(ctx, i)));
      const replSyms = Array.from({ length: map.numSymbols }, (_, i) => (op.getOperand(map.numDims + i) === tracking.lane ? numbering.oldLane(getAffineSymbolExpr(ctx, i)) : getAffineSymbolExpr(ctx, i)));
      const composed = simplifyAffineMap(AffineMap.get(ctx, map.numDims, map.numSymbols, map.results.map((e) => e.replaceDimsAndSymbols(replDims, replSyms))));
      const operands = op.operands.map((v) => (v === tracking.lane ? lane : mapping.lookupOrDefault(v)));
      const created = AffineApplyOp.build(bb, { mapOperands: operands, result: index, map: AffineMapAttr.get(composed) }, op.location).result;
      mapping.map(op.getResult(0), created);
      continue;
    }
    if (!op.results.some((r) => r.type instanceof RankedTensorType)) {
      cloneWithOperands(bb, op, operandOf, mapping);
      continue;
    }
    const result = op.getResult(0);
    const type = newType(result);
    const rd = dims.get(result)!;
    if (ConstantOp.isInstance(op)) {
      mapping.map(result, chunkOfConstant(bb, op, type, rd, chunkOffsetValue));
      continue;
    }
    if (ExtractSliceOp.isInstance(op) && inputIndex.has(op.getOperand(0))) {
      // A read of a block argument: the chunk at q * E / k.
      const src = op.getOperand(0);
      const sd = dims.get(src)!;
      const lists = readSliceLists(op);
      const offsets = mixedOffsets(op, ExtractSliceOp.get(op).offsets as readonly Value[], mapping).map((o, j) => (j === sd ? chunkOffsetValue() : o === tracking.lane ? oldLaneValue() : o));
      const created = createExtractSlice(bb, op.location, mapping.lookup(src), { offsets, sizes: resized(lists.sizes, sd, chunk), strides: lists.strides }, type);
      mapping.map(result, created);
      continue;
    }
    const properties = new Map<string, Attribute>(op.properties);
    if (ExtractSliceOp.isInstance(op) || InsertSliceOp.isInstance(op)) {
      const full = ExtractSliceOp.isInstance(op) ? dims.get(op.getOperand(0))! : rd;
      properties.set('static_sizes', DenseArrayAttr.i64(ctx, resized(readSliceLists(op).sizes, full, chunk)));
    }
    if (TensorExpandShapeOp.isInstance(op)) properties.set('static_output_shape', DenseArrayAttr.i64(ctx, type.shape));
    const created = bb.create({ name: op.name, location: op.location, operands: op.operands.map(operandOf), resultTypes: [type], properties, attributes: op.attributes });
    mapping.map(result, created.getResult(0));
  }

  // Publications: the new slot of chunk q of old slot slot(l), the fragment with a leading unit dimension.
  const slots = new Map<Value, Value>([[tracking.lane, lane]]);
  const published = tracking.publications.map((ins) => {
    const value = expandLeadingUnit(bb, mapping.lookup(ins.getOperand(0)), ins.location);
    const slot = (ParallelInsertSliceOp.get(ins).offsets as readonly Value[])[0]!;
    let newSlot = slots.get(slot);
    if (!newSlot) {
      const f = AffineApplyOp.get(slot.definingOp!).map.value.results[0]!;
      const composed = numbering.slot(f.replaceDimsAndSymbols([numbering.oldLane(d0)], []), d0);
      newSlot = createAffineApply(bb, ins.location, simplifyAffineMap(AffineMap.get(ctx, 1, 0, [composed])), [lane]);
      slots.set(slot, newSlot);
    }
    return { ins, value, slot: newSlot };
  });
  const par = createInParallel(bb, loc);
  const pb = OpBuilder.atBlockEnd(par, ctx);
  published.forEach(({ ins, value, slot }, r) => {
    const out = block.arguments[1 + inputs.length + r]!;
    createParallelInsertSlice(pb, ins.location, value, out, { offsets: [slot, ...fragments[r]!.map(() => 0)], sizes: [1, ...fragments[r]!] });
  });

  // The old collections: new slot n is chunk q(n) of old slot s(n), pieces in new slot order.
  const ab = OpBuilder.before(batch);
  batch.results.forEach((res, r) => {
    const t = resultTypes[r]!;
    const pieces: AssemblyPiece[] = [];
    for (let n = 0; n < L * k; n++) {
      const { oldLane: s, chunk: q } = numbering.at(n);
      pieces.push({
        operandIndex: 0,
        sourceSlot: n,
        sourceOffset: 0,
        offsets: t.shape.map((_, i) => (i === 0 ? s : i === d + 1 ? q * chunk : 0)),
        sizes: fragments[r]!,
        strides: t.shape.map(() => 1),
      });
    }
    res.replaceAllUsesWith(createFragmentAssembly(ab, loc, [newBatch.getResult(r)], t, pieces));
  });
  batch.erase();
  return newBatch;
}

// ------------------------------------------------------------------ planning

/**
 * The live local memory of one lane of `batch`, in bytes (each item rounded up to `alignment`):
 * what it reads of its block arguments (the slices it takes of them, or the whole argument it
 * uses directly), its fragments, and the two largest other values its body computes (the
 * temporaries of one round, as `planLocalMemory` counts them; reshapes are views, not counted,
 * and a `tensor.insert_slice` into a value nothing else reads is that value's buffer written in
 * place, as pim-bufferize does: a padding lane's 2-row select counts its zero rows once).
 */
export function laneLiveBytes(batch: Operation, alignment = 1): number {
  const entry = batch.regions[0]?.firstBlock;
  if (!entry || !GraphComputeBatchOp.isInstance(batch)) return 0;
  const align = (n: number): number => Math.ceil(n / alignment) * alignment;
  const args = new Set<Value>(inputArguments(batch, entry));
  const counted = new Set<Value>();
  let reads = 0;
  for (const a of args) {
    for (const u of a.uses) {
      const o = u.owner;
      if (ExtractSliceOp.isInstance(o) && u.index === 0) {
        counted.add(o.getResult(0));
        reads += align(byteSizeOfType(o.getResult(0).type));
      } else if (!counted.has(a)) {
        counted.add(a);
        reads += align(byteSizeOfType(a.type));
      }
    }
  }
  let fragments = 0;
  const term = entry.lastOp;
  for (const o of term?.regions[0]?.firstBlock?.operations ?? []) {
    if (!ParallelInsertSliceOp.isInstance(o)) continue;
    fragments += align(byteSizeOfType(o.getOperand(0).type));
    // The fragment and the values it is a reshaped view of: one buffer.
    for (let v: Value | undefined = o.getOperand(0); v && !counted.has(v); ) {
      counted.add(v);
      const def: Operation | null = v.definingOp;
      v = def && (TensorExpandShapeOp.isInstance(def) || TensorCollapseShapeOp.isInstance(def)) ? def.getOperand(0) : undefined;
    }
  }
  // Reshapes are views of their source (bufferization aliases them): no buffer of their own. An
  // insertion into a value nothing else reads writes that value's buffer in place: one buffer.
  const temporaries: number[] = [];
  batch.regions[0]!.walk((o: Operation) => {
    if (TensorExpandShapeOp.isInstance(o) || TensorCollapseShapeOp.isInstance(o)) return;
    if (InsertSliceOp.isInstance(o) && o.getOperand(1).hasOneUse()) return;
    for (const r of o.results) if (!counted.has(r) && r.type instanceof RankedTensorType) temporaries.push(align(byteSizeOfType(r.type)));
  });
  temporaries.sort((x, y) => y - x);
  return reads + fragments + (temporaries[0] ?? 0) + (temporaries[1] ?? 0);
}

/**
 * The lane budgets tried, largest first: half, a quarter and an eighth of a core's local memory.
 * A larger budget means fewer, longer chunks: on resnet18 the stem chain splits into 8 chunks of
 * 8 channels at half a core instead of 32 chunks of 2 at an eighth, and its bundle has 3.6 M
 * instead of 17.5 M instructions (every chunk of a pixel-major row is one copied run per pixel).
 */
export function laneSplitBudgets(cost: CostModel): number[] {
  return [2, 4, 8].map((d) => Math.floor(cost.localMemoryBytes / d));
}

/** The default lane budget: the largest of {@link laneSplitBudgets}, half a core's local memory. */
export function laneSplitBudget(cost: CostModel): number {
  return laneSplitBudgets(cost)[0]!;
}

/**
 * Splits the wide lanes of `func` with the largest of {@link laneSplitBudgets} after which
 * `fits` holds for the new workload, else with the smallest budget; returns the workload of the
 * function as left (the input `workload` when nothing was split). A budget that does not fit is
 * undone by restoring the function's body.
 */
export function splitLanesToFit(func: Operation, workload: Workload, cost: CostModel, fits: (w: Workload) => boolean): Workload {
  const budgets = laneSplitBudgets(cost);
  let unsplit: Operation | undefined;
  let current = workload;
  for (let i = 0; i < budgets.length; i++) {
    const plans = planLaneSplits(current, cost, budgets[i]);
    if (!plans.length) continue;
    unsplit ??= func.clone();
    splitWideLanes(func, cost, plans);
    const split = new Workload(func, cost);
    if (i === budgets.length - 1 || fits(split)) return split;
    func.regions[0]!.takeBody(unsplit.clone().regions[0]!);
    current = new Workload(func, cost);
  }
  return current;
}

/** A weightless batch to split and how. */
export interface LaneSplit {
  /** The batch. */
  readonly op: Operation;
  /** Its fragment dimension split ({@link laneSplitDimension}). */
  readonly d: number;
  /** The fragment's extent along it. */
  readonly extent: number;
  /** Chunks per old lane (a divisor of `extent`). */
  readonly k: number;
  /** One old lane's live bytes ({@link laneLiveBytes}). */
  readonly laneBytes: number;
  /** Lane groups (a divisor of `k`; 1: lane-major numbering); see {@link splitLanes}. */
  readonly groups: number;
}

/** True when every use of `batch`'s results is a graph compute or a function return. */
function readByComputes(batch: Operation): boolean {
  return batch.results.every((r) => r.users.every((u) => GraphComputeOp.isInstance(u) || GraphComputeBatchOp.isInstance(u) || ReturnOp.isInstance(u)));
}

/**
 * The weightless batches of `workload`'s function whose one lane needs more than `budget` bytes
 * ({@link laneLiveBytes}; default {@link laneSplitBudget}, half a core) and that have a
 * {@link laneSplitDimension}, each with the smallest divisor `k` of the extent E whose chunks fit
 * (`laneBytes / k <= budget`; E when none does). Each batch takes its own `k`: a consumer split
 * more finely than its producer reads part of a producer chunk, one split less finely several
 * whole chunks (the blueprints assemble either). Giving a chain of such batches the largest `k`
 * of the chain, as this did before, cut resnet18's residual adds and paddings into the max
 * pooling's 8-channel chunks: every 2-pixel convolution fragment they read became 8 copied
 * pieces of 32 bytes (1.97 M instead of 2.27 M instructions with their own `k`, 203.4 ms
 * instead of 215.5 ms simulated). Batches read by anything but graph computes and
 * `func.return` (an existing blueprint) are left alone.
 *
 * Lane groups: where a consumer lane of a chain reads several old lanes of its producer (a
 * max pooling's window of padded rows), the producer holds each chunk it made until the
 * consumer's later lanes take it again: with lane-major numbering, `span` old lanes of every
 * chunk at once. A chain (batches to split that read one another along the same extent) then
 * gives each of its batches the fewest lane groups G (a divisor of its k) that bring
 * `span` old lanes' fragments of one group within a quarter of a core, so that replicas of
 * one group each (replica counts that are multiples of G) hold a G-th of it.
 *
 * @example
 * const cost = createCostModel(defaultTarget());
 * const plans = planLaneSplits(new Workload(func, cost), cost); // resnet18: the stem's max pooling k=8, its residual adds k=2, ...
 */
export function planLaneSplits(workload: Workload, cost: CostModel, budget = laneSplitBudget(cost)): LaneSplit[] {
  const candidates: LaneSplit[] = [];
  const byOp = new Map<Operation, number>();
  for (const n of workload.nodes) {
    if (!n.isBatch || n.crossbars > 0) continue;
    const laneBytes = laneLiveBytes(n.op, cost.localAlignment);
    if (laneBytes <= budget) continue;
    const dim = laneSplitDimension(n.op);
    if (!dim || !readByComputes(n.op)) continue;
    const k = divisors(dim.extent).find((x) => x > 1 && laneBytes / x <= budget) ?? dim.extent;
    byOp.set(n.op, candidates.length);
    candidates.push({ op: n.op, d: dim.d, extent: dim.extent, k, laneBytes, groups: 1 });
  }
  // Chains: batches to split that read one another along the same extent (union-find over the
  // producer -> consumer edges), for their lane groups below.
  const parent = candidates.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (const n of workload.nodes) {
    const c = byOp.get(n.op);
    if (c === undefined) continue;
    for (const input of n.inputs) {
      for (const s of input.sources) {
        const p = byOp.get(workload.nodes[s.producer]!.op);
        if (p !== undefined && candidates[p]!.extent === candidates[c]!.extent) parent[find(p)] = find(c);
      }
    }
  }

  // Lane groups per chain: the bytes a producer holds for a consumer reading several of its old
  // lanes per lane (its window span times one old lane's fragments), a quarter of a core per group.
  const heldOf = new Map<number, number>();
  for (const n of workload.nodes) {
    const c = byOp.get(n.op);
    if (c === undefined) continue;
    for (const input of n.inputs) {
      for (const s of input.sources) {
        const producer = workload.nodes[s.producer]!;
        const p = byOp.get(producer.op);
        if (p === undefined || find(p) !== find(c)) continue;
        let span = 0;
        for (const slots of s.slotsPerLane) span = Math.max(span, slots.length);
        if (span < 2) continue;
        const held = span * (producer.resultBytes.reduce((a, b) => a + b, 0) / Math.max(1, producer.lanes));
        heldOf.set(find(c), Math.max(heldOf.get(find(c)) ?? 0, held));
      }
    }
  }
  const groupBudget = cost.localMemoryBytes / 4;
  const groupsOf = (root: number, k: number): number => {
    const held = heldOf.get(root);
    if (held === undefined || held <= groupBudget) return 1;
    return divisors(k).find((g) => held / g <= groupBudget) ?? k;
  };
  return candidates.map((c, i) => ({ ...c, groups: groupsOf(find(i), c.k) }));
}

/**
 * Splits the lanes {@link planLaneSplits} finds in `func` (or `plans`), in program order; returns
 * how many batches were split.
 */
export function splitWideLanes(func: Operation, cost: CostModel, plans: readonly LaneSplit[] = planLaneSplits(new Workload(func, cost), cost)): number {
  for (const p of plans) splitLanes(p.op, p.d, p.k, p.groups);
  return plans.length;
}

/**
 * The pass `spat-split-lanes` (module level; the target from the pass context): splits the lanes
 * of weightless batches larger than `budget` bytes (0: half a core's local memory).
 */
export class SplitLanesPass extends Pass {
  static readonly budget = uintOption('budget', 0, 'bytes one lane may hold before it is split (0: half a core\'s local memory)');
  override readonly argument = 'spat-split-lanes';
  override readonly description = 'Splits the lanes of weightless graph compute batches too large for a core along a dimension their bodies are parallel along (and a blueprint per result)';
  override readonly opName = 'builtin.module';
  override readonly optionSpecs = [SplitLanesPass.budget];

  runOnOperation(module: Operation): void {
    const cost = createCostModel(targetOf(this));
    const budget = this.option(SplitLanesPass.budget) || laneSplitBudget(cost);
    const funcs = functionsOf(module);
    let changed = 0;
    for (const func of funcs) changed += splitWideLanes(func, cost, planLaneSplits(new Workload(func, cost), cost, budget));
    if (!changed) this.markAllAnalysesPreserved();
  }
}
