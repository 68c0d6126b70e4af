/**
 * `spat-tile-parallel-computes`' chunk tiling (`chunk-tiling.ts`): weightless data movement whose
 * tiled dimension moves from value to value (transposes written as extract/insert pairs,
 * row-major reshapes, softmax by differences, depth-to-space), producers taken in, and
 * concatenations turned into one fragment assembly.
 *
 * - unit: `reshapeSegments` and `reshapeSourceChunk` on the reshapes of ultraface and superres;
 * - golden: every case of `fixtures/chunk-tiling.mlir` through the pass on a target whose local
 *   memory holds none of them (`UPDATE_GOLDEN=1` rewrites `fixtures/golden/chunk-tiling.mlir`);
 * - per case: the lanes, what is left of the scalar computes, the interpreter's outputs before
 *   and after on random inputs, the same print twice and a second run that changes nothing;
 * - property (fast-check): random NCHW -> NHWC transposes followed by random row-major reshapes
 *   to `[1, n, k]` keep their outputs through the pass;
 * - `spat-schedule` with every strategy on the fixture cases with 512 B of local memory: fits,
 *   passes `spat-verify-communication` and keeps the outputs;
 * - shared models (RAPTOR_SLOW_TESTS=1; measured on the shared machine under load: ultraface
 *   ~2.5 min per export, superres ~28 min, mostly its 50,176-lane convolution's footprints): after
 *   the driver's preprocessing no
 *   compute of ultraface-slim-320 (both exports) or superres-224 needs more than a core, and the
 *   pass keeps ultraface's outputs equal to onnxruntime's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { PassRegistry, parsePassPipeline, printOperation, splitInputFile, type Operation } from '@raptor-pim/ir-core';
import { BlueprintOp, GraphComputeBatchOp, GraphComputeOp } from '@raptor-pim/spatial-dialect';
import { createCostModel, defaultTarget, type Target } from '@raptor-pim/pim-target';
import {
  TargetKey,
  Workload,
  builtinScheduler,
  minimumFootprint,
  planInputChannelSplits,
  planLaneSplits,
  planOversizedSplits,
  planParallelTiles,
  registerSchedulerPasses,
  reshapeSegments,
  reshapeSourceChunk,
  splitInputChannels,
  splitLimitsOf,
  splitOversizedComputes,
  splitWideLanes,
  tileOversizedParallelComputes,
  verifyCommunication,
} from '@raptor-pim/scheduler';
import { expectGoldenCases } from '../../../tools/test-support/golden-cases';
import { funcOf, parseVerified, randomArgs, run, verifierMessages } from './helpers';
import { lowerShared } from './models';

jest.setTimeout(120_000);

const FIXTURES = path.join(__dirname, 'fixtures');
const INPUT = path.join(FIXTURES, 'chunk-tiling.mlir');
const GOLDEN = path.join(FIXTURES, 'golden', 'chunk-tiling.mlir');
const cases = splitInputFile(fs.readFileSync(INPUT, 'utf8')).map((c) => c.text);

function targetWithLocalMemory(bytes: number): Target {
  const t = defaultTarget();
  t.config.chip_config.core_config.local_memory_config.memory_size = bytes;
  return t;
}

/** A local memory no case fits: everything the tiling takes is tiled, in the most lanes. */
const TINY = 16;

function topOps(module: Operation): Operation[] {
  return funcOf(module).regions[0]!.firstBlock!.operations;
}

function runPass(module: Operation, target: Target): void {
  const registry = new PassRegistry();
  registerSchedulerPasses(registry);
  const pm = parsePassPipeline(module.context, 'builtin.module(spat-tile-parallel-computes)', registry)!;
  pm.setContext(TargetKey, target);
  expect(pm.run(module).success).toBe(true);
}

function tiled(text: string): Operation {
  const module = parseVerified(text, 'chunks.mlir');
  runPass(module, targetWithLocalMemory(TINY));
  expect(verifierMessages(module)).toEqual([]);
  return module;
}

