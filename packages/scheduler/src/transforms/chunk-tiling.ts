/**
 * Tiling of weightless scalar graph computes into lane batches over chunks of one dimension that
 * may move from value to value (`spat-tile-parallel-computes`' second rule): data movement as ONNX
 * Transpose, Reshape, Softmax-by-differences and DepthToSpace lower it (rank-reducing slices,
 * transposing `tensor.insert_slice`s, `tensor.collapse_shape`/`expand_shape`), whose values do
 * not share one dimension.
 *
 * - {@link trackChunks}: which dimension and chunk of every value of a body one lane computes,
 *   walking back from the results (`ChunkTracking`); a reshape (a chain of collapse/expand) keeps
 *   a chunk where the tracked dimension is the outermost non-unit one of its segment on both sides
 *   (row-major: the chunk is one contiguous run of the segment, see {@link reshapeSegments}).
 * - {@link tileComputeInChunks}: the rewrite into a batch of `lanes` lanes and one
 *   fragment-assembly blueprint per result.
 * - {@link fuseDataMovementProducers}: a compute reading a physical-view blueprint of weightless
 *   batches whose lanes are too large takes their bodies in (one copy per lane, lane numbers
 *   folded), so the tiling reads their inputs directly (superres' pixel-major convolution output
 *   to NCHW planes, then DepthToSpace: a lane reads one row of pixels of the convolution).
 * - {@link assembleConcat}: a compute that only concatenates values that are fragment assemblies
 *   (or small weightless computes, wrapped into one-lane batches) becomes one fragment assembly of
 *   their fragments: no compute, no copy.
 *
 * ```
 * transpose NCHW -> NHWC (1x6x30x40, one compute of 28.8 KB)
 *   -> 15 lanes: lane q reads rows 2q..2q+1 of every channel, publishes 1x2x40x6
 * ```
 */
import {
  AffineMap,
  ArrayAttr,
  ConstantOp,
  DenseArrayAttr,
  DenseElementsAttr,
  DYNAMIC,
  getAffineDimExpr,
  IndexType,
  IntegerAttr,
  IntegerType,
  IRMapping,
  OpBuilder,
  RankedTensorType,
  type Attribute,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import {
  BlueprintOp,
  ConcatOp,
  GraphComputeBatchOp,
  GraphComputeOp,
  InParallelOp,
  YieldOp,
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
  EmptyOp,
  TensorExpandShapeOp,
  createAffineApply,
  createEmpty,
  createExtractSlice,
  createInsertSlice,
  createParallelInsertSlice,
  evaluateStaticIndex,
  readSliceLists,
  type IndexOrValue,
} from '@raptor-pim/upstream-dialects';
import { byteSizeOfType } from '../analysis/workload';
import { fullPosition, reducedPosition, resized } from '../analysis/rank-reduction';
import { chunkOfConstant, cloneWithOperands } from './lane-body';
import { isPointwise, isStaticTensor } from '../analysis/pointwise';

/** The dimension of a value one lane computes a chunk of, and the chunk's extent along it. */
export interface Chunk {
  readonly dim: number;
  readonly size: number;
}

/** Which chunk of every value of a compute body one lane of the tiled batch computes. */
export interface ChunkTracking {
  /** The lane count: every tracked value's extent along its dimension over its chunk size. */
  readonly lanes: number;
  /** Every tensor value of the body a result depends on (input arguments included). */
  readonly chunks: ReadonlyMap<Value, Chunk>;
  /** Ops of the body no result depends on, and reshapes folded into a later reshape of a chain. */
  readonly skipped: ReadonlySet<Operation>;
}

/** One segment of a row-major reshape: source dimensions and result dimensions of equal product. */
export interface ReshapeSegment {
  readonly src: readonly number[];
  readonly dst: readonly number[];
}

const product = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);

/**
 * The finest segmentation of the row-major reshape `src` -> `dst` (equal element counts): each
 * segment is a run of source dimensions and a run of result dimensions with equal products, so a
 * segment's flat index is the same on both sides and segments are independent dimensions.
 * Undefined when the element counts differ.
 *
 * @example
 * reshapeSegments([1, 30, 40, 6], [1, 3600, 2]); // [{src:[0],dst:[0]}, {src:[1,2,3],dst:[1,2]}]
 */
export function reshapeSegments(src: readonly number[], dst: readonly number[]): ReshapeSegment[] | undefined {
  if (product(src) !== product(dst)) return undefined;
  const out: ReshapeSegment[] = [];
  let i = 0;
  let j = 0;
  while (i < src.length || j < dst.length) {
    const s: number[] = [];
    const d: number[] = [];
    let ps = 1;
    let pd = 1;
    if (i < src.length) {
      s.push(i);
      ps *= src[i++]!;
    }
    if (j < dst.length) {
      d.push(j);
      pd *= dst[j++]!;
    }
    while (ps !== pd) {
      if (ps < pd) {
        if (i >= src.length) return undefined;
        s.push(i);
        ps *= src[i++]!;
      } else {
        if (j >= dst.length) return undefined;
        d.push(j);
        pd *= dst[j++]!;
      }
    }
    out.push({ src: s, dst: d });
  }
  return out;
}

