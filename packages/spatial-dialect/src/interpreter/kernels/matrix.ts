import { broadcastShapes } from './elementwise';
import { KernelMessages } from '../../diagnostics';
import { kernelFail, kernelOk, shapeSize, validateTensor } from './tensor';
import type { F32Tensor, KernelResult } from './tensor';

/**
 * `out[outOff + i*n + j] = sum_k a[i, k] * b[bOff + k*n + j]` for an `m x kk` left operand read
 * through strides (`aRow`, `aCol`) and a row-major `kk x n` right operand. Products are exact in
 * f64 and accumulated in f64 per output row, rounded to f32 once when stored.
 */
function matmulInto(
  a: Float32Array,
  aOff: number,
  aRow: number,
  aCol: number,
  b: Float32Array,
  bOff: number,
  m: number,
  kk: number,
  n: number,
  out: Float32Array,
  outOff: number,
  acc: Float64Array,
): void {
  for (let i = 0; i < m; i++) {
    acc.fill(0);
    const aBase = aOff + i * aRow;
    for (let k = 0; k < kk; k++) {
      const av = a[aBase + k * aCol]!;
      const bBase = bOff + k * n;
      for (let j = 0; j < n; j++) acc[j] += av * b[bBase + j]!;
    }
    out.set(acc, outOff + i * n);
  }
}

/** Attributes of {@link gemm}, as ONNX `Gemm` names them. */
export interface GemmAttributes {
  /** Scale of `A * B` (default 1). */
  readonly alpha?: number;
  /** Scale of `C` (default 1). */
  readonly beta?: number;
  /** Read A as `[K, M]` and use its transpose (default false). */
  readonly transA?: boolean;
  /** Read B as `[N, K]` and use its transpose (default false). */
  readonly transB?: boolean;
}

/**
 * General matrix multiply (ONNX `Gemm`): `Y = alpha * A' * B' + beta * C` with `A'` `[M, K]`,
 * `B'` `[K, N]` (after the optional transposes) and `C` optional, unidirectionally broadcastable
 * to `[M, N]` (`[]`, `[N]`, `[1, N]`, `[M, 1]`, `[M, N]`, ...). Row-major; dot products and the
 * final `alpha * acc + beta * c` are computed in f64 and rounded once.
 *
 * Fails when A or B is not rank 2, the inner dimensions differ, or C does not broadcast.
 *
 * @example gemm(createTensor([1, 2], [1, 2]), createTensor([2, 1], [3, 4])) // -> [1, 1]: [11]
 */
export function gemm(a: F32Tensor, b: F32Tensor, c?: F32Tensor, attributes: GemmAttributes = {}): KernelResult<F32Tensor> {
  const kernel = 'gemm';
  const problem =
    validateTensor(kernel, 'A', a, 2) ?? validateTensor(kernel, 'B', b, 2) ?? (c === undefined ? undefined : validateTensor(kernel, 'C', c));
  if (problem !== undefined) return kernelFail(problem);
  const transA = attributes.transA ?? false;
  const transB = attributes.transB ?? false;
  const alpha = attributes.alpha ?? 1;
  const beta = attributes.beta ?? 1;
  const m = transA ? a.shape[1]! : a.shape[0]!;
  const k = transA ? a.shape[0]! : a.shape[1]!;
  const kb = transB ? b.shape[1]! : b.shape[0]!;
  const n = transB ? b.shape[0]! : b.shape[1]!;
  if (k !== kb) return kernelFail(KernelMessages.dimensionMismatch(kernel, `the inner dimension of B'${transB ? ' (B transposed)' : ''}`, kb, k));
  if (c !== undefined) {
    const bc = broadcastShapes(c.shape, [m, n]);
    if (c.shape.length > 2 || bc === undefined || bc[0] !== m || bc[1] !== n) {
      return kernelFail(KernelMessages.shapeMismatch(kernel, 'C', c.shape, [m, n], 'C must broadcast unidirectionally to [M, N]'));
    }
  }
  // B' as a row-major [K, N] matrix.
  let bData = b.data;
  if (transB) {
    bData = new Float32Array(k * n);
    for (let r = 0; r < n; r++) for (let q = 0; q < k; q++) bData[q * n + r] = b.data[r * k + q]!;
  }
  const out = new Float32Array(m * n);
  const acc = new Float64Array(n);
  const fa = Math.fround(alpha);
  const fb = Math.fround(beta);
  const cRank = c === undefined ? 0 : c.shape.length;
  const cRowStride = c !== undefined && cRank === 2 && c.shape[0] !== 1 ? c.shape[1]! : 0;
  const cColStride = c !== undefined && cRank >= 1 && c.shape[cRank - 1] !== 1 ? 1 : 0;
  for (let i = 0; i < m; i++) {
    acc.fill(0);
    for (let q = 0; q < k; q++) {
      const av = transA ? a.data[q * m + i]! : a.data[i * k + q]!;
      const bBase = q * n;
      for (let j = 0; j < n; j++) acc[j] += av * bData[bBase + j]!;
    }
    for (let j = 0; j < n; j++) {
      const cv = c === undefined ? 0 : c.data[i * cRowStride + j * cColStride]!;
      out[i * n + j] = fa * acc[j]! + (c === undefined ? 0 : fb * cv);
    }
  }
  return kernelOk({ shape: [m, n], data: out });
}

