/**
 * `spat-tile-parallel-computes`: scalar graph computes parallel along a dimension become lane
 * batches over it plus one fragment-assembly blueprint per result.
 *
 * - golden: every case of `fixtures/tile-parallel-computes.mlir` (pointwise chain with splat
 *   inputs, Split, Concat, broadcast by concatenation, padding, non-parallel computes, several
 *   results) through the pass on a target whose local memory holds none of them
 *   (`UPDATE_GOLDEN=1` rewrites `fixtures/golden/tile-parallel-computes.mlir`);
 * - per case: the dimension chosen (H first for rank 4), the interpreter's outputs before and
 *   after on random inputs, `tileParallelCompute` called directly gives the pass's module, a
 *   second run changes nothing, the same input gives the same print, and the default target
 *   (whose 64 KiB hold every case) tiles nothing;
 * - property (fast-check): random pointwise / concat bodies on random static shapes, tiled along
 *   `parallelDimension` (an independent oracle for the dimension), keep their outputs; a body
 *   with no parallel dimension is left unchanged by the pass;
 * - yolo_block and mobilenet_block (lowered by the real upstream stages): the computes the
 *   default target tiles, and the interpreter's outputs before and after;
 * - `spat-schedule` (which runs the tiling when local memory is enforced) on every case with
 *   256 B and 384 B of local memory: every strategy's schedule fits, passes
 *   `spat-verify-communication` and keeps the outputs; yolo_block scheduled with `throughput`
 *   (and `latency` with RAPTOR_SLOW_TESTS=1) on the default target, the driver tiling its Split
 *   and Concat computes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  PassRegistry,
  RankedTensorType,
  parsePassPipeline,
  printOperation,
  splitInputFile,
  type Operation,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { BlueprintOp, GraphComputeBatchOp, GraphComputeOp } from '@raptor-pim/spatial-dialect';
import { createCostModel, defaultTarget, type Target } from '@raptor-pim/pim-target';
import { TargetKey, Workload, builtinScheduler, verifyCommunication, parallelDimension, planParallelTiles, registerSchedulerPasses, tileOversizedParallelComputes, tileParallelCompute } from '@raptor-pim/scheduler';
import { expectGoldenCases } from '../../../tools/test-support/golden-cases';
import { funcOf, parseVerified, randomArgs as randomFunctionArgs, run, verifierMessages } from './helpers';
import { lowerShared } from './models';

jest.setTimeout(120_000);

const FIXTURES = path.join(__dirname, 'fixtures');
const INPUT = path.join(FIXTURES, 'tile-parallel-computes.mlir');
const GOLDEN = path.join(FIXTURES, 'golden', 'tile-parallel-computes.mlir');

/** The default target with `bytes` of local memory per core. */
function targetWithLocalMemory(bytes: number): Target {
  const t = defaultTarget();
  t.config.chip_config.core_config.local_memory_config.memory_size = bytes;
  return t;
}

/** A local memory no compute of the fixtures fits: every parallel compute is tiled. */
const TINY = 16;

function parse(text: string, filename = 'tile.mlir'): Operation {
  return parseVerified(text, filename);
}


function topOps(module: Operation): Operation[] {
  return funcOf(module).regions[0]!.firstBlock!.operations;
}

function scalarComputes(module: Operation): Operation[] {
  return topOps(module).filter((o) => GraphComputeOp.isInstance(o));
}

/** Runs `spat-tile-parallel-computes` with `target` on `module` in place; expects success. */
function runPass(module: Operation, target: Target): void {
  const registry = new PassRegistry();
  registerSchedulerPasses(registry);
  const pm = parsePassPipeline(module.context, 'builtin.module(spat-tile-parallel-computes)', registry)!;
  pm.setContext(TargetKey, target);
  expect(pm.run(module).success).toBe(true);
}

/** Random f32 inputs for every argument of the module's function. */
function randomArgs(module: Operation, seed: number): RuntimeValue[] {
  return randomFunctionArgs(funcOf(module), seed);
}

const cases = splitInputFile(fs.readFileSync(INPUT, 'utf8')).map((c) => c.text);