/**
 * The chunk of the source of the row-major reshape `src` -> `dst` that chunk `c` of the result
 * needs, or undefined when it is not one chunk: the result dimension must be the outermost
 * non-unit one of its segment, and the chunk's run of the segment must be whole rows of the
 * segment's outermost non-unit source dimension.
 */
export function reshapeSourceChunk(src: readonly number[], dst: readonly number[], c: Chunk): Chunk | undefined {
  const segments = reshapeSegments(src, dst);
  const seg = segments?.find((g) => g.dst.includes(c.dim));
  if (!seg) return undefined;
  const outerDst = seg.dst.find((x) => dst[x] !== 1);
  const outerSrc = seg.src.find((x) => src[x] !== 1);
  if (outerDst !== c.dim || outerSrc === undefined) return undefined;
  const innerDst = product(seg.dst.filter((x) => x > c.dim).map((x) => dst[x]!));
  const innerSrc = product(seg.src.filter((x) => x > outerSrc).map((x) => src[x]!));
  const run = c.size * innerDst;
  if (run % innerSrc !== 0) return undefined;
  const size = run / innerSrc;
  if (src[outerSrc]! % size !== 0) return undefined;
  return { dim: outerSrc, size };
}

const isReshape = (op: Operation): boolean => TensorCollapseShapeOp.isInstance(op) || TensorExpandShapeOp.isInstance(op);

/**
 * The value a chain of reshapes ending in `op` starts from: the sources of collapse/expand ops
 * read only by the next reshape of the chain are looked through.
 */
function reshapeRoot(op: Operation): { root: Value; folded: Operation[] } {
  const folded: Operation[] = [];
  let v = op.getOperand(0);
  for (let def = v.definingOp; def && isReshape(def) && v.hasOneUse(); def = v.definingOp) {
    folded.push(def);
    v = def.getOperand(0);
  }
  return { root: v, folded };
}

/**
 * Tracks chunks of the weightless scalar `compute`'s body back from its results: result `k` is
 * cut along `resultDims[k]` into `lanes` chunks. Undefined when some op of the body does not
 * compute a chunk of its result from one chunk of each operand (see the module comment).
 */
export function trackChunks(compute: Operation, resultDims: readonly number[], lanes: number): ChunkTracking | undefined {
  if (!GraphComputeOp.isInstance(compute) || compute.regions[0]?.blocks.length !== 1) return undefined;
  if ((GraphComputeOp.get(compute).weights as readonly Value[]).length > 0) return undefined;
  const entry = compute.regions[0]!.firstBlock!;
  const term = entry.lastOp;
  if (!term || !YieldOp.isInstance(term) || term.numOperands !== compute.numResults) return undefined;
  const chunks = new Map<Value, Chunk>();
  let ok = true;
  const set = (v: Value, c: Chunk | undefined): void => {
    const t = v.type;
    if (!c || !isStaticTensor(t) || c.dim < 0 || c.dim >= t.shape.length || c.size < 1 || t.shape[c.dim]! !== c.size * lanes) {
      ok = false;
      return;
    }
    const had = chunks.get(v);
    if (had && (had.dim !== c.dim || had.size !== c.size)) ok = false;
    chunks.set(v, c);
  };
  term.operands.forEach((v, k) => {
    const t = v.type;
    const d = resultDims[k];
    if (d === undefined || !isStaticTensor(t) || t.shape[d]! % lanes !== 0) ok = false;
    else set(v, { dim: d, size: t.shape[d]! / lanes });
  });
  const ops = entry.operations.filter((o) => o !== term);
  const skipped = new Set<Operation>();
  for (let i = ops.length - 1; i >= 0 && ok; i--) {
    const op = ops[i]!;
    if (skipped.has(op)) continue;
    if (op.numRegions > 0) return undefined;
    const tensorResults = op.results.filter((r) => r.type instanceof RankedTensorType);
    if (tensorResults.length && tensorResults.every((r) => !chunks.has(r))) {
      // No result depends on it (its readers, if any, are dead too).
      skipped.add(op);
      continue;
    }
    if (!tensorResults.length) {
      // Index computations only.
      if (op.operands.some((v) => v.type instanceof RankedTensorType) || !(AffineApplyOp.isInstance(op) || ConstantOp.isInstance(op))) return undefined;
      continue;
    }
    if (op.numResults !== 1) return undefined;
    const result = op.getResult(0);
    const c = chunks.get(result);
    if (!c) return undefined;
    const rt = result.type as RankedTensorType;
    if (ConstantOp.isInstance(op)) {
      if (!(op.getAttr('value') instanceof DenseElementsAttr)) return undefined;
      continue;
    }
    if (EmptyOp.isInstance(op)) {
      if (op.numOperands > 0) return undefined;
      continue;
    }
    if (isPointwise(op)) {
      for (const v of op.operands) {
        if (!isStaticTensor(v.type) || v.type.shape.join('x') !== rt.shape.join('x')) return undefined;
        set(v, c);
      }
      continue;
    }
    if (ConcatOp.isInstance(op)) {
      if (Number(ConcatOp.get(op).axis.value) === c.dim) return undefined;
      for (const v of op.operands) set(v, c);
      continue;
    }
    if (ExtractSliceOp.isInstance(op) || InsertSliceOp.isInstance(op)) {
      const lists = readSliceLists(op);
      if (lists.sizes.some((x) => x === DYNAMIC) || lists.strides.some((x) => x === DYNAMIC)) return undefined;
      const isExtract = ExtractSliceOp.isInstance(op);
      const small = (isExtract ? result : op.getOperand(0)).type as RankedTensorType;
      const big = (isExtract ? op.getOperand(0) : result).type as RankedTensorType;
      const full = isExtract ? fullPosition(lists.sizes, small.shape, c.dim) : c.dim;
      if (full < 0 || lists.offsets[full] !== 0 || lists.sizes[full] !== big.shape[full] || lists.strides[full] !== 1) return undefined;
      if (isExtract) set(op.getOperand(0), { dim: full, size: c.size });
      else {
        set(op.getOperand(0), { dim: reducedPosition(lists.sizes, small.shape, full), size: c.size });
        set(op.getOperand(1), c);
      }
      continue;
    }
    if (isReshape(op)) {
      const { root, folded } = reshapeRoot(op);
      if (!isStaticTensor(root.type)) return undefined;
      for (const f of folded) skipped.add(f);
      set(root, reshapeSourceChunk(root.type.shape, rt.shape, c));
      continue;
    }
    return undefined;
  }
  if (!ok) return undefined;
  // Every tensor operand of a live op is tracked; arguments of the body are inputs.
  for (const op of ops) {
    if (skipped.has(op)) continue;
    const read = isReshape(op) ? [reshapeRoot(op).root] : op.operands;
    for (const v of read) if (v.type instanceof RankedTensorType && !chunks.has(v)) return undefined;
  }
  return { lanes, chunks, skipped };
}