/**
 * Matrix product with numpy semantics (ONNX `MatMul`): rank >= 2 operands multiply their last two
 * axes and broadcast the leading (batch) axes; a rank-1 left operand is a row `[1, K]` and a rank-1
 * right operand a column `[K, 1]`, and the promoted axis is removed from the result.
 * f64 accumulation, one rounding per output.
 *
 * @example matmul(createTensor([2], [1, 2]), createTensor([2, 2], [1, 0, 0, 1])) // -> [2]: [1, 2]
 */
export function matmul(a: F32Tensor, b: F32Tensor): KernelResult<F32Tensor> {
  const kernel = 'matmul';
  const problem = validateTensor(kernel, 'A', a) ?? validateTensor(kernel, 'B', b);
  if (problem !== undefined) return kernelFail(problem);
  if (a.shape.length === 0) return kernelFail(KernelMessages.rankMismatch(kernel, 'A', a.shape, '>= 1'));
  if (b.shape.length === 0) return kernelFail(KernelMessages.rankMismatch(kernel, 'B', b.shape, '>= 1'));
  const aShape = a.shape.length === 1 ? [1, a.shape[0]!] : a.shape;
  const bShape = b.shape.length === 1 ? [b.shape[0]!, 1] : b.shape;
  const m = aShape[aShape.length - 2]!;
  const k = aShape[aShape.length - 1]!;
  const kb = bShape[bShape.length - 2]!;
  const n = bShape[bShape.length - 1]!;
  if (k !== kb) return kernelFail(KernelMessages.dimensionMismatch(kernel, `dimension -2 of B (shape [${b.shape.join(', ')}])`, kb, k));
  const aBatch = aShape.slice(0, -2);
  const bBatch = bShape.slice(0, -2);
  const batch = broadcastShapes(aBatch, bBatch);
  if (batch === undefined) return kernelFail(KernelMessages.notBroadcastable(kernel, a.shape, b.shape));
  const batchCount = shapeSize(batch);
  const out = new Float32Array(batchCount * m * n);
  const acc = new Float64Array(n);
  // Element offsets of each operand's matrix for every batch index (0 stride on broadcast axes).
  const rank = batch.length;
  const aStr = new Array<number>(rank).fill(0);
  const bStr = new Array<number>(rank).fill(0);
  let s = m * k;
  for (let i = aBatch.length - 1; i >= 0; i--) {
    aStr[i + rank - aBatch.length] = aBatch[i] === 1 ? 0 : s;
    s *= aBatch[i]!;
  }
  s = k * n;
  for (let i = bBatch.length - 1; i >= 0; i--) {
    bStr[i + rank - bBatch.length] = bBatch[i] === 1 ? 0 : s;
    s *= bBatch[i]!;
  }
  const counter = new Int32Array(rank);
  for (let t = 0; t < batchCount; t++) {
    let aOff = 0;
    let bOff = 0;
    for (let d = 0; d < rank; d++) {
      aOff += counter[d]! * aStr[d]!;
      bOff += counter[d]! * bStr[d]!;
    }
    matmulInto(a.data, aOff, k, 1, b.data, bOff, m, k, n, out, t * m * n, acc);
    for (let d = rank - 1; d >= 0; d--) {
      counter[d]++;
      if (counter[d]! < batch[d]!) break;
      counter[d] = 0;
    }
  }
  const outShape = batch.slice();
  if (a.shape.length > 1) outShape.push(m);
  if (b.shape.length > 1) outShape.push(n);
  return kernelOk({ shape: outShape, data: out });
}

