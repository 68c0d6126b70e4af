/**
 * `spat-split-lanes`: weightless lane batches whose lanes are too large for a core are split,
 * lane-major, along a dimension their bodies take whole, with a fragment-assembly blueprint per
 * result giving the consumers the old collection.
 *
 * - golden: every case of `fixtures/split-lanes.mlir` (resnet18's ReLU, padding and max-pool row
 *   strips in miniature, a residual addition, a dense constant and a concatenation, two results
 *   at a permuted slot with reshapes, and batches left alone) with every batch that has a lane
 *   split dimension split into 2 chunks (`UPDATE_GOLDEN=1` rewrites
 *   `fixtures/golden/split-lanes.mlir`);
 * - per case: the dimension chosen, the interpreter's outputs before and after for every k, the
 *   pass with a budget (chains take one k, every lane fits, a second run changes nothing), the
 *   default target splitting nothing, wvmm and non-parallel bodies left alone;
 * - property (fast-check): random row-strip bodies (element-wise ops, splat operands, paddings,
 *   strided slices, concatenations, permuted slots) split by a random divisor keep their outputs;
 *   with a softmax they have no split dimension and the pass leaves them unchanged;
 * - lenet5, resnet_mini and yolo_block lowered by the real upstream stages, with a budget small
 *   enough to split their weightless batches: the interpreter's outputs before and after;
 * - resnet18's lowered module on the default target: every weightless batch over the budget with
 *   a split dimension is split, every lane then fits, the module verifies and the workload reads
 *   the blueprints (no host operations).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  IntegerAttr,
  PassRegistry,
  RankedTensorType,
  parsePassPipeline,
  printOperation,
  splitInputFile,
  type Operation,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { BlueprintOp, GraphComputeBatchOp } from '@raptor-pim/spatial-dialect';
import { createCostModel, defaultTarget, type Target } from '@raptor-pim/pim-target';
import {
  LANE_GROUPS_ATTR,
  TargetKey,
  Workload,
  laneLiveBytes,
  laneSplitBudget,
  laneSplitBudgets,
  laneSplitDimension,
  planLaneSplits,
  registerSchedulerPasses,
  minimumReplicas,
  splitLanes,
  splitLanesToFit,
  splitWideLanes,
  type LaneSplitDimension,
} from '@raptor-pim/scheduler';
import { expectGoldenCases } from '../../../tools/test-support/golden-cases';
import { funcOf, parseVerified, randomArgs as randomFunctionArgs, run, verifierMessages } from './helpers';
import { lowerShared } from './models';

jest.setTimeout(120_000);

const FIXTURES = path.join(__dirname, 'fixtures');
const INPUT = path.join(FIXTURES, 'split-lanes.mlir');
const GOLDEN = path.join(FIXTURES, 'golden', 'split-lanes.mlir');
const cases = splitInputFile(fs.readFileSync(INPUT, 'utf8')).map((c) => c.text);

function parse(text: string, filename = 'split-lanes.mlir'): Operation {
  return parseVerified(text, filename);
}


function batchesOf(func: Operation): Operation[] {
  return func.regions[0]!.firstBlock!.operations.filter((o) => GraphComputeBatchOp.isInstance(o));
}

function isWeightless(batch: Operation): boolean {
  return GraphComputeBatchOp.get(batch).weights.length === 0;
}

function laneCount(batch: Operation): number {
  return Number(GraphComputeBatchOp.get(batch).laneCount.value);
}

/** The default target with `bytes` of local memory per core. */
function targetWithLocalMemory(bytes: number): Target {
  const t = defaultTarget();
  t.config.chip_config.core_config.local_memory_config.memory_size = bytes;
  return t;
}

/** Runs `spat-split-lanes` (with `budget` bytes when given) on `module` in place; expects success. */
function runPass(module: Operation, target: Target, budget?: number): void {
  const registry = new PassRegistry();
  registerSchedulerPasses(registry);
  const pm = parsePassPipeline(module.context, `builtin.module(spat-split-lanes${budget === undefined ? '' : `{budget=${budget}}`})`, registry)!;
  pm.setContext(TargetKey, target);
  expect(pm.run(module).success).toBe(true);
}