function i64Groups(b: OpBuilder, groups: readonly (readonly number[])[]): ArrayAttr {
  const i64 = IntegerType.get(b.context, 64);
  return ArrayAttr.get(b.context, groups.map((g) => ArrayAttr.get(b.context, g.map((x) => IntegerAttr.get(i64, x)))));
}

/**
 * `value` reshaped (row-major) to `shape`: a collapse to one dimension and an expand, each left
 * out where not needed.
 */
export function createReshape(b: OpBuilder, loc: Operation['location'], value: Value, shape: readonly number[]): Value {
  const t = value.type as RankedTensorType;
  if (t.shape.join('x') === shape.join('x')) return value;
  const n = product(t.shape);
  let flat = value;
  if (t.shape.length !== 1) {
    flat = TensorCollapseShapeOp.build(b, { src: value, result: RankedTensorType.get(b.context, [n], t.elementType, t.encoding), reassociation: i64Groups(b, [t.shape.map((_, i) => i)]) }, loc).result;
  }
  if (shape.length === 1) return flat;
  return TensorExpandShapeOp.build(
    b,
    {
      src: flat,
      output_shape: [],
      result: RankedTensorType.get(b.context, shape, t.elementType, t.encoding),
      reassociation: i64Groups(b, [shape.map((_, i) => i)]),
      static_output_shape: DenseArrayAttr.i64(b.context, [...shape]),
    },
    loc,
  ).result;
}

/**
 * Rewrites weightless scalar `compute` (tracked by {@link trackChunks}) into a
 * `spat.graph_compute_batch` of `tracking.lanes` lanes, lane `q` computing chunk `q` of every
 * value, publishing `[lanes, ...result with its chunk]`, plus one fragment-assembly blueprint per
 * result replacing its uses. Returns the batch.
 */
