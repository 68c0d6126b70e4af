/**
 * Which producer fragment slots each consumer lane reads. A consumer input is either a
 * producer's result bound directly (a scalar value, or a fragment collection whose leading
 * dimension is the slot) or a logical tensor reconstructed by a `spat.blueprint`. When every
 * use of the bound argument is a `tensor.extract_slice` whose offsets are static for a given
 * lane (constants, the lane, `affine.apply` of them), the read boxes give the exact slots;
 * otherwise the lane reads every slot.
 */
import { ConstantOp, DYNAMIC, DenseArrayAttr, IntegerAttr, RankedTensorType, type Operation, type Type, type Value } from '@raptor-pim/ir-core';
import { AffineApplyOp, ExtractSliceOp, readSliceLists } from '@raptor-pim/upstream-dialects';
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
    if (lists.sizes.some((s) => s === DYNAMIC)) return undefined;
    boxes.push({ offsets, sizes: lists.sizes });
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
  const perLane: number[][][] = range(consumerLanes).map((l) => {
    const boxes = isAssembly ? readBoxes(arg, lane, l) : undefined;
    if (!boxes) return all();
    const need: Set<number>[] = range(nSources).map(() => new Set<number>());
    for (let f = 0; f < sourceSlots.length; f++) {
      const dest: Box = { offsets: offsets!.slice(f * rank, f * rank + rank), sizes: sizes!.slice(f * rank, f * rank + rank) };
      if (boxes.some((b) => intersects(b, dest))) need[operandIndices[f] ?? 0]!.add(sourceSlots[f]!);
    }
    return need.map((s) => [...s].sort((x, y) => x - y));
  });
  return range(nSources).map((k) => perLane.map((lanes) => lanes[k]!));
}
