import fc from 'fast-check';
import { kernels } from '../../src';
import { failureOf, SEED } from './support/unwrap';

const t = kernels.createTensor;

describe('kernels report bad arguments as failure values', () => {
  it('conv2d names the inconsistency', () => {
    const x = t([1, 4, 5, 5]);
    expect(failureOf(kernels.conv2d(t([1, 4, 5]), t([2, 4, 3, 3])))).toBe('conv2d: input has shape [1, 4, 5] (rank 3), expected rank 4');
    expect(failureOf(kernels.conv2d(x, t([2, 4, 3, 3]), undefined, { group: 3 }))).toBe('conv2d: input has 4 channels, not divisible by group 3');
    expect(failureOf(kernels.conv2d(x, t([2, 4, 3, 3]), undefined, { group: 2 }))).toBe(
      'conv2d: weight has shape [2, 4, 3, 3], expected dimension 1 = input channels / group = 4 / 2',
    );
    expect(failureOf(kernels.conv2d(x, t([2, 4, 3, 3]), t([3])))).toBe('conv2d: bias has shape [3], expected [2] (one value per output channel)');
    expect(failureOf(kernels.conv2d(x, t([2, 4, 3, 3]), undefined, { pads: [0, 0] }))).toBe('conv2d: pads is [0, 0] with 2 entries, expected 4');
    expect(failureOf(kernels.conv2d(x, t([2, 4, 3, 3]), undefined, { strides: [0, 1] }))).toBe('conv2d: strides is [0, 1], expected integers >= 1');
    expect(failureOf(kernels.conv2d(x, t([2, 4, 7, 7])))).toBe(
      'conv2d: the attributes give output shape [1, 2, -1, -1], expected every spatial dimension >= 1',
    );
    expect(failureOf(kernels.conv2d({ shape: [1, 1, 2, 2], data: new Float32Array(3) }, t([1, 1, 1, 1])))).toBe(
      'conv2d: input has 3 elements of data, expected 4 for shape [1, 1, 2, 2]',
    );
  });

  it('pooling rejects pads not smaller than the kernel and bad windows', () => {
    const x = t([1, 1, 4, 4]);
    expect(failureOf(kernels.maxPool2d(x, { kernelShape: [2, 2], pads: [2, 0, 0, 0] }))).toBe(
      'maxPool2d: pads [2, 0, 0, 0] must each be smaller than the kernel extent [2, 2]',
    );
    expect(failureOf(kernels.averagePool2d(x, { kernelShape: [5, 1] }))).toBe(
      'averagePool2d: the attributes give output shape [1, 1, 0, 4], expected every spatial dimension >= 1',
    );
    expect(failureOf(kernels.globalAveragePool(t([1, 2])))).toBe('globalAveragePool: input has shape [1, 2] (rank 2), expected rank >= 3 (N, C, spatial...)');
  });

  it('resize, data movement and element-wise kernels explain their failures', () => {
    const x = t([1, 1, 2, 2]);
    expect(failureOf(kernels.resizeNearest(x, { scales: [1, 1, 2, 2], sizes: [1, 1, 4, 4] }))).toBe('resizeNearest: give exactly one of scales or sizes');
    expect(failureOf(kernels.resizeNearest(x, { scales: [1, 1, 0, 2] }))).toBe('resizeNearest: scales [1, 1, 0, 2], expected finite positive numbers');
    expect(failureOf(kernels.concat([t([1, 2]), t([2, 2])], 1))).toBe(
      'concat: input #1 has shape [2, 2], expected [1, 2] (non-axis dimensions equal input #0)',
    );
    expect(failureOf(kernels.concat([t([1, 2])], 2))).toBe('concat: axis 2 is out of range, expected an integer in [-2, 1]');
    expect(failureOf(kernels.concat([], 0))).toBe('concat: expected at least one input');
    expect(failureOf(kernels.transpose(t([2, 3]), [0, 0]))).toBe('transpose: permutation [0, 0] is not a permutation of 0..1');
    expect(failureOf(kernels.split(t([1, 4]), 1, [1, 2]))).toBe('split: split sizes [1, 2] sum to 3, expected the axis size 4');
    expect(failureOf(kernels.extractSlice(t([1, 8]), [0, 6], [1, 4]))).toBe(
      'extractSlice: slice on axis 1 (offset 6, size 4, stride 1) reads outside dimension 8',
    );
    expect(failureOf(kernels.depthToSpace(t([1, 6, 1, 1]), 2))).toBe(
      'depthToSpace: block size 2, expected a positive integer whose square divides the channel count 6',
    );
    expect(failureOf(kernels.add(t([2, 3]), t([2])))).toBe('add: shapes [2, 3] and [2] are not broadcast-compatible (numpy rules)');
    expect(failureOf(kernels.biasAdd(t([1, 2, 1, 1]), t([2, 1])))).toBe('biasAdd: bias has shape [2, 1], expected [] (scalar), [2], [1, 2] or [1, 2, 1, 1]');
    expect(failureOf(kernels.reduce('max', t([2, 2]), [0, -2]))).toBe('reduce_max: axes [0, -2] repeat an axis, expected distinct axes');
    expect(failureOf(kernels.reduce('max', t([0, 2]), [0]))).toBe(
      'reduce_max: input shape [0, 2] has no elements to reduce, expected a nonempty reduction domain',
    );
  });

  it('matrix kernels check the contraction and crossbar geometry', () => {
    expect(failureOf(kernels.gemm(t([2, 3]), t([2, 3])))).toBe("gemm: the inner dimension of B' is 2, expected 3");
    expect(failureOf(kernels.gemm(t([2, 3]), t([3, 4]), t([3, 4])))).toBe('gemm: C has shape [3, 4], expected [2, 4] (C must broadcast unidirectionally to [M, N])');
    expect(failureOf(kernels.matmul(t([2, 3]), t([2, 3])))).toBe('matmul: dimension -2 of B (shape [2, 3]) is 2, expected 3');
    expect(failureOf(kernels.wvmm(t([4, 3]), t([1, 3])))).toBe('wvmm: input has shape [1, 3], expected [1, 4] (a row vector with one entry per weight row)');
    expect(failureOf(kernels.wvmm(t([4, 3]), t([2, 4])))).toBe('wvmm: input has shape [2, 4], expected [1, 4] (a row vector with one entry per weight row)');
    expect(failureOf(kernels.vvdmul(t([1, 3]), t([1, 4])))).toBe('vvdmul: rhs has shape [1, 4], expected [1, 3] (same as lhs)');
    expect(failureOf(kernels.tiledMatmul(t([1, 3]), t([3, 2]), { tileRows: 0, tileCols: 2 }))).toBe('tiledMatmul: tile size 0x2, expected positive integers');
  });

  it('never throws on arbitrary shapes and attributes (property)', () => {
    const dims = fc.array(fc.integer({ min: -1, max: 4 }), { minLength: 0, maxLength: 5 });
    const ints = fc.array(fc.integer({ min: -2, max: 4 }), { minLength: 0, maxLength: 5 });
    const tensorArb = dims.chain((shape) => {
      const size = shape.every((d) => d >= 0) ? shape.reduce((a, b) => a * b, 1) : 0;
      return fc.constantFrom<kernels.F32Tensor>({ shape, data: new Float32Array(size) }, { shape, data: new Float32Array(size + 1) });
    });
    fc.assert(
      fc.property(tensorArb, tensorArb, ints, ints, ints, fc.integer({ min: -2, max: 4 }), (a, b, l1, l2, l3, k) => {
        const results: kernels.KernelResult<unknown>[] = [
          kernels.conv2d(a, b, undefined, { pads: l1, strides: l2, dilations: l3, group: k }),
          kernels.maxPool2d(a, { kernelShape: l1, pads: l2, strides: l3 }),
          kernels.averagePool2d(a, { kernelShape: l1, pads: l2, strides: l3, dilations: l1 }),
          kernels.globalAveragePool(a),
          kernels.resizeNearest(a, { sizes: l1 }),
          kernels.resizeNearest(a, { scales: l1 }),
          kernels.flatten(a, k),
          kernels.concat([a, b], k),
          kernels.split(a, k, l1),
          kernels.extractSlice(a, l1, l2, l3),
          kernels.insertSlice(a, b, l1, l2),
          kernels.transpose(a, l1),
          kernels.padConstant(a, l1),
          kernels.depthToSpace(a, k),
          kernels.add(a, b),
          kernels.biasAdd(a, b),
          kernels.relu(a),
          kernels.softmax(a, k),
          kernels.reduce('max', a, l1, k > 0),
          kernels.vavg(a),
          kernels.gemm(a, b),
          kernels.matmul(a, b),
          kernels.wvmm(a, b),
          kernels.vvdmul(a, b),
          kernels.tiledMatmul(a, b, { tileRows: k, tileCols: k }),
          kernels.crossbarTiles(k, k, k, k),
        ];
        for (const r of results) {
          expect(typeof r.ok).toBe('boolean');
          if (!r.ok) expect(r.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300, seed: SEED },
    );
  });
});
