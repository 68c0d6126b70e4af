/**
 * Which producer fragment slots each consumer lane reads. A consumer input is either a
 * producer's result bound directly (a scalar value, or a fragment collection whose leading
 * dimension is the slot) or a logical tensor reconstructed by a `spat.blueprint`. When every
 * use of the bound argument is a `tensor.extract_slice` whose offsets are static for a given
 * lane (constants, the lane, `affine.apply` of them), the read boxes give the exact slots;
 * otherwise the lane reads every slot.
 */
import { ConstantOp, DYNAMIC, DenseArrayAttr, IntegerAttr, RankedTensorType, type Operation, type Type, type Value } from '@raptor-pim/ir-core';
import { AffineApplyOp, ExtractSliceOp, rankReductionMask, readSliceLists } from '@raptor-pim/upstream-dialects';
import { BlueprintOp } from '@raptor-pim/spatial-dialect';

/** A read box: offsets and sizes per dimension. */
export interface Box {
  readonly offsets: readonly number[];
  readonly sizes: readonly number[];
}

/** Evaluates an index value for a given lane; undefined when not statically known. */
export function evaluateIndex(v: Value, lane: Value | undefined, laneValue: number, depth = 0): number | undefined {
  if (lane !== undefined && v === lane) return laneValue;
  const def = v.definingOp;
  if (!def || depth > 16) return undefined;
  if (ConstantOp.isInstance(def)) {
    const a = def.getAttr('value');
    return a instanceof IntegerAttr ? Number(a.value) : undefined;
  }
  const apply = AffineApplyOp.match(def);
  if (apply) {
    const vals: number[] = [];
    for (const o of def.operands) {
      const x = evaluateIndex(o, lane, laneValue, depth + 1);
      if (x === undefined) return undefined;
      vals.push(x);
    }
    const map = apply.map.value;
    const r = map.evaluate(vals.slice(0, map.numDims), vals.slice(map.numDims));
    return r && r.length === 1 ? r[0] : undefined;
  }
  return undefined;
}

/** The boxes of `arg` read by lane `laneValue`, or undefined when some use is not an analyzable slice. */
function readBoxes(arg: Value, lane: Value | undefined, laneValue: number): Box[] | undefined {
  const boxes: Box[] = [];
  for (const use of arg.uses) {
    const user = use.owner;
    if (!ExtractSliceOp.isInstance(user) || user.getOperand(0) !== arg) return undefined;
    const lists = readSliceLists(user);
    const dynOffsets = ExtractSliceOp.get(user).offsets as readonly Value[];
    const offsets: number[] = [];
    let d = 0;
    for (const o of lists.offsets) {
      if (o !== DYNAMIC) offsets.push(o);
      else {
        const x = evaluateIndex(dynOffsets[d++]!, lane, laneValue);
        if (x === undefined) return undefined;
        offsets.push(x);
      }
    }
    if (lists.sizes.some((s) => s === DYNAMIC) || lists.strides.some((s) => s === DYNAMIC)) return undefined;
    // A strided slice reads from its offset to its last element: (size - 1) * stride + 1.
    boxes.push({ offsets, sizes: lists.sizes.map((n, i) => (n <= 0 ? 0 : (n - 1) * lists.strides[i]! + 1)) });
  }
  return boxes;
}

/** The bounding box of `boxes` (undefined for none). */
export function boundingBox(boxes: readonly Box[]): Box | undefined {
  if (!boxes.length) return undefined;
  const lo = [...boxes[0]!.offsets];
  const hi = boxes[0]!.offsets.map((o, i) => o + boxes[0]!.sizes[i]!);
  for (const b of boxes) {
    for (let i = 0; i < lo.length; i++) {
      lo[i] = Math.min(lo[i]!, b.offsets[i]!);
      hi[i] = Math.max(hi[i]!, b.offsets[i]! + b.sizes[i]!);
    }
  }
  return { offsets: lo, sizes: hi.map((h, i) => h - lo[i]!) };
}

/**
 * The bounding box of what each consumer lane reads of a whole (scalar-producer) value bound
 * to `arg`, or undefined for a lane whose reads are not analyzable slices.
 */
export function analyzeReadBoxes(arg: Value, lane: Value | undefined, consumerLanes: number): (Box | undefined)[] {
  return range(consumerLanes).map((l) => {
    const boxes = readBoxes(arg, lane, l);
    return boxes ? boundingBox(boxes) : undefined;
  });
}

function intersects(a: Box, b: Box): boolean {
  for (let i = 0; i < a.offsets.length; i++) {
    if (a.offsets[i]! + a.sizes[i]! <= b.offsets[i]! || b.offsets[i]! + b.sizes[i]! <= a.offsets[i]!) return false;
  }
  return true;
}

