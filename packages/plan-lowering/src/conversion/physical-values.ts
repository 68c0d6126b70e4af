/**
 * The physical form of a lowered activation and how lowered bodies read it.
 *
 * - `dense_nchw`: the logical `tensor<N x C x H x W>` itself (a blueprint or compute result).
 * - `nhwc_row_strip` (layout-planner README, "The NHWCRowStrip layout"): `N*H` strips of `W`
 *   channel vectors. The lowering holds it as a fragment collection in one of two shapes with
 *   the same row-major element order (strips, then pixels, then channels):
 *   `strips` `tensor<(N*H) x W x C>` (one strip per slot, what strip lanes publish) or
 *   `pixels` `tensor<(N*H*W/p) x p x C>` (`p` horizontally adjacent pixels' channel vectors per
 *   slot, `p` dividing W: what convolution, resize and dense-to-strip lanes publish; a crossbar
 *   MVM produces one pixel's channel vector, or `p` of them with packed weights, see
 *   `analysis/pixel-packing.ts`). A `pixels` collection with `p = W` has the `strips` shape and
 *   is read as strips.
 *
 * A row-strip value replaces its plan's logical result through a
 * `builtin.unrealized_conversion_cast` (collection -> logical type) marked with
 * {@link PHYSICAL_LAYOUT_ATTR}, as MLIR's conversion framework materializes converted
 * values; row-strip consumers read the collection through the cast (they select fragments
 * themselves, as the graph fragment contract allows), and the pass erases the casts once every
 * consumer is lowered. A cast still used at the end is a diagnostic.
 */
import { RankedTensorType, UnrealizedConversionCastOp, getAffineConstantExpr, type AffineExpr, type Location, type OpBuilder, type Value } from '@raptor-pim/ir-core';
import { SpatEnumAttr } from '@raptor-pim/spatial-dialect';
import type { BodyBuilder } from './compute-builders';

/** The discardable attribute marking a row-strip cast (value: `#spat<physical_layout nhwc_row_strip>`). */
export const PHYSICAL_LAYOUT_ATTR = 'spat.physical_layout';

/** Logical NCHW geometry of an activation. */
export interface Nchw {
  readonly n: number;
  readonly c: number;
  readonly h: number;
  readonly w: number;
}

/** A lowered activation: dense, or row strips in one of the two collection shapes. */
export type PhysicalValue =
  | { readonly layout: 'dense_nchw'; readonly value: Value; readonly geometry: Nchw }
  | {
      readonly layout: 'nhwc_row_strip';
      readonly form: 'pixels' | 'strips';
      readonly value: Value;
      readonly geometry: Nchw;
      /** Pixels per slot of the `pixels` form (1 when absent; `strips`: W). */
      readonly pixelsPerSlot?: number;
    };

/** The geometry of a static rank-4 tensor type, or undefined. */
export function nchwOf(type: unknown): Nchw | undefined {
  if (!(type instanceof RankedTensorType) || type.shape.length !== 4 || type.shape.some((d) => d <= 0)) return undefined;
  const [n, c, h, w] = type.shape as [number, number, number, number];
  return { n, c, h, w };
}

/** The collection shape of a row-strip value of `g` in `form` (`pixels`: `pixelsPerSlot` pixels per slot). */
export function rowStripShape(g: Nchw, form: 'pixels' | 'strips', pixelsPerSlot = 1): number[] {
  return form === 'pixels' ? [(g.n * g.h * g.w) / pixelsPerSlot, pixelsPerSlot, g.c] : [g.n * g.h, g.w, g.c];
}

/** Pixels per slot of a row-strip value (`strips`: a whole row). */
function pixelsPerSlotOf(pv: PhysicalValue & { layout: 'nhwc_row_strip' }): number {
  return pv.form === 'strips' ? pv.geometry.w : pv.pixelsPerSlot ?? 1;
}

/**
 * The physical form of `v` (an operand of a plan): the collection behind a row-strip cast, else
 * the dense logical value. Undefined when `v` is not a static rank-4 tensor.
 */
