import { kernels } from '../../src';
import { unwrap } from './support/unwrap';

const t = kernels.createTensor;
const data = (r: kernels.KernelResult<kernels.F32Tensor>): number[] => Array.from(unwrap(r).data);
const shape = (r: kernels.KernelResult<kernels.F32Tensor>): readonly number[] => unwrap(r).shape;
const iota = (n: number, from = 1): number[] => Array.from({ length: n }, (_, i) => i + from);

describe('conv2d (hand-checked)', () => {
  const x = t([1, 1, 3, 3], iota(9));
  const w = t([1, 1, 2, 2], [1, 0, 0, 1]);

  it('computes a valid 2x2 cross-correlation: y = x[r,c] + x[r+1,c+1]', () => {
    const y = kernels.conv2d(x, w);
    expect(shape(y)).toEqual([1, 1, 2, 2]);
    expect(data(y)).toEqual([6, 8, 12, 14]);
  });

  it('applies top/left padding, stride 2 and a bias', () => {
    // Windows start at rows/cols -1 and 1; only the w[1,1] tap sees data in the padded row/col.
    const y = kernels.conv2d(x, w, t([1], [0.5]), { pads: [1, 1, 0, 0], strides: [2, 2] });
    expect(shape(y)).toEqual([1, 1, 2, 2]);
    expect(data(y)).toEqual([1.5, 3.5, 7.5, 14.5]);
  });

  it('spaces kernel taps by the dilation: a dilated 2x2 kernel covers the 3x3 corners', () => {
    const y = kernels.conv2d(x, w, undefined, { dilations: [2, 2] });
    expect(shape(y)).toEqual([1, 1, 1, 1]);
    expect(data(y)).toEqual([1 + 9]);
  });

  it('keeps channel groups apart (depthwise) and mixes them with group 1', () => {
    const x2 = t([1, 2, 1, 1], [2, 3]);
    expect(data(kernels.conv2d(x2, t([2, 1, 1, 1], [10, 100]), undefined, { group: 2 }))).toEqual([20, 300]);
    expect(data(kernels.conv2d(x2, t([1, 2, 1, 1], [10, 100])))).toEqual([2 * 10 + 3 * 100]);
  });

  it('computes the reference example shape: [1,2,4,4] * [3,2,3,3] -> [1,3,2,2]', () => {
    expect(shape(kernels.conv2d(t([1, 2, 4, 4]), t([3, 2, 3, 3])))).toEqual([1, 3, 2, 2]);
    expect(kernels.windowOutputSize(4, 3, 0, 0, 1, 1)).toBe(2);
  });
});

describe('pooling (hand-checked)', () => {
  const x = t([1, 1, 4, 4], iota(16));

  it('max-pools 2x2 windows with stride 2', () => {
    expect(data(kernels.maxPool2d(x, { kernelShape: [2, 2], strides: [2, 2] }))).toEqual([6, 8, 14, 16]);
  });

  it('ignores padding in max pooling', () => {
    const y = kernels.maxPool2d(x, { kernelShape: [2, 2], strides: [2, 2], pads: [1, 1, 1, 1] });
    expect(shape(y)).toEqual([1, 1, 3, 3]);
    expect(data(y)).toEqual([1, 3, 4, 9, 11, 12, 13, 15, 16]);
  });

  it('averages with and without padded taps in the divisor', () => {
    const small = t([1, 1, 2, 2], [1, 2, 3, 4]);
    const attrs = { kernelShape: [2, 2], pads: [1, 1, 0, 0] };
    expect(data(kernels.averagePool2d(small, attrs))).toEqual([1, 1.5, 2, 2.5]);
    expect(data(kernels.averagePool2d(small, { ...attrs, countIncludePad: true }))).toEqual([0.25, 0.75, 1, 2.5]);
  });

  it('global pools reduce each plane to one value', () => {
    const x2 = t([1, 2, 2, 2], [1, 2, 3, 4, -1, -2, -3, -4]);
    expect(shape(kernels.globalAveragePool(x2))).toEqual([1, 2, 1, 1]);
    expect(data(kernels.globalAveragePool(x2))).toEqual([2.5, -2.5]);
    expect(data(kernels.globalMaxPool(x2))).toEqual([4, -1]);
  });
});

