/**
 * Every reference example of the spat ops of part A runs on concrete data with a result
 * checked by hand (the values in the comments are computed on paper from the Semantics
 * sections of the reference).
 */
import fc from 'fast-check';
import { Interpreter } from '@raptor-pim/ir-core';
import { setGraphBatchLaneOrder } from '../../src';
import { parseVerified } from '../ir/helpers';
import { f32, iota, ok, referenceCases, rules, runVerified, shapeOfValue, valuesOf } from './support';

const cases = referenceCases();
const run = (section: string, fn: string, ...args: Parameters<typeof f32>[]) =>
  ok(runVerified(cases.get(section)!, fn, args.map(([s, v]) => f32(s, v))));

describe('reference examples execute with hand-checked results', () => {
  it('spat.vadd (intro and entry): [1,2,3,4] + [10,20,30,40] = [11,22,33,44]', () => {
    for (const [section, fn] of [['values-operations-and-types', 'values_operations_and_types'], ['spat.vadd', 'vadd']] as const) {
      const [y] = run(section, fn, [[1, 4], [1, 2, 3, 4]], [[1, 4], [10, 20, 30, 40]]);
      expect(valuesOf(y)).toEqual([11, 22, 33, 44]);
    }
  });

  it('extract_rows then concat along axis 1 rebuilds the rows side by side', () => {
    const [y] = run('multiple-results-and-compact-lists', 'multiple_results', [[2, 4], iota(8, 1, 1)]);
    expect(shapeOfValue(y)).toEqual([1, 8]);
    expect(valuesOf(y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('spat.extract_rows: result i is row i', () => {
    const [r0, r1] = run('spat.extract_rows', 'extract_rows', [[2, 4], iota(8)]);
    expect([shapeOfValue(r0), valuesOf(r0), valuesOf(r1)]).toEqual([[1, 4], [0, 1, 2, 3], [4, 5, 6, 7]]);
  });

  it('spat.add_plan (intro and entry): iota + 100', () => {
    for (const [section, fn] of [['planning-operations-and-attributes', 'planning_operations_and_attributes'], ['spat.add_plan', 'add_plan']] as const) {
      const [y] = run(section, fn, [[1, 2, 3, 4], iota(24)], [[1, 2, 3, 4], new Array(24).fill(100)]);
      expect(valuesOf(y)).toEqual(iota(24, 1, 100));
    }
  });

  it('graph_compute with wvmm: [1,2,3,4] times a 4x3 matrix of ones = [10,10,10]', () => {
    const [y] = run('compute-regions-and-bindings', 'compute_regions_and_bindings', [[1, 4], [1, 2, 3, 4]]);
    expect(valuesOf(y)).toEqual([10, 10, 10]);
  });

  it('graph_compute_batch + blueprint: lanes apply ReLU to columns 0-3 and 4-7; the blueprint places them side by side', () => {
    const x = [-1, 2, -3, 4, -5, 6, -7, 8];
    const [logical] = run('graph-batches-and-fragment-slots', 'graph_batches_and_fragment_slots', [[1, 8], x]);
    expect(valuesOf(logical)).toEqual([0, 2, 0, 4, 0, 6, 0, 8]);
    const [fragments] = run('spat.graph_compute_batch', 'graph_compute_batch', [[1, 8], x]);
    expect(shapeOfValue(fragments)).toEqual([2, 1, 4]);
    expect(valuesOf(fragments)).toEqual([0, 2, 0, 4, 0, 6, 0, 8]);
  });

  it('spat.bias_add_plan: bias[0] on channel 0, bias[1] on channel 1', () => {
    const [y] = run('spat.bias_add_plan', 'bias_add_plan', [[1, 2, 3, 4], new Array(24).fill(0)], [[2], [1, 2]]);
    expect(valuesOf(y)).toEqual([...new Array(12).fill(1), ...new Array(12).fill(2)]);
  });

  it('spat.blueprint: slot 0 supplies columns 0-3, slot 1 columns 4-7', () => {
    const [y] = run('spat.blueprint', 'blueprint', [[2, 1, 4], [1, 2, 3, 4, 5, 6, 7, 8]]);
    expect(valuesOf(y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Reversing sourceSlots swaps the placement while preserving the collection type.
    const swapped = cases.get('spat.blueprint')!.replace('sourceSlots [0, 1]', 'sourceSlots [1, 0]');
    const [z] = ok(runVerified(swapped, 'blueprint', [f32([2, 1, 4], [1, 2, 3, 4, 5, 6, 7, 8])]));
    expect(valuesOf(z)).toEqual([5, 6, 7, 8, 1, 2, 3, 4]);
  });

  it('spat.concat: [1,2] ++ [3,4] along axis 1', () => {
    const [y] = run('spat.concat', 'concat', [[1, 2], [1, 2]], [[1, 2], [3, 4]]);
    expect(valuesOf(y)).toEqual([1, 2, 3, 4]);
  });

  it('spat.concat_plan: the two channels of %a come before those of %b', () => {
    const [y] = run('spat.concat_plan', 'concat_plan', [[1, 2, 3, 4], new Array(24).fill(1)], [[1, 2, 3, 4], new Array(24).fill(2)]);
    expect(shapeOfValue(y)).toEqual([1, 4, 3, 4]);
    expect(valuesOf(y)).toEqual([...new Array(24).fill(1), ...new Array(24).fill(2)]);
  });

  it('spat.conv2d_plan: ones * ones with 3x3x2 taps = 18 everywhere, shape 1x3x2x2', () => {
    const [y] = run('spat.conv2d_plan', 'conv2d_plan', [[1, 2, 4, 4], new Array(32).fill(1)], [[3, 2, 3, 3], new Array(54).fill(1)]);
    expect(shapeOfValue(y)).toEqual([1, 3, 2, 2]);
    expect(valuesOf(y)).toEqual(new Array(12).fill(18));
  });

  it('spat.conv2d_plan: one-hot weights select input taps', () => {
    // filter 0 = x[c0][i][j] (top-left tap of channel 0), filter 1 = x[c1][i+2][j+2], filter 2 = both centres summed.
    const w = new Array(54).fill(0);
    w[0] = 1; // f0 c0 (0,0)
    w[18 + 9 + 8] = 1; // f1 c1 (2,2)
    w[36 + 4] = 1; // f2 c0 (1,1)
    w[36 + 9 + 4] = 1; // f2 c1 (1,1)
    const [y] = run('spat.conv2d_plan', 'conv2d_plan', [[1, 2, 4, 4], iota(32)], [[3, 2, 3, 3], w]);
    expect(valuesOf(y)).toEqual([0, 1, 4, 5, 26, 27, 30, 31, 5 + 21, 6 + 22, 9 + 25, 10 + 26]);
  });

  it('spat.flatten_plan: logical order preserved, shape 1x24', () => {
    const [y] = run('spat.flatten_plan', 'flatten_plan', [[1, 2, 3, 4], iota(24)]);
    expect([shapeOfValue(y), valuesOf(y)]).toEqual([[1, 24], iota(24)]);
  });

  it('spat.global_average_pool_plan: means 5.5 and 17.5 of 0..11 and 12..23', () => {
    const [y] = run('spat.global_average_pool_plan', 'global_average_pool_plan', [[1, 2, 3, 4], iota(24)]);
    expect([shapeOfValue(y), valuesOf(y)]).toEqual([[1, 2, 1, 1], [5.5, 17.5]]);
  });

  it('spat.graph_compute (ReLU body): [-1,2,-3,4] -> [0,2,0,4]', () => {
    const [y] = run('spat.graph_compute', 'graph_compute', [[1, 4], [-1, 2, -3, 4]]);
    expect(valuesOf(y)).toEqual([0, 2, 0, 4]);
  });

  it('spat.materialize_layout: logical values are preserved', () => {
    const [y] = run('spat.materialize_layout', 'materialize_layout', [[1, 2, 3, 4], iota(24)]);
    expect(valuesOf(y)).toEqual(iota(24));
  });

  it('spat.max_pool2d_plan: 2x2 windows, stride 2', () => {
    const [y] = run('spat.max_pool2d_plan', 'max_pool2d_plan', [[1, 2, 4, 4], iota(32)]);
    expect(valuesOf(y)).toEqual([5, 7, 13, 15, 21, 23, 29, 31]);
  });

  it('spat.relu and spat.relu_plan: max(x, 0)', () => {
    expect(valuesOf(run('spat.relu', 'relu', [[1, 4], [-2, -0.5, 0, 3]])[0])).toEqual([0, 0, 0, 3]);
    const x = iota(24, 1, -12);
    expect(valuesOf(run('spat.relu_plan', 'relu_plan', [[1, 2, 3, 4], x])[0])).toEqual(x.map((v) => Math.max(v, 0)));
  });

  it('spat.resize_nearest_plan: each 2x2 plane expands to 4x4 (asymmetric, floor)', () => {
    const [y] = run('spat.resize_nearest_plan', 'resize_nearest_plan', [[1, 2, 2, 2], [1, 2, 3, 4, 5, 6, 7, 8]]);
    expect(valuesOf(y)).toEqual([1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4, 5, 5, 6, 6, 5, 5, 6, 6, 7, 7, 8, 8, 7, 7, 8, 8]);
  });

  it('spat.sigmoid: sigmoid(0) = 0.5, sigmoid(ln 3) = 0.75, sigmoid(-ln 3) = 0.25', () => {
    const [y] = run('spat.sigmoid', 'sigmoid', [[1, 4], [0, Math.log(3), -Math.log(3), 0]]);
    valuesOf(y).forEach((v, i) => expect(v).toBeCloseTo([0.5, 0.75, 0.25, 0.5][i]!, 6));
  });

  it('spat.silu_plan: x * sigmoid(x)', () => {
    const x = new Array(24).fill(0);
    x[1] = Math.log(3);
    x[2] = -Math.log(3);
    const y = valuesOf(run('spat.silu_plan', 'silu_plan', [[1, 2, 3, 4], x])[0]);
    expect(y[0]).toBe(0);
    expect(y[1]).toBeCloseTo(0.75 * Math.log(3), 6);
    expect(y[2]).toBeCloseTo(-0.25 * Math.log(3), 6);
  });

  it('spat.softmax: softmax(ln 1, ln 2, ln 3, ln 4) = [0.1, 0.2, 0.3, 0.4] over the whole slice', () => {
    const y = valuesOf(run('spat.softmax', 'softmax', [[1, 4], [1, 2, 3, 4].map(Math.log)])[0]);
    y.forEach((v, i) => expect(v).toBeCloseTo((i + 1) / 10, 6));
  });

  it('spat.vavg: (1+2+3+4)/4 = 2.5 in a 1x1 tensor', () => {
    const [y] = run('spat.vavg', 'vavg', [[1, 4], [1, 2, 3, 4]]);
    expect([shapeOfValue(y), valuesOf(y)]).toEqual([[1, 1], [2.5]]);
  });

  it('spat.vmax, spat.vmul, spat.vsub element by element', () => {
    const a: Parameters<typeof f32> = [[1, 4], [1, -2, 3, -4]];
    const b: Parameters<typeof f32> = [[1, 4], [0, 5, -1, 2]];
    expect(valuesOf(run('spat.vmax', 'vmax', a, b)[0])).toEqual([1, 5, 3, 2]);
    expect(valuesOf(run('spat.vmul', 'vmul', a, b)[0])).toEqual([0, -10, -3, -8]);
    expect(valuesOf(run('spat.vsub', 'vsub', a, b)[0])).toEqual([1, -7, 4, -6]);
  });

  it('spat.vvdmul: [1,2,3,4] . [5,6,7,8] = 70', () => {
    const [y] = run('spat.vvdmul', 'vvdmul', [[1, 4], [1, 2, 3, 4]], [[1, 4], [5, 6, 7, 8]]);
    expect([shapeOfValue(y), valuesOf(y)]).toEqual([[1, 1], [70]]);
  });

  it('spat.wvmm: [1,0,0,1] x W(4x3 iota) = row 0 + row 3 = [9, 11, 13]', () => {
    const [y] = run('spat.wvmm', 'wvmm', [[4, 3], iota(12)], [[1, 4], [1, 0, 0, 1]]);
    expect(valuesOf(y)).toEqual([9, 11, 13]);
  });
});

describe('graph batch lanes are independent', () => {
  it('any lane order gives the same fragments (fast-check over permutations)', () => {
    const text = cases.get('spat.graph_compute_batch')!.replace(/0 to 2/, '0 to 4').replace(/tensor<1x8xf32>/g, 'tensor<1x16xf32>').replace(/tensor<2x1x4xf32>/g, 'tensor<4x1x4xf32>');
    const x = f32([1, 16], iota(16, 1, -8));
    const expected = iota(16, 1, -8).map((v) => Math.max(v, 0));
    fc.assert(
      fc.property(fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }), (perm) => {
        const interp = new Interpreter(rules());
        setGraphBatchLaneOrder(interp, () => perm);
        const r = interp.runFunction(parseVerified(text), 'graph_compute_batch', [x]);
        expect(valuesOf(ok(r)[0])).toEqual(expected);
      }),
      { numRuns: 24, seed: 7 },
    );
  });
});
