/**
 * Pixel packing (the shifted-and-duplicated kernel mapping of SDK / VW-SDK, Rhe et al.,
 * "VW-SDK: Efficient Convolutional Weight Mapping Using Variable Windows for Processing-In-Memory
 * Architectures", DATE 2022): a convolution whose filters leave crossbar columns free computes
 * `p` horizontally adjacent output pixels with one set of MVMs. The lane reads the union of their
 * patches (`kw' = (p - 1) * stride + kw` columns instead of `kw`) and the weight matrix holds the
 * filters `p` times, shifted by the stride (`unfoldConvWeights` with `pack`). Adjacent patches
 * overlap, so the packed patch has fewer rows than `p` patches, and the `p * Cout` columns fill
 * crossbars that `Cout` alone would leave partly empty: resnet18's 7x7 stem (K = 147, Cout = 64)
 * takes 2 MVMs for 2 pixels instead of 4 on the same 2 crossbars, and with column groups (one MVM
 * per row tile) 4 MVMs for 8 pixels on 16 crossbars, the packing the lowering picks.
 */

/** The geometry that decides the packing of a convolution. */
export interface PackingGeometry {
  /** Kernel height and width. */
  readonly kh: number;
  readonly kw: number;
  /** Input channels per group. */
  readonly cg: number;
  /** Output channels. */
  readonly cout: number;
  /** Horizontal stride. */
  readonly strideW: number;
  /** Output width (the pixels of a lane lie in one output row, so `p` divides it). */
  readonly outputW: number;
}

/** What one lane of `p` pixels costs: crossbar tiles of the matrix and MVMs per output pixel. */
export interface PackingCost {
  readonly pixels: number;
  /** Rows of the packed matrix (`K'`). */
  readonly rows: number;
  /** Bytes of the lane's patch and result (`(K' + p * Cout)` f32 elements). */
  readonly laneBytes: number;
  /** Crossbar tiles of the packed matrix. */
  readonly tiles: number;
  /** MVMs per output pixel (`tiles / pixels`, or row tiles / pixels with column groups). */
  readonly mvmsPerPixel: number;
}

/** The largest number of pixels one lane packs. */
export const MAX_PACKED_PIXELS = 16;

/** How much a packed matrix may grow over the unpacked one, in crossbar tiles. */
export const MAX_PACKED_TILE_GROWTH = 1.25;

/**
 * Crossbars a packed matrix may take whatever the growth (a quarter of the default core's 64):
 * small convolutions (resnet18's stem, 2 crossbars unpacked) pack further, the large ones stay
 * within {@link MAX_PACKED_TILE_GROWTH}.
 */
export const SMALL_PACKED_CROSSBARS = 16;

/**
 * The share of a core's local memory a packed lane's patch and result may take (where the
 * unpacked lane takes less): a lane must still fit the small cores the scheduler's memory
 * fallbacks serve (row windows, replicas that hold a few lanes).
 */
export const PACKED_LANE_MEMORY_SHARE = 1 / 16;

/**
 * The cost of packing `pixels` output pixels per lane on `rows x columns` crossbars. With
 * `groupCrossbars > 0`, a matrix of at most that many crossbars runs one MVM per row tile (its
 * column tiles one array group, as the lowering's column groups do).
 */
export function packingCost(g: PackingGeometry, pixels: number, crossbar: { readonly rows: number; readonly columns: number }, groupCrossbars = 0): PackingCost {
  const rows = g.cg * g.kh * ((pixels - 1) * g.strideW + g.kw);
  const rowTiles = Math.ceil(rows / crossbar.rows);
  const tiles = rowTiles * Math.ceil((pixels * g.cout) / crossbar.columns);
  const mvms = tiles <= groupCrossbars ? rowTiles : tiles;
  return { pixels, rows, laneBytes: (rows + pixels * g.cout) * 4, tiles, mvmsPerPixel: mvms / pixels };
}

/**
 * The pixels per lane of a convolution: among the divisors `p <= limit` of the output width, the
 * one with the fewest MVMs per output pixel whose matrix takes at most
 * {@link MAX_PACKED_TILE_GROWTH} times the unpacked tiles (rounded up), or at most
 * {@link SMALL_PACKED_CROSSBARS}, and whose lane takes at
 * most {@link PACKED_LANE_MEMORY_SHARE} of `localMemoryBytes` (or no more than the unpacked
 * lane); ties go to the smaller `p`, and 1 (no packing) unless some `p` strictly saves MVMs
 * (counted per row tile for matrices of at most `groupCrossbars` crossbars).
 *
 * @example pixelsPerLane({ kh: 7, kw: 7, cg: 3, cout: 64, strideW: 2, outputW: 112 }, { rows: 128, columns: 128 }, 65536) // 2
 */
export function pixelsPerLane(g: PackingGeometry, crossbar: { readonly rows: number; readonly columns: number }, localMemoryBytes: number, groupCrossbars = 0, limit = MAX_PACKED_PIXELS): number {
  const one = packingCost(g, 1, crossbar, groupCrossbars);
  const maxTiles = Math.max(Math.ceil(one.tiles * MAX_PACKED_TILE_GROWTH), SMALL_PACKED_CROSSBARS);
  const maxBytes = Math.max(one.laneBytes, localMemoryBytes * PACKED_LANE_MEMORY_SHARE);
  let best = one;
  for (let p = 2; p <= Math.min(limit, g.outputW); p++) {
    if (g.outputW % p !== 0) continue;
    const c = packingCost(g, p, crossbar, groupCrossbars);
    if (c.tiles <= maxTiles && c.laneBytes <= maxBytes && c.mvmsPerPixel < best.mvmsPerPixel) best = c;
  }
  return best.pixels;
}