export function tileComputeInChunks(compute: Operation, tracking: ChunkTracking): Operation {
  const ctx = compute.context;
  const loc = compute.location;
  const entry = compute.regions[0]!.firstBlock!;
  const term = entry.lastOp!;
  const { chunks, skipped, lanes } = tracking;
  const inputs = GraphComputeOp.get(compute).inputs as readonly Value[];
  const kept = inputs.map((_, k) => k).filter((k) => chunks.has(entry.arguments[k]!));
  const resultTypes = compute.results.map((r) => r.type as RankedTensorType);
  const fragments = term.operands.map((v) => resized((v.type as RankedTensorType).shape, chunks.get(v)!.dim, chunks.get(v)!.size));
  const collections = fragments.map((f, k) => RankedTensorType.get(ctx, [lanes, ...f], resultTypes[k]!.elementType, resultTypes[k]!.encoding));
  const b = OpBuilder.before(compute);
  const batch = GraphComputeBatchOp.build(
    b,
    { weights: [], inputs: kept.map((k) => inputs[k]!), outputs: collections, laneCount: IntegerAttr.get(IntegerType.get(ctx, 32), lanes) },
    loc,
  ).op;
  const index = IndexType.get(ctx);
  const argTypes = [index, ...kept.map((k) => inputs[k]!.type), ...collections];
  const block = b.createBlock(batch.regions[0]!, null, argTypes, argTypes.map(() => loc));
  const lane = block.arguments[0]!;
  const bb = OpBuilder.atBlockEnd(block, ctx);
  const offsets = new Map<number, Value>();
  /** `lane * size`, one op per size. */
  const laneOffset = (size: number): Value => {
    let v = offsets.get(size);
    if (!v) {
      v = createAffineApply(bb, loc, AffineMap.get(ctx, 1, 0, [getAffineDimExpr(ctx, 0).mul(size)]), [lane]);
      offsets.set(size, v);
    }
    return v;
  };
  const mapping = new IRMapping();
  const args = new Map<Value, Value>();
  kept.forEach((k, i) => args.set(entry.arguments[k]!, block.arguments[1 + i]!));
  const newType = (v: Value): RankedTensorType => {
    const t = v.type as RankedTensorType;
    const c = chunks.get(v)!;
    return RankedTensorType.get(ctx, resized(t.shape, c.dim, c.size), t.elementType, t.encoding);
  };
  /** The chunk of input argument `a`, extracted once where an op reads it whole. */
  const argChunks = new Map<Value, Value>();
  const operandOf = (v: Value): Value => {
    const a = args.get(v);
    if (!a || !(v.type instanceof RankedTensorType)) return mapping.lookupOrDefault(v);
    let c = argChunks.get(v);
    if (!c) {
      const ch = chunks.get(v)!;
      c = createExtractSlice(bb, loc, a, { offsets: v.type.shape.map((_, j) => (j === ch.dim ? laneOffset(ch.size) : 0)), sizes: newType(v).shape });
      argChunks.set(v, c);
    }
    return c;
  };
  for (const op of entry.operations) {
    if (op === term) break;
    if (skipped.has(op)) continue;
    if (!op.results.some((r) => r.type instanceof RankedTensorType)) {
      cloneWithOperands(bb, op, operandOf, mapping);
      continue;
    }
    const result = op.getResult(0);
    const type = newType(result);
    const c = chunks.get(result)!;
    if (ConstantOp.isInstance(op)) {
      mapping.map(result, chunkOfConstant(bb, op, type, c.dim, () => laneOffset(c.size)));
      continue;
    }
    if (EmptyOp.isInstance(op)) {
      mapping.map(result, createEmpty(bb, op.location, type));
      continue;
    }
    if (isReshape(op)) {
      mapping.map(result, createReshape(bb, op.location, operandOf(reshapeRoot(op).root), type.shape));
      continue;
    }
    if (ExtractSliceOp.isInstance(op) && args.has(op.getOperand(0))) {
      // A read of an input: its chunk at lane * size along the source's tracked dimension.
      const src = op.getOperand(0);
      const sc = chunks.get(src)!;
      const lists = readSliceLists(op);
      const dynamic = ExtractSliceOp.get(op).offsets as readonly Value[];
      let next = 0;
      const offs: IndexOrValue[] = lists.offsets.map((o, j) => {
        const v: IndexOrValue = o === DYNAMIC ? operandOf(dynamic[next++]!) : o;
        return j === sc.dim ? laneOffset(sc.size) : v;
      });
      mapping.map(result, createExtractSlice(bb, op.location, args.get(src)!, { offsets: offs, sizes: resized(lists.sizes, sc.dim, sc.size), strides: lists.strides }, type));
      continue;
    }
    const properties = new Map<string, Attribute>(op.properties);
    if (ExtractSliceOp.isInstance(op) || InsertSliceOp.isInstance(op)) {
      const full = ExtractSliceOp.isInstance(op) ? chunks.get(op.getOperand(0))!.dim : c.dim;
      properties.set('static_sizes', DenseArrayAttr.i64(ctx, resized(readSliceLists(op).sizes, full, c.size)));
    }
    const created = bb.create({ name: op.name, location: op.location, operands: op.operands.map(operandOf), resultTypes: [type], properties, attributes: op.attributes });
    mapping.map(result, created.getResult(0));
  }
  const published = term.operands.map((v) => operandOf(v));
  const par = createInParallel(bb, loc);
  const pb = OpBuilder.atBlockEnd(par, ctx);
  published.forEach((v, k) => {
    const out = block.arguments[1 + kept.length + k]!;
    createParallelInsertSlice(pb, loc, v, out, { offsets: [lane, ...fragments[k]!.map(() => 0)], sizes: [1, ...fragments[k]!] });
  });
  const ab = OpBuilder.before(compute);
  compute.results.forEach((r, k) => {
    const t = resultTypes[k]!;
    const c = chunks.get(term.getOperand(k))!;
    const pieces: AssemblyPiece[] = Array.from({ length: lanes }, (_, q) => ({
      operandIndex: 0,
      sourceSlot: q,
      sourceOffset: 0,
      offsets: t.shape.map((_, i) => (i === c.dim ? q * c.size : 0)),
      sizes: fragments[k]!,
      strides: t.shape.map(() => 1),
    }));
    r.replaceAllUsesWith(createFragmentAssembly(ab, loc, [batch.getResult(k)], t, pieces));
  });
  compute.erase();
  return batch;
}

