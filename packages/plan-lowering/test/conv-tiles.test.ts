/**
 * The crossbar tiles of every convolution of every shared model: after
 * `spat-lower-plans{pixel-packing=false column-groups=false}`, the batch that lowers a conv binds
 * exactly X = ceil(K/R) * ceil(Cout/C) distinct resident weights (K = kh*kw*Cin/groups,
 * hardware-defaults.md), each at most R x C, on the default 128 x 128 crossbars and on 32 x 16
 * crossbars (resnet18 on the default only: its 11.7 M weights make 23,000 small tiles). With
 * pixel packing and column groups (the defaults) a batch of `p` pixels per lane binds the
 * crossbars of the packed matrix, at most 1.25 X (or 16), only where that saves MVMs per pixel, and a
 * one-group convolution with several column tiles binds one weight per row tile (R rows, all the
 * columns) and runs one MVM per row tile.
 */
import { GraphComputeBatchOp, GraphComputeOp, WvmmOp, Conv2dPlanOp, crossbarTileCount } from '@raptor-pim/spatial-dialect';
import { type Operation, type RankedTensorType } from '@raptor-pim/ir-core';
import { loadSharedModel, runPipeline, sharedModels, targetWithCrossbar } from './helpers';
import { MAX_PACKED_TILE_GROWTH, SMALL_PACKED_CROSSBARS, blockDiagonalFilters, constantF32, groupedConvMvms, packingCost, type PatchOrder } from '../src';

jest.setTimeout(300_000);

interface Expected {
  readonly k: number;
  readonly n: number;
  readonly kh: number;
  readonly kw: number;
  readonly cg: number;
  readonly strideW: number;
  readonly outputW: number;
  /** Output pixels (N * Ho * Wo). */
  readonly pixels: number;
  /**
   * For a grouped convolution lowered as one group with block-diagonal filters: its MVMs (the
   * crossbar tiles that are not all zero) per patch order (the input layout decides the order).
   */
  readonly blockDiagonal?: readonly number[];
  /** MVMs per pixel of the grouped form (one MVM per group and crossbar tile of its columns). */
  readonly grouped?: number;
}

const ORDERS: readonly PatchOrder[] = ['position-major', 'channel-major', 'row-channel'];

function topLevelOps(module: Operation): Operation[] {
  const out: Operation[] = [];
  const func = module.regions[0]!.firstBlock!.firstOp!;
  for (let op = func.regions[0]!.firstBlock!.firstOp; op; op = op.next) out.push(op);
  return out;
}

function hasWvmm(op: Operation): boolean {
  let found = false;
  op.walk((inner) => {
    if (WvmmOp.match(inner)) found = true;
  });
  return found;
}

const CROSSBARS: readonly (readonly [number, number])[] = [
  [128, 128],
  [32, 16],
];

/** The convolutions of `module` (before lowering), in program order, for `rows x columns` crossbars. */
function convsOf(module: Operation, rows: number, columns: number): Expected[] {
  const convs: Expected[] = [];
  for (const op of topLevelOps(module)) {
    const conv = Conv2dPlanOp.match(op);
    if (!conv) continue;
    const shape = (conv.weight.type as RankedTensorType).shape as [number, number, number, number];
    const [cout, cg, kh, kw] = shape;
    const [n, , ho, wo] = (conv.output.type as RankedTensorType).shape as [number, number, number, number];
    const strideW = Number(conv.strides.values[1] ?? 1);
    const groups = Number(conv.group.value);
    let blockDiagonal: number[] | undefined;
    let grouped: number | undefined;
    if (groups > 1) {
      const filters = blockDiagonalFilters(constantF32(conv.weight)!, shape, groups);
      const counts = ORDERS.map((order) => groupedConvMvms(filters, shape, groups, order, { rows, columns }));
      // Lowered as one group where that takes fewer MVMs per pixel (in the order it gathers its patch).
      if (counts.some((c) => c.blockDiagonal < c.grouped)) blockDiagonal = counts.map((c) => c.blockDiagonal);
      grouped = counts[0]!.grouped;
    }
    convs.push({ k: kh * kw * cg, n: cout, kh, kw, cg, strideW, outputW: wo, pixels: n * ho * wo, ...(blockDiagonal ? { blockDiagonal, grouped } : {}) });
  }
  return convs;
}

function mvmsOf(op: Operation): number {
  let mvms = 0;
  op.walk((inner) => {
    if (WvmmOp.match(inner)) mvms++;
  });
  return mvms;
}