function ints(a: unknown): number[] | undefined {
  return a instanceof DenseArrayAttr ? a.values.map((v) => Number(v)) : undefined;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/**
 * The slots of each source read by each consumer lane: `result[source][lane]` is the sorted
 * list of producer slots. Without a blueprint there is one source: `collection` is the type
 * of a fragment collection input (slots = its leading dimension) or undefined for a scalar
 * producer (slot 0 = the whole value). With a blueprint, sources are its fragment operands.
 */
export function analyzeFragmentNeeds(
  arg: Value,
  lane: Value | undefined,
  consumerLanes: number,
  collection: Type | undefined,
  blueprint: Operation | null,
): number[][][] {
  if (!blueprint) {
    if (!(collection instanceof RankedTensorType)) return [range(consumerLanes).map(() => [0])];
    const slots = collection.shape[0] ?? 1;
    return [
      range(consumerLanes).map((l) => {
        const boxes = readBoxes(arg, lane, l);
        if (!boxes) return range(slots);
        const need = new Set<number>();
        for (const b of boxes) for (let s = b.offsets[0]!; s < b.offsets[0]! + b.sizes[0]! && s < slots; s++) need.add(s);
        return [...need].sort((x, y) => x - y);
      }),
    ];
  }
  const bp = BlueprintOp.get(blueprint);
  const nSources = blueprint.numOperands;
  const slotsOf = (k: number): number => (blueprint.getOperand(k).type as RankedTensorType).shape[0] ?? 1;
  const all = (): number[][] => range(nSources).map((k) => range(slotsOf(k)));
  const offsets = ints(bp.offsets);
  const sizes = ints(bp.sizes);
  const operandIndices = ints(bp.operandIndices) ?? [];
  const sourceSlots = ints(bp.sourceSlots) ?? [];
  const rank = (blueprint.getResult(0).type as RankedTensorType).shape.length;
  const isAssembly = sourceSlots.length > 0 && offsets !== undefined && sizes !== undefined && rank > 0;
  const view = isAssembly ? undefined : physicalViewSplit(blueprint);
  const index = isAssembly ? indexAssembly(offsets!, sizes!, rank, sourceSlots.length) : undefined;
  const perLane: number[][][] = range(consumerLanes).map((l) => {
    const boxes = isAssembly || view ? readBoxes(arg, lane, l) : undefined;
    if (!boxes) return all();
    if (view) {
      // A physical view whose slots are boxes: the slots under the read boxes.
      const need = new Set<number>();
      for (const b of boxes) forEachIndex(b.offsets.slice(0, view.k), b.sizes.slice(0, view.k), (idx) => need.add(ravel(idx, view.logical)));
      return [[...need].sort((x, y) => x - y)];
    }
    const need: Set<number>[] = range(nSources).map(() => new Set<number>());
    for (const b of boxes) index!.forEachIntersecting(b, (f) => need[operandIndices[f] ?? 0]!.add(sourceSlots[f]!));
    return need.map((s) => [...s].sort((x, y) => x - y));
  });
  return range(nSources).map((k) => perLane.map((lanes) => lanes[k]!));
}

/**
 * The destination boxes of a fragment assembly's `count` fragments (`rank` offsets and sizes
 * each), ordered by their offset along the first dimension, to find the fragments a read box
 * intersects without testing all of them: only those starting less than the longest fragment's
 * extent before the box can reach it.
 */
function indexAssembly(offsets: readonly number[], sizes: readonly number[], rank: number, count: number) {
  const dests: Box[] = range(count).map((f) => ({ offsets: offsets.slice(f * rank, f * rank + rank), sizes: sizes.slice(f * rank, f * rank + rank) }));
  const order = range(count).sort((x, y) => dests[x]!.offsets[0]! - dests[y]!.offsets[0]! || x - y);
  const starts = order.map((f) => dests[f]!.offsets[0]!);
  const longest = dests.reduce((m, d) => Math.max(m, d.sizes[0]!), 0);
  /** The first position in `order` whose start is at least `x`. */
  const lowerBound = (x: number): number => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {
    /** Calls `f` with every fragment whose destination box intersects `box`. */
    forEachIntersecting(box: Box, f: (fragment: number) => void): void {
      const from = lowerBound(box.offsets[0]! - longest + 1);
      const to = lowerBound(box.offsets[0]! + box.sizes[0]!);
      for (let i = from; i < to; i++) if (intersects(box, dests[order[i]!]!)) f(order[i]!);
    },
  };
}

/**
 * How a `physical_view` blueprint's slots tile its logical tensor `L` when each slot is one box:
 * the split `k` with `prod(L[k:])` = the elements of a fragment and `prod(L[:k])` = the slots, so
 * slot `s` is the box at `unravel(s, L[:k])` of sizes `[1, ..., 1] ++ L[k:]`; undefined otherwise
 * (a fragment that covers part of a row, or a fragment shape that is not those sizes up to unit
 * dimensions).
 */
export function physicalViewSplit(blueprint: Operation): { readonly k: number; readonly logical: readonly number[] } | undefined {
  if (blueprint.numOperands !== 1) return undefined;
  const bp = BlueprintOp.get(blueprint);
  if (ints(bp.sourceSlots)?.length) return undefined;
  const collection = blueprint.getOperand(0).type;
  const out = blueprint.getResult(0).type;
  if (!(collection instanceof RankedTensorType) || !(out instanceof RankedTensorType)) return undefined;
  const fragment = collection.shape.slice(1);
  const slots = collection.shape[0] ?? 0;
  const logical = out.shape;
  const elements = fragment.reduce((a, b) => a * b, 1);
  for (let k = 0; k <= logical.length; k++) {
    const lead = logical.slice(0, k).reduce((a, b) => a * b, 1);
    const tail = logical.slice(k).reduce((a, b) => a * b, 1);
    if (lead !== slots || tail !== elements) continue;
    const regionSizes = [...logical.slice(0, k).map(() => 1), ...logical.slice(k)];
    if (rankReductionMask(regionSizes, fragment)) return { k, logical };
  }
  return undefined;
}

/** Row-major index of `idx` over the leading `idx.length` dimensions of `shape`. */
function ravel(idx: readonly number[], shape: readonly number[]): number {
  let r = 0;
  for (let d = 0; d < idx.length; d++) r = r * shape[d]! + idx[d]!;
  return r;
}

/** Calls `f` with every index of the box `offsets`/`sizes` in row-major order. */
function forEachIndex(offsets: readonly number[], sizes: readonly number[], f: (idx: number[]) => void): void {
  if (sizes.some((n) => n <= 0)) return;
  const idx = [...offsets];
  for (;;) {
    f(idx);
    let d = idx.length - 1;
    for (; d >= 0; d--) {
      if (++idx[d]! < offsets[d]! + sizes[d]!) break;
      idx[d] = offsets[d]!;
    }
    if (d < 0) return;
  }
}

/**
 * Where every slot of blueprint operand / source `sourceIndex` lands in the consumer's logical
 * input, as a box its fragment fills whole (`undefined` for a slot the input does not place):
 * without a blueprint a collection's slot `s` is `[s, 0, ...]` of sizes `[1] ++ F`; a
 * `physical_view` with a {@link physicalViewSplit}; a `fragment_assembly` whose slices of that
 * source are whole fragments (source offset 0, one slice per slot, sizes equal to the fragment
 * up to unit dimensions). Undefined when some slot is not such a box (the input is then
 * reconstructed whole).
 */
export function sourceRegions(collection: Type, blueprint: Operation | null, sourceIndex: number): (Box | undefined)[] | undefined {
  if (!(collection instanceof RankedTensorType) || collection.shape.length === 0) return undefined;
  const slots = collection.shape[0]!;
  const fragment = collection.shape.slice(1);
  if (!blueprint) {
    const sizes = [1, ...fragment];
    return range(slots).map((s) => ({ offsets: [s, ...fragment.map(() => 0)], sizes }));
  }
  const view = physicalViewSplit(blueprint);
  if (view) {
    const sizes = [...view.logical.slice(0, view.k).map(() => 1), ...view.logical.slice(view.k)];
    const lead = view.logical.slice(0, view.k);
    return range(slots).map((s) => {
      const idx = new Array<number>(view.k).fill(0);
      let r = s;
      for (let d = view.k - 1; d >= 0; d--) {
        idx[d] = r % lead[d]!;
        r = Math.floor(r / lead[d]!);
      }
      return { offsets: [...idx, ...view.logical.slice(view.k).map(() => 0)], sizes };
    });
  }
  const bp = BlueprintOp.get(blueprint);
  const offsets = ints(bp.offsets);
  const sizes = ints(bp.sizes);
  const operandIndices = ints(bp.operandIndices) ?? [];
  const sourceSlots = ints(bp.sourceSlots) ?? [];
  const sourceOffsets = ints(bp.sourceOffsets) ?? [];
  const rank = (blueprint.getResult(0).type as RankedTensorType).shape.length;
  if (!offsets || !sizes || !sourceSlots.length || rank === 0) return undefined;
  const out: (Box | undefined)[] = new Array(slots).fill(undefined);
  for (let f = 0; f < sourceSlots.length; f++) {
    if ((operandIndices[f] ?? 0) !== sourceIndex) continue;
    const slot = sourceSlots[f]!;
    const dest: Box = { offsets: offsets.slice(f * rank, f * rank + rank), sizes: sizes.slice(f * rank, f * rank + rank) };
    if (slot >= slots || out[slot] || (sourceOffsets[f] ?? 0) !== 0 || !rankReductionMask(dest.sizes, fragment)) return undefined;
    out[slot] = dest;
  }
  return out;
}
