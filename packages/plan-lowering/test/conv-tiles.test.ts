/**
 * The crossbar tiles of every convolution of every shared model: after `spat-lower-plans`, the
 * batch that lowers a conv binds exactly X = ceil(K/R) * ceil(Cout/C) distinct resident weights
 * (K = kh*kw*Cin/groups, hardware-defaults.md), each at most R x C, on the default 128 x 128
 * crossbars and on 32 x 16 crossbars (resnet18 on the default only: its 11.7 M weights make
 * 23,000 small tiles).
 */
import { GraphComputeBatchOp, GraphComputeOp, WvmmOp, Conv2dPlanOp, crossbarTileCount } from '@raptor-pim/spatial-dialect';
import { type Operation, type RankedTensorType } from '@raptor-pim/ir-core';
import { loadSharedModel, runPipeline, sharedModels, targetWithCrossbar } from './helpers';

jest.setTimeout(300_000);

interface Expected {
  readonly k: number;
  readonly n: number;
}

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

describe.each(sharedModels())('%s', (model) => {
  it.each(CROSSBARS.filter(([r]) => model !== 'resnet18' || r === 128))('%i x %i crossbars: X tiles per conv', (rows, columns) => {
    const m = loadSharedModel(model);
    const before = topLevelOps(m.module);
    const existing = new Set(before);
    const convs: Expected[] = [];
    for (const op of before) {
      const conv = Conv2dPlanOp.match(op);
      if (!conv) continue;
      const [cout, cg, kh, kw] = (conv.weight.type as RankedTensorType).shape as [number, number, number, number];
      convs.push({ k: kh * kw * cg, n: cout });
    }
    const run = runPipeline(m.module, 'builtin.module(func.func(spat-lower-plans))', targetWithCrossbar(rows, columns));
    expect(run.diagnostics.map((d) => d.message)).toEqual([]);
    // The new computes with crossbar MVMs, in program order: one per conv (Gemm computes of the importer existed before).
    const lowered = topLevelOps(m.module).filter((op) => !existing.has(op) && (GraphComputeBatchOp.match(op) || GraphComputeOp.match(op)) && hasWvmm(op));
    expect(lowered.length).toBe(convs.length);
    lowered.forEach((op, i) => {
      const weights = GraphComputeBatchOp.get(op).weights;
      expect(new Set(weights).size).toBe(crossbarTileCount(convs[i]!.k, convs[i]!.n, rows, columns));
      for (const w of weights) {
        const [r, c] = (w.type as RankedTensorType).shape as [number, number];
        expect(r).toBeLessThanOrEqual(rows);
        expect(c).toBeLessThanOrEqual(columns);
      }
    });
  });
});