/**
 * Row vector times constant weight matrix (`spat.wvmm`, `pim.vmm` on one resident matrix):
 * `y[0, j] = sum_i x[0, i] * W[i, j]` with `W` `[N, M]`, `x` `[1, N]`, `y` `[1, M]` - the
 * crossbar orientation: the input row drives the N word lines, each of the M bit lines sums one
 * output column. Fails unless `N, M > 0` and `x` is exactly `[1, N]`.
 *
 * @example wvmm(createTensor([2, 2], [1, 2, 3, 4]), createTensor([1, 2], [1, 1])) // -> [1, 2]: [4, 6]
 */
export function wvmm(weight: F32Tensor, input: F32Tensor): KernelResult<F32Tensor> {
  const kernel = 'wvmm';
  const problem = validateTensor(kernel, 'weight', weight, 2) ?? validateTensor(kernel, 'input', input, 2);
  if (problem !== undefined) return kernelFail(problem);
  const [rows, cols] = weight.shape as [number, number];
  if (rows < 1 || cols < 1) return kernelFail(KernelMessages.shapeMismatch(kernel, 'weight', weight.shape, [Math.max(rows, 1), Math.max(cols, 1)], 'N, M > 0'));
  if (input.shape[0] !== 1 || input.shape[1] !== rows) {
    return kernelFail(KernelMessages.shapeMismatch(kernel, 'input', input.shape, [1, rows], 'a row vector with one entry per weight row'));
  }
  const out = new Float32Array(cols);
  matmulInto(input.data, 0, rows, 1, weight.data, 0, 1, rows, cols, out, 0, new Float64Array(cols));
  return kernelOk({ shape: [1, cols], data: out });
}

/**
 * Dot product of two runtime vectors (`spat.vvdmul`, `pim.vvdmul`):
 * `y[0, 0] = sum_i lhs[i] * rhs[i]` over all elements. `spat.vvdmul` uses `[1, N]` rows; any
 * two nonempty operands of identical shape are accepted. Output `[1, 1]`; f64 accumulation.
 *
 * @example vvdmul(createTensor([1, 3], [1, 2, 3]), createTensor([1, 3], [4, 5, 6])) // -> [[32]]
 */
export function vvdmul(lhs: F32Tensor, rhs: F32Tensor): KernelResult<F32Tensor> {
  const kernel = 'vvdmul';
  const problem = validateTensor(kernel, 'lhs', lhs) ?? validateTensor(kernel, 'rhs', rhs);
  if (problem !== undefined) return kernelFail(problem);
  const same = lhs.shape.length === rhs.shape.length && lhs.shape.every((d, i) => d === rhs.shape[i]);
  if (!same) return kernelFail(KernelMessages.shapeMismatch(kernel, 'rhs', rhs.shape, lhs.shape, 'same as lhs'));
  if (lhs.data.length === 0) return kernelFail(KernelMessages.emptyReduction(kernel, lhs.shape));
  let sum = 0;
  for (let i = 0; i < lhs.data.length; i++) sum += lhs.data[i]! * rhs.data[i]!;
  return kernelOk({ shape: [1, 1], data: Float32Array.of(sum) });
}

/** One crossbar tile of a weight matrix: rows `[rowOffset, rowOffset + rows)`, columns likewise. */
export interface CrossbarTile {
  readonly rowOffset: number;
  readonly rows: number;
  readonly colOffset: number;
  readonly cols: number;
}