/** Random f32 inputs for every argument of the module's function. */
function randomArgs(module: Operation, seed: number): RuntimeValue[] {
  return randomFunctionArgs(funcOf(module), seed);
}

/** Splits every batch of the module's function that has a lane split dimension into `k(dim)` chunks. */
function splitAll(module: Operation, k: (dim: LaneSplitDimension) => number): number {
  let n = 0;
  for (const b of batchesOf(funcOf(module))) {
    const dim = laneSplitDimension(b);
    if (!dim) continue;
    splitLanes(b, dim.d, k(dim));
    n++;
  }
  return n;
}

/** Per case, per batch in program order: the lane split dimension, or undefined. */
const EXPECTED: readonly (readonly (LaneSplitDimension | undefined)[])[] = [
  [{ d: 1, extent: 4 }, { d: 1, extent: 4 }, { d: 1, extent: 4 }], // relu, pad, max-pool: channels
  [{ d: 1, extent: 4 }], // residual addition: channels
  [{ d: 1, extent: 4 }], // dense constant and concatenation along the pixels: channels
  [{ d: 2, extent: 4 }], // two results, permuted slot, reshapes: channels (through the expand)
  [undefined, undefined, { d: 0, extent: 4 }, undefined], // softmax, transpose, channel slice (pixels), weights
];