/** Per case, per scalar compute in program order: the dimension and lanes, or undefined (left alone). */
const EXPECTED: readonly (readonly ({ d: number; lanes: number } | undefined)[])[] = [
  [{ d: 2, lanes: 4 }, { d: 2, lanes: 4 }], // pointwise chain and its consumer: H
  [{ d: 2, lanes: 3 }], // Split along C: H
  [{ d: 2, lanes: 2 }], // Concat along C: H
  [{ d: 1, lanes: 3 }], // broadcast by concatenation along H and W: C
  [{ d: 1, lanes: 2 }], // padding of H and W: C
  [{ d: 2, lanes: 3 }], // padding of W into an input splat: H
  [undefined, undefined, undefined], // softmax, concat along the only dimension > 1, weights
  [{ d: 0, lanes: 4 }], // several results, rank 2: the first dimension
  [{ d: 1, lanes: 3 }], // a broadcasting multiplication by a per-channel scale: C
  [{ d: 2, lanes: 3 }], // a strided slice along W: H
];

function tiledByPass(text: string): Operation {
  const module = parse(text);
  runPass(module, targetWithLocalMemory(TINY));
  expect(verifierMessages(module)).toEqual([]);
  return module;
}

describe('spat-tile-parallel-computes on the fixture cases', () => {
  it('has one expectation per case', () => {
    expect(cases).toHaveLength(EXPECTED.length);
  });

  it('prints the golden file with every parallel compute tiled', () => {
    expectGoldenCases(INPUT, GOLDEN, (text) => printOperation(tiledByPass(text)) + '\n');
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i: parallelDimension chooses H first for rank 4, then C, W, N; else the outermost', (i, text) => {
    const module = parse(text);
    expect(scalarComputes(module).map((c) => parallelDimension(c))).toEqual(EXPECTED[i]);
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i: planParallelTiles on a tiny local memory picks exactly the parallel computes', (i, text) => {
    const module = parse(text);
    const computes = scalarComputes(module);
    const tinyCost = createCostModel(targetWithLocalMemory(TINY));
    const tiles = planParallelTiles(new Workload(funcOf(module), tinyCost), tinyCost);
    const expected = EXPECTED[i]!.flatMap((e, k) => (e ? [{ op: computes[k], ...e }] : []));
    expect(tiles.map((t) => ({ op: t.op, d: t.d, lanes: t.lanes }))).toEqual(expected);
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i: the interpreter gives the same outputs before and after, on random inputs', (i, text) => {
    for (const seed of [1, 2, 3]) {
      const module = parse(text);
      const args = randomArgs(module, seed * 100 + i);
      const before = run(module, 'main', args);
      expect(before.ok).toBe(true);
      runPass(module, targetWithLocalMemory(TINY));
      expect(verifierMessages(module)).toEqual([]);
      expect(run(module, 'main', args)).toEqual(before);
    }
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i: structure: one batch of `lanes` lanes and one assembling blueprint per result of a tiled compute', (i, text) => {
    const module = parse(text);
    const expected = EXPECTED[i]!;
    const before = scalarComputes(module).map((c) => ({ results: c.numResults, types: c.results.map((r) => r.type as RankedTensorType) }));
    runPass(module, targetWithLocalMemory(TINY));
    const ops = topOps(module);
    const batches = ops.filter((o) => GraphComputeBatchOp.isInstance(o));
    const blueprints = ops.filter((o) => BlueprintOp.isInstance(o));
    const tiled = expected.flatMap((e, k) => (e ? [{ ...e, ...before[k]! }] : []));
    expect(scalarComputes(module)).toHaveLength(expected.length - tiled.length);
    expect(batches.map((b) => Number(GraphComputeBatchOp.get(b).laneCount.value))).toEqual(tiled.map((t) => t.lanes));
    expect(blueprints).toHaveLength(tiled.reduce((a, t) => a + t.results, 0));
    // Every batch result is [lanes] ++ the logical type with 1 along d; its blueprint gives the logical type back.
    batches.forEach((b, k) => {
      const t = tiled[k]!;
      b.results.forEach((r, j) => {
        const logical = t.types[j]!;
        expect((r.type as RankedTensorType).shape).toEqual([t.lanes, ...logical.shape.map((x, dim) => (dim === t.d ? 1 : x))]);
        expect(r.uses.map((u) => u.owner).every((o) => BlueprintOp.isInstance(o))).toBe(true);
        expect(r.uses.map((u) => u.owner.getResult(0).type)).toEqual([logical]);
      });
    });
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i: tileParallelCompute called directly gives the pass module; a second run changes nothing; deterministic print', (_i, text) => {
    const byPass = printOperation(tiledByPass(text));
    const direct = parse(text);
    for (const c of scalarComputes(direct)) {
      const dim = parallelDimension(c);
      if (dim) tileParallelCompute(c, dim.d, dim.lanes);
    }
    expect(verifierMessages(direct)).toEqual([]);
    expect(printOperation(direct)).toBe(byPass);
    // Idempotent: the batches are not scalar computes, the rest is not parallel.
    runPass(direct, targetWithLocalMemory(TINY));
    expect(printOperation(direct)).toBe(byPass);
    // The same input twice gives the same module, byte for byte.
    expect(printOperation(tiledByPass(text))).toBe(byPass);
    // The printed module parses back and verifies.
    expect(printOperation(parse(byPass, 'tiled.mlir'))).toBe(byPass);
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i: on the default target (64 KiB) nothing is tiled', (_i, text) => {
    const module = parse(text);
    const printed = printOperation(module);
    runPass(module, defaultTarget());
    expect(printOperation(module)).toBe(printed);
  });
});