describe('resizeNearest (hand-checked)', () => {
  it('upsamples 2x with asymmetric floor: each source pixel is repeated', () => {
    const y = kernels.resizeNearest(t([1, 1, 1, 2], [1, 2]), { scales: [1, 1, 2, 2] });
    expect(shape(y)).toEqual([1, 1, 2, 4]);
    expect(data(y)).toEqual([1, 1, 2, 2, 1, 1, 2, 2]);
  });

  it('maps o -> o / 1.5 for sizes 2 -> 3 under each nearest mode', () => {
    const x = t([1, 1, 1, 2], [1, 2]);
    // Source coordinates 0, 0.667, 1.333.
    expect(data(kernels.resizeNearest(x, { sizes: [1, 1, 1, 3] }))).toEqual([1, 1, 2]);
    expect(data(kernels.resizeNearest(x, { sizes: [1, 1, 1, 3], nearestMode: 'round_prefer_floor' }))).toEqual([1, 2, 2]);
    expect(data(kernels.resizeNearest(x, { sizes: [1, 1, 1, 3], nearestMode: 'ceil' }))).toEqual([1, 2, 2]);
  });

  it('prefers floor or ceil on exact halves', () => {
    // Asymmetric 2 -> 4: source coordinates 0, 0.5, 1, 1.5.
    const x = t([1, 1, 1, 2], [1, 2]);
    expect(data(kernels.resizeNearest(x, { sizes: [1, 1, 1, 4], nearestMode: 'round_prefer_floor' }))).toEqual([1, 1, 2, 2]);
    expect(data(kernels.resizeNearest(x, { sizes: [1, 1, 1, 4], nearestMode: 'round_prefer_ceil' }))).toEqual([1, 2, 2, 2]);
  });

  it('downsamples 6 -> 2 by picking columns 0 and 3', () => {
    expect(data(kernels.resizeNearest(t([1, 1, 1, 6], iota(6, 0)), { sizes: [1, 1, 1, 2] }))).toEqual([0, 3]);
  });
});

