/**
 * `spat-split-input-channels` on synthetic convolutions in the form plan lowering emits over
 * padded NHWC rows (one lane per output pixel; every crossbar row tile read straight from the
 * padded rows: one kernel tap, one channel chunk), on a tiny-crossbar target whose local memory
 * is too small for a lane's streamed line buffers:
 *
 * - property (fast-check over the kernel, the output size, the channel chunks, the output
 *   columns, ReLU, scalar weights): the split module verifies, has one part per channel group
 *   and a reduction, each part reads only its channels, and the interpreter gives exactly the
 *   outputs of the unsplit module (dyadic values: the partial sums are exact in f32);
 * - the pass on its own (`raptor opt`'s pipeline form);
 * - computes of another form (a tile reading two channel ranges, no weights) are left alone.
 */
import fc from 'fast-check';
import { FloatType, MLIRContext, PassRegistry, ShapedValue, parsePassPipeline, verify, type Operation } from '@raptor-pim/ir-core';
import { GraphComputeBatchOp, WvmmOp } from '@raptor-pim/spatial-dialect';
import { ExtractSliceOp, readSliceLists } from '@raptor-pim/upstream-dialects';
import { createCostModel, defaultTarget, type Target } from '@raptor-pim/pim-target';
import { TargetKey, planInputChannelSplits, registerSchedulerPasses, splitInputChannels } from '@raptor-pim/scheduler';
import { funcOf, parseVerified, run } from './helpers';

jest.setTimeout(120_000);

/** A target with `tile`x`tile` crossbars, 64 per core, and `memory` bytes of local memory. */
function smallTarget(tile: number, memory: number): Target {
  const target = defaultTarget();
  const core = target.config.chip_config.core_config;
  core.matrix_config.xbar_size = [tile, tile];
  core.local_memory_config.memory_size = memory;
  return target;
}

/** A convolution over padded rows `[Ho + kh - 1, Wo + kw - 1, chunks * tile]`. */
interface Conv {
  readonly kh: number;
  readonly kw: number;
  readonly ho: number;
  readonly wo: number;
  /** Input channel chunks of `tile` channels. */
  readonly chunks: number;
  /** Output column blocks of `tile` columns. */
  readonly colBlocks: number;
  readonly relu: boolean;
  readonly values: readonly number[];
  /**
   * Plan lowering's column groups: one weight `[tile, colBlocks * tile]` per row tile (an array
   * group of `colBlocks` crossbars), one accumulation chain, published through a one-block concat.
   */
  readonly grouped?: boolean;
}