// ------------------------------------------------------------------ property

type UnaryName = 'spat.relu' | 'spat.sigmoid' | 'spat.softmax';
type BinaryName = 'spat.vadd' | 'spat.vsub' | 'spat.vmul' | 'spat.vmax';

/** One body op of a random compute; operand indices are taken modulo the values defined so far. */
type BodyStep =
  | { readonly kind: 'unary'; readonly name: UnaryName; readonly a: number }
  | { readonly kind: 'binary'; readonly name: BinaryName; readonly a: number; readonly b: number }
  | { readonly kind: 'concat'; readonly axis: number; readonly a: number; readonly b: number };

interface RandomCompute {
  readonly shape: readonly number[];
  /** Per input: a splat constant value (bound as input) or null for a function argument. */
  readonly inputs: readonly (number | null)[];
  readonly steps: readonly BodyStep[];
  /** How many results (the last values defined). */
  readonly results: number;
}

function tensorType(shape: readonly number[]): string {
  return `tensor<${shape.join('x')}xf32>`;
}

/** The module text of a random compute and the oracle's dimension (see the file comment). */
function randomModule(c: RandomCompute): { text: string; expected: { d: number; lanes: number } | undefined } {
  const rank = c.shape.length;
  const values: { name: string; shape: readonly number[] }[] = c.inputs.map((_, k) => ({ name: `%in${k}`, shape: c.shape }));
  const body: string[] = [];
  // Every input must be used (the verifier says so): the inputs are summed first.
  for (let k = 1; k < c.inputs.length; k++) {
    const t = tensorType(c.shape);
    const lhs = k === 1 ? '%in0' : `%sum${k - 1}`;
    body.push(`    %sum${k} = spat.vadd ${lhs}, %in${k} : (${t}, ${t}) -> ${t}`);
    values.push({ name: `%sum${k}`, shape: c.shape });
  }
  const concatAxes = new Set<number>();
  let softmax = false;
  c.steps.forEach((s, k) => {
    const a = values[s.a % values.length]!;
    if (s.kind === 'unary') {
      body.push(`    %v${k} = ${s.name}(${a.name}) : ${tensorType(a.shape)} -> ${tensorType(a.shape)}`);
      values.push({ name: `%v${k}`, shape: a.shape });
      if (s.name === 'spat.softmax') softmax = true;
      return;
    }
    // A binary op or a concatenation pairs `a` with the nearest value of its shape at or before `b`.
    const same = values.filter((v) => v.shape.join('x') === a.shape.join('x'));
    const b = same[s.b % same.length]!;
    if (s.kind === 'binary') {
      body.push(`    %v${k} = ${s.name} ${a.name}, ${b.name} : (${tensorType(a.shape)}, ${tensorType(a.shape)}) -> ${tensorType(a.shape)}`);
      values.push({ name: `%v${k}`, shape: a.shape });
      return;
    }
    const axis = s.axis % rank;
    const out = a.shape.map((x, i) => (i === axis ? 2 * x : x));
    body.push(`    %v${k} = spat.concat axis ${axis} ${a.name}, ${b.name} : (${tensorType(a.shape)}, ${tensorType(a.shape)}) -> ${tensorType(out)}`);
    values.push({ name: `%v${k}`, shape: out });
    concatAxes.add(axis);
  });
  const results = values.slice(Math.max(2 * c.inputs.length - 1, values.length - c.results));
  const yielded = results.length ? results : [values[0]!];
  const resultTypes = yielded.map((v) => tensorType(v.shape));
  const args = c.inputs.map((v, k) => (v === null ? `%x${k}: ${tensorType(c.shape)}` : undefined)).filter((x) => x !== undefined);
  const consts = c.inputs.map((v, k) => (v === null ? undefined : `  %c${k} = arith.constant dense<${v.toFixed(2)}> : ${tensorType(c.shape)}`)).filter((x) => x !== undefined);
  const bound = c.inputs.map((v, k) => (v === null ? `%x${k}` : `%c${k}`));
  const lines = [
    `func.func @main(${args.join(', ')}) -> (${resultTypes.join(', ')}) {`,
    ...consts,
    `  ${yielded.map((_, k) => `%r${k}`).join(', ')} = spat.graph_compute [] = [] (${c.inputs.map((_, k) => `%in${k}`).join(', ')}) = (${bound.join(', ')}) crossbarWeights 0 : [] (${c.inputs.map(() => tensorType(c.shape)).join(', ')}) -> (${resultTypes.join(', ')}) {`,
    ...body,
    `    spat.yield ${yielded.map((v) => v.name).join(', ')} : ${resultTypes.join(', ')}`,
    '  } loc("random")',
    `  return ${yielded.map((_, k) => `%r${k}`).join(', ')} : ${resultTypes.join(', ')}`,
    '}',
  ];
  // The oracle: every value keeps the input's extent along a dimension no concatenation runs
  // along, so the first such dimension of size > 1 in the order H, C, W, N (rank 4) or from the
  // outermost is the one; a softmax makes the body not parallel at all.
  const order = rank === 4 ? [2, 1, 3, 0] : Array.from({ length: rank }, (_, i) => i);
  const d = softmax ? undefined : order.find((i) => c.shape[i]! > 1 && !concatAxes.has(i));
  return { text: lines.join('\n'), expected: d === undefined ? undefined : { d, lanes: c.shape[d]! } };
}