describe('reshapeSegments / reshapeSourceChunk', () => {
  it('segments a reshape into runs of equal products', () => {
    expect(reshapeSegments([1, 30, 40, 6], [1, 3600, 2])).toEqual([
      { src: [0], dst: [0] },
      { src: [1, 2, 3], dst: [1, 2] },
    ]);
    expect(reshapeSegments([9, 1, 1, 224, 224], [1, 9, 224, 224])).toEqual([
      { src: [0], dst: [0, 1] },
      { src: [1, 2, 3], dst: [2] },
      { src: [4], dst: [3] },
    ]);
    expect(reshapeSegments([1, 1, 224, 3, 224, 3], [1, 1, 672, 672])).toEqual([
      { src: [0], dst: [0] },
      { src: [1], dst: [1] },
      { src: [2, 3], dst: [2] },
      { src: [4, 5], dst: [3] },
    ]);
    expect(reshapeSegments([2, 3], [7])).toBeUndefined();
  });

  it('maps a chunk of the result to whole rows of the outermost non-unit source dimension, or refuses', () => {
    // ultraface: 120 of the 3600 rows are 3 input rows; 60 rows are not whole input rows.
    expect(reshapeSourceChunk([1, 30, 40, 6], [1, 3600, 2], { dim: 1, size: 120 })).toEqual({ dim: 1, size: 1 });
    expect(reshapeSourceChunk([1, 30, 40, 6], [1, 3600, 2], { dim: 1, size: 60 })).toBeUndefined();
    // superres: output rows 3h..3h+2 are row h of the 6-D tensor.
    expect(reshapeSourceChunk([1, 1, 224, 3, 224, 3], [1, 1, 672, 672], { dim: 2, size: 3 })).toEqual({ dim: 2, size: 1 });
    expect(reshapeSourceChunk([1, 1, 224, 3, 224, 3], [1, 1, 672, 672], { dim: 2, size: 1 })).toBeUndefined();
    // A dimension that is not the outermost non-unit one of its segment.
    // Flattened: a chunk is whole channel planes, never rows of every channel.
    expect(reshapeSourceChunk([1, 9, 224, 224], [451584], { dim: 0, size: 50176 })).toEqual({ dim: 1, size: 1 });
    expect(reshapeSourceChunk([1, 9, 224, 224], [451584], { dim: 0, size: 2016 })).toBeUndefined();
    expect(reshapeSourceChunk([12, 2], [1, 24], { dim: 1, size: 4 })).toEqual({ dim: 0, size: 2 });
    expect(reshapeSourceChunk([4, 6], [24], { dim: 0, size: 4 })).toBeUndefined();
  });
});

/** Per case: the lane counts of the batches left at top level, and whether a scalar compute remains. */
const EXPECTED: readonly { readonly lanes: readonly number[]; readonly scalars: number }[] = [
  { lanes: [6], scalars: 0 }, // transpose: one lane per row
  { lanes: [4], scalars: 0 }, // reshape: whole input rows (15 output rows each)
  { lanes: [12], scalars: 0 }, // softmax by differences: one row each
  { lanes: [4], scalars: 0 }, // depth-to-space: the planes batch taken in; one input row (two output rows) per lane
  { lanes: [4, 6], scalars: 0 }, // concat: the reshape in chunks, the ReLU along its rows, an assembly of both
  { lanes: [], scalars: 1 }, // a slice taking part of every dimension: left alone
];

