/**
 * The crossbar tiling of a constant weight matrix, shared by every lowering that maps weights
 * onto crossbars (the importer's Gemm/MatMul, plan-lowering's Conv2D): a row-major `K x N`
 * matrix (input rows x output columns) cut into tiles of at most `R x C` (the crossbar rows and
 * columns of the target). Tile `(i, j)` holds rows `[i*R, min((i+1)*R, K))` and columns
 * `[j*C, min((j+1)*C, N))`; the tile count is `X = ceil(K/R) * ceil(N/C)`
 * (hardware-defaults.md).
 */
import { KernelMessages } from '../../diagnostics';
import { kernelFail, kernelOk, type KernelResult } from './tensor';

/** One crossbar-sized tile of a weight matrix, with its data. */
export interface CrossbarWeightTile {
  /** Row-tile index i (`rowOffset = i * R`). */
  readonly rowTile: number;
  /** Column-tile index j (`colOffset = j * C`). */
  readonly colTile: number;
  /** First matrix row of the tile. */
  readonly rowOffset: number;
  /** Rows of the tile (R, or fewer for the last row tile). */
  readonly rows: number;
  /** First matrix column of the tile. */
  readonly colOffset: number;
  /** Columns of the tile (C, or fewer for the last column tile). */
  readonly cols: number;
  /** The tile, row-major `rows x cols`. */
  readonly data: Float32Array;
}

/** The tiles of one weight matrix (see {@link tileWeightMatrix}). */
export interface CrossbarTiling {
  /** Matrix rows K. */
  readonly k: number;
  /** Matrix columns N. */
  readonly n: number;
  /** Row tiles `ceil(K / R)`. */
  readonly rowTiles: number;
  /** Column tiles `ceil(N / C)`. */
  readonly colTiles: number;
  /** The tiles, row-tile-major: tile `(i, j)` is `tiles[i * colTiles + j]`. */
  readonly tiles: readonly CrossbarWeightTile[];
}

/**
 * The crossbar count of a `K x N` weight matrix on `R x C` crossbars:
 * `X = ceil(K / R) * ceil(N / C)`.
 *
 * @example crossbarTileCount(576, 64, 128, 128) // 5
 */
export function crossbarTileCount(k: number, n: number, crossbarRows: number, crossbarColumns: number): number {
  return Math.ceil(k / crossbarRows) * Math.ceil(n / crossbarColumns);
}

/**
 * Cuts the row-major `k x n` matrix `matrix` into crossbar tiles of at most
 * `crossbarRows x crossbarColumns` (row-tile-major order, see {@link CrossbarTiling}). The last
 * tile of each axis is smaller when the size is not a multiple of the crossbar (a crossbar
 * pads it with zeros, which does not change results). Fails for non-positive or non-integer
 * sizes, or when `matrix` does not hold `k * n` elements.
 *
 * @example
 * const t = tileWeightMatrix(w, 300, 64, 128, 128); // ok: rowTiles 3, colTiles 1, tiles[2].rows 44
 */
export function tileWeightMatrix(matrix: Float32Array, k: number, n: number, crossbarRows: number, crossbarColumns: number): KernelResult<CrossbarTiling> {
  const kernel = 'tileWeightMatrix';
  const isPos = (v: number): boolean => Number.isSafeInteger(v) && v >= 1;
  if (!isPos(crossbarRows) || !isPos(crossbarColumns)) return kernelFail(KernelMessages.tileSize(kernel, crossbarRows, crossbarColumns));
  if (!isPos(k) || !isPos(n)) return kernelFail(KernelMessages.shapeMismatch(kernel, 'weight', [k, n], [Math.max(1, k), Math.max(1, n)], 'K, N > 0'));
  if (matrix.length !== k * n) return kernelFail(KernelMessages.shapeMismatch(kernel, 'weight', [matrix.length], [k * n], 'K * N elements'));
  const rowTiles = Math.ceil(k / crossbarRows);
  const colTiles = Math.ceil(n / crossbarColumns);
  const tiles: CrossbarWeightTile[] = [];
  for (let i = 0; i < rowTiles; i++) {
    const rowOffset = i * crossbarRows;
    const rows = Math.min(crossbarRows, k - rowOffset);
    for (let j = 0; j < colTiles; j++) {
      const colOffset = j * crossbarColumns;
      const cols = Math.min(crossbarColumns, n - colOffset);
      const data = new Float32Array(rows * cols);
      for (let r = 0; r < rows; r++) {
        const src = (rowOffset + r) * n + colOffset;
        data.set(matrix.subarray(src, src + cols), r * cols);
      }
      tiles.push({ rowTile: i, colTile: j, rowOffset, rows, colOffset, cols, data });
    }
  }
  return kernelOk({ k, n, rowTiles, colTiles, tiles });
}
