/**
 * Replica windows (`planning/windows.ts`, `sourceRegions` / `physicalViewSplit` of
 * `analysis/fragment-needs.ts`, the window-aware local-memory model):
 *
 * - units: `windowOfLanes`, `intersectBoxes`, `windowBytes`, `partBytes`, `firstLaneOfReplica`,
 *   `physicalViewSplit` and `sourceRegions` on hand-written blueprints (direct collections,
 *   physical views with and without a split, fragment assemblies and the cases they refuse),
 *   and the `InputWindow` the workload analysis derives for a small batch chain;
 * - the memory model: `minimumReplicas` is the fewest replicas that fit, `needsWindows` /
 *   `placedFootprint` / `withWindows` agree with it (lenet5 at 16 KiB);
 * - end to end: lenet5 (24 KiB) and mnist-8 (16 and 24 KiB), planned and lowered by the real
 *   upstream stages, scheduled with every built-in strategy: some layer has more replicas than at
 *   64 KiB, every core's modelled peak fits, the checks pass and the interpreter's outputs equal
 *   the unscheduled module's (lenet5 at 16 KiB is in memory.test.ts); `local-memory=report`
 *   neither tiles nor splits anything;
 * - property (fast-check): random row chains (a scalar producer read directly, a physical view,
 *   a permuted fragment assembly of one or two column parts) read through strided windows by a
 *   batch, on local memories of 128-768 B with every strategy: what schedules fits, passes the
 *   checks and keeps the outputs (`RAPTOR_PROPERTY_RUNS` / `RAPTOR_PROPERTY_SEED` explore more).
 */