/**
 * Splits an `N x M` weight matrix into crossbar tiles of at most `tileRows x tileCols`, in
 * column-tile-major order (all row tiles of column tile 0 first). The last tile of each axis
 * may be smaller (a crossbar pads it with zeros, which does not change results).
 * Returns a failure for non-positive or non-integer sizes.
 *
 * @example crossbarTiles(5, 3, 4, 2) // -> 4 tiles: rows 0-3 and 4, columns 0-1 and 2
 */
export function crossbarTiles(n: number, m: number, tileRows: number, tileCols: number): KernelResult<CrossbarTile[]> {
  const kernel = 'crossbarTiles';
  const isPos = (v: number): boolean => Number.isSafeInteger(v) && v >= 1;
  if (!isPos(tileRows) || !isPos(tileCols)) return kernelFail(KernelMessages.tileSize(kernel, tileRows, tileCols));
  if (!isPos(n) || !isPos(m)) return kernelFail(KernelMessages.shapeMismatch(kernel, 'weight', [n, m], [Math.max(1, n), Math.max(1, m)], 'N, M > 0'));
  const tiles: CrossbarTile[] = [];
  for (let c = 0; c < m; c += tileCols) {
    for (let r = 0; r < n; r += tileRows) {
      tiles.push({ rowOffset: r, rows: Math.min(tileRows, n - r), colOffset: c, cols: Math.min(tileCols, m - c) });
    }
  }
  return kernelOk(tiles);
}

/** Options of {@link tiledMatmul}: the crossbar tile size. */
export interface TiledMatmulOptions {
  /** Crossbar rows (input-vector slice length per tile), >= 1. */
  readonly tileRows: number;
  /** Crossbar columns (output slice length per tile), >= 1. */
  readonly tileCols: number;
}

/**
 * `X * W` computed the way the plan lowering maps it onto crossbars: `W` `[N, M]` is cut into
 * {@link crossbarTiles}; every row of `X` `[R, N]` is multiplied by each tile with {@link wvmm}
 * semantics (one f32 rounding per tile output), and the partial sums of the row tiles of a
 * column tile are added left to right in f32 (as a chain of `spat.vadd`). Equal to
 * {@link matmul} up to the extra per-tile roundings.
 *
 * @example tiledMatmul(x, w, { tileRows: 128, tileCols: 128 })
 */
export function tiledMatmul(input: F32Tensor, weight: F32Tensor, options: TiledMatmulOptions): KernelResult<F32Tensor> {
  const kernel = 'tiledMatmul';
  const problem = validateTensor(kernel, 'input', input, 2) ?? validateTensor(kernel, 'weight', weight, 2);
  if (problem !== undefined) return kernelFail(problem);
  const [rowsX, n] = input.shape as [number, number];
  const [nw, m] = weight.shape as [number, number];
  if (n !== nw) return kernelFail(KernelMessages.shapeMismatch(kernel, 'input', input.shape, [rowsX, nw], 'one column per weight row'));
  const tilesResult = crossbarTiles(nw, m, options.tileRows, options.tileCols);
  if (!tilesResult.ok) return kernelFail(tilesResult.message.replace('crossbarTiles', kernel));
  const tiles = tilesResult.value;
  const out = new Float32Array(rowsX * m);
  const partial = new Float32Array(options.tileCols);
  const acc = new Float64Array(options.tileCols);
  const x = input.data;
  const w = weight.data;
  for (let r = 0; r < rowsX; r++) {
    const xBase = r * n;
    const outBase = r * m;
    for (const tile of tiles) {
      // One crossbar activation: f64 dot products over the tile's rows, rounded to f32.
      acc.fill(0);
      for (let i = 0; i < tile.rows; i++) {
        const xv = x[xBase + tile.rowOffset + i]!;
        const wBase = (tile.rowOffset + i) * m + tile.colOffset;
        for (let j = 0; j < tile.cols; j++) acc[j] += xv * w[wBase + j]!;
      }
      for (let j = 0; j < tile.cols; j++) partial[j] = acc[j]!;
      const o = outBase + tile.colOffset;
      if (tile.rowOffset === 0) for (let j = 0; j < tile.cols; j++) out[o + j] = partial[j]!;
      else for (let j = 0; j < tile.cols; j++) out[o + j] = out[o + j]! + partial[j]!;
    }
  }
  return kernelOk({ shape: [rowsX, m], data: out });
}