describe('spat-split-lanes on the fixture cases', () => {
  it('has one expectation per case', () => {
    expect(cases).toHaveLength(EXPECTED.length);
  });

  it('prints the golden file with every batch that has a split dimension split into 2 chunks', () => {
    expectGoldenCases(INPUT, GOLDEN, (text) => {
      const module = parse(text);
      splitAll(module, () => 2);
      expect(verifierMessages(module)).toEqual([]);
      return printOperation(module) + '\n';
    });
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i: laneSplitDimension prefers the channels and refuses what is not parallel', (i, text) => {
    expect(batchesOf(funcOf(parse(text))).map((b) => laneSplitDimension(b))).toEqual(EXPECTED[i]);
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i: every k keeps the interpreter outputs; L * k lanes, lane-major slots, one blueprint per result', (i, text) => {
    for (const k of [1, 2, 4]) {
      const module = parse(text);
      const args = randomArgs(module, 10 * i + k);
      const before = run(module, 'main', args);
      expect(before.ok).toBe(true);
      const shapes = batchesOf(funcOf(module)).map((b) => ({ lanes: laneCount(b), dim: laneSplitDimension(b), results: b.results.map((r) => r.type as RankedTensorType) }));
      splitAll(module, () => k);
      expect(verifierMessages(module)).toEqual([]);
      expect(run(module, 'main', args)).toEqual(before);
      const after = batchesOf(funcOf(module));
      expect(after).toHaveLength(shapes.length);
      after.forEach((b, j) => {
        const { lanes, dim, results } = shapes[j]!;
        if (!dim) {
          expect(laneCount(b)).toBe(lanes);
          return;
        }
        expect(laneCount(b)).toBe(lanes * k);
        b.results.forEach((r, n) => {
          const old = results[n]!;
          // [L * k, 1, ...fragment with E / k along d], read only by its blueprint, which gives the old collection.
          expect((r.type as RankedTensorType).shape).toEqual([lanes * k, 1, ...old.shape.slice(1).map((x, m) => (m === dim.d ? x / k : x))]);
          expect(r.users.every((u) => BlueprintOp.isInstance(u))).toBe(true);
          expect(r.users.map((u) => u.getResult(0).type)).toEqual([old]);
          // Lane-major: new slot n is chunk n mod k of old slot floor(n / k), in slot order.
          const blueprint = BlueprintOp.get(r.users[0]!);
          const slots = (blueprint.sourceSlots!.values as readonly (number | bigint)[]).map(Number);
          const rowOffsets = (blueprint.offsets.values as readonly (number | bigint)[]).map(Number).filter((_, m) => m % old.shape.length === 0);
          expect(slots).toEqual(slots.map((_, m) => m));
          expect(rowOffsets).toEqual(slots.map((n) => Math.floor(n / k)));
        });
      });
    }
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i: lane groups keep the interpreter outputs; group g holds chunks g * k / G.. of every old lane, lane-major within it', (i, text) => {
    for (const [k, groups] of [[2, 2], [4, 2], [4, 4]] as const) {
      const module = parse(text);
      const args = randomArgs(module, 100 * i + 10 * k + groups);
      const before = run(module, 'main', args);
      const shapes = batchesOf(funcOf(module)).map((b) => ({ lanes: laneCount(b), dim: laneSplitDimension(b), results: b.results.map((r) => r.type as RankedTensorType) }));
      for (const b of batchesOf(funcOf(module))) {
        const dim = laneSplitDimension(b);
        if (dim) splitLanes(b, dim.d, k, groups);
      }
      expect(verifierMessages(module)).toEqual([]);
      expect(run(module, 'main', args)).toEqual(before);
      batchesOf(funcOf(module)).forEach((b, j) => {
        const { lanes: L, dim, results } = shapes[j]!;
        if (!dim) {
          expect(b.getAttr(LANE_GROUPS_ATTR)).toBeUndefined();
          return;
        }
        expect(Number((b.getAttr(LANE_GROUPS_ATTR) as IntegerAttr).value)).toBe(groups);
        const per = k / groups;
        const chunk = dim.extent / k;
        b.results.forEach((r, n) => {
          const old = results[n]!;
          const blueprint = BlueprintOp.get(r.users[0]!);
          const slots = (blueprint.sourceSlots!.values as readonly (number | bigint)[]).map(Number);
          const offsets = (blueprint.offsets.values as readonly (number | bigint)[]).map(Number);
          const rank = old.shape.length;
          expect(slots).toEqual(slots.map((_, m) => m));
          // New slot m: old lane (m mod L*k/G) floordiv k/G, chunk (m floordiv L*k/G) * k/G + m mod k/G.
          expect(slots.map((m) => offsets[m * rank])).toEqual(slots.map((m) => Math.floor((m % (L * per)) / per)));
          expect(slots.map((m) => offsets[m * rank + dim.d + 1])).toEqual(slots.map((m) => (Math.floor(m / (L * per)) * per + (m % per)) * chunk));
        });
      });
      // The workload reads the groups; replica planning offers multiples of them only.
      const cost = createCostModel(defaultTarget());
      const workload = new Workload(funcOf(module), cost);
      for (const node of workload.nodes) {
        const grouped = node.op.getAttr(LANE_GROUPS_ATTR) !== undefined;
        expect(node.laneGroups).toBe(grouped ? groups : 1);
        if (grouped) expect(minimumReplicas(workload, cost, workload.nodes.map(() => 'window'), 'channel')[node.index]! % groups).toBe(0);
      }
    }
  });

  it('a chain whose consumer reads several old lanes of its producer per lane takes lane groups: the fewest that bring the window within a quarter of a core', () => {
    // relu -> pad -> max-pool (case 0): the max-pool reads 3 padded rows of 6 x 4 floats (288 B).
    for (const [memory, groups] of [[4096, 1], [1024, 2], [512, 4]] as const) {
      const target = targetWithLocalMemory(memory);
      const cost = createCostModel(target);
      const module = parse(cases[0]!);
      const func = funcOf(module);
      const plans = planLaneSplits(new Workload(func, cost), cost, 1);
      expect(plans.map((p) => [p.k, p.groups])).toEqual(plans.map(() => [4, groups]));
      const args = randomArgs(module, memory);
      const before = run(module, 'main', args);
      runPass(module, target, 1);
      expect(verifierMessages(module)).toEqual([]);
      expect(run(module, 'main', args)).toEqual(before);
      const attrs = batchesOf(func).map((b) => b.getAttr(LANE_GROUPS_ATTR));
      expect(attrs.map((a) => (a instanceof IntegerAttr ? Number(a.value) : 1))).toEqual(attrs.map(() => groups));
    }
  });

  it('a k that does not divide the extent, or a dimension that is not parallel, is an internal error', () => {
    const module = parse(cases[0]!);
    const [relu] = batchesOf(funcOf(module));
    expect(() => splitLanes(relu!, 1, 3)).toThrow(/does not divide/);
    expect(() => splitLanes(relu!, 0, 2)).toThrow(/not parallel/);
  });

  it('the pass with a budget: each batch takes its own k, the smallest whose chunks fit; outputs kept; idempotent', () => {
    const cost = createCostModel(defaultTarget());
    for (const budget of [1, 96, 200, 400]) {
      const module = parse(cases[0]!);
      const func = funcOf(module);
      const bytes = batchesOf(func).map((b) => laneLiveBytes(b, cost.localAlignment));
      const plans = planLaneSplits(new Workload(func, cost), cost, budget);
      const needed = bytes.map((x) => [2, 4].find((k) => x / k <= budget) ?? 4);
      const over = bytes.filter((x) => x > budget).length;
      expect(plans).toHaveLength(over);
      // relu -> pad -> max-pool: each split batch takes the k it needs, not its chain's largest.
      expect(plans.map((p) => p.k)).toEqual(needed.filter((_, j) => bytes[j]! > budget));
      const args = randomArgs(module, budget);
      const before = run(module, 'main', args);
      runPass(module, defaultTarget(), budget);
      expect(verifierMessages(module)).toEqual([]);
      expect(run(module, 'main', args)).toEqual(before);
      const printed = printOperation(module);
      runPass(module, defaultTarget(), budget);
      expect(printOperation(module)).toBe(printed);
    }
  });

  it('the pass without a budget takes half of the target local memory (the largest of the budgets tried); the default target splits none of the cases', () => {
    expect(laneSplitBudgets(createCostModel(defaultTarget()))).toEqual([32768, 16384, 8192]);
    expect(laneSplitBudget(createCostModel(defaultTarget()))).toBe(32768);
    for (const text of cases) {
      const module = parse(text);
      const printed = printOperation(module);
      runPass(module, defaultTarget());
      expect(printOperation(module)).toBe(printed);
    }
    // 256 B of local memory: 128 B per lane; the relu lanes fit it, the padding and pooling chain splits into its 4 channels.
    const module = parse(cases[0]!);
    runPass(module, targetWithLocalMemory(256));
    expect(batchesOf(funcOf(module)).map(laneCount)).toEqual([4, 24, 8]);
  });

  it('splitLanesToFit takes the largest budget whose split fits, restoring the body between tries; the smallest when none does', () => {
    const cost = createCostModel(targetWithLocalMemory(512));
    const budgets = laneSplitBudgets(cost);
    const lanesWith = (budget: number): number[] => {
      const module = parse(cases[0]!);
      const func = funcOf(module);
      splitWideLanes(func, cost, planLaneSplits(new Workload(func, cost), cost, budget));
      return batchesOf(func).map(laneCount);
    };
    const expected = budgets.map(lanesWith);
    // On 512 B the three budgets split this case three different ways (fewer chunks for larger budgets).
    expect(expected).toEqual([[4, 12, 4], [4, 24, 8], [8, 24, 8]]);
    for (let accept = 0; accept <= budgets.length; accept++) {
      const module = parse(cases[0]!);
      const func = funcOf(module);
      const args = randomArgs(module, accept);
      const before = run(module, 'main', args);
      let tries = 0;
      const workload = splitLanesToFit(func, new Workload(func, cost), cost, () => tries++ === accept);
      const lanes = batchesOf(func).map(laneCount);
      expect(lanes).toEqual(expected[Math.min(accept, budgets.length - 1)]);
      expect(workload.nodes.map((n) => n.lanes)).toEqual(lanes);
      expect(verifierMessages(module)).toEqual([]);
      expect(run(module, 'main', args)).toEqual(before);
    }
  });

  it('leaves batches with weights or with non-parallel bodies alone (the pass splits only the channel slice, along the pixels)', () => {
    const module = parse(cases[4]!);
    const before = batchesOf(funcOf(module)).map((b) => printOperation(b));
    runPass(module, defaultTarget(), 1);
    expect(verifierMessages(module)).toEqual([]);
    const after = batchesOf(funcOf(module)).map((b) => printOperation(b));
    expect([after[0], after[1], after[3]]).toEqual([before[0], before[1], before[3]]);
    expect(after[2]).not.toEqual(before[2]);
  });
});

