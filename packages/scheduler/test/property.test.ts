/**
 * Property: scheduling preserves meaning. Random chains of graph computes (a batch of ReLU
 * lanes over column slices, reconstructed by a blueprint, then a weighted batch whose lanes
 * each multiply the whole logical row by a weight tile, then a scalar reduction) are scheduled
 * with every strategy on a small random target; the scheduled module passes the checks and the
 * interpreter gives exactly the outputs of the unscheduled module.
 */
import fc from 'fast-check';
import { FloatType, MLIRContext, ShapedValue, parseSourceString, verify } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { defaultTarget } from '@raptor-pim/pim-target';
import { BUILTIN_SCHEDULERS, verifyCommunication } from '@raptor-pim/scheduler';
import { run } from './helpers';

jest.setTimeout(120_000);

/** The module text of a chain with `lanes` ReLU lanes of `width` columns and `outLanes` weighted lanes of `cols` columns. */
function chain(lanes: number, width: number, outLanes: number, cols: number, weights: number[]): string {
  const n = lanes * width;
  const offsets: number[] = [];
  const sizes: number[] = [];
  for (let l = 0; l < lanes; l++) offsets.push(0, l * width), sizes.push(1, width);
  const w = Array.from({ length: n }, (_, i) => `[${Array.from({ length: cols }, (_, j) => weights[(i * cols + j) % weights.length]!.toFixed(2)).join(', ')}]`).join(', ');
  return `
func.func @main(%x: tensor<1x${n}xf32>) -> tensor<1x${cols}xf32> {
  %f = spat.graph_compute_batch %lane = 0 to ${lanes} [] = [] (%arg) = (%x) shared_outs(%out) crossbarWeights 0 : [] (tensor<1x${n}xf32>) -> tensor<${lanes}x1x${width}xf32> {
    %o = affine.apply affine_map<(d0) -> (d0 * ${width})>(%lane)
    %s = tensor.extract_slice %arg[0, %o] [1, ${width}] [1, 1] : tensor<1x${n}xf32> to tensor<1x${width}xf32>
    %v = spat.relu(%s) : tensor<1x${width}xf32> -> tensor<1x${width}xf32>
    spat.in_parallel {
      tensor.parallel_insert_slice %v into %out[%lane, 0, 0] [1, 1, ${width}] [1, 1, 1] : tensor<1x${width}xf32> into tensor<${lanes}x1x${width}xf32>
    }
  }
  %l = spat.blueprint fragments(%f) layout nchw physical fragmented offsets [${offsets.join(', ')}] sizes [${sizes.join(', ')}] map explicit mode fragment_assembly operandIndices [${Array(lanes).fill(0).join(', ')}] sourceSlots [${Array.from({ length: lanes }, (_, i) => i).join(', ')}] sourceOffsets [${Array(lanes).fill(0).join(', ')}] strides [1, 1${', 1, 1'.repeat(lanes - 1)}] conflict disjoint coverage complete : (tensor<${lanes}x1x${width}xf32>) -> tensor<1x${n}xf32>
  %w = arith.constant dense<[${w}]> : tensor<${n}x${cols}xf32>
  %g = spat.graph_compute_batch %lane = 0 to ${outLanes} [%wa] = [%w] (%a) = (%l) shared_outs(%out) crossbarWeights 1 : [tensor<${n}x${cols}xf32>] (tensor<1x${n}xf32>) -> tensor<${outLanes}x1x${cols}xf32> {
    %p = spat.wvmm[%wa](%a) : (tensor<${n}x${cols}xf32>, tensor<1x${n}xf32>) -> tensor<1x${cols}xf32>
    spat.in_parallel {
      tensor.parallel_insert_slice %p into %out[%lane, 0, 0] [1, 1, ${cols}] [1, 1, 1] : tensor<1x${cols}xf32> into tensor<${outLanes}x1x${cols}xf32>
    }
  }
  %y = spat.graph_compute [] = [] (%b) = (%g) crossbarWeights 0 : [] (tensor<${outLanes}x1x${cols}xf32>) -> tensor<1x${cols}xf32> {
    %first = tensor.extract_slice %b[0, 0, 0] [1, 1, ${cols}] [1, 1, 1] : tensor<${outLanes}x1x${cols}xf32> to tensor<1x${cols}xf32>
    %last = tensor.extract_slice %b[${outLanes - 1}, 0, 0] [1, 1, ${cols}] [1, 1, 1] : tensor<${outLanes}x1x${cols}xf32> to tensor<1x${cols}xf32>
    %sum = spat.vadd %first, %last : (tensor<1x${cols}xf32>, tensor<1x${cols}xf32>) -> tensor<1x${cols}xf32>
    spat.yield %sum : tensor<1x${cols}xf32>
  }
  return %y : tensor<1x${cols}xf32>
}`;
}

describe('scheduling preserves meaning', () => {
  it('on random chains, every strategy, small random targets', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: -20, max: 20 }), { minLength: 1, maxLength: 16 }),
        fc.integer({ min: 2, max: 16 }),
        fc.constantFrom(...BUILTIN_SCHEDULERS.map((s) => s.name)),
        (lanes, width, outLanes, cols, ws, cores, strategy) => {
          const ctx = new MLIRContext();
          registerSpatialDialect(ctx);
          const text = chain(lanes, width, outLanes, cols, ws.map((x) => x / 8));
          const module = parseSourceString(ctx, text, { filename: 'chain.mlir' })!;
          expect(verify(module)).toBe(true);
          const x = ShapedValue.allocate('tensor', FloatType.f32(ctx), [1, lanes * width])!;
          (x.data as Float32Array).set(Array.from({ length: lanes * width }, (_, i) => ((i * 7) % 11) - 5));
          const before = run(module, 'main', [x]);
          const target = defaultTarget();
          target.config.chip_config.core_cnt = cores;
          target.config.chip_config.network_config.layout = [Math.ceil(cores / 4), 4];
          const s = BUILTIN_SCHEDULERS.find((b) => b.name === strategy)!;
          const r = s.schedule(module, target, {});
          expect(r.module).toBeDefined();
          expect(verifyCommunication(module, target).diagnostics.map((d) => d.message)).toEqual([]);
          expect(run(module, 'main', [x])).toEqual(before);
        },
      ),
      { numRuns: 40, seed: 12 },
    );
  });
});
