/**
 * `spat-split-oversized-computes` on synthetic computes shaped as plan lowering emits a wide
 * layer (per lane: the input cut into row blocks, one `spat.wvmm` accumulation chain per column
 * block, `spat.concat` of the chains, a bias `spat.vadd`, optionally a ReLU), on a tiny-crossbar
 * target (4x4 crossbars, a few per core) so the weights need more than one core:
 *
 * - property (fast-check over lanes, rows, columns, crossbars per core, scalar or batch): every
 *   part fits a core, the split module verifies, the interpreter gives exactly the outputs of the
 *   unsplit module, and scheduling the split module with a random strategy passes the checks and
 *   keeps the outputs;
 * - the pass on its own (`raptor opt`'s pipeline form) and the structure it emits (parts, one
 *   assembling blueprint, a balanced grouping);
 * - a chain larger than a core is refused with a diagnostic and the module is left unchanged.
 */
import fc from 'fast-check';
import { FloatType, MLIRContext, PassRegistry, ShapedValue, parsePassPipeline, parseSourceString, printOperation, printType, verify, type Operation } from '@raptor-pim/ir-core';
import { BlueprintOp, GraphComputeBatchOp, GraphComputeOp, registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { createCostModel, defaultTarget, type Target } from '@raptor-pim/pim-target';
import {
  BUILTIN_SCHEDULERS,
  TargetKey,
  crossbarsOfCompute,
  planOversizedSplits,
  registerSchedulerPasses,
  splitLimitsOf,
  splitOversizedComputes,
  verifyCommunication,
} from '@raptor-pim/scheduler';
import { funcOf, run } from './helpers';

jest.setTimeout(120_000);

/** A target with `size`x`size` crossbars, `perCore` of them per core and `cores` cores. */
function tinyTarget(size: number, perCore: number, cores: number): Target {
  const target = defaultTarget();
  const mx = target.config.chip_config.core_config.matrix_config;
  mx.xbar_size = [size, size];
  mx.xbar_array_count = perCore;
  target.config.chip_config.core_cnt = cores;
  target.config.chip_config.network_config.layout = [Math.ceil(cores / 4), 4];
  return target;
}

/** Shape of a synthetic wide layer. */
interface Layer {
  /** Graph lanes (0: a scalar `spat.graph_compute`). */
  readonly lanes: number;
  /** Input length K (row blocks of `tile` rows, the last one shorter). */
  readonly rows: number;
  /** Output columns N (column blocks of `tile` columns, the last one shorter). */
  readonly cols: number;
  /** ReLU after the bias. */
  readonly relu: boolean;
  /** The function returns the layer's result itself (no consumer compute). */
  readonly returned?: boolean;
  /** Weight values (cycled). */
  readonly values: readonly number[];
}

function blocks(n: number, tile: number): number[] {
  const out: number[] = [];
  for (let o = 0; o < n; o += tile) out.push(Math.min(tile, n - o));
  return out;
}

/**
 * The module: `@main(%x)` runs the wide layer (weights already tiled `tile`x`tile` as plan
 * lowering does) and a consumer that reads its result (a batch of ReLU lanes, or a scalar ReLU).
 */
function wideLayer(l: Layer, tile: number): string {
  const rb = blocks(l.rows, tile);
  const cb = blocks(l.cols, tile);
  const batch = l.lanes > 0;
  const lanes = Math.max(1, l.lanes);
  let k = 0;
  const value = (): string => (l.values[k++ % l.values.length]! / 8).toFixed(3);
  const consts: string[] = [];
  const weightNames: string[] = [];
  const weightTypes: string[] = [];
  cb.forEach((c, j) =>
    rb.forEach((r, i) => {
      const rowsText = Array.from({ length: r }, () => `[${Array.from({ length: c }, value).join(', ')}]`).join(', ');
      consts.push(`  %w_${i}_${j} = arith.constant dense<[${rowsText}]> : tensor<${r}x${c}xf32>`);
      weightNames.push(`%w_${i}_${j}`);
      weightTypes.push(`tensor<${r}x${c}xf32>`);
    }),
  );
  consts.push(`  %bias = arith.constant dense<[[${Array.from({ length: l.cols }, value).join(', ')}]]> : tensor<1x${l.cols}xf32>`);
  const body: string[] = [];
  if (batch) body.push(`    %row = tensor.extract_slice %in[%lane, 0] [1, ${l.rows}] [1, 1] : tensor<${lanes}x${l.rows}xf32> to tensor<1x${l.rows}xf32>`);
  const row = batch ? '%row' : '%in';
  let off = 0;
  rb.forEach((r, i) => {
    body.push(`    %s_${i} = tensor.extract_slice ${row}[0, ${off}] [1, ${r}] [1, 1] : tensor<1x${l.rows}xf32> to tensor<1x${r}xf32>`);
    off += r;
  });
  const accs: string[] = [];
  cb.forEach((c, j) => {
    const t = `tensor<1x${c}xf32>`;
    rb.forEach((r, i) => body.push(`    %m_${i}_${j} = spat.wvmm[%a_${i}_${j}](%s_${i}) : (tensor<${r}x${c}xf32>, tensor<1x${r}xf32>) -> ${t}`));
    let acc = `%m_0_${j}`;
    for (let i = 1; i < rb.length; i++) {
      body.push(`    %acc_${i}_${j} = spat.vadd ${acc}, %m_${i}_${j} : (${t}, ${t}) -> ${t}`);
      acc = `%acc_${i}_${j}`;
    }
    accs.push(acc);
  });
  const out = `tensor<1x${l.cols}xf32>`;
  body.push(`    %cat = spat.concat axis 1 ${accs.join(', ')} : (${cb.map((c) => `tensor<1x${c}xf32>`).join(', ')}) -> ${out}`);
  body.push(`    %biased = spat.vadd %cat, %b : (${out}, ${out}) -> ${out}`);
  let result = '%biased';
  if (l.relu) {
    body.push(`    %act = spat.relu(%biased) : ${out} -> ${out}`);
    result = '%act';
  }
  const argNames = cb.flatMap((_, j) => rb.map((_, i) => `%a_${i}_${j}`));
  const xType = batch ? `tensor<${lanes}x${l.rows}xf32>` : `tensor<1x${l.rows}xf32>`;
  const resType = batch ? `tensor<${lanes}x1x${l.cols}xf32>` : out;
  const lines: string[] = [`func.func @main(%x: ${xType}) -> ${resType} {`, ...consts];
  const bindings = `[${argNames.join(', ')}] = [${weightNames.join(', ')}] (%in, %b) = (%x, %bias)`;
  const signature = `[${weightTypes.join(', ')}] (${xType}, ${out}) -> ${resType}`;
  if (batch) {
    lines.push(`  %y = spat.graph_compute_batch %lane = 0 to ${lanes} ${bindings} shared_outs(%out) crossbarWeights ${argNames.length} : ${signature} {`);
    lines.push(...body);
    lines.push('    spat.in_parallel {');
    lines.push(`      tensor.parallel_insert_slice ${result} into %out[%lane, 0, 0] [1, 1, ${l.cols}] [1, 1, 1] : ${out} into ${resType}`);
    lines.push('    }', '  } loc("wide")');
    if (!l.returned) lines.push(`  %z = spat.graph_compute_batch %lane = 0 to ${lanes} [] = [] (%r) = (%y) shared_outs(%out) crossbarWeights 0 : [] (${resType}) -> ${resType} {`);
    if (!l.returned) {
      lines.push(`    %v = tensor.extract_slice %r[%lane, 0, 0] [1, 1, ${l.cols}] [1, 1, 1] : ${resType} to ${out}`);
      lines.push(`    %n = spat.relu(%v) : ${out} -> ${out}`);
      lines.push('    spat.in_parallel {');
      lines.push(`      tensor.parallel_insert_slice %n into %out[%lane, 0, 0] [1, 1, ${l.cols}] [1, 1, 1] : ${out} into ${resType}`);
      lines.push('    }', '  }');
    }
  } else {
    lines.push(`  %y = spat.graph_compute ${bindings} crossbarWeights ${argNames.length} : ${signature} {`);
    lines.push(...body);
    lines.push(`    spat.yield ${result} : ${out}`, '  } loc("wide")');
    if (!l.returned) {
      lines.push(`  %z = spat.graph_compute [] = [] (%r) = (%y) crossbarWeights 0 : [] (${out}) -> ${out} {`);
      lines.push(`    %n = spat.relu(%r) : ${out} -> ${out}`, `    spat.yield %n : ${out}`, '  }');
    }
  }
  lines.push(`  return ${l.returned ? '%y' : '%z'} : ${resType}`, '}');
  return lines.join('\n');
}

function parse(text: string): { ctx: MLIRContext; module: Operation } {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const errors: string[] = [];
  const module = ctx.diagnostics.withHandler((d) => errors.push(d.message), () => parseSourceString(ctx, text, { filename: 'wide.mlir' }));
  if (!module) throw new Error(`unparsable fixture (${errors.join('; ')}):\n${text}`);
  expect(verify(module)).toBe(true);
  return { ctx, module };
}


function input(ctx: MLIRContext, l: Layer): ShapedValue {
  const shape = [Math.max(1, l.lanes), l.rows];
  const x = ShapedValue.allocate('tensor', FloatType.f32(ctx), shape)!;
  (x.data as Float32Array).set(Array.from({ length: shape[0]! * shape[1]! }, (_, i) => ((i * 7) % 11) - 5));
  return x;
}

function computes(func: Operation): Operation[] {
  return func.regions[0]!.firstBlock!.operations.filter((o) => GraphComputeOp.isInstance(o) || GraphComputeBatchOp.isInstance(o));
}

describe('spat-split-oversized-computes', () => {
  it('splits into parts of at most a core, keeps the outputs, and the split module schedules with every strategy', () => {
    fc.assert(
      fc.property(
        fc.record({
          lanes: fc.integer({ min: 0, max: 4 }),
          rows: fc.integer({ min: 1, max: 12 }),
          cols: fc.integer({ min: 5, max: 20 }),
          relu: fc.boolean(),
          returned: fc.boolean(),
          values: fc.array(fc.integer({ min: -16, max: 16 }), { minLength: 1, maxLength: 12 }),
        }),
        fc.integer({ min: 3, max: 6 }),
        fc.constantFrom(...BUILTIN_SCHEDULERS.map((s) => s.name)),
        (layer, perCore, strategy) => {
          const tile = 4;
          const rowBlocks = blocks(layer.rows, tile).length;
          fc.pre(rowBlocks <= perCore && rowBlocks * blocks(layer.cols, tile).length > perCore);
          const target = tinyTarget(tile, perCore, 16);
          const limits = splitLimitsOf(createCostModel(target));
          const { ctx, module } = parse(wideLayer(layer, tile));
          const x = input(ctx, layer);
          const before = run(module, 'main', [x]);
          expect(before.ok).toBe(true);
          const func = funcOf(module);
          const r = splitOversizedComputes(func, limits);
          expect(r.diagnostics).toEqual([]);
          expect(r.split).toBe(1);
          expect(r.parts).toBe(Math.ceil(blocks(layer.cols, tile).length / Math.floor(perCore / rowBlocks)));
          for (const c of computes(func)) expect(crossbarsOfCompute(c, limits)).toBeLessThanOrEqual(perCore);
          expect(verify(module)).toBe(true);
          expect(run(module, 'main', [x])).toEqual(before);
          const s = BUILTIN_SCHEDULERS.find((b) => b.name === strategy)!;
          const scheduled = s.schedule(module, target, {});
          expect(scheduled.diagnostics ?? []).toEqual([]);
          expect(verifyCommunication(module, target).diagnostics.map((d) => d.message)).toEqual([]);
          expect(run(module, 'main', [x])).toEqual(before);
        },
      ),
      { numRuns: 40, seed: 7 },
    );
  });

  it('runs alone as a pass: parts with their weight slices and one assembling blueprint, balanced', () => {
    // 3 row blocks x 5 column blocks, 7 crossbars per core: chains of 3, at most 2 per part,
    // so 3 parts of 2 + 2 + 1 column blocks (6 + 6 + 3 crossbars).
    const layer: Layer = { lanes: 2, rows: 12, cols: 20, relu: true, values: [1, -2, 3] };
    const { ctx, module } = parse(wideLayer(layer, 4));
    const registry = new PassRegistry();
    registerSchedulerPasses(registry);
    const pm = parsePassPipeline(ctx, 'builtin.module(spat-split-oversized-computes)', registry)!;
    pm.setContext(TargetKey, tinyTarget(4, 7, 16));
    const x = input(ctx, layer);
    const before = run(module, 'main', [x]);
    expect(pm.run(module).success).toBe(true);
    const func = funcOf(module);
    const limits = splitLimitsOf(createCostModel(tinyTarget(4, 7, 16)));
    expect(computes(func).map((c) => crossbarsOfCompute(c, limits))).toEqual([6, 6, 3, 0]);
    const blueprints = func.regions[0]!.firstBlock!.operations.filter((o) => BlueprintOp.isInstance(o));
    expect(blueprints).toHaveLength(1);
    expect(blueprints[0]!.numOperands).toBe(3);
    expect(computes(func).slice(0, 3).map((c) => printType(c.getResult(0).type))).toEqual(['tensor<2x1x1x8xf32>', 'tensor<2x1x1x8xf32>', 'tensor<2x1x1x4xf32>']);
    expect(run(module, 'main', [x])).toEqual(before);
    // Already split: a second run changes nothing.
    const once = printOperation(module);
    expect(pm.run(module).success).toBe(true);
    expect(printOperation(module)).toBe(once);
    // Deterministic: the same input gives the same module, byte for byte.
    const again = parse(wideLayer(layer, 4));
    splitOversizedComputes(funcOf(again.module), limits);
    expect(printOperation(again.module)).toBe(once);
  });

  it('refuses a column block larger than a core (partial sums across cores) and leaves the function unchanged', () => {
    const layer: Layer = { lanes: 1, rows: 16, cols: 8, relu: false, values: [1] };
    const { module } = parse(wideLayer(layer, 4));
    const text = printOperation(module);
    const limits = splitLimitsOf(createCostModel(tinyTarget(4, 3, 16)));
    const r = planOversizedSplits(funcOf(module), limits);
    expect(r.plans).toEqual([]);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      'spat-split-oversized-computes: #0 wide holds 8 crossbars in one copy but a core has 3, and it cannot be split into column parts of at most 3: ' +
        'its column block 0 (one accumulation chain) alone needs 4 crossbars; splitting one chain across cores (partial sums and an add) is not supported yet',
    ]);
    expect(splitOversizedComputes(funcOf(module), limits).split).toBe(0);
    expect(printOperation(module)).toBe(text);
    // spat-schedule reports the same diagnostic and leaves the module as it was.
    const s = BUILTIN_SCHEDULERS[0]!.schedule(module, tinyTarget(4, 3, 16), {});
    expect(s.module).toBeUndefined();
    expect((s.diagnostics ?? []).map((d) => d.message)).toEqual(r.diagnostics.map((d) => d.message));
    expect(printOperation(module)).toBe(text);
  });
});