const stepArb: fc.Arbitrary<BodyStep> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('unary' as const), name: fc.constantFrom<UnaryName>('spat.relu', 'spat.sigmoid'), a: fc.nat(16) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unary' as const), name: fc.constant<UnaryName>('spat.softmax'), a: fc.nat(16) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('binary' as const), name: fc.constantFrom<BinaryName>('spat.vadd', 'spat.vsub', 'spat.vmul', 'spat.vmax'), a: fc.nat(16), b: fc.nat(16) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('concat' as const), axis: fc.nat(3), a: fc.nat(16), b: fc.nat(16) }) },
);

const computeArb: fc.Arbitrary<RandomCompute> = fc.record({
  shape: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }),
  inputs: fc.array(fc.option(fc.integer({ min: -8, max: 8 }).map((x) => x / 4), { nil: null, freq: 3 }), { minLength: 1, maxLength: 3 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 6 }),
  results: fc.integer({ min: 1, max: 2 }),
});

describe('parallelDimension: the order H, C, W, N for rank 4', () => {
  /** A relu of 2x3x4x5 followed by a self-concatenation along each of `axes`. */
  function concatAlong(axes: readonly number[]): Operation {
    const shape = [2, 3, 4, 5];
    const body: string[] = [`    %v0 = spat.relu(%a) : ${tensorType(shape)} -> ${tensorType(shape)}`];
    let cur = shape;
    axes.forEach((axis, k) => {
      const next = cur.map((x, i) => (i === axis ? 2 * x : x));
      body.push(`    %v${k + 1} = spat.concat axis ${axis} %v${k}, %v${k} : (${tensorType(cur)}, ${tensorType(cur)}) -> ${tensorType(next)}`);
      cur = next;
    });
    const module = parse(`
func.func @main(%x: ${tensorType(shape)}) -> ${tensorType(cur)} {
  %y = spat.graph_compute [] = [] (%a) = (%x) crossbarWeights 0 : [] (${tensorType(shape)}) -> ${tensorType(cur)} {
${body.join('\n')}
    spat.yield %v${axes.length} : ${tensorType(cur)}
  }
  return %y : ${tensorType(cur)}
}`);
    return scalarComputes(module)[0]!;
  }

  it('takes H, then C, W and N as concatenations run along the earlier ones; none when every dimension is concatenated', () => {
    expect(parallelDimension(concatAlong([]))).toEqual({ d: 2, lanes: 4 });
    expect(parallelDimension(concatAlong([3]))).toEqual({ d: 2, lanes: 4 });
    expect(parallelDimension(concatAlong([2]))).toEqual({ d: 1, lanes: 3 });
    expect(parallelDimension(concatAlong([2, 1]))).toEqual({ d: 3, lanes: 5 });
    expect(parallelDimension(concatAlong([1, 2, 3]))).toEqual({ d: 0, lanes: 2 });
    expect(parallelDimension(concatAlong([0, 1, 2, 3]))).toBeUndefined();
  });

  it('is undefined for a batch and for a compute with weights', () => {
    const module = parse(cases[6]!);
    expect(scalarComputes(module).map((c) => parallelDimension(c))).toEqual([undefined, undefined, undefined]);
    const tiled = tiledByPass(cases[0]!);
    for (const b of topOps(tiled).filter((o) => GraphComputeBatchOp.isInstance(o))) expect(parallelDimension(b)).toBeUndefined();
  });
});