import fc from 'fast-check';
import {
  MLIRContext,
  RankedTensorType,
  parseSourceString,
  printOperation,
  verify,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import { BlueprintOp, GraphComputeBatchOp, GraphComputeOp, registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { createCostModel, defaultTarget, type Target } from '@raptor-pim/pim-target';
import {
  BUILTIN_SCHEDULERS,
  Workload,
  builtinScheduler,
  divisors,
  firstLaneOfReplica,
  intersectBoxes,
  largestReplicaWindowBytes,
  minimumReplicas,
  needsWindows,
  partBytes,
  physicalViewSplit,
  placedFootprint,
  replicaFootprint,
  replicaWindow,
  sourceRegions,
  windowBytes,
  windowOfLanes,
  withWindows,
  type Box,
  type ScheduleReport,
  type SchedulePlan,
  type WorkloadInput,
  type WorkloadNode,
} from '@raptor-pim/scheduler';
import { checkModule, funcOf, run } from './helpers';
import { lowerShared } from './models';

jest.setTimeout(600_000);

function parse(text: string): Operation {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const errors: string[] = [];
  const module = ctx.diagnostics.withHandler((d) => errors.push(d.message), () => parseSourceString(ctx, text, { filename: 'windows.mlir' }));
  if (!module) throw new Error(`unparsable (${errors.join('; ')}):\n${text}`);
  const messages: string[] = [];
  const ok = module.context.diagnostics.withHandler((d) => messages.push(d.message), () => verify(module));
  expect(ok ? [] : messages).toEqual([]);
  return module;
}


function opsOf(module: Operation): Operation[] {
  return funcOf(module).regions[0]!.firstBlock!.operations;
}

/** The blueprint of a function `@f(%c: collection) -> logical` holding just `blueprint`. */
function blueprintOf(collections: readonly string[], logical: string, attrs: string): Operation {
  const args = collections.map((c, k) => `%c${k}: ${c}`).join(', ');
  const module = parse(`
func.func @f(${args}) -> ${logical} {
  %b = spat.blueprint fragments(${collections.map((_, k) => `%c${k}`).join(', ')}) ${attrs} : (${collections.join(', ')}) -> ${logical}
  return %b : ${logical}
}`);
  return opsOf(module).find((o) => BlueprintOp.isInstance(o))!;
}

const VIEW = 'layout nchw physical dense_nchw offsets [] sizes [] map contiguous_row_major mode physical_view strides [] conflict disjoint coverage complete';

/** A fragment-assembly attribute list for `pieces` of a rank-`rank` logical tensor. */
function assembly(rank: number, pieces: readonly { operand?: number; slot: number; sourceOffset?: number; offsets: number[]; sizes: number[] }[]): string {
  return (
    `layout nchw physical fragmented offsets [${pieces.flatMap((p) => p.offsets).join(', ')}] sizes [${pieces.flatMap((p) => p.sizes).join(', ')}] ` +
    `map explicit mode fragment_assembly operandIndices [${pieces.map((p) => p.operand ?? 0).join(', ')}] sourceSlots [${pieces.map((p) => p.slot).join(', ')}] ` +
    `sourceOffsets [${pieces.map((p) => p.sourceOffset ?? 0).join(', ')}] strides [${pieces.flatMap(() => Array(rank).fill(1)).join(', ')}] conflict disjoint coverage complete`
  );
}

function box(offsets: number[], sizes: number[]): Box {
  return { offsets, sizes };
}

// ------------------------------------------------------------------ boxes

describe('intersectBoxes', () => {
  it('is the overlap per dimension', () => {
    expect(intersectBoxes(box([0, 0], [4, 6]), box([2, 3], [5, 5]))).toEqual(box([2, 3], [2, 3]));
    expect(intersectBoxes(box([1, 1, 1], [2, 2, 2]), box([0, 0, 0], [8, 8, 8]))).toEqual(box([1, 1, 1], [2, 2, 2]));
  });

  it('is commutative and idempotent', () => {
    const a = box([0, 2, 1], [3, 4, 5]);
    const b = box([1, 0, 3], [4, 4, 1]);
    expect(intersectBoxes(a, b)).toEqual(intersectBoxes(b, a));
    expect(intersectBoxes(a, a)).toEqual(a);
  });

  it('is undefined when the boxes only touch or are apart along some dimension', () => {
    expect(intersectBoxes(box([0, 0], [2, 6]), box([2, 0], [2, 6]))).toBeUndefined();
    expect(intersectBoxes(box([0, 0], [4, 3]), box([1, 5], [2, 1]))).toBeUndefined();
    expect(intersectBoxes(box([0], [0]), box([0], [4]))).toBeUndefined();
  });
});

// ------------------------------------------------------------------ windowOfLanes, windowBytes

/** A hand-made windowed input: lane l of 4 reads rows [l - 1, l + 2) of an 4x6 value clipped, published as 4 row slots. */
function rowInput(regions: readonly (Box | undefined)[] | undefined, elementBytes = 4): WorkloadInput {
  const rows = 4;
  const boxesPerLane = Array.from({ length: rows }, (_, l) => {
    const lo = Math.max(0, l - 1);
    const hi = Math.min(rows, l + 2);
    return box([lo, 0], [hi - lo, 6]);
  });
  const slotsPerLane = boxesPerLane.map((b) => Array.from({ length: b.sizes[0]! }, (_, i) => b.offsets[0]! + i));
  return {
    inputIndex: 0,
    blueprint: null,
    sources: [{ producer: 0, resultIndex: 0, viewOperand: 0, slotsPerLane, slotBytes: 24 }],
    window: { logical: undefined as unknown as RankedTensorType, elementBytes, boxesPerLane, regions: [regions] },
  };
}

const ROW_REGIONS: Box[] = [0, 1, 2, 3].map((s) => box([s, 0], [1, 6]));

describe('windowOfLanes', () => {
  it('is the bounding box of the lanes read boxes', () => {
    const input = rowInput(ROW_REGIONS);
    expect(windowOfLanes(input, [0])).toEqual(box([0, 0], [2, 6]));
    expect(windowOfLanes(input, [1])).toEqual(box([0, 0], [3, 6]));
    expect(windowOfLanes(input, [2, 3])).toEqual(box([1, 0], [3, 6]));
    expect(windowOfLanes(input, [0, 1, 2, 3])).toEqual(box([0, 0], [4, 6]));
    // Lane order does not matter.
    expect(windowOfLanes(input, [3, 2])).toEqual(windowOfLanes(input, [2, 3]));
  });

  it('works without regions (a scalar producer read directly)', () => {
    expect(windowOfLanes(rowInput(undefined), [3])).toEqual(box([2, 0], [2, 6]));
  });

  it('is undefined for no lanes, an input without a window, or a read slot that has no region', () => {
    expect(windowOfLanes(rowInput(ROW_REGIONS), [])).toBeUndefined();
    const { window: _w, ...whole } = rowInput(ROW_REGIONS);
    void _w;
    expect(windowOfLanes(whole, [0, 1])).toBeUndefined();
    const holes = [ROW_REGIONS[0], ROW_REGIONS[1], undefined, ROW_REGIONS[3]];
    // Lanes 1..3 read slot 2 (no region): read whole; lane 0 reads slots 0 and 1 only.
    expect(windowOfLanes(rowInput(holes), [1])).toBeUndefined();
    expect(windowOfLanes(rowInput(holes), [3])).toBeUndefined();
    expect(windowOfLanes(rowInput(holes), [0])).toEqual(box([0, 0], [2, 6]));
  });

  it('windowBytes counts elements times the element size (4 by default)', () => {
    expect(windowBytes(rowInput(ROW_REGIONS), box([0, 0], [3, 6]))).toBe(72);
    expect(windowBytes(rowInput(ROW_REGIONS, 2), box([1, 0], [2, 5]))).toBe(20);
    const { window: _w, ...whole } = rowInput(ROW_REGIONS);
    void _w;
    expect(windowBytes(whole, box([0, 0], [1, 6]))).toBe(24);
  });
});

// ------------------------------------------------------------------ partBytes, firstLaneOfReplica

describe('partBytes and firstLaneOfReplica', () => {
  const node = (isBatch: boolean, lanes: number, resultBytes: number[]): WorkloadNode => ({ isBatch, lanes, resultBytes }) as unknown as WorkloadNode;

  it('a batch replica holds its own slots: ceil(lanes / replicas) of them', () => {
    const n = node(true, 12, [12 * 64, 12 * 8]);
    expect(partBytes(n, 0, 1)).toBe(12 * 64);
    expect(partBytes(n, 0, 3)).toBe(4 * 64);
    expect(partBytes(n, 0, 12)).toBe(64);
    expect(partBytes(n, 1, 4)).toBe(3 * 8);
    // Uneven blocks: the largest replica's rounds.
    expect(partBytes(n, 0, 5)).toBe(3 * 64);
    // An unknown result: nothing.
    expect(partBytes(n, 2, 4)).toBe(0);
  });

  it('a scalar compute holds its whole value whatever the replicas', () => {
    expect(partBytes(node(false, 1, [4096]), 0, 1)).toBe(4096);
    expect(partBytes(node(false, 1, [4096]), 0, 4)).toBe(4096);
  });

  it('firstLaneOfReplica is the replica times its rounds', () => {
    expect([0, 1, 2, 3].map((j) => firstLaneOfReplica({ replicas: 4 }, 12, j))).toEqual([0, 3, 6, 9]);
    expect([0, 1, 2].map((j) => firstLaneOfReplica({ replicas: 3 }, 8, j))).toEqual([0, 3, 6]);
    expect(firstLaneOfReplica({ replicas: 1 }, 7, 0)).toBe(0);
  });
});

// ------------------------------------------------------------------ physicalViewSplit

describe('physicalViewSplit', () => {
  it('finds k with prod(L[:k]) = slots and prod(L[k:]) = fragment elements, fragment = L[k:] up to unit dimensions', () => {
    // Channel planes of NCHW (the plan lowering's plane lanes).
    expect(physicalViewSplit(blueprintOf(['tensor<4x1x1x2x3xf32>'], 'tensor<1x4x2x3xf32>', VIEW))).toEqual({ k: 2, logical: [1, 4, 2, 3] });
    // Rows of every channel: the split runs over two dimensions.
    expect(physicalViewSplit(blueprintOf(['tensor<6x1x1x1x3xf32>'], 'tensor<1x2x3x3xf32>', VIEW))).toEqual({ k: 3, logical: [1, 2, 3, 3] });
    // Rows of a matrix.
    expect(physicalViewSplit(blueprintOf(['tensor<4x1x6xf32>'], 'tensor<4x6xf32>', VIEW))).toEqual({ k: 1, logical: [4, 6] });
    // One slot: the whole value (k = 0).
    expect(physicalViewSplit(blueprintOf(['tensor<1x2x3xf32>'], 'tensor<2x3xf32>', VIEW))).toEqual({ k: 0, logical: [2, 3] });
  });

  it('is undefined when a slot is not one box of the logical tensor', () => {
    // Pixel lanes of an NCHW value (a fragment holds one pixel of every channel).
    expect(physicalViewSplit(blueprintOf(['tensor<6x1x4x1x1xf32>'], 'tensor<1x4x2x3xf32>', VIEW))).toBeUndefined();
    // A fragment covering part of a row.
    expect(physicalViewSplit(blueprintOf(['tensor<8x1x1x2xf32>'], 'tensor<1x4x4xf32>', VIEW))).toBeUndefined();
    // The right element count but a fragment shape that is not the row's (2x2 for 1x4).
    expect(physicalViewSplit(blueprintOf(['tensor<4x1x2x2xf32>'], 'tensor<1x4x4xf32>', VIEW))).toBeUndefined();
  });

  it('is undefined for a fragment assembly and for several operands', () => {
    const rows = assembly(2, [0, 1].map((s) => ({ slot: s, offsets: [s, 0], sizes: [1, 4] })));
    expect(physicalViewSplit(blueprintOf(['tensor<2x1x4xf32>'], 'tensor<2x4xf32>', rows))).toBeUndefined();
    const two = assembly(2, [
      { operand: 0, slot: 0, offsets: [0, 0], sizes: [1, 4] },
      { operand: 1, slot: 0, offsets: [1, 0], sizes: [1, 4] },
    ]);
    expect(physicalViewSplit(blueprintOf(['tensor<1x1x4xf32>', 'tensor<1x1x4xf32>'], 'tensor<2x4xf32>', two))).toBeUndefined();
  });
});

// ------------------------------------------------------------------ sourceRegions

describe('sourceRegions', () => {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);

  it('without a blueprint, slot s of a collection is [s, 0, ...] of sizes [1] ++ F', () => {
    const t = parse('func.func @f(%c: tensor<3x1x4xf32>) -> tensor<3x1x4xf32> {\n  return %c : tensor<3x1x4xf32>\n}');
    const type = funcOf(t).regions[0]!.firstBlock!.arguments[0]!.type;
    expect(sourceRegions(type, null, 0)).toEqual([0, 1, 2].map((s) => box([s, 0, 0], [1, 1, 4])));
  });

  it('is undefined for a rank-0 or unranked value', () => {
    const m = parse('func.func @f(%c: tensor<f32>, %u: tensor<*xf32>) -> tensor<f32> {\n  return %c : tensor<f32>\n}');
    const [scalar, unranked] = funcOf(m).regions[0]!.firstBlock!.arguments.map((a) => a.type);
    expect(sourceRegions(scalar!, null, 0)).toBeUndefined();
    expect(sourceRegions(unranked!, null, 0)).toBeUndefined();
  });

  it('a physical view with a split: slot s is the box at unravel(s, L[:k])', () => {
    const planes = blueprintOf(['tensor<4x1x1x2x3xf32>'], 'tensor<1x4x2x3xf32>', VIEW);
    expect(sourceRegions(planes.getOperand(0).type, planes, 0)).toEqual([0, 1, 2, 3].map((c) => box([0, c, 0, 0], [1, 1, 2, 3])));
    const rows = blueprintOf(['tensor<6x1x1x1x3xf32>'], 'tensor<1x2x3x3xf32>', VIEW);
    expect(sourceRegions(rows.getOperand(0).type, rows, 0)).toEqual(
      [0, 1, 2, 3, 4, 5].map((s) => box([0, Math.floor(s / 3), s % 3, 0], [1, 1, 1, 3])),
    );
  });

  it('the regions of a physical view tile the logical tensor exactly (disjoint, complete)', () => {
    const bp = blueprintOf(['tensor<6x1x1x1x3xf32>'], 'tensor<1x2x3x3xf32>', VIEW);
    const regions = sourceRegions(bp.getOperand(0).type, bp, 0)!;
    const seen = new Set<string>();
    for (const r of regions) {
      for (let w = 0; w < r!.sizes[3]!; w++) {
        const key = [r!.offsets[0], r!.offsets[1], r!.offsets[2], r!.offsets[3]! + w].join(',');
        expect(seen.has(key)).toBe(false);
        seen.add(key);
      }
    }
    expect(seen.size).toBe(1 * 2 * 3 * 3);
  });

  it('a physical view without a split has no regions', () => {
    const pixels = blueprintOf(['tensor<6x1x4x1x1xf32>'], 'tensor<1x4x2x3xf32>', VIEW);
    expect(sourceRegions(pixels.getOperand(0).type, pixels, 0)).toBeUndefined();
  });

  it('a fragment assembly of whole fragments: each slot where it lands, per source; slots it does not place are undefined', () => {
    // Two column parts (as spat-split-oversized-computes assembles them) of a 2x8 value, rows as slots.
    const pieces = [
      { operand: 0, slot: 0, offsets: [0, 0], sizes: [1, 5] },
      { operand: 1, slot: 0, offsets: [0, 5], sizes: [1, 3] },
      { operand: 0, slot: 1, offsets: [1, 0], sizes: [1, 5] },
      { operand: 1, slot: 1, offsets: [1, 5], sizes: [1, 3] },
    ];
    const bp = blueprintOf(['tensor<2x1x5xf32>', 'tensor<3x1x3xf32>'], 'tensor<2x8xf32>', assembly(2, pieces));
    expect(sourceRegions(bp.getOperand(0).type, bp, 0)).toEqual([box([0, 0], [1, 5]), box([1, 0], [1, 5])]);
    // Source 1 has a third slot the assembly does not use.
    expect(sourceRegions(bp.getOperand(1).type, bp, 1)).toEqual([box([0, 5], [1, 3]), box([1, 5], [1, 3]), undefined]);
  });

  it('a fragment assembly in another slot order', () => {
    const pieces = [2, 0, 1].map((slot, f) => ({ slot, offsets: [0, f, 0], sizes: [1, 1, 4] }));
    const bp = blueprintOf(['tensor<3x1x1x4xf32>'], 'tensor<1x3x4xf32>', assembly(3, pieces));
    expect(sourceRegions(bp.getOperand(0).type, bp, 0)).toEqual([box([0, 1, 0], [1, 1, 4]), box([0, 2, 0], [1, 1, 4]), box([0, 0, 0], [1, 1, 4])]);
  });

  it('refuses an assembly piece that starts inside its fragment (source offset > 0)', () => {
    const pieces = [
      { slot: 0, offsets: [0, 0], sizes: [1, 2] },
      { slot: 0, sourceOffset: 2, offsets: [1, 0], sizes: [1, 2] },
    ];
    const bp = blueprintOf(['tensor<1x1x4xf32>'], 'tensor<2x2xf32>', assembly(2, pieces));
    expect(sourceRegions(bp.getOperand(0).type, bp, 0)).toBeUndefined();
  });

  it('refuses a slot placed twice', () => {
    const pieces = [0, 1].map((r) => ({ slot: 0, offsets: [r, 0], sizes: [1, 4] }));
    const bp = blueprintOf(['tensor<1x1x4xf32>'], 'tensor<2x4xf32>', assembly(2, pieces));
    expect(sourceRegions(bp.getOperand(0).type, bp, 0)).toBeUndefined();
  });

  it('refuses a piece that is not the whole fragment (part of it, or another shape of the same elements)', () => {
    const half = assembly(2, [0, 1].map((s) => ({ slot: s, offsets: [s, 0], sizes: [1, 2] })));
    const partial = blueprintOf(['tensor<2x1x4xf32>'], 'tensor<2x2xf32>', half);
    expect(sourceRegions(partial.getOperand(0).type, partial, 0)).toBeUndefined();
    const reshaped = assembly(2, [{ slot: 0, offsets: [0, 0], sizes: [2, 2] }]);
    const other = blueprintOf(['tensor<1x1x4xf32>'], 'tensor<2x2xf32>', reshaped);
    expect(sourceRegions(other.getOperand(0).type, other, 0)).toBeUndefined();
  });

  void ctx;
});

// ------------------------------------------------------------------ the workload's InputWindow

/**
 * A batch of 4 row lanes (a 4x6 value, one row per slot) read through a physical view by a batch
 * of 3 lanes each reading rows [lane, lane + 2).
 */
const ROWS_CHAIN = `
func.func @main(%x: tensor<4x6xf32>) -> tensor<3x2x6xf32> {
  %rows = spat.graph_compute_batch %lane = 0 to 4 [] = [] (%a) = (%x) shared_outs(%out) crossbarWeights 0 : [] (tensor<4x6xf32>) -> tensor<4x1x6xf32> {
    %r = tensor.extract_slice %a[%lane, 0] [1, 6] [1, 1] : tensor<4x6xf32> to tensor<1x6xf32>
    %v = spat.relu(%r) : tensor<1x6xf32> -> tensor<1x6xf32>
    spat.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, 1, 6] [1, 1, 1] : tensor<1x6xf32> into tensor<4x1x6xf32>
    }
  } loc("rows")
  %img = spat.blueprint fragments(%rows) ${VIEW} : (tensor<4x1x6xf32>) -> tensor<4x6xf32>
  %pairs = spat.graph_compute_batch %lane = 0 to 3 [] = [] (%b) = (%img) shared_outs(%out) crossbarWeights 0 : [] (tensor<4x6xf32>) -> tensor<3x2x6xf32> {
    %s = tensor.extract_slice %b[%lane, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>
    %v = spat.sigmoid(%s) : tensor<2x6xf32> -> tensor<2x6xf32>
    spat.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, 2, 6] [1, 1, 1] : tensor<2x6xf32> into tensor<3x2x6xf32>
    }
  } loc("pairs")
  return %pairs : tensor<3x2x6xf32>
}`;

describe('the InputWindow of the workload analysis', () => {
  it('holds each lane read box and the rows the slots fill; replica windows follow', () => {
    const module = parse(ROWS_CHAIN);
    const workload = new Workload(funcOf(module), createCostModel(defaultTarget()));
    const pairs = workload.nodes.find((n) => n.name.endsWith('pairs'))!;
    const input = pairs.inputs[0]!;
    expect(input.blueprint && BlueprintOp.isInstance(input.blueprint)).toBe(true);
    expect(input.sources[0]!.slotsPerLane).toEqual([[0, 1], [1, 2], [2, 3]]);
    const w = input.window!;
    expect(w).toBeDefined();
    expect(w.elementBytes).toBe(4);
    expect(w.boxesPerLane).toEqual([0, 1, 2].map((l) => box([l, 0], [2, 6])));
    expect(w.regions).toEqual([[0, 1, 2, 3].map((s) => box([s, 0], [1, 6]))]);
    // Replica windows of 3 replicas (one lane each) and of 1 (all three lanes).
    expect([0, 1, 2].map((j) => replicaWindow(pairs, input, 3, j))).toEqual([0, 1, 2].map((l) => box([l, 0], [2, 6])));
    expect(replicaWindow(pairs, input, 1, 0)).toEqual(box([0, 0], [4, 6]));
    expect(largestReplicaWindowBytes(pairs, input, 3)).toBe(2 * 6 * 4);
    expect(largestReplicaWindowBytes(pairs, input, 1)).toBe(4 * 6 * 4);
  });

  it('has no window when a lane read is not a static slice of the body block', () => {
    const dynamic = ROWS_CHAIN.replace('%s = tensor.extract_slice %b[%lane, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>', '%s = tensor.extract_slice %b[%lane, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>\n    %whole = spat.relu(%b) : tensor<4x6xf32> -> tensor<4x6xf32>\n    %s2 = tensor.extract_slice %whole[0, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>\n    %v2 = spat.vadd %s, %s2 : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>').replace('%v = spat.sigmoid(%s)', '%v = spat.sigmoid(%v2)');
    const module = parse(dynamic);
    const workload = new Workload(funcOf(module), createCostModel(defaultTarget()));
    const pairs = workload.nodes.find((n) => n.name.endsWith('pairs'))!;
    expect(pairs.inputs[0]!.window).toBeUndefined();
    expect(replicaWindow(pairs, pairs.inputs[0]!, 3, 0)).toBeUndefined();
    expect(largestReplicaWindowBytes(pairs, pairs.inputs[0]!, 3)).toBeUndefined();
  });

  it('at 384 B of local memory the reader needs 3 replicas holding 2-row windows; every strategy schedules it and keeps the outputs', () => {
    const module = parse(ROWS_CHAIN);
    const capacity = 384;
    const cost = createCostModel(targetWithLocalMemory(capacity));
    const workload = new Workload(funcOf(module), cost);
    const pairs = workload.nodes.find((n) => n.name.endsWith('pairs'))!;
    // Whole values (528 B) do not fit, nor windows at one replica (the 4-row window); one lane's 2 rows do.
    expect(replicaFootprint(workload, pairs, 'layer', cost, 'channel', 1, false).bodyBytes).toBeGreaterThan(capacity);
    expect(replicaFootprint(workload, pairs, 'layer', cost, 'channel', 1, true).bodyBytes).toBeGreaterThan(capacity);
    expect(placedFootprint(workload, pairs, 3, 'layer', cost).bodyBytes).toBeLessThanOrEqual(capacity);
    expect(needsWindows(workload, pairs, 3, 'layer', cost)).toBe(true);
    expect(minimumReplicas(workload, cost)[pairs.index]).toBe(3);
    const args = [fixedInput(funcOf(module).regions[0]!.firstBlock!.arguments[0]!)];
    const reference = run(module, 'main', args);
    expect(reference.ok).toBe(true);
    for (const strategy of BUILTIN_SCHEDULERS.map((s) => s.name)) {
      const copy = parse(ROWS_CHAIN);
      const r = schedule(copy, strategy, targetWithLocalMemory(capacity));
      expect([strategy, r.errors]).toEqual([strategy, []]);
      // Channel strategies split the reader over 3 cores; layer-sequential's host slots keep it on one (4 rows fit then).
      if (strategy !== 'layer-sequential') expect(r.report!.layers.find((l) => l.name.endsWith('pairs'))!.replicas).toBe(3);
      for (const c of r.report!.cores) expect(c.peakLocalBytes).toBeLessThanOrEqual(capacity);
      expect(checkModule(copy)).toEqual([]);
      expect(run(copy, 'main', args)).toEqual(reference);
    }
  });
});

function fixedInput(arg: Value) {
  const { ShapedValue, FloatType } = require('@raptor-pim/ir-core') as typeof import('@raptor-pim/ir-core');
  const t = arg.type as RankedTensorType;
  const v = ShapedValue.allocate('tensor', FloatType.f32(arg.type.context), t.shape)!;
  const n = t.shape.reduce((a, b) => a * b, 1);
  (v.data as Float32Array).set(Array.from({ length: n }, (_, i) => ((i * 7) % 11) - 5));
  return v;
}

// ------------------------------------------------------------------ the memory model on lenet5

function targetWithLocalMemory(bytes: number): Target {
  const t = defaultTarget();
  t.config.chip_config.core_config.local_memory_config.memory_size = bytes;
  return t;
}

describe('minimumReplicas, needsWindows, placedFootprint and withWindows (lenet5 at 16 KiB)', () => {
  it('minimumReplicas is the fewest divisor replicas whose placed footprint fits; windows only where whole values do not', () => {
    const m = lowerShared('lenet5');
    if (!m) return;
    const cost = createCostModel(targetWithLocalMemory(16 * 1024));
    const workload = new Workload(funcOf(m.module), cost);
    const minimum = minimumReplicas(workload, cost);
    expect(minimum).toHaveLength(workload.nodes.length);
    let windowed = 0;
    for (const n of workload.nodes) {
      const r = minimum[n.index]!;
      const options = divisors(n.lanes).filter((d) => d <= cost.cores);
      expect(options).toContain(r);
      const fits = (k: number): boolean => placedFootprint(workload, n, k, 'layer', cost).bodyBytes <= cost.localMemoryBytes;
      if (fits(r)) for (const k of options.filter((k) => k < r)) expect(fits(k)).toBe(false);
      else expect(r).toBe(options[options.length - 1]);
      // Windows are used exactly when the whole values do not fit, and never cost more.
      const whole = replicaFootprint(workload, n, 'layer', cost, 'channel', r, false);
      const windows = replicaFootprint(workload, n, 'layer', cost, 'channel', r, true);
      expect(needsWindows(workload, n, r, 'layer', cost)).toBe(n.isBatch && whole.bodyBytes > cost.localMemoryBytes);
      const w = needsWindows(workload, n, r, 'layer', cost);
      expect(placedFootprint(workload, n, r, 'layer', cost)).toEqual({ ...(w ? windows : whole), windows: w });
      if (n.isBatch) expect(windows.bodyBytes).toBeLessThanOrEqual(whole.bodyBytes);
      if (needsWindows(workload, n, r, 'layer', cost)) windowed++;
    }
    // conv1's pixel lanes cannot hold the whole padded map at 16 KiB: some node needs windows.
    expect(windowed).toBeGreaterThan(0);
    expect(minimum.some((r) => r > 1)).toBe(true);
    // withWindows marks exactly the placements that need them.
    const plan: SchedulePlan = {
      transfer: 'channel',
      placements: workload.nodes.map((n) => ({ replicas: minimum[n.index]!, copies: 1, cores: Array.from({ length: minimum[n.index]! }, (_, i) => i), granularity: 'layer' })),
    } as unknown as SchedulePlan;
    const marked = withWindows(workload, plan, cost);
    expect(marked.placements.map((p) => p.windows === true)).toEqual(workload.nodes.map((n) => needsWindows(workload, n, minimum[n.index]!, 'layer', cost)));
    // At 64 KiB no lenet5 node needs windows at one replica... or at the replicas the minimum gives.
    const wide = createCostModel(defaultTarget());
    const wideWorkload = new Workload(funcOf(m.module), wide);
    const wideMinimum = minimumReplicas(wideWorkload, wide);
    for (const n of wideWorkload.nodes) expect(wideMinimum[n.index]!).toBeLessThanOrEqual(minimum[n.index]!);
  });
});

// ------------------------------------------------------------------ end to end

const STRATEGIES = BUILTIN_SCHEDULERS.map((s) => s.name);

function schedule(module: Operation, strategy: string, target: Target, options: Record<string, string> = {}): { report?: ScheduleReport; errors: string[] } {
  const r = builtinScheduler(strategy)!.schedule(module, target, options);
  if (!r.module) return { errors: r.diagnostics.map((d) => d.message) };
  return { report: r.report.functions[0]!, errors: [] };
}

function graphComputes(module: Operation): { scalar: number; batch: number } {
  let scalar = 0;
  let batch = 0;
  module.walk((op: Operation) => {
    if (GraphComputeOp.isInstance(op)) scalar++;
    if (GraphComputeBatchOp.isInstance(op)) batch++;
  });
  return { scalar, batch };
}

/** Per model, the 64 KiB reports by strategy (computed once). */
const wideReports = new Map<string, ScheduleReport>();

function wideReport(model: string, strategy: string): ScheduleReport {
  const key = `${model}/${strategy}`;
  if (!wideReports.has(key)) {
    const m = lowerShared(model)!;
    const r = schedule(m.module, strategy, defaultTarget());
    expect(r.errors).toEqual([]);
    wideReports.set(key, r.report!);
  }
  return wideReports.get(key)!;
}

/**
 * Schedules that spat-verify-communication rejects (bug: when the strategy's window pipeline
 * would deadlock, the driver falls back to layer granularity with send tasks, warns "the window
 * pipeline would deadlock ...; consumers wait for whole layers instead", but does not check the
 * fallback, and the fallback has a cross-core happens-before cycle too: "communication deadlock:
 * the cross-core happens-before graph has a cycle: core 17 'spat.channel_send' -> core 18 ...").
 * The replicas of several layers share cores there (lenet5 latency: relu_1, maxpool_1 and conv2
 * on cores 26, 17, 18, 10; mnist-8 throughput: ReLU32, Pooling66 on 9, 25, 21, 29 and the window
 * Convolution110 on 36). The interpreter's outputs still match (it does not block on sends).
 */
/**
 * Schedules whose window pipeline deadlocks and whose fallbacks (whole layers through channels,
 * then host slots) do not fit: refused with a diagnostic instead of a deadlocking module.
 */
// mnist-8 at 24 KiB with throughput was refused here until window-granularity results that stream
// out round by round stopped counting as kept (its window pipeline then packed into fewer cores
// and its layer fallback fits); no shared case is refused now.
const DEADLOCKS = new Set<string>([]);

const CASES: [string, number, string][] = [];
for (const [model, kib] of [['lenet5', 24], ['mnist-8', 16], ['mnist-8', 24]] as const) for (const s of STRATEGIES) CASES.push([model, kib, s]);

function scheduleWithWindows(model: string, kib: number, strategy: string): void {
  const capacity = kib * 1024;
  const m = lowerShared(model, { target: targetWithLocalMemory(capacity) });
  if (!m) return;
  const reference = run(m.module, m.fn, m.args);
  expect(reference.ok).toBe(true);
  const r = schedule(m.module, strategy, targetWithLocalMemory(capacity));
  expect(r.errors).toEqual([]);
  const report = r.report!;
  expect(report.cores.length).toBeGreaterThan(0);
  for (const c of report.cores) expect(c.peakLocalBytes).toBeLessThanOrEqual(capacity);
  expect(report.warnings.filter((w) => w.includes('local memory'))).toEqual([]);
  // Some layer (kept under its name) is split over more replicas than at 64 KiB.
  const wide = new Map(wideReport(model, strategy).layers.map((l) => [l.name, l.replicas]));
  const grown = report.layers.filter((l) => wide.has(l.name) && l.replicas > wide.get(l.name)!);
  expect(grown.length).toBeGreaterThan(0);
  expect(run(m.module, m.fn, m.args)).toEqual(reference);
  expect(checkModule(m.module)).toEqual([]);
}

describe('scheduling with windows, end to end', () => {
  it.each(CASES.filter(([m, k, s]) => !DEADLOCKS.has(`${m}/${k}/${s}`)))(
    '%s at %i KiB, %s: more replicas than at 64 KiB, every core fits, checks pass, outputs unchanged',
    (model, kib, strategy) => scheduleWithWindows(model, kib, strategy),
  );

  const refused = CASES.filter(([m, k, s]) => DEADLOCKS.has(`${m}/${k}/${s}`));
  if (refused.length) it.each(refused)(
    '%s at %i KiB, %s: a window pipeline that deadlocks and whose fallbacks do not fit is refused, the module unchanged',
    (model, kib, strategy) => {
      const m = lowerShared(model);
      if (!m) return;
      const before = printOperation(m.module);
      const r = schedule(m.module, strategy, targetWithLocalMemory(kib * 1024));
      expect(r.report).toBeUndefined();
      expect(r.errors.join('\n')).toMatch(/the window pipeline would deadlock with blocking sends and receives, and (at layer granularity core \d+ would keep \d+ bytes live|neither whole layers)/);
      expect(printOperation(m.module)).toBe(before);
    },
  );
});

describe('local-memory=report splits nothing', () => {
  it.each(['lenet5', 'mnist-8'].flatMap((model) => STRATEGIES.map((s) => [model, s] as const)))('%s at 16 KiB, %s: the same layers, replicas and schedule as at 1 MiB', (model, strategy) => {
    const small = lowerShared(model);
    if (!small) return;
    const large = lowerShared(model)!;
    const before = graphComputes(small.module);
    const a = schedule(small.module, strategy, targetWithLocalMemory(16 * 1024), { 'local-memory': 'report' });
    const b = schedule(large.module, strategy, targetWithLocalMemory(1 << 20), { 'local-memory': 'report' });
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    // One layer per graph compute of the lowered module: nothing was tiled or split into new computes.
    expect(a.report!.layers).toHaveLength(before.scalar + before.batch);
    const shape = (rep: ScheduleReport) => rep.layers.map((l) => ({ name: l.name, lanes: l.lanes, replicas: l.replicas, copies: l.copies, cores: l.cores, granularity: l.granularity }));
    expect(shape(a.report!)).toEqual(shape(b.report!));
    if (a.report!.hostSlots === 0) expect(printOperation(small.module)).toBe(printOperation(large.module));
    else {
      // Host slots: the same stores and computes; a reader's loads are cut into pieces of a
      // sixteenth of the local memory (hostRunBudget), so the smaller memory loads in more pieces.
      const count = (m: Operation, name: string): number => {
        let k = 0;
        m.walk((op: Operation) => {
          if (op.name === name) k++;
        });
        return k;
      };
      for (const name of ['spat.scheduled_compute', 'spat.host_store_sync', 'spat.channel_send', 'spat.wvmm']) expect(count(small.module, name)).toBe(count(large.module, name));
      expect(count(small.module, 'spat.host_wait_load')).toBeGreaterThanOrEqual(count(large.module, 'spat.host_wait_load'));
    }
    // ... and it says where the memory does not fit.
    expect(a.report!.warnings.some((w) => /exceeds the 16384 bytes/.test(w))).toBe(true);
  });
});

// ------------------------------------------------------------------ property: windows on small random chains

interface WindowChain {
  /** Producer lanes = rows of the logical value. */
  readonly rows: number;
  readonly cols: number;
  /** Slot permutation seed for a fragment assembly (null: a physical view). */
  readonly permutation: number | null;
  /** With an assembly: the rows come in two column parts from two producers (as split computes publish them). */
  readonly parts: boolean;
  /** Without an assembly: a scalar producer's whole value read directly instead of a physical view. */
  readonly scalar: boolean;
  /** Consumer lanes; lane l reads rows [l * step, l * step + (h - 1) * rowStride + 1). */
  readonly lanes: number;
  readonly step: number;
  readonly h: number;
  readonly rowStride: number;
  readonly c0: number;
  readonly w: number;
  readonly colStride: number;
}

function permutationOf(n: number, seed: number): number[] {
  const next = (() => {
    let a = seed >>> 0;
    return () => ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296);
  })();
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [p[i], p[j]] = [p[j]!, p[i]!];
  }
  return p;
}