describe('spat-tile-parallel-computes in chunks on the fixture cases', () => {
  it('has one expectation per case', () => {
    expect(cases).toHaveLength(EXPECTED.length);
  });

  it('prints the golden file', () => {
    expectGoldenCases(INPUT, GOLDEN, (text) => printOperation(tiled(text)) + '\n');
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i: lanes and what is left; outputs equal before and after on random inputs; deterministic and idempotent', (i, text) => {
    const module = tiled(text);
    const ops = topOps(module);
    expect(ops.filter((o) => GraphComputeBatchOp.isInstance(o)).map((b) => Number(GraphComputeBatchOp.get(b).laneCount.value))).toEqual(EXPECTED[i]!.lanes);
    expect(ops.filter((o) => GraphComputeOp.isInstance(o))).toHaveLength(EXPECTED[i]!.scalars);
    // Every batch is read through fragment assemblies only.
    for (const b of ops.filter((o) => GraphComputeBatchOp.isInstance(o))) expect(b.getResult(0).users.every((u) => BlueprintOp.isInstance(u))).toBe(true);
    for (const seed of [1, 2, 3]) {
      const before = parseVerified(text, 'chunks.mlir');
      const args = randomArgs(funcOf(before), seed * 10 + i);
      const reference = run(before, 'main', args);
      expect(reference.ok).toBe(true);
      expect(run(module, 'main', args)).toEqual(reference);
    }
    const printed = printOperation(module);
    expect(printOperation(tiled(text))).toBe(printed);
    runPass(module, targetWithLocalMemory(TINY));
    expect(printOperation(module)).toBe(printed);
  });

  it('the concatenation becomes one assembly of both inputs\' fragments, returned directly', () => {
    const module = tiled(cases[4]!);
    const ret = funcOf(module).regions[0]!.firstBlock!.lastOp!;
    const bp = ret.getOperand(0).definingOp!;
    expect(BlueprintOp.isInstance(bp)).toBe(true);
    expect(bp.operands.map((v) => Number(GraphComputeBatchOp.get(v.definingOp!).laneCount.value))).toEqual([4, 6]);
  });
});

// ------------------------------------------------------------------ property

/** An NCHW -> NHWC transpose of [1, c, h, w] (one extract/insert pair per channel), then a reshape to [1, n, k]. */
function transposeReshape(c: number, h: number, w: number, k: number): string {
  const n = (c * h * w) / k;
  const pairs: string[] = [];
  let last = '%e';
  for (let ch = 0; ch < c; ch++) {
    pairs.push(`    %s${ch} = tensor.extract_slice %a[0, ${ch}, 0, 0] [1, 1, ${h}, ${w}] [1, 1, 1, 1] : tensor<1x${c}x${h}x${w}xf32> to tensor<1x${h}x${w}xf32>`);
    pairs.push(`    %i${ch} = tensor.insert_slice %s${ch} into ${last}[0, 0, 0, ${ch}] [1, ${h}, ${w}, 1] [1, 1, 1, 1] : tensor<1x${h}x${w}xf32> into tensor<1x${h}x${w}x${c}xf32>`);
    last = `%i${ch}`;
  }
  return `func.func @main(%x: tensor<1x${c}x${h}x${w}xf32>) -> tensor<1x${n}x${k}xf32> {
  %t = spat.graph_compute [] = [] (%a) = (%x) crossbarWeights 0 : [] (tensor<1x${c}x${h}x${w}xf32>) -> tensor<1x${h}x${w}x${c}xf32> {
    %e = tensor.empty() : tensor<1x${h}x${w}x${c}xf32>
${pairs.join('\n')}
    spat.yield ${last} : tensor<1x${h}x${w}x${c}xf32>
  }
  %r = spat.graph_compute [] = [] (%b) = (%t) crossbarWeights 0 : [] (tensor<1x${h}x${w}x${c}xf32>) -> tensor<1x${n}x${k}xf32> {
    %f = tensor.collapse_shape %b [[0, 1, 2, 3]] : tensor<1x${h}x${w}x${c}xf32> into tensor<${c * h * w}xf32>
    %g = tensor.expand_shape %f [[0, 1, 2]] output_shape [1, ${n}, ${k}] : tensor<${c * h * w}xf32> into tensor<1x${n}x${k}xf32>
    spat.yield %g : tensor<1x${n}x${k}xf32>
  }
  return %r : tensor<1x${n}x${k}xf32>
}`;
}