// ------------------------------------------------------------------ property

type Step =
  | { readonly kind: 'unary'; readonly name: 'spat.relu' | 'spat.sigmoid'; readonly a: number }
  | { readonly kind: 'binary'; readonly name: 'spat.vadd' | 'spat.vsub' | 'spat.vmul' | 'spat.vmax'; readonly a: number; readonly b: number }
  | { readonly kind: 'splat'; readonly name: 'spat.vadd' | 'spat.vmul'; readonly a: number; readonly value: number }
  | { readonly kind: 'pad'; readonly a: number; readonly value: number }
  | { readonly kind: 'strided'; readonly a: number; readonly offset: number }
  | { readonly kind: 'concat'; readonly a: number; readonly b: number }
  | { readonly kind: 'softmax'; readonly a: number };

interface RandomBatch {
  readonly lanes: number;
  readonly pixels: number;
  readonly channels: number;
  /** Slot = (lane + rotate) mod lanes. */
  readonly rotate: number;
  readonly steps: readonly Step[];
}

const t2 = (rows: number, c: number): string => `tensor<${rows}x${c}xf32>`;

/** A module of one weightless batch over row strips [pixels, channels] of `%x : [lanes, pixels, channels]`. */
function randomModule(r: RandomBatch): { text: string; softmax: boolean } {
  const C = r.channels;
  const values: { name: string; rows: number; soft: boolean }[] = [{ name: '%s', rows: r.pixels, soft: false }];
  const body: string[] = [`    %s = tensor.extract_slice %a[%lane, 0, 0] [1, ${r.pixels}, ${C}] [1, 1, 1] : tensor<${r.lanes}x${r.pixels}x${C}xf32> to ${t2(r.pixels, C)}`];
  r.steps.forEach((s, k) => {
    const a = values[s.a % values.length]!;
    const t = t2(a.rows, C);
    const name = `%v${k}`;
    switch (s.kind) {
      case 'unary':
        body.push(`    ${name} = ${s.name}(${a.name}) : ${t} -> ${t}`);
        values.push({ name, rows: a.rows, soft: a.soft });
        return;
      case 'softmax':
        body.push(`    ${name} = spat.softmax(${a.name}) : ${t} -> ${t}`);
        values.push({ name, rows: a.rows, soft: true });
        return;
      case 'binary': {
        const same = values.filter((v) => v.rows === a.rows);
        const b = same[s.b % same.length]!;
        body.push(`    ${name} = ${s.name} ${a.name}, ${b.name} : (${t}, ${t}) -> ${t}`);
        values.push({ name, rows: a.rows, soft: a.soft || b.soft });
        return;
      }
      case 'splat':
        body.push(`    %c${k} = arith.constant dense<${s.value.toFixed(2)}> : ${t}`);
        body.push(`    ${name} = ${s.name} ${a.name}, %c${k} : (${t}, ${t}) -> ${t}`);
        values.push({ name, rows: a.rows, soft: a.soft });
        return;
      case 'pad': {
        const out = t2(a.rows + 2, C);
        body.push(`    %c${k} = arith.constant dense<${s.value.toFixed(2)}> : ${out}`);
        body.push(`    ${name} = tensor.insert_slice ${a.name} into %c${k}[1, 0] [${a.rows}, ${C}] [1, 1] : ${t} into ${out}`);
        values.push({ name, rows: a.rows + 2, soft: a.soft });
        return;
      }
      case 'strided': {
        const offset = s.offset % a.rows;
        const rows = Math.ceil((a.rows - offset) / 2);
        body.push(`    ${name} = tensor.extract_slice ${a.name}[${offset}, 0] [${rows}, ${C}] [2, 1] : ${t} to ${t2(rows, C)}`);
        values.push({ name, rows, soft: a.soft });
        return;
      }
      case 'concat': {
        const b = values[s.b % values.length]!;
        if (a.rows + b.rows > 24) return;
        body.push(`    ${name} = spat.concat axis 0 ${a.name}, ${b.name} : (${t}, ${t2(b.rows, C)}) -> ${t2(a.rows + b.rows, C)}`);
        values.push({ name, rows: a.rows + b.rows, soft: a.soft || b.soft });
        return;
      }
    }
  });
  const last = values[values.length - 1]!;
  const frag = t2(last.rows, C);
  const coll = `tensor<${r.lanes}x${last.rows}x${C}xf32>`;
  const text = [
    `func.func @main(%x: tensor<${r.lanes}x${r.pixels}x${C}xf32>) -> ${coll} {`,
    `  %y = spat.graph_compute_batch %lane = 0 to ${r.lanes} [] = [] (%a) = (%x) shared_outs(%out) crossbarWeights 0 : [] (tensor<${r.lanes}x${r.pixels}x${C}xf32>) -> ${coll} {`,
    ...body,
    `    %slot = affine.apply affine_map<(d0) -> ((d0 + ${r.rotate}) mod ${r.lanes})>(%lane)`,
    '    spat.in_parallel {',
    `      tensor.parallel_insert_slice ${last.name} into %out[%slot, 0, 0] [1, ${last.rows}, ${C}] [1, 1, 1] : ${frag} into ${coll}`,
    '    }',
    '  } loc("random")',
    `  return %y : ${coll}`,
    '}',
  ].join('\n');
  // Values nothing published reads are dead (dropped by the rewrite): a softmax counts only if live.
  return { text, softmax: last.soft };
}

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('unary' as const), name: fc.constantFrom('spat.relu' as const, 'spat.sigmoid' as const), a: fc.nat(12) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('binary' as const), name: fc.constantFrom('spat.vadd' as const, 'spat.vsub' as const, 'spat.vmul' as const, 'spat.vmax' as const), a: fc.nat(12), b: fc.nat(12) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('splat' as const), name: fc.constantFrom('spat.vadd' as const, 'spat.vmul' as const), a: fc.nat(12), value: fc.integer({ min: -8, max: 8 }).map((x) => x / 4) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pad' as const), a: fc.nat(12), value: fc.integer({ min: -8, max: 8 }).map((x) => x / 4) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('strided' as const), a: fc.nat(12), offset: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('concat' as const), a: fc.nat(12), b: fc.nat(12) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('softmax' as const), a: fc.nat(12) }) },
);