// ------------------------------------------------------------------ choosing the chunks

/** Divisors of `n` in increasing order. */
function divisorsOf(n: number): number[] {
  const out: number[] = [];
  for (let i = 1; i <= n; i++) if (n % i === 0) out.push(i);
  return out;
}

/**
 * The live bytes of one copy of a scalar compute's body: the inputs it reads, its results and
 * the two largest other values (reshapes are views).
 */
export function scalarBodyBytes(compute: Operation): number {
  const entry = compute.regions[0]?.firstBlock;
  if (!entry) return 0;
  let bytes = 0;
  for (const a of entry.arguments) if (!a.useEmpty) bytes += byteSizeOfType(a.type);
  for (const r of compute.results) bytes += byteSizeOfType(r.type);
  const temporaries: number[] = [];
  for (const op of entry.operations) {
    if (isReshape(op) || YieldOp.isInstance(op)) continue;
    for (const r of op.results) if (r.type instanceof RankedTensorType) temporaries.push(byteSizeOfType(r.type));
  }
  temporaries.sort((x, y) => y - x);
  return bytes + (temporaries[0] ?? 0) + (temporaries[1] ?? 0);
}

/**
 * The tracking to tile weightless scalar `compute` with, or undefined: result dimensions from the
 * outermost non-unit one (rows of a row-major value), the fewest lanes whose share of the body
 * ({@link scalarBodyBytes} over the lanes) fits `budget`, else the most lanes any dimension allows.
 * Every result is cut along its outermost non-unit dimension the lane count divides, result 0
 * along the candidate.
 */
export function chooseChunks(compute: Operation, budget: number): ChunkTracking | undefined {
  if (!GraphComputeOp.isInstance(compute) || compute.numResults === 0) return undefined;
  const first = compute.getResult(0).type;
  if (!isStaticTensor(first)) return undefined;
  const bytes = scalarBodyBytes(compute);
  let most: ChunkTracking | undefined;
  for (let d = 0; d < first.shape.length; d++) {
    if (first.shape[d]! <= 1) continue;
    for (const lanes of divisorsOf(first.shape[d]!)) {
      if (lanes === 1) continue;
      const dims = compute.results.map((r, k) => {
        if (k === 0) return d;
        const t = r.type as RankedTensorType;
        return t.shape.findIndex((x) => x > 1 && x % lanes === 0);
      });
      if (dims.some((x) => x < 0)) continue;
      const t = trackChunks(compute, dims, lanes);
      if (!t) continue;
      if (bytes / lanes <= budget) return t;
      if (!most || t.lanes > most.lanes) most = t;
    }
  }
  return most;
}

// ------------------------------------------------------------------ fusing producers

/** True when `v` is a fragment collection of a weightless batch read by nothing but `reader`. */
function weightlessCollection(v: Value, reader: Operation): boolean {
  const def = v.definingOp;
  return !!def && GraphComputeBatchOp.isInstance(def) && def.numResults === 1 && (GraphComputeBatchOp.get(def).weights as readonly Value[]).length === 0 && v.users.every((u) => u === reader);
}

/**
 * The inputs of weightless scalar `compute` worth fusing: physical-view blueprints read only by
 * it, of a weightless one-result batch read only by the blueprint, where `isLarge` says the batch
 * is too large to place as it is.
 */
export function fusibleInputs(compute: Operation, isLarge: (batch: Operation) => boolean): number[] {
  if (!GraphComputeOp.isInstance(compute)) return [];
  const view = GraphComputeOp.get(compute);
  if ((view.weights as readonly Value[]).length > 0) return [];
  const out: number[] = [];
  (view.inputs as readonly Value[]).forEach((v, k) => {
    const bp = v.definingOp;
    if (!bp || !BlueprintOp.isInstance(bp) || bp.numOperands !== 1 || !v.users.every((u) => u === compute)) return;
    if (BlueprintOp.get(bp).mode.value !== 'physical_view') return;
    const coll = bp.getOperand(0);
    if (!weightlessCollection(coll, bp) || !isLarge(coll.definingOp!)) return;
    out.push(k);
  });
  return out;
}