describe('spat-tile-parallel-computes preserves meaning (property)', () => {
  it('random pointwise / concat bodies tiled along parallelDimension keep their outputs; the others are left unchanged or tiled in chunks with the same outputs', () => {
    let tiled = 0;
    let untouched = 0;
    fc.assert(
      fc.property(computeArb, fc.integer({ min: 0, max: 1000 }), (c, seed) => {
        const { text, expected } = randomModule(c);
        const module = parse(text, 'random.mlir');
        const [compute] = scalarComputes(module);
        const dim = parallelDimension(compute!);
        expect(dim).toEqual(expected);
        const args = randomArgs(module, seed);
        const before = run(module, 'main', args);
        expect(before.ok).toBe(true);
        const printed = printOperation(module);
        if (!dim) {
          // No dimension every value shares: left unchanged, or (a body the chunk tiling of
          // chunk-tiling.ts takes, e.g. once its dead ops are dropped) tiled with equal outputs.
          untouched++;
          runPass(module, targetWithLocalMemory(TINY));
          expect(verifierMessages(module)).toEqual([]);
          if (printOperation(module) !== printed) expect(scalarComputes(module)).toEqual([]);
          expect(run(module, 'main', args)).toEqual(before);
          return;
        }
        tiled++;
        const batch = tileParallelCompute(compute!, dim.d, dim.lanes);
        expect(GraphComputeBatchOp.isInstance(batch)).toBe(true);
        expect(verifierMessages(module)).toEqual([]);
        expect(run(module, 'main', args)).toEqual(before);
      }),
      { numRuns: 150, seed: 4242 },
    );
    // Both branches are exercised.
    expect(tiled).toBeGreaterThan(20);
    expect(untouched).toBeGreaterThan(10);
  });
});

// ------------------------------------------------------------------ shared models