describe('data movement (hand-checked)', () => {
  it('flattens around the axis', () => {
    const x = t([1, 2, 3, 4]);
    expect(shape(kernels.flatten(x, 1))).toEqual([1, 24]);
    expect(shape(kernels.flatten(x, 2))).toEqual([2, 12]);
    expect(shape(kernels.flatten(x, 0))).toEqual([1, 24]);
    expect(shape(kernels.flatten(x, 4))).toEqual([24, 1]);
    expect(shape(kernels.flatten(x, -1))).toEqual([6, 4]);
  });

  it('concatenates along columns and rows', () => {
    const a = t([1, 2], [1, 2]);
    const b = t([1, 2], [3, 4]);
    expect(shape(kernels.concat([a, b], 1))).toEqual([1, 4]);
    expect(data(kernels.concat([a, b], 1))).toEqual([1, 2, 3, 4]);
    expect(shape(kernels.concat([a, b], 0))).toEqual([2, 2]);
    const c = t([2, 1], [5, 6]);
    expect(data(kernels.concat([t([2, 2], [1, 2, 3, 4]), c], -1))).toEqual([1, 2, 5, 3, 4, 6]);
  });

  it('splits, extracts rows and slices', () => {
    const parts = unwrap(kernels.split(t([1, 4], [1, 2, 3, 4]), 1, [1, 3]));
    expect(parts.map((p) => Array.from(p.data))).toEqual([[1], [2, 3, 4]]);
    const rows = unwrap(kernels.extractRows(t([2, 2], [1, 2, 3, 4])));
    expect(rows.map((r) => [r.shape, Array.from(r.data)])).toEqual([
      [[1, 2], [1, 2]],
      [[1, 2], [3, 4]],
    ]);
    const x = t([1, 8], iota(8, 0));
    expect(data(kernels.extractSlice(x, [0, 4], [1, 4]))).toEqual([4, 5, 6, 7]);
    expect(data(kernels.extractSlice(x, [0, 1], [1, 3], [1, 2]))).toEqual([1, 3, 5]);
    expect(data(kernels.insertSlice(t([1, 2], [9, 9]), t([1, 4]), [0, 1]))).toEqual([0, 9, 9, 0]);
    expect(data(kernels.insertSlice(t([1, 2], [9, 9]), t([1, 4]), [0, 0], [1, 3]))).toEqual([9, 0, 0, 9]);
  });

  it('transposes and pads', () => {
    const y = kernels.transpose(t([2, 3], iota(6)), [1, 0]);
    expect(shape(y)).toEqual([3, 2]);
    expect(data(y)).toEqual([1, 4, 2, 5, 3, 6]);
    expect(data(kernels.transpose(t([2, 3], iota(6))))).toEqual([1, 4, 2, 5, 3, 6]);
    expect(data(kernels.padConstant(t([1, 2], [1, 2]), [0, 1, 0, 1]))).toEqual([0, 1, 2, 0]);
    expect(data(kernels.padConstant(t([1, 2], [1, 2]), [0, 1, 0, 1], 7))).toEqual([7, 1, 2, 7]);
    expect(data(kernels.padConstant(t([1, 2], [1, 2]), [0, -1, 0, 0]))).toEqual([2]);
  });

  it('depthToSpace distinguishes DCR from CRD', () => {
    const x = t([1, 8, 1, 1], iota(8, 0));
    expect(data(kernels.depthToSpace(x, 2, 'DCR'))).toEqual([0, 2, 4, 6, 1, 3, 5, 7]);
    expect(data(kernels.depthToSpace(x, 2, 'CRD'))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(shape(kernels.depthToSpace(x, 2))).toEqual([1, 2, 2, 2]);
  });
});

describe('element-wise (hand-checked)', () => {
  it('broadcasts binary operations numpy-style', () => {
    const y = kernels.add(t([2, 1], [1, 2]), t([3], [10, 20, 30]));
    expect(shape(y)).toEqual([2, 3]);
    expect(data(y)).toEqual([11, 21, 31, 12, 22, 32]);
    expect(data(kernels.sub(t([1, 2], [1, 2]), t([], [0.5])))).toEqual([0.5, 1.5]);
    expect(data(kernels.mul(t([2], [3, 4]), t([2], [5, 6])))).toEqual([15, 24]);
    expect(data(kernels.div(t([2], [1, -1]), t([], [0])))).toEqual([Infinity, -Infinity]);
    expect(data(kernels.maximum(t([3], [1, NaN, 5]), t([3], [2, 0, 4])))).toEqual([2, NaN, 5]);
    expect(data(kernels.minimum(t([2], [1, 5]), t([2], [2, 4])))).toEqual([1, 4]);
    expect(kernels.broadcastShapes([2, 1, 4], [3, 1])).toEqual([2, 3, 4]);
    expect(kernels.broadcastShapes([2], [3])).toBeUndefined();
  });

  it('rounds every binary result to f32', () => {
    // 1 + 2^-30 is not an f32: the result rounds back to 1.
    expect(data(kernels.add(t([1], [1]), t([1], [2 ** -30])))).toEqual([1]);
  });

  it('adds every allowed bias shape per channel', () => {
    const x = t([1, 2, 1, 2], [1, 2, 3, 4]);
    expect(data(kernels.biasAdd(x, t([2], [10, 20])))).toEqual([11, 12, 23, 24]);
    expect(data(kernels.biasAdd(x, t([1, 2], [10, 20])))).toEqual([11, 12, 23, 24]);
    expect(data(kernels.biasAdd(x, t([1, 2, 1, 1], [10, 20])))).toEqual([11, 12, 23, 24]);
    expect(data(kernels.biasAdd(x, t([], [1])))).toEqual([2, 3, 4, 5]);
  });

  it('computes the unary functions', () => {
    expect(data(kernels.relu(t([3], [-1, 0, 2])))).toEqual([0, 0, 2]);
    expect(data(kernels.leakyRelu(t([2], [-1, 2]), 0.5))).toEqual([-0.5, 2]);
    expect(data(kernels.sigmoid(t([3], [0, 1000, -1000])))).toEqual([0.5, 1, 0]);
    expect(data(kernels.tanh(t([1], [0])))).toEqual([0]);
    expect(data(kernels.hardSigmoid(t([3], [0, 5, -5])))).toEqual([0.5, 1, 0]);
    expect(data(kernels.clip(t([3], [-2, 0.5, 2]), -1, 1))).toEqual([-1, 0.5, 1]);
    expect(data(kernels.silu(t([3], [0, 100, -1000])))).toEqual([0, 100, -0]);
    expect(data(kernels.neg(t([2], [1, -2])))).toEqual([-1, 2]);
    expect(data(kernels.exp(t([1], [0])))).toEqual([1]);
    // silu(1) = 1 / (1 + e^-1) = 0.7310585786...
    expect(data(kernels.silu(t([1], [1])))[0]).toBeCloseTo(0.7310585786, 6);
  });
});

describe('softmax and reductions (hand-checked)', () => {
  it('normalizes exp along the axis', () => {
    const y = data(kernels.softmax(t([2], [0, Math.log(3)])));
    expect(y[0]).toBeCloseTo(0.25, 6);
    expect(y[1]).toBeCloseTo(0.75, 6);
    const z = data(kernels.softmax(t([2, 2], [0, 0, Math.log(3), Math.log(3)]), 0));
    expect(z.map((v) => Number(v.toFixed(6)))).toEqual([0.25, 0.25, 0.75, 0.75]);
  });

  it('stays finite for large inputs (max subtraction)', () => {
    expect(data(kernels.softmax(t([2], [1000, 1000])))).toEqual([0.5, 0.5]);
    expect(data(kernels.softmaxAll(t([2, 1], [-1000, -1000])))).toEqual([0.5, 0.5]);
  });

  it('reduces over axes with and without kept dimensions', () => {
    const x = t([2, 3], iota(6));
    const s = kernels.reduce('sum', x, [1]);
    expect(shape(s)).toEqual([2, 1]);
    expect(data(s)).toEqual([6, 15]);
    expect(data(kernels.reduce('max', x, [0], false))).toEqual([4, 5, 6]);
    expect(data(kernels.reduce('min', x, [-1], false))).toEqual([1, 4]);
    const m = kernels.reduce('mean', x);
    expect(shape(m)).toEqual([1, 1]);
    expect(data(m)).toEqual([3.5]);
    expect(data(kernels.vavg(t([1, 4], [1, 2, 3, 4])))).toEqual([2.5]);
    expect(shape(kernels.vavg(t([1, 4], [1, 2, 3, 4])))).toEqual([1, 1]);
  });
});

describe('matrix and crossbar kernels (hand-checked)', () => {
  it('gemm: 1*3 + 2*4 = 11, then alpha, beta and C', () => {
    const a = t([1, 2], [1, 2]);
    const b = t([2, 1], [3, 4]);
    expect(data(kernels.gemm(a, b))).toEqual([11]);
    expect(data(kernels.gemm(a, b, t([1], [2]), { alpha: 2, beta: 0.5 }))).toEqual([23]);
    expect(data(kernels.gemm(t([2, 1], [1, 2]), t([1, 2], [3, 4]), undefined, { transA: true, transB: true }))).toEqual([11]);
  });

  it('matmul promotes vectors and broadcasts batches', () => {
    const y = kernels.matmul(t([2], [1, 2]), t([2, 2], [1, 0, 0, 1]));
    expect(shape(y)).toEqual([2]);
    expect(data(y)).toEqual([1, 2]);
    const z = kernels.matmul(t([2, 1, 2], [1, 2, 3, 4]), t([2, 1], [1, 1]));
    expect(shape(z)).toEqual([2, 1, 1]);
    expect(data(z)).toEqual([3, 7]);
  });

  it('wvmm multiplies the row vector into the weight columns (y[j] = sum_i x[i] W[i][j])', () => {
    const w = t([2, 2], [1, 2, 3, 4]);
    expect(data(kernels.wvmm(w, t([1, 2], [1, 1])))).toEqual([4, 6]);
    expect(data(kernels.wvmm(w, t([1, 2], [1, 0])))).toEqual([1, 2]);
    expect(shape(kernels.wvmm(t([4, 3]), t([1, 4])))).toEqual([1, 3]);
  });

  it('vvdmul returns the dot product as [1, 1]', () => {
    const y = kernels.vvdmul(t([1, 3], [1, 2, 3]), t([1, 3], [4, 5, 6]));
    expect(shape(y)).toEqual([1, 1]);
    expect(data(y)).toEqual([32]);
  });

  it('tiles the weight into crossbars and accumulates partial sums', () => {
    const x = t([1, 3], [1, 2, 3]);
    const w = t([3, 2], [1, 2, 3, 4, 5, 6]);
    expect(data(kernels.tiledMatmul(x, w, { tileRows: 2, tileCols: 1 }))).toEqual([22, 28]);
    expect(unwrap(kernels.crossbarTiles(5, 3, 4, 2))).toEqual([
      { rowOffset: 0, rows: 4, colOffset: 0, cols: 2 },
      { rowOffset: 4, rows: 1, colOffset: 0, cols: 2 },
      { rowOffset: 0, rows: 4, colOffset: 2, cols: 1 },
      { rowOffset: 4, rows: 1, colOffset: 2, cols: 1 },
    ]);
  });

  it('rounds each crossbar partial sum to f32 before accumulating', () => {
    // Exact: 2^24 + 1 + 1 = 16777218. One-row tiles add in f32: 2^24 + 1 rounds to 2^24 (ties to even) twice.
    const x = t([1, 3], [1, 1, 1]);
    const w = t([3, 1], [2 ** 24, 1, 1]);
    expect(data(kernels.matmul(x, w))).toEqual([16777218]);
    expect(data(kernels.tiledMatmul(x, w, { tileRows: 1, tileCols: 1 }))).toEqual([16777216]);
    expect(data(kernels.tiledMatmul(x, w, { tileRows: 3, tileCols: 1 }))).toEqual([16777218]);
  });
});