/**
 * Clones the body of batch lane `l` of `batch` at `bb` (lane numbers folded into static offsets)
 * with its inputs mapped to `inputs`; returns the published fragment per result slot, or
 * undefined for a body this does not take (nested regions, a dynamic publication slot).
 */
function inlineLane(bb: OpBuilder, batch: Operation, l: number, inputs: readonly Value[]): { slot: number; value: Value; sizes: number[] }[] | undefined {
  const entry = batch.regions[0]!.firstBlock!;
  const laneArg = entry.arguments[0]!;
  const bindings = new Map<Value, number>([[laneArg, l]]);
  const mapping = new IRMapping();
  const view = GraphComputeBatchOp.get(batch);
  const nInputs = (view.inputs as readonly Value[]).length;
  for (let i = 0; i < nInputs; i++) mapping.map(entry.arguments[1 + i]!, inputs[i]!);
  /** `list` with its dynamic entries (`dynamic`, in order) evaluated for lane `l`. */
  const statics = (dynamic: readonly Value[], list: readonly number[]): number[] | undefined => {
    let next = 0;
    const out: number[] = [];
    for (const o of list) {
      const x = o === DYNAMIC ? evaluateStaticIndex(dynamic[next++]!, bindings) : o;
      if (x === undefined) return undefined;
      out.push(x);
    }
    return out;
  };
  const published: { slot: number; value: Value; sizes: number[] }[] = [];
  for (const op of entry.operations) {
    if (InParallelOp.isInstance(op)) {
      for (const ins of op.regions[0]!.firstBlock!.operations) {
        if (!ParallelInsertSliceOp.isInstance(ins)) return undefined;
        const lists = readSliceLists(ins);
        const offs = statics(ParallelInsertSliceOp.get(ins).offsets as readonly Value[], lists.offsets);
        if (!offs || offs.slice(1).some((x) => x !== 0) || lists.sizes.some((x) => x === DYNAMIC)) return undefined;
        published.push({ slot: offs[0]!, value: mapping.lookup(ins.getOperand(0)), sizes: lists.sizes as number[] });
      }
      continue;
    }
    if (op.numRegions > 0) return undefined;
    if (AffineApplyOp.isInstance(op) || (ConstantOp.isInstance(op) && op.getResult(0).type instanceof IndexType)) {
      // Folded into the static offsets of the slices below; a constant only where another op reads it.
      const x = evaluateStaticIndex(op.getResult(0), bindings);
      if (x === undefined) return undefined;
      if (op.getResult(0).users.some((u) => !(ExtractSliceOp.isInstance(u) || InsertSliceOp.isInstance(u) || ParallelInsertSliceOp.isInstance(u)))) {
        mapping.map(op.getResult(0), ConstantOp.build(bb, { value: IntegerAttr.get(IndexType.get(bb.context), x), result: IndexType.get(bb.context) }, op.location).result);
      }
      continue;
    }
    if (ExtractSliceOp.isInstance(op) || InsertSliceOp.isInstance(op)) {
      const lists = readSliceLists(op);
      const offs = statics(ExtractSliceOp.isInstance(op) ? (ExtractSliceOp.get(op).offsets as readonly Value[]) : (InsertSliceOp.get(op).offsets as readonly Value[]), lists.offsets);
      if (!offs || lists.sizes.some((x) => x === DYNAMIC) || lists.strides.some((x) => x === DYNAMIC)) return undefined;
      const slice = { offsets: offs, sizes: lists.sizes as number[], strides: lists.strides as number[] };
      const created = ExtractSliceOp.isInstance(op)
        ? createExtractSlice(bb, op.location, mapping.lookup(op.getOperand(0)), slice, op.getResult(0).type as RankedTensorType)
        : createInsertSlice(bb, op.location, mapping.lookup(op.getOperand(0)), mapping.lookup(op.getOperand(1)), slice);
      mapping.map(op.getResult(0), created);
      continue;
    }
    if (op.operands.some((v) => v === laneArg)) return undefined;
    bb.clone(op, mapping);
  }
  return published;
}

/**
 * Fuses the producers of `compute`'s inputs `which` (see {@link fusibleInputs}) into a new scalar
 * compute placed before it: per producer lane a copy of its body, the fragments inserted into the
 * collection, the collection reshaped to the logical value (a physical view is a row-major
 * reinterpretation), then `compute`'s body. The new compute binds the producers' inputs instead.
 * Nothing is replaced: the caller replaces `compute` (see {@link replaceFusedCompute}) or erases
 * the new one. Returns it, or undefined when a producer's body cannot be copied per lane.
 */