function convModule(c: Conv, tile: number): string {
  const hp = c.ho + c.kh - 1;
  const wp = c.wo + c.kw - 1;
  const ch = c.chunks * tile;
  const cols = c.colBlocks * tile;
  const lanes = c.ho * c.wo;
  const inType = `tensor<${hp}x${wp}x${ch}xf32>`;
  const out = `tensor<1x${cols}xf32>`;
  const blockType = `tensor<1x${tile}xf32>`;
  const resType = `tensor<${lanes}x1x${cols}xf32>`;
  let k = 0;
  const value = (): string => (c.values[k++ % c.values.length]! / 8).toFixed(3);
  const consts: string[] = [];
  const weightNames: string[] = [];
  const argNames: string[] = [];
  const weightTypes: string[] = [];
  const tiles = c.kh * c.kw * c.chunks;
  const wide = c.grouped === true;
  for (let j = 0; j < (wide ? 0 : c.colBlocks); j++) {
    for (let t = 0; t < tiles; t++) {
      const rows = Array.from({ length: tile }, () => `[${Array.from({ length: tile }, value).join(', ')}]`).join(', ');
      consts.push(`  %w_${t}_${j} = arith.constant dense<[${rows}]> : tensor<${tile}x${tile}xf32>`);
      weightNames.push(`%w_${t}_${j}`);
      argNames.push(`%a_${t}_${j}`);
      weightTypes.push(`tensor<${tile}x${tile}xf32>`);
    }
  }
  if (wide) {
    for (let t = 0; t < tiles; t++) {
      const rows = Array.from({ length: tile }, () => `[${Array.from({ length: cols }, value).join(', ')}]`).join(', ');
      consts.push(`  %w_${t} = arith.constant dense<[${rows}]> : tensor<${tile}x${cols}xf32>`);
      weightNames.push(`%w_${t}`);
      argNames.push(`%a_${t}`);
      weightTypes.push(`tensor<${tile}x${cols}xf32>`);
    }
  }
  consts.push(`  %bias = arith.constant dense<[[${Array.from({ length: cols }, value).join(', ')}]]> : ${out}`);
  const body: string[] = [];
  for (let i = 0; i < c.kh; i++) body.push(`    %r_${i} = affine.apply affine_map<(d0) -> (d0 floordiv ${c.wo} + ${i})>(%lane)`);
  for (let j = 0; j < c.kw; j++) body.push(`    %c_${j} = affine.apply affine_map<(d0) -> (d0 mod ${c.wo} + ${j})>(%lane)`);
  for (let t = 0; t < tiles; t++) {
    const tap = Math.floor(t / c.chunks);
    const q = t % c.chunks;
    const i = Math.floor(tap / c.kw);
    const j = tap % c.kw;
    body.push(`    %s_${t} = tensor.extract_slice %in[%r_${i}, %c_${j}, ${q * tile}] [1, 1, ${tile}] [1, 1, 1] : ${inType} to ${blockType}`);
  }
  const accs: string[] = [];
  if (wide) {
    for (let t = 0; t < tiles; t++) body.push(`    %m_${t} = spat.wvmm[%a_${t}](%s_${t}) : (tensor<${tile}x${cols}xf32>, ${blockType}) -> ${out}`);
    let acc = '%m_0';
    for (let t = 1; t < tiles; t++) {
      body.push(`    %acc_${t} = spat.vadd ${acc}, %m_${t} : (${out}, ${out}) -> ${out}`);
      acc = `%acc_${t}`;
    }
    body.push(`    %cat = spat.concat axis 1 ${acc} : (${out}) -> ${out}`);
  }
  for (let j = 0; j < (wide ? 0 : c.colBlocks); j++) {
    for (let t = 0; t < tiles; t++) body.push(`    %m_${t}_${j} = spat.wvmm[%a_${t}_${j}](%s_${t}) : (tensor<${tile}x${tile}xf32>, ${blockType}) -> ${blockType}`);
    let acc = `%m_0_${j}`;
    for (let t = 1; t < tiles; t++) {
      body.push(`    %acc_${t}_${j} = spat.vadd ${acc}, %m_${t}_${j} : (${blockType}, ${blockType}) -> ${blockType}`);
      acc = `%acc_${t}_${j}`;
    }
    accs.push(acc);
  }
  if (!wide) body.push(`    %cat = spat.concat axis 1 ${accs.join(', ')} : (${accs.map(() => blockType).join(', ')}) -> ${out}`);
  body.push(`    %biased = spat.vadd %cat, %b : (${out}, ${out}) -> ${out}`);
  let result = '%biased';
  if (c.relu) {
    body.push(`    %act = spat.relu(%biased) : ${out} -> ${out}`);
    result = '%act';
  }
  return [
    `func.func @main(%x: ${inType}) -> ${resType} {`,
    ...consts,
    `  %y = spat.graph_compute_batch %lane = 0 to ${lanes} [${argNames.join(', ')}] = [${weightNames.join(', ')}] (%in, %b) = (%x, %bias) shared_outs(%out) crossbarWeights ${argNames.length} : [${weightTypes.join(', ')}] (${inType}, ${out}) -> ${resType} {`,
    ...body,
    '    spat.in_parallel {',
    `      tensor.parallel_insert_slice ${result} into %out[%lane, 0, 0] [1, 1, ${cols}] [1, 1, 1] : ${out} into ${resType}`,
    '    }',
    '  } loc("conv")',
    `  return %y : ${resType}`,
    '}',
  ].join('\n');
}

function parse(text: string): { ctx: MLIRContext; module: Operation } {
  const module = parseVerified(text, 'conv.mlir');
  return { ctx: module.context, module };
}


function input(ctx: MLIRContext, c: Conv, tile: number): ShapedValue {
  const shape = [c.ho + c.kh - 1, c.wo + c.kw - 1, c.chunks * tile];
  const x = ShapedValue.allocate('tensor', FloatType.f32(ctx), shape)!;
  const n = shape.reduce((a, b) => a * b, 1);
  (x.data as Float32Array).set(Array.from({ length: n }, (_, i) => ((i * 7) % 11) - 5));
  return x;
}

function batches(func: Operation): Operation[] {
  return func.regions[0]!.firstBlock!.operations.filter((o) => GraphComputeBatchOp.isInstance(o));
}

/** Input channel ranges `[from, to)` the tile reads of a compute read. */
function channelRanges(op: Operation): string[] {
  const out = new Set<string>();
  op.walk((o: Operation) => {
    if (!ExtractSliceOp.isInstance(o) || !o.getResult(0).users.some((u) => WvmmOp.isInstance(u))) return;
    const { offsets, sizes } = readSliceLists(o);
    out.add(`${offsets[offsets.length - 1]}:${offsets[offsets.length - 1]! + sizes[sizes.length - 1]!}`);
  });
  return [...out].sort();
}

