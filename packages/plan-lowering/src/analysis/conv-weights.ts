/**
 * The unfolded weight matrix of a convolution: a `K x N` row-major matrix with
 * `K = kh * kw * Cin/groups` rows (one per element of a group's input patch) and `N = Cout`
 * columns (one per filter), so that `patch (1 x K) * matrix = the pixel's output channels` for
 * the columns of the patch's group (hardware-defaults.md). The row order follows how a lane
 * gathers its patch: `channel-major` (c, i, j) for a window cut out of a dense NCHW input or its
 * padded planes, `row-channel` (i, c, j) for a window of padded NCHW rows (`[C, Wp]` per row),
 * `position-major` (i, j, c) for a window of NHWC row strips.
 */
import { ConstantOp, DenseElementsAttr, FloatType, RankedTensorType, type Value } from '@raptor-pim/ir-core';
import { tileWeightMatrix, type CrossbarWeightTile } from '@raptor-pim/spatial-dialect';

/** The row order of the unfolded matrix. */
export type PatchOrder = 'channel-major' | 'row-channel' | 'position-major';

/** The f32 elements of `v` when it is an `arith.constant` of dense f32 elements (splats expanded), else undefined. */
export function constantF32(v: Value): Float32Array | undefined {
  const def = v.definingOp;
  const c = def ? ConstantOp.match(def) : undefined;
  if (!c) return undefined;
  const attr = c.value;
  if (!(attr instanceof DenseElementsAttr) || !(attr.type instanceof RankedTensorType)) return undefined;
  const el = attr.type.elementType;
  if (!(el instanceof FloatType) || el.kind !== 'f32') return undefined;
  const data = attr.data as Float32Array;
  if (!attr.isSplat) return data;
  return new Float32Array(attr.numElements).fill(data[0]!);
}

/**
 * The `K x Cout` matrix of the weight `[Cout, Cin/groups, kh, kw]` (row-major data `weight`)
 * with rows in `order`.
 *
 * With `pack` (`pixels` horizontally adjacent output pixels, `stride` apart in the input, no
 * dilation), the matrix of a packed MVM (`analysis/pixel-packing.ts`): the patch spans
 * `kw' = (pixels - 1) * stride + kw` columns, so it has `K = kh * kw' * Cin/groups` rows (in
 * `order`, with `kw'` for `kw`) and `pixels * Cout` columns, column `q * Cout + n` holding filter
 * n shifted right by `q * stride` columns (zeros elsewhere): `patch * matrix` is the `pixels`
 * channel vectors side by side.
 *
 * @example unfoldConvWeights(w, [16, 3, 3, 3], 'position-major') // 27 x 16, row (i*3 + j)*3 + c
 * @example unfoldConvWeights(w, [16, 3, 3, 3], 'position-major', { pixels: 2, stride: 1 }) // 36 x 32
 */
export function unfoldConvWeights(
  weight: Float32Array,
  shape: readonly [number, number, number, number],
  order: PatchOrder,
  pack?: { readonly pixels: number; readonly stride: number },
): Float32Array {
  const [cout, cg, kh, kw] = shape;
  const k = cg * kh * kw;
  const pixels = pack?.pixels ?? 1;
  const stride = pack?.stride ?? 1;
  const kwp = (pixels - 1) * stride + kw;
  const rows = cg * kh * kwp;
  const columns = pixels * cout;
  const out = new Float32Array(rows * columns);
  // Matrix row of each element (c, i, j') of a widened patch, in the filter's own (c, i, j) order.
  const rowOf = new Int32Array(k);
  const BLOCK = 32;
  for (let q = 0; q < pixels; q++) {
    for (let c = 0; c < cg; c++) {
      for (let i = 0; i < kh; i++) {
        for (let j = 0; j < kw; j++) {
          const jp = q * stride + j;
          rowOf[(c * kh + i) * kw + j] = order === 'channel-major' ? (c * kh + i) * kwp + jp : order === 'row-channel' ? (i * cg + c) * kwp + jp : (i * kwp + jp) * cg + c;
        }
      }
    }
    // A blocked transpose (filters are rows of `weight`, columns of the matrix).
    const col0 = q * cout;
    for (let n0 = 0; n0 < cout; n0 += BLOCK) {
      const n1 = Math.min(cout, n0 + BLOCK);
      for (let e = 0; e < k; e++) {
        const dst = rowOf[e]! * columns + col0;
        for (let n = n0; n < n1; n++) out[dst + n] = weight[n * k + e]!;
      }
    }
  }
  return out;
}