export function fuseDataMovementProducers(compute: Operation, which: readonly number[]): Operation | undefined {
  const ctx = compute.context;
  const loc = compute.location;
  const view = GraphComputeOp.get(compute);
  const inputs = view.inputs as readonly Value[];
  const entry = compute.regions[0]!.firstBlock!;
  const newInputs: Value[] = [];
  inputs.forEach((v, k) => {
    if (!which.includes(k)) newInputs.push(v);
  });
  const producerInputs = new Map<number, [number, number]>();
  for (const k of which) {
    const batch = inputs[k]!.definingOp!.getOperand(0).definingOp!;
    const bi = GraphComputeBatchOp.get(batch).inputs as readonly Value[];
    producerInputs.set(k, [newInputs.length, bi.length]);
    newInputs.push(...bi);
  }
  const b = OpBuilder.before(compute);
  const fused = GraphComputeOp.build(b, { weights: [], inputs: newInputs, outputs: compute.resultTypes }, loc).op;
  const block = b.createBlock(fused.regions[0]!, null, newInputs.map((v) => v.type), newInputs.map(() => loc));
  const bb = OpBuilder.atBlockEnd(block, ctx);
  const mapping = new IRMapping();
  let next = 0;
  let failed = false;
  inputs.forEach((v, k) => {
    if (failed) return;
    if (!which.includes(k)) {
      mapping.map(entry.arguments[k]!, block.arguments[next++]!);
      return;
    }
    const [first, count] = producerInputs.get(k)!;
    const collection = v.definingOp!.getOperand(0);
    const batch = collection.definingOp!;
    const ct = collection.type as RankedTensorType;
    let coll = createEmpty(bb, loc, ct);
    const lanes = Number(GraphComputeBatchOp.get(batch).laneCount.value);
    for (let l = 0; l < lanes && !failed; l++) {
      const published = inlineLane(bb, batch, l, block.arguments.slice(first, first + count));
      if (!published) failed = true;
      else for (const p of published) coll = createInsertSlice(bb, loc, p.value, coll, { offsets: [p.slot, ...ct.shape.slice(1).map(() => 0)], sizes: p.sizes });
    }
    mapping.map(entry.arguments[k]!, createReshape(bb, loc, coll, (v.type as RankedTensorType).shape));
  });
  if (failed) {
    fused.erase();
    return undefined;
  }
  for (const op of entry.operations) bb.clone(op, mapping);
  return fused;
}

/** Replaces `compute` by `fused` (from {@link fuseDataMovementProducers}) and erases the producers it took in. */
export function replaceFusedCompute(compute: Operation, fused: Operation, which: readonly number[]): void {
  const inputs = GraphComputeOp.get(compute).inputs as readonly Value[];
  const producers = which.map((k) => inputs[k]!.definingOp!);
  compute.results.forEach((r, i) => r.replaceAllUsesWith(fused.getResult(i)));
  compute.erase();
  for (const bp of producers) {
    const batch = bp.getOperand(0).definingOp!;
    bp.erase();
    batch.erase();
  }
}

// ------------------------------------------------------------------ concatenations

/** The axis of a compute whose body is one `spat.concat` of its inputs, or undefined. */
export function concatAxis(compute: Operation): number | undefined {
  if (!GraphComputeOp.isInstance(compute) || compute.numResults !== 1) return undefined;
  if ((GraphComputeOp.get(compute).weights as readonly Value[]).length > 0) return undefined;
  const entry = compute.regions[0]?.firstBlock;
  const ops = entry?.operations ?? [];
  if (ops.length !== 2 || !ConcatOp.isInstance(ops[0]!) || !YieldOp.isInstance(ops[1]!) || ops[1]!.getOperand(0) !== ops[0]!.getResult(0)) return undefined;
  if (!ops[0]!.operands.every((v) => entry!.arguments.some((a) => a === v))) return undefined;
  return Number(ConcatOp.get(ops[0]!).axis.value);
}

/** True when `v` is a fragment assembly (so a concatenation of it can be one). */
function isAssembly(v: Value): boolean {
  const def = v.definingOp;
  return !!def && BlueprintOp.isInstance(def) && BlueprintOp.get(def).mode.value === 'fragment_assembly';
}

/** True when `v` is the only result of a weightless scalar compute (it can be wrapped into a one-lane batch). */
function isWeightlessScalar(v: Value): boolean {
  const def = v.definingOp;
  return !!def && GraphComputeOp.isInstance(def) && def.numResults === 1 && (GraphComputeOp.get(def).weights as readonly Value[]).length === 0;
}

/** True when {@link assembleConcat} can turn `compute` into a fragment assembly as the IR is now. */
export function canAssembleConcat(compute: Operation): boolean {
  if (concatAxis(compute) === undefined) return false;
  return (GraphComputeOp.get(compute).inputs as readonly Value[]).every((v) => isAssembly(v) || isWeightlessScalar(v));
}

/**
 * Wraps weightless scalar `compute` (one result) into a batch of one lane publishing its result
 * in slot 0, plus a one-piece fragment assembly that replaces its uses; returns the assembly.
 */