export function physicalValueOf(v: Value): PhysicalValue | undefined {
  const def = v.definingOp;
  const cast = def ? UnrealizedConversionCastOp.match(def) : undefined;
  const geometry = nchwOf(v.type);
  if (cast && def!.getDiscardableAttr(PHYSICAL_LAYOUT_ATTR) !== undefined) {
    if (!geometry) return undefined;
    const inner = def!.getOperand(0);
    const shape = (inner.type as RankedTensorType).shape;
    if (shape.length !== 3) return undefined;
    const same = (f: 'pixels' | 'strips', p = 1): boolean => rowStripShape(geometry, f, p).every((d, i) => shape[i] === d);
    if (same('strips')) return { layout: 'nhwc_row_strip', form: 'strips', value: inner, geometry };
    const p = shape[1]!;
    if (p < 1 || geometry.w % p !== 0 || !same('pixels', p)) return undefined;
    return { layout: 'nhwc_row_strip', form: 'pixels', value: inner, geometry, ...(p > 1 ? { pixelsPerSlot: p } : {}) };
  }
  if (!geometry) return undefined;
  return { layout: 'dense_nchw', value: v, geometry };
}

/** Wraps the row-strip `collection` of `geometry` in the marked cast to the logical type. */
export function castRowStrip(b: OpBuilder, loc: Location, collection: Value, logicalType: RankedTensorType): Value {
  const cast = UnrealizedConversionCastOp.build(b, { inputs: [collection], outputs: [logicalType] }, loc);
  cast.op.setDiscardableAttr(PHYSICAL_LAYOUT_ATTR, SpatEnumAttr.get(b.context, 'physical_layout', 'nhwc_row_strip'));
  return cast.op.getResult(0);
}

/**
 * The channel vector `[1, C]` of pixel `(n, h, w)` of the bound input `arg` holding `pv`
 * (coordinates are lane expressions or numbers).
 */
export function readPixel(bb: BodyBuilder, arg: Value, pv: PhysicalValue, n: AffineExpr | number, h: AffineExpr | number, w: AffineExpr | number): Value {
  const g = pv.geometry;
  const e = (x: AffineExpr | number): AffineExpr => (typeof x === 'number' ? getAffineConstantExpr(bb.ctx, x) : x);
  if (pv.layout === 'dense_nchw') return bb.slice(arg, [n, 0, h, w], [1, g.c, 1, 1], [1, g.c]);
  if (pv.form === 'strips') return bb.slice(arg, [e(n).mul(g.h).add(e(h)), w, 0], [1, 1, g.c], [1, g.c]);
  const p = pixelsPerSlotOf(pv);
  const pixel = e(n).mul(g.h).add(e(h)).mul(g.w).add(e(w));
  if (p === 1) return bb.slice(arg, [pixel, 0, 0], [1, 1, g.c], [1, g.c]);
  return bb.slice(arg, [pixel.floorDiv(p), pixel.mod(p), 0], [1, 1, g.c], [1, g.c]);
}

/** Strip `s` (`= n*H + h`) `[W, C]` of the bound row-strip input `arg` holding `pv`. */
export function readStrip(bb: BodyBuilder, arg: Value, pv: PhysicalValue & { layout: 'nhwc_row_strip' }, s: AffineExpr): Value {
  const g = pv.geometry;
  if (pv.form === 'strips') return bb.slice(arg, [s, 0, 0], [1, g.w, g.c], [g.w, g.c]);
  const p = pixelsPerSlotOf(pv);
  if (p === 1) return bb.slice(arg, [s.mul(g.w), 0, 0], [g.w, 1, g.c], [g.w, g.c]);
  return bb.collapse(bb.slice(arg, [s.mul(g.w / p), 0, 0], [g.w / p, p, g.c]), [[0, 1], [2]], [g.w, g.c]);
}

/**
 * The plane `[1, 1, H, W]` of example `n`, channel `c` of the bound input `arg` holding `pv`
 * (dense: one slice; row strips: the channel's strided column, reshaped).
 */
export function readPlane(bb: BodyBuilder, arg: Value, pv: PhysicalValue, n: AffineExpr, c: AffineExpr): Value {
  const g = pv.geometry;
  if (pv.layout === 'dense_nchw') return bb.slice(arg, [n, c, 0, 0], [1, 1, g.h, g.w]);
  if (pv.form === 'pixels') {
    const p = pixelsPerSlotOf(pv);
    const slots = (g.h * g.w) / p;
    if (p === 1) return bb.reshape(bb.slice(arg, [n.mul(slots), 0, c], [slots, 1, 1], [slots]), [1, 1, g.h, g.w]);
    return bb.reshape(bb.slice(arg, [n.mul(slots), 0, c], [slots, p, 1], [slots, p]), [1, 1, g.h, g.w]);
  }
  return bb.reshape(bb.slice(arg, [n.mul(g.h), 0, c], [g.h, g.w, 1], [g.h, g.w]), [1, 1, g.h, g.w]);
}