describe('chunk tiling preserves meaning (property)', () => {
  it('random transposes and reshapes keep their outputs; the transpose is always tiled', () => {
    const shapes = fc
      .record({ c: fc.integer({ min: 1, max: 4 }), h: fc.integer({ min: 2, max: 6 }), w: fc.integer({ min: 1, max: 5 }), kIndex: fc.nat(), seed: fc.integer({ min: 0, max: 1000 }) })
      .map(({ c, h, w, kIndex, seed }) => {
        const total = c * h * w;
        const ks = Array.from({ length: total }, (_, i) => i + 1).filter((x) => total % x === 0 && x < total);
        return { c, h, w, k: ks[kIndex % ks.length]!, seed };
      });
    let reshapesTiled = 0;
    fc.assert(
      fc.property(shapes, ({ c, h, w, k, seed }) => {
        const text = transposeReshape(c, h, w, k);
        const before = parseVerified(text, 'random.mlir');
        const args = randomArgs(funcOf(before), seed);
        const reference = run(before, 'main', args);
        expect(reference.ok).toBe(true);
        const module = tiled(text);
        const computes = topOps(module).filter((o) => GraphComputeOp.isInstance(o));
        // The transpose has a dimension that moves (H from 2 to 1): always tiled (or, with one
        // channel, along a dimension every value shares).
        expect(computes.length).toBeLessThanOrEqual(1);
        if (computes.length === 0) reshapesTiled++;
        expect(run(module, 'main', args)).toEqual(reference);
      }),
      { numRuns: 120, seed: 2027 },
    );
    expect(reshapesTiled).toBeGreaterThan(30);
  });
});

// ------------------------------------------------------------------ scheduled

describe('spat-schedule on the chunk cases with small local memories', () => {
  it.each(cases.map((c, i) => [i, c] as const))('case %i: every strategy schedules it at 512 B; checks pass, outputs kept', (i, text) => {
    for (const strategy of ['throughput', 'layer-sequential', 'latency']) {
      const module = parseVerified(text, 'chunks.mlir');
      const args = randomArgs(funcOf(module), 5 + i);
      const before = run(module, 'main', args);
      const target = targetWithLocalMemory(512);
      const r = builtinScheduler(strategy)!.schedule(module, target, {});
      expect([strategy, (r.diagnostics ?? []).map((d) => d.message)]).toEqual([strategy, []]);
      for (const c of r.report!.functions[0]!.cores) expect(c.peakLocalBytes).toBeLessThanOrEqual(512);
      expect([strategy, verifyCommunication(module, target).diagnostics.map((d) => d.message)]).toEqual([strategy, []]);
      expect([strategy, run(module, 'main', args)]).toEqual([strategy, before]);
    }
  });
});

// ------------------------------------------------------------------ shared models

const SLOW = !!process.env['RAPTOR_SLOW_TESTS'];

/** The driver's preprocessing (as `spat-schedule` runs it with local memory enforced). */
function preprocess(func: Operation): Workload {
  const cost = createCostModel(defaultTarget());
  const channels = planInputChannelSplits(func, cost);
  if (channels.length) splitInputChannels(func, cost, channels);
  const split = planOversizedSplits(func, splitLimitsOf(cost));
  if (split.plans.length) splitOversizedComputes(func, splitLimitsOf(cost), split);
  let w = new Workload(func, cost);
  const tiles = planParallelTiles(w, cost);
  if (tiles.length) {
    tileOversizedParallelComputes(func, cost, tiles);
    w = new Workload(func, cost);
  }
  if (w.nodes.some((n) => minimumFootprint(w, n, cost).bodyBytes > cost.localMemoryBytes)) {
    const lanes = planLaneSplits(w, cost);
    if (lanes.length) {
      splitWideLanes(func, cost, lanes);
      w = new Workload(func, cost);
    }
  }
  return w;
}

describe('shared models whose data movement did not fit a core (RAPTOR_SLOW_TESTS=1)', () => {
  const slow = SLOW ? it : it.skip;
  slow.each(['ultraface-slim-320', 'ultraface-slim-320-ortfolded', 'superres-224'])('%s: after the driver\'s preprocessing every compute fits a core', (model) => {
    const m = lowerShared(model);
    if (!m) return;
    const cost = createCostModel(defaultTarget());
    const w = preprocess(funcOf(m.module));
    expect(verifierMessages(m.module)).toEqual([]);
    const over = w.nodes.filter((n) => minimumFootprint(w, n, cost).bodyBytes > cost.localMemoryBytes).map((n) => `#${n.index} ${n.name}`);
    expect(over).toEqual([]);
  }, 1_800_000);

  slow.each(['ultraface-slim-320'])('%s: the pass keeps the outputs', (model) => {
    const m = lowerShared(model);
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    expect(reference.ok).toBe(true);
    const cost = createCostModel(defaultTarget());
    expect(tileOversizedParallelComputes(funcOf(m.module), cost)).toBeGreaterThan(0);
    expect(verifierMessages(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  }, 1_800_000);
});