/**
 * The filters `[Cout, Cin, kh, kw]` of a convolution of `groups` groups with filters `filters`
 * (`[Cout, Cin/groups, kh, kw]`, row-major): filter `o` of group `o / (Cout/groups)` keeps its
 * weights at its group's input channels and is zero at every other channel, so a one-group
 * convolution with them computes the grouped one.
 *
 * @example blockDiagonalFilters(w, [32, 1, 3, 3], 32) // [32, 32, 3, 3]: filter o only at channel o
 */
export function blockDiagonalFilters(filters: Float32Array, shape: readonly [number, number, number, number], groups: number): Float32Array {
  const [cout, cg, kh, kw] = shape;
  const taps = kh * kw;
  const cin = cg * groups;
  const perGroup = cout / groups;
  const out = new Float32Array(cout * cin * taps);
  for (let o = 0; o < cout; o++) {
    const first = Math.floor(o / perGroup) * cg;
    out.set(filters.subarray(o * cg * taps, (o + 1) * cg * taps), (o * cin + first) * taps);
  }
  return out;
}

/**
 * MVMs per output pixel of a convolution of `groups` groups (filters `[Cout, Cin/groups, kh,
 * kw]`) on `crossbar`-sized tiles: as groups (each group's patch times the crossbar tiles of its
 * columns) and as one group with the block-diagonal filters `blockDiagonal` (one MVM per crossbar
 * tile of the unfolded matrix, in `order`, that {@link keptTiles} binds).
 */
export function groupedConvMvms(
  blockDiagonal: Float32Array,
  shape: readonly [number, number, number, number],
  groups: number,
  order: PatchOrder,
  crossbar: { readonly rows: number; readonly columns: number },
): { readonly grouped: number; readonly blockDiagonal: number } {
  const [cout, cg, kh, kw] = shape;
  const perGroup = cout / groups;
  const rowTilesPerGroup = Math.ceil((cg * kh * kw) / crossbar.rows);
  let grouped = 0;
  for (let gi = 0; gi < groups; gi++) {
    const first = Math.floor((gi * perGroup) / crossbar.columns);
    const last = Math.floor(((gi + 1) * perGroup - 1) / crossbar.columns);
    grouped += rowTilesPerGroup * (last - first + 1);
  }
  const k = cg * groups * kh * kw;
  const tiling = tileWeightMatrix(unfoldConvWeights(blockDiagonal, [cout, cg * groups, kh, kw], order), k, cout, crossbar.rows, crossbar.columns);
  // A matrix the crossbars cannot tile never pays (the lowering reports the tiling).
  const diagonal = tiling.ok ? keptTiles(tiling.value.tiles).filter((x) => x).length : Infinity;
  return { grouped, blockDiagonal: diagonal };
}

/**
 * The crossbar tiles of a block-diagonal matrix that are bound as weights: those not all zero,
 * and the first row tile of a column tile whose tiles are all zero (its MVM gives the zeros).
 */
export function keptTiles(tiles: readonly CrossbarWeightTile[]): boolean[] {
  const nonzero = tiles.map((t) => t.data.some((x) => x !== 0));
  const columnUsed = new Set<number>();
  tiles.forEach((t, i) => nonzero[i] && columnUsed.add(t.colTile));
  return tiles.map((t, i) => nonzero[i]! || (t.rowTile === 0 && !columnUsed.has(t.colTile)));
}

/** True when the block-diagonal form of a grouped convolution takes fewer MVMs per pixel (see {@link groupedConvMvms}). */
export function blockDiagonalPays(
  blockDiagonal: Float32Array,
  shape: readonly [number, number, number, number],
  groups: number,
  order: PatchOrder,
  crossbar: { readonly rows: number; readonly columns: number },
): boolean {
  const m = groupedConvMvms(blockDiagonal, shape, groups, order, crossbar);
  return m.blockDiagonal < m.grouped;
}