const batchArb: fc.Arbitrary<RandomBatch> = fc
  .record({
    lanes: fc.integer({ min: 1, max: 4 }),
    pixels: fc.integer({ min: 1, max: 4 }),
    channels: fc.constantFrom(2, 3, 4, 6, 8),
    rotate: fc.nat(3),
    steps: fc.array(stepArb, { minLength: 1, maxLength: 6 }),
  })
  .map((r) => ({ ...r, rotate: r.rotate % r.lanes }));

describe('spat-split-lanes preserves meaning (property)', () => {
  it('random row-strip batches split by a random divisor of the channels keep their outputs; with a softmax they are left alone', () => {
    let split = 0;
    let untouched = 0;
    fc.assert(
      fc.property(batchArb, fc.nat(100), fc.integer({ min: 0, max: 1000 }), (r, pick, seed) => {
        const { text, softmax } = randomModule(r);
        const module = parse(text, 'random.mlir');
        const [batch] = batchesOf(funcOf(module));
        const dim = laneSplitDimension(batch!);
        const args = randomArgs(module, seed);
        const before = run(module, 'main', args);
        expect(before.ok).toBe(true);
        if (softmax) {
          expect(dim).toBeUndefined();
          const printed = printOperation(module);
          runPass(module, defaultTarget(), 1);
          expect(printOperation(module)).toBe(printed);
          untouched++;
          return;
        }
        // The oracle: every op takes the channels whole, so they are the dimension.
        expect(dim).toEqual({ d: 1, extent: r.channels });
        const ks = [1, 2, 3, 4, 6, 8].filter((k) => r.channels % k === 0);
        const k = ks[pick % ks.length]!;
        const after = splitLanes(batch!, 1, k);
        expect(laneCount(after)).toBe(r.lanes * k);
        expect(verifierMessages(module)).toEqual([]);
        expect(run(module, 'main', args)).toEqual(before);
        split++;
      }),
      { numRuns: 150, seed: 2718 },
    );
    expect(split).toBeGreaterThan(50);
    expect(untouched).toBeGreaterThan(10);
  });
});