function windowChainText(c: WindowChain): string {
  const { rows, cols, lanes, h, w } = c;
  const logical = `tensor<${rows}x${cols}xf32>`;
  const xType = `tensor<${rows}x${cols}xf32>`;
  /** A producer batch publishing columns [c, c + n) of row `lane` of %x, after a ReLU. */
  const producer = (name: string, c: number, n: number): string => `
  %${name} = spat.graph_compute_batch %lane = 0 to ${rows} [] = [] (%a) = (%x) shared_outs(%out) crossbarWeights 0 : [] (${xType}) -> tensor<${rows}x1x${n}xf32> {
    %r = tensor.extract_slice %a[%lane, ${c}] [1, ${n}] [1, 1] : ${xType} to tensor<1x${n}xf32>
    %v = spat.relu(%r) : tensor<1x${n}xf32> -> tensor<1x${n}xf32>
    spat.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, 1, ${n}] [1, 1, 1] : tensor<1x${n}xf32> into tensor<${rows}x1x${n}xf32>
    }
  } loc("${name}")`;
  const split = c.permutation !== null && c.parts && cols > 1 ? Math.ceil(cols / 2) : cols;
  let producers: string;
  let blueprint: string;
  if (c.permutation === null && c.scalar) {
    producers = `
  %img = spat.graph_compute [] = [] (%a) = (%x) crossbarWeights 0 : [] (${xType}) -> ${logical} {
    %v = spat.relu(%a) : ${xType} -> ${xType}
    spat.yield %v : ${xType}
  } loc("rows")`;
    blueprint = '';
  } else if (c.permutation === null) {
    producers = producer('rows', 0, cols);
    blueprint = `%img = spat.blueprint fragments(%rows) ${VIEW} : (tensor<${rows}x1x${cols}xf32>) -> ${logical}`;
  } else {
    // Slot s lands at row perm[s] (in both parts).
    const perm = permutationOf(rows, c.permutation);
    if (split === cols) {
      producers = producer('rows', 0, cols);
      blueprint = `%img = spat.blueprint fragments(%rows) ${assembly(2, perm.map((r, s) => ({ slot: s, offsets: [r, 0], sizes: [1, cols] })))} : (tensor<${rows}x1x${cols}xf32>) -> ${logical}`;
    } else {
      producers = producer('rows', 0, split) + producer('rows_b', split, cols - split);
      const pieces = perm.flatMap((r, s) => [
        { operand: 0, slot: s, offsets: [r, 0], sizes: [1, split] },
        { operand: 1, slot: s, offsets: [r, split], sizes: [1, cols - split] },
      ]);
      blueprint = `%img = spat.blueprint fragments(%rows, %rows_b) ${assembly(2, pieces)} : (tensor<${rows}x1x${split}xf32>, tensor<${rows}x1x${cols - split}xf32>) -> ${logical}`;
    }
  }
  const out = `tensor<${lanes}x${h}x${w}xf32>`;
  return `
func.func @main(%x: ${xType}) -> ${out} {${producers}
  ${blueprint}
  %win = spat.graph_compute_batch %lane = 0 to ${lanes} [] = [] (%b) = (%img) shared_outs(%out) crossbarWeights 0 : [] (${logical}) -> ${out} {
    %o = affine.apply affine_map<(d0) -> (d0 * ${c.step})>(%lane)
    %s = tensor.extract_slice %b[%o, ${c.c0}] [${h}, ${w}] [${c.rowStride}, ${c.colStride}] : ${logical} to tensor<${h}x${w}xf32>
    %v = spat.sigmoid(%s) : tensor<${h}x${w}xf32> -> tensor<${h}x${w}xf32>
    spat.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, ${h}, ${w}] [1, 1, 1] : tensor<${h}x${w}xf32> into ${out}
    }
  } loc("win")
  return %win : ${out}
}`;
}