describe('spat-tile-parallel-computes on shared models (planned and lowered by the real upstream stages)', () => {
  // Per model: the computes too large for the default target's 64 KiB that are parallel, by location, dimension and lanes.
  const MODELS: [string, [string, number, number][]][] = [
    ['yolo_block', [['c2f_split_node', 2, 16], ['c2f_split_node', 2, 16], ['concat_1', 2, 16]]],
    // mul_2 is the squeeze-excite broadcast by concatenation (along C).
    ['mobilenet_block', [['clip_1', 2, 32], ['hardsigmoid_1', 2, 32], ['mul_1', 2, 32], ['mul_2', 1, 64]]],
  ];

  it.each(MODELS)('%s: tiles the oversized parallel computes on the default target; outputs unchanged, verifies, idempotent', (model, expected) => {
    const m = lowerShared(model);
    if (!m) return;
    const func = funcOf(m.module);
    const cost = createCostModel(defaultTarget());
    const tiles = planParallelTiles(new Workload(func, cost), cost);
    expect(tiles.map((t) => [String((t.op.location as unknown as { name?: unknown }).name), t.d, t.lanes])).toEqual(expected);
    const reference = run(m.module, m.fn, m.args);
    expect(reference.ok).toBe(true);
    expect(tileOversizedParallelComputes(func, cost, tiles)).toBe(expected.length);
    expect(verifierMessages(m.module)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
    expect(planParallelTiles(new Workload(func, cost), cost)).toEqual([]);
  });
});

// ------------------------------------------------------------------ scheduled

describe('spat-schedule tiles and schedules the fixture cases on small local memories', () => {
  const STRATEGIES = ['throughput', 'layer-sequential', 'latency'];
  it.each(cases.map((c, i) => [i, c] as const))('case %i: every strategy schedules it at 384 B (at 256 B or refuses for memory); checks pass, outputs kept', (i, text) => {
    for (const bytes of [256, 384]) {
      for (const strategy of STRATEGIES) {
        const module = parse(text);
        const args = randomArgs(module, 7 + i);
        const before = run(module, 'main', args);
        const target = targetWithLocalMemory(bytes);
        const r = builtinScheduler(strategy)!.schedule(module, target, {});
        if (!r.module) {
          expect(bytes).toBe(256);
          expect(r.diagnostics[0]!.message).toMatch(/^spat-schedule: #\d+ \w+ needs \d+ bytes of live local memory on one core even split over \d+ cores?/);
          continue;
        }
        for (const c of r.report.functions[0]!.cores) expect(c.peakLocalBytes).toBeLessThanOrEqual(bytes);
        expect([bytes, strategy, verifyCommunication(module, target).diagnostics.map((d) => d.message)]).toEqual([bytes, strategy, []]);
        expect([bytes, strategy, run(module, 'main', args)]).toEqual([bytes, strategy, before]);
      }
    }
  });
});

describe('yolo_block through spat-schedule on the default target (tiling inside the driver)', () => {
  // latency takes ~25 s on the shared machine: only with RAPTOR_SLOW_TESTS=1.
  it.each(process.env['RAPTOR_SLOW_TESTS'] ? ['throughput', 'latency'] : ['throughput'])('%s: tiles the Split and Concat computes, fits, passes the checks and keeps the outputs', (strategy) => {
    const m = lowerShared('yolo_block');
    if (!m) return;
    const reference = run(m.module, m.fn, m.args);
    expect(reference.ok).toBe(true);
    const target = defaultTarget();
    const r = builtinScheduler(strategy)!.schedule(m.module, target, {});
    expect((r.diagnostics ?? []).map((d) => d.message)).toEqual([]);
    const report = r.report!.functions[0]!;
    // The three tiled computes are 16-lane batches now.
    expect(report.layers.filter((l) => /c2f_split_node|concat_1/.test(l.name)).map((l) => l.lanes)).toEqual([16, 16, 16]);
    for (const c of report.cores) expect(c.peakLocalBytes).toBeLessThanOrEqual(target.config.chip_config.core_config.local_memory_config.memory_size);
    expect(verifyCommunication(m.module, target).diagnostics.map((d) => d.message)).toEqual([]);
    expect(run(m.module, m.fn, m.args)).toEqual(reference);
  });
});