// ------------------------------------------------------------------ shared models

describe('spat-split-lanes on shared models (planned and lowered by the real upstream stages)', () => {
  it.each([
    ['lenet5', 256],
    ['resnet_mini', 512],
    ['yolo_block', 512],
  ] as const)('%s with a budget of %i B: splits its weightless batches; outputs unchanged, verifies, every split lane fits', (model, budget) => {
    const m = lowerShared(model);
    if (!m) return;
    const func = funcOf(m.module);
    const cost = createCostModel(defaultTarget());
    const plans = planLaneSplits(new Workload(func, cost), cost, budget);
    expect(plans.length).toBeGreaterThan(0);
    const readByBlueprint = new Set(batchesOf(func).filter((b) => b.results.some((r) => r.users.some((u) => BlueprintOp.isInstance(u)))));
    const reference = run(m.module, m.fn, m.args);
    expect(reference.ok).toBe(true);
    expect(splitWideLanes(func, cost, plans)).toBe(plans.length);
    expect(verifierMessages(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
    // What still holds more than the budget has no split dimension, or is read by a blueprint
    // plan lowering made (left alone: yolo_block's residual addition).
    for (const b of batchesOf(func).filter(isWeightless)) {
      const bytes = laneLiveBytes(b, cost.localAlignment);
      if (bytes > budget && !readByBlueprint.has(b)) {
        expect([laneSplitDimension(b), bytes]).toEqual([undefined, bytes]);
      }
    }
    expect(new Workload(func, cost).problems).toEqual([]);
  });
});

/** The divisors of `n`, ascending. */
function divisors(n: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) out.push(d);
  return out;
}

describe('spat-split-lanes on resnet18 (lowered only, default target)', () => {
  it('splits every weightless batch over half a core that has a split dimension; then every such lane fits and the module verifies', () => {
    const m = lowerShared('resnet18');
    if (!m) return;
    const func = funcOf(m.module);
    const cost = createCostModel(defaultTarget());
    const budget = laneSplitBudget(cost);
    const workload = new Workload(func, cost);
    const plans = planLaneSplits(workload, cost);
    const over = workload.nodes.filter((n) => n.isBatch && n.crossbars === 0 && laneLiveBytes(n.op, cost.localAlignment) > budget && laneSplitDimension(n.op));
    expect(plans.map((p) => p.op)).toEqual(over.map((n) => n.op));
    // The padding, max-pool and residual (Add + ReLU) row strips of every stage (not the stem's
    // padding of its 3 channels, 16 KB a lane); the ReLUs after convolutions are fused into them.
    expect(plans.length).toBe(26);
    // Each batch takes the fewest chunks that fit half a core: the stem's max pooling (3 padded
    // rows of 114 x 64 floats per output row) 8, its padding 4, the paddings of the 512-channel
    // stage 4, every other padding and every residual addition 2 (a chain no longer takes its
    // largest k: layer1's additions took 8; a padding's 2-row select counts once, as bufferization
    // inserts in place: the paddings took 4).
    expect(plans.map((p) => p.k)).toEqual(plans.map((p) => divisors(p.extent).find((k) => k > 1 && p.laneBytes / k <= budget)));
    expect(plans.map((p) => p.k).sort((a, b) => a - b)).toEqual([...new Array(21).fill(2), ...new Array(4).fill(4), 8]);
    // The pooling's chain (the stem's padding and pooling, layer1's paddings and additions) takes
    // lane groups: the pooling holds 3 padded rows of every chunk for its later lanes.
    const grouped = plans.filter((p) => p.groups > 1);
    expect(grouped.map((p) => [p.k, p.groups])).toEqual(grouped.map((p) => [p.k, p.k]));
    expect(grouped).toHaveLength(7);
    for (const p of plans) expect(p.laneBytes / p.k).toBeLessThanOrEqual(budget);
    expect(splitWideLanes(func, cost, plans)).toBe(plans.length);
    expect(verifierMessages(m.module)).toEqual([]);
    for (const b of batchesOf(func).filter(isWeightless)) {
      const bytes = laneLiveBytes(b, cost.localAlignment);
      if (bytes > budget) expect([laneSplitDimension(b), bytes]).toEqual([undefined, bytes]);
    }
    const after = new Workload(func, cost);
    expect(after.problems).toEqual([]);
    expect(planLaneSplits(after, cost)).toEqual([]);
  });
});