const windowChainArb: fc.Arbitrary<WindowChain> = fc
  .record({
    rows: fc.integer({ min: 2, max: 12 }),
    cols: fc.integer({ min: 1, max: 12 }),
    permutation: fc.option(fc.nat(1000), { nil: null }),
    parts: fc.boolean(),
    scalar: fc.boolean(),
    lanes: fc.integer({ min: 1, max: 6 }),
    step: fc.integer({ min: 0, max: 3 }),
    h: fc.integer({ min: 1, max: 4 }),
    rowStride: fc.integer({ min: 1, max: 2 }),
    c0: fc.nat(11),
    w: fc.integer({ min: 1, max: 6 }),
    colStride: fc.integer({ min: 1, max: 2 }),
  })
  .filter((c) => (c.lanes - 1) * c.step + (c.h - 1) * c.rowStride + 1 <= c.rows && c.c0 + (c.w - 1) * c.colStride + 1 <= c.cols);

describe('scheduling with windows preserves meaning (property)', () => {
  it('random row chains read whole from a scalar producer, through a view or a permuted assembly (of one or two column parts), small local memories, every strategy', () => {
    let scheduled = 0;
    let windowed = 0;
    const refusals: string[] = [];
    fc.assert(
      fc.property(windowChainArb, fc.constantFrom(128, 192, 256, 384, 512, 768), fc.constantFrom(...STRATEGIES), (c, bytes, strategy) => {
        const module = parse(windowChainText(c));
        const args = [fixedInput(funcOf(module).regions[0]!.firstBlock!.arguments[0]!)];
        const before = run(module, 'main', args);
        expect(before.ok).toBe(true);
        const target = targetWithLocalMemory(bytes);
        const cost = createCostModel(target);
        const workload = new Workload(funcOf(module), cost);
        const win = workload.nodes.find((n) => n.name.endsWith('win'))!;
        const r = builtinScheduler(strategy)!.schedule(module, target, {});
        if (!r.module) {
          // Refusals name the memory that does not fit: a compute alone, no packing, or the driver's final check of the plan.
          expect(r.diagnostics[0]!.message).toMatch(/needs \d+ bytes of live local memory|found no mapping|keeps \d+ bytes live on core \d+/);
          refusals.push(`${JSON.stringify(c)} ${bytes} ${strategy}: ${r.diagnostics[0]!.message}`);
          return;
        }
        scheduled++;
        const layer = r.report.functions[0]!.layers.find((l) => l.name.endsWith('win'))!;
        if (needsWindows(workload, win, layer.replicas, layer.granularity as 'layer' | 'window', cost)) windowed++;
        for (const core of r.report.functions[0]!.cores) expect(core.peakLocalBytes).toBeLessThanOrEqual(bytes);
        expect(checkModule(module)).toEqual([]);
        expect(run(module, 'main', args)).toEqual(before);
      }),
      { numRuns: Number(process.env['RAPTOR_PROPERTY_RUNS'] ?? 120), seed: Number(process.env['RAPTOR_PROPERTY_SEED'] ?? 2026) },
    );
    if (process.env['RAPTOR_LOG_REFUSALS']) console.log(refusals.join('\n'));
    expect(scheduled).toBeGreaterThan(40);
    expect(windowed).toBeGreaterThan(5);
  });
});