describe('spat-split-input-channels', () => {
  it('splits a convolution whose line buffers exceed half a core into channel parts and a reduction with the same outputs', () => {
    fc.assert(
      fc.property(
        fc.record({
          kh: fc.integer({ min: 1, max: 3 }),
          kw: fc.integer({ min: 1, max: 3 }),
          ho: fc.integer({ min: 1, max: 3 }),
          wo: fc.integer({ min: 1, max: 3 }),
          chunks: fc.integer({ min: 2, max: 4 }),
          colBlocks: fc.integer({ min: 1, max: 2 }),
          relu: fc.boolean(),
          values: fc.array(fc.integer({ min: -16, max: 16 }), { minLength: 1, maxLength: 12 }),
        }),
        (conv) => {
          const tile = 4;
          const wp = conv.wo + conv.kw - 1;
          const lineBuffers = 2 * conv.kh * wp * conv.chunks * tile * 4;
          // Local memory: the line buffers of the whole channels exceed half of it, a chunk's fit.
          const memory = 4 * Math.ceil(lineBuffers / 4) - 4;
          const cost = createCostModel(smallTarget(tile, memory));
          const { ctx, module } = parse(convModule(conv, tile));
          const x = input(ctx, conv, tile);
          const before = run(module, 'main', [x]);
          expect(before.ok).toBe(true);
          const func = funcOf(module);
          const plans = planInputChannelSplits(func, cost);
          expect(plans).toHaveLength(1);
          const plan = plans[0]!;
          expect(plan.windowBytes).toBe(lineBuffers);
          // The fewest parts whose line buffers fit half the memory, else one per chunk.
          const parts = plan.channels.length;
          expect(conv.chunks % parts).toBe(0);
          expect(parts === conv.chunks || lineBuffers / parts <= memory / 2).toBe(true);
          expect(splitInputChannels(func, cost, plans)).toBe(1);
          expect(verify(module)).toBe(true);
          const computes = batches(func);
          expect(computes).toHaveLength(parts + 1);
          computes.slice(0, parts).forEach((part, p) => {
            const [from, to] = plan.channels[p]!;
            for (const r of channelRanges(part)) {
              const [a, b] = r.split(':').map(Number);
              expect(a! >= from && b! <= to).toBe(true);
            }
          });
          // The reduction holds no weights.
          expect(GraphComputeBatchOp.get(computes[parts]!).weights.length).toBe(0);
          const after = run(module, 'main', [x]);
          expect(after).toEqual(before);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('runs as a pass with the target from the context', () => {
    const conv: Conv = { kh: 3, kw: 3, ho: 2, wo: 2, chunks: 4, colBlocks: 1, relu: true, values: [1, -2, 3] };
    const { ctx, module } = parse(convModule(conv, 4));
    const x = input(ctx, conv, 4);
    const before = run(module, 'main', [x]);
    const registry = new PassRegistry();
    registerSchedulerPasses(registry);
    const pm = parsePassPipeline(ctx, 'builtin.module(spat-split-input-channels)', registry)!;
    // Two line buffers of 3 rows x 4 columns x 16 channels: 1536 bytes; 1024 bytes of memory.
    pm.setContext(TargetKey, smallTarget(4, 1024));
    expect(pm.run(module).success).toBe(true);
    // 1536 / 2 = 768 > 512, 1536 / 4 = 384 <= 512: four parts.
    expect(batches(funcOf(module))).toHaveLength(5);
    expect(run(module, 'main', [x])).toEqual(before);
  });

  it('splits a column-grouped convolution of more crossbars than a core (one chain, no column split) into parts within a core', () => {
    // 1x1 kernel, 4 channel chunks, 2 column blocks: 4 row tiles of 2 crossbars each, 8 in all;
    // 4 crossbars per core and plenty of memory: two parts of 4 crossbars.
    const conv: Conv = { kh: 1, kw: 1, ho: 2, wo: 3, chunks: 4, colBlocks: 2, relu: true, values: [3, -1, 2, -5, 4], grouped: true };
    const target = smallTarget(4, 65536);
    target.config.chip_config.core_config.matrix_config.xbar_array_count = 4;
    const cost = createCostModel(target);
    const { ctx, module } = parse(convModule(conv, 4));
    const x = input(ctx, conv, 4);
    const before = run(module, 'main', [x]);
    const func = funcOf(module);
    const plans = planInputChannelSplits(func, cost);
    expect(plans.map((p) => p.channels)).toEqual([
      [
        [0, 8],
        [8, 16],
      ],
    ]);
    expect(splitInputChannels(func, cost, plans)).toBe(1);
    expect(verify(module)).toBe(true);
    const computes = batches(func);
    expect(computes).toHaveLength(3);
    for (const part of computes.slice(0, 2)) expect(GraphComputeBatchOp.get(part).weights.length).toBe(2);
    expect(run(module, 'main', [x])).toEqual(before);
    // Within a core's crossbars, the same compute is left alone.
    const roomy = parse(convModule(conv, 4));
    expect(planInputChannelSplits(funcOf(roomy.module), createCostModel(smallTarget(4, 65536)))).toEqual([]);
  });

  it('leaves alone computes whose line buffers fit, and tiles that read across channel chunks', () => {
    const conv: Conv = { kh: 3, kw: 3, ho: 2, wo: 2, chunks: 2, colBlocks: 1, relu: false, values: [1, 2] };
    const fits = parse(convModule(conv, 4));
    expect(planInputChannelSplits(funcOf(fits.module), createCostModel(smallTarget(4, 65536)))).toEqual([]);
    // A tile of 8 channels over chunks of 4: the ranges [0, 8) and [4, 12) overlap.
    const text = convModule(conv, 4).replace('[%r_0, %c_0, 4] [1, 1, 4]', '[%r_0, %c_0, 2] [1, 1, 4]');
    const odd = parse(text);
    expect(planInputChannelSplits(funcOf(odd.module), createCostModel(smallTarget(4, 256)))).toEqual([]);
  });
});