/** The batches with crossbar MVMs that `pipeline` adds to `model`'s module, one per conv, with the convs. */
function lowerConvs(model: string, rows: number, columns: number, pipeline: string): { convs: Expected[]; lowered: Operation[] } {
  const m = loadSharedModel(model);
  const existing = new Set(topLevelOps(m.module));
  const convs = convsOf(m.module, rows, columns);
  const run = runPipeline(m.module, pipeline, targetWithCrossbar(rows, columns));
  expect(run.diagnostics.map((d) => d.message)).toEqual([]);
  // The new computes with crossbar MVMs, in program order: one per conv (Gemm computes of the importer existed before).
  const lowered = topLevelOps(m.module).filter((op) => !existing.has(op) && (GraphComputeBatchOp.match(op) || GraphComputeOp.match(op)) && hasWvmm(op));
  expect(lowered.length).toBe(convs.length);
  return { convs, lowered };
}

function expectTilesWithin(weights: readonly { readonly type: unknown }[], rows: number, columns: number): void {
  for (const w of weights) {
    const [r, c] = (w.type as RankedTensorType).shape as [number, number];
    expect(r).toBeLessThanOrEqual(rows);
    expect(c).toBeLessThanOrEqual(columns);
  }
}

describe.each(sharedModels())('%s', (model) => {
  const crossbars = CROSSBARS.filter(([r]) => model !== 'resnet18' || r === 128);
  it.each(crossbars)('%i x %i crossbars: X tiles per conv without pixel packing', (rows, columns) => {
    const { convs, lowered } = lowerConvs(model, rows, columns, 'builtin.module(func.func(spat-lower-plans{pixel-packing=false column-groups=false}))');
    lowered.forEach((op, i) => {
      const weights = GraphComputeBatchOp.get(op).weights;
      const c = convs[i]!;
      expectTilesWithin(weights, rows, columns);
      if (c.blockDiagonal) {
        // One weight and one MVM per tile of the block-diagonal matrix that is not all zero.
        expect(c.blockDiagonal).toContain(new Set(weights).size);
        expect(mvmsOf(op)).toBe(new Set(weights).size);
        expect(mvmsOf(op)).toBeLessThan(c.grouped!);
        return;
      }
      expect(new Set(weights).size).toBe(crossbarTileCount(c.k, c.n, rows, columns));
    });
  });

  it.each(crossbars)('%i x %i crossbars: packed and column-grouped convs take the packed crossbars, at most 1.25 X or 16, and fewer MVMs per pixel', (rows, columns) => {
    const { convs, lowered } = lowerConvs(model, rows, columns, 'builtin.module(func.func(spat-lower-plans))');
    lowered.forEach((op, i) => {
      const batch = GraphComputeBatchOp.get(op);
      const c = convs[i]!;
      const x = crossbarTileCount(c.k, c.n, rows, columns);
      const [lanes, perSlot, cout] = (op.getResult(0).type as RankedTensorType).shape as [number, number, number];
      expect(cout).toBe(c.n);
      expect(lanes * perSlot).toBe(c.pixels);
      if (c.blockDiagonal) {
        // Block-diagonal convs are neither packed nor column-grouped.
        expect(perSlot).toBe(1);
        expect(c.blockDiagonal).toContain(new Set(batch.weights).size);
        expect(mvmsOf(op)).toBe(new Set(batch.weights).size);
        return;
      }
      expect(c.outputW % perSlot).toBe(0);
      const weights = [...new Set(batch.weights)].map((w) => (w.type as RankedTensorType).shape as [number, number]);
      const crossbarsUsed = weights.reduce((a, [r, cols]) => a + Math.ceil(r / rows) * Math.ceil(cols / columns), 0);
      const packed = packingCost({ ...c, cout: c.n }, perSlot, { rows, columns }, 64);
      expect(crossbarsUsed).toBe(packed.tiles);
      expect(crossbarsUsed).toBeLessThanOrEqual(perSlot === 1 ? x : Math.max(Math.ceil(x * MAX_PACKED_TILE_GROWTH), SMALL_PACKED_CROSSBARS));
      // Every weight has at most R rows; a row tile spans all the columns or one column tile.
      for (const [r, cols] of weights) {
        expect(r).toBeLessThanOrEqual(rows);
        expect(cols === perSlot * c.n || cols <= columns).toBe(true);
      }
      // MVMs per lane: one per weight (per row tile with column groups).
      const mvms = mvmsOf(op);
      const grouped = weights.some(([, cols]) => cols > columns);
      if (grouped) expect(mvms).toBe(Math.ceil(packed.rows / rows));
      if (perSlot > 1) expect(mvms / perSlot).toBeLessThan(crossbarTileCount(c.k, c.n, rows, columns));
    });
  });
});
