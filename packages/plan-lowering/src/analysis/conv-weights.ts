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