export function wrapInOneLane(compute: Operation): Value {
  const ctx = compute.context;
  const loc = compute.location;
  const inputs = GraphComputeOp.get(compute).inputs as readonly Value[];
  const t = compute.getResult(0).type as RankedTensorType;
  const collection = RankedTensorType.get(ctx, [1, ...t.shape], t.elementType, t.encoding);
  const b = OpBuilder.before(compute);
  const batch = GraphComputeBatchOp.build(b, { weights: [], inputs: [...inputs], outputs: [collection], laneCount: IntegerAttr.get(IntegerType.get(ctx, 32), 1) }, loc).op;
  const index = IndexType.get(ctx);
  const argTypes = [index, ...inputs.map((v) => v.type), collection];
  const block = b.createBlock(batch.regions[0]!, null, argTypes, argTypes.map(() => loc));
  const bb = OpBuilder.atBlockEnd(block, ctx);
  const entry = compute.regions[0]!.firstBlock!;
  const mapping = new IRMapping();
  entry.arguments.forEach((a, i) => mapping.map(a, block.arguments[1 + i]!));
  let value: Value | undefined;
  for (const op of entry.operations) {
    if (YieldOp.isInstance(op)) {
      value = mapping.lookupOrDefault(op.getOperand(0));
      break;
    }
    bb.clone(op, mapping);
  }
  const par = createInParallel(bb, loc);
  createParallelInsertSlice(OpBuilder.atBlockEnd(par, ctx), loc, value!, block.arguments[argTypes.length - 1]!, { offsets: [block.arguments[0]!, ...t.shape.map(() => 0)], sizes: [1, ...t.shape] });
  const logical = createFragmentAssembly(OpBuilder.before(compute), loc, [batch.getResult(0)], t, [
    { operandIndex: 0, sourceSlot: 0, sourceOffset: 0, offsets: t.shape.map(() => 0), sizes: t.shape, strides: t.shape.map(() => 1) },
  ]);
  compute.getResult(0).replaceAllUsesWith(logical);
  compute.erase();
  return logical;
}

function ints(a: unknown): number[] {
  return a instanceof DenseArrayAttr ? a.values.map((v) => Number(v)) : [];
}

/**
 * Replaces concatenation `compute` (see {@link canAssembleConcat}) by one fragment assembly of
 * its inputs' fragments, each input's pieces moved along the axis by the extents before it;
 * weightless scalar inputs are first wrapped into one-lane batches ({@link wrapInOneLane}).
 * Input assemblies nothing else reads are erased. Returns the new assembly.
 */
export function assembleConcat(compute: Operation): Value {
  const axis = concatAxis(compute)!;
  const entry = compute.regions[0]!.firstBlock!;
  const concat = entry.firstOp!;
  const inputs = GraphComputeOp.get(compute).inputs as readonly Value[];
  const wrapped = new Map<Value, Value>();
  const sourceOf = (v: Value): Value => {
    if (isAssembly(v)) return v;
    let w = wrapped.get(v);
    if (!w) {
      w = wrapInOneLane(v.definingOp!);
      wrapped.set(v, w);
    }
    return w;
  };
  const fragments: Value[] = [];
  const pieces: AssemblyPiece[] = [];
  const assemblies = new Set<Operation>();
  let base = 0;
  for (const operand of concat.operands) {
    const k = entry.arguments.findIndex((a) => a === operand);
    const src = sourceOf(inputs[k]!);
    const bp = src.definingOp!;
    assemblies.add(bp);
    const view = BlueprintOp.get(bp);
    const rank = (src.type as RankedTensorType).shape.length;
    const offsets = ints(view.offsets);
    const sizes = ints(view.sizes);
    const strides = ints(view.fragmentStrides);
    const indices = ints(view.operandIndices);
    const slots = ints(view.sourceSlots);
    const srcOffsets = ints(view.sourceOffsets);
    for (let p = 0; p < slots.length; p++) {
      const frag = bp.getOperand(indices[p]!);
      let fi = fragments.indexOf(frag);
      if (fi < 0) fi = fragments.push(frag) - 1;
      const o = offsets.slice(p * rank, (p + 1) * rank);
      o[axis] = o[axis]! + base;
      pieces.push({ operandIndex: fi, sourceSlot: slots[p]!, sourceOffset: srcOffsets[p]!, offsets: o, sizes: sizes.slice(p * rank, (p + 1) * rank), strides: strides.slice(p * rank, (p + 1) * rank) });
    }
    base += (operand.type as RankedTensorType).shape[axis]!;
  }
  const logical = createFragmentAssembly(OpBuilder.before(compute), compute.location, fragments, compute.getResult(0).type, pieces);
  compute.getResult(0).replaceAllUsesWith(logical);
  compute.erase();
  for (const bp of assemblies) if (bp.getResult(0).useEmpty) bp.erase();
  return logical;
}
