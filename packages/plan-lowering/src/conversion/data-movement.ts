/**
 * The explicit data movement of the lowering: layout materializations (dense NCHW <-> NHWC
 * row strips, as graph batches) and padding (graph batches publishing padded planes or padded
 * NHWC rows, which the window lanes of convolution and pooling read slot by slot, as the graph
 * fragment contract's "selects fragments itself"). Every function inserts at the builder's
 * insertion point.
 */
import { RankedTensorType, getAffineConstantExpr, type AffineExpr, type Location, type OpBuilder, type Value } from '@raptor-pim/ir-core';
import { BlueprintOp } from '@raptor-pim/spatial-dialect';
import { buildBatch, buildPhysicalView, type BodyBuilder } from './compute-builders';
import { readPixel, readPlane, readStrip, type Nchw, type PhysicalValue } from './physical-values';

/**
 * The coordinates of the row-major index `d0` over `sizes` (lane decomposition): coordinate k
 * is `(d0 floordiv stride_k) mod size_k` (no `mod` on the first, constant 0 on unit sizes).
 */
export function laneCoordinates(bb: BodyBuilder, sizes: readonly number[]): AffineExpr[] {
  const out: AffineExpr[] = [];
  let stride = sizes.reduce((a, b) => a * b, 1);
  for (let k = 0; k < sizes.length; k++) {
    stride /= sizes[k]!;
    if (sizes[k] === 1) {
      out.push(getAffineConstantExpr(bb.ctx, 0));
      continue;
    }
    let e = stride === 1 ? bb.d0 : bb.d0.floorDiv(stride);
    if (k > 0) e = e.mod(sizes[k]!);
    out.push(e);
  }
  return out;
}

/**
 * Dense `[N, C, H, W]` -> row strips, one lane per pixel (`N*H*W` lanes, each publishing the
 * pixel's `[1, C]` channel vector): the `pixels` form `tensor<(N*H*W) x 1 x C>`.
 */
export function denseToRowStrips(b: OpBuilder, loc: Location, dense: PhysicalValue & { layout: 'dense_nchw' }): PhysicalValue {
  const g = dense.geometry;
  const value = buildBatch(b, loc, g.n * g.h * g.w, { weights: [], inputs: [dense.value] }, [1, g.c], (bb, _w, [x]) => {
    const [n, h, w] = laneCoordinates(bb, [g.n, g.h, g.w]);
    return readPixel(bb, x!, dense, n!, h!, w!);
  });
  return { layout: 'nhwc_row_strip', form: 'pixels', value, geometry: g };
}

/**
 * Row strips -> dense `[N, C, H, W]`, one lane per (example, channel) (`N*C` lanes, each
 * publishing the channel's `[1, 1, H, W]` plane gathered from the strips), assembled by a
 * physical-view blueprint.
 */
export function rowStripsToDense(b: OpBuilder, loc: Location, strips: PhysicalValue & { layout: 'nhwc_row_strip' }): Value {
  const g = strips.geometry;
  const collection = buildBatch(b, loc, g.n * g.c, { weights: [], inputs: [strips.value] }, [1, 1, g.h, g.w], (bb, _w, [x]) => {
    const [n, c] = laneCoordinates(bb, [g.n, g.c]);
    return readPlane(bb, x!, strips, n!, c!);
  });
  return buildPhysicalView(b, loc, collection, [g.n, g.c, g.h, g.w]);
}

/**
 * A padded activation as the window lanes of a convolution or pooling read it; `geometry` is
 * the padded one (`h`, `w` are `H + top + bottom`, `W + left + right`).
 *
 * - `dense`: the logical `[N, C, H, W]` value itself (a dense value without padding);
 * - `planes`: the collection `[N*C, 1, 1, Hp, Wp]`, slot `n*C + c` the padded plane of example
 *   n, channel c;
 * - `dense-rows`: the collection `[N*Hp, C, Wp]`, slot `n*Hp + h` padded row h of every channel
 *   of example n (NCHW order within the row);
 * - `rows`: the collection `[N*Hp, Wp, C]`, slot `n*Hp + h` padded NHWC row h of example n (a
 *   row-strip value without padding in the `strips` form is its own `rows` collection).
 */
export interface PaddedActivation {
  /** How `value` holds the padded activation (see above). */
  readonly form: 'dense' | 'planes' | 'dense-rows' | 'rows';
  /** The logical value (`dense`) or the fragment collection. */
  readonly value: Value;
  /** The padded geometry. */
  readonly geometry: Nchw;
}

/**
 * The plane collection `[N*C, 1, 1, H, W]` (slot `n*C + c`, what (example, channel) batches
 * publish) behind a `physical_view` blueprint giving the dense value `v` of geometry `g`, or
 * undefined when `v` is anything else (a graph input, a compute result).
 */
export function planesBehindView(v: Value, g: Nchw): Value | undefined {
  const def = v.definingOp;
  const view = def ? BlueprintOp.match(def) : undefined;
  if (!view || view.mode.value !== 'physical_view' || view.fragments.length !== 1) return undefined;
  const planes = view.fragments[0]!;
  const shape = planes.type instanceof RankedTensorType ? planes.type.shape : [];
  const expected = [g.n * g.c, 1, 1, g.h, g.w];
  return shape.length === expected.length && expected.every((d, i) => shape[i] === d) ? planes : undefined;
}

/**
 * The dense value with a `padValue` border of `pads` (`[top, left, bottom, right]`), published
 * lane-wise in `layout`:
 *
 * - `planes`: one lane per (example, channel) reads its `[1, 1, H, W]` plane and inserts it into
 *   a `padValue` splat `[1, 1, Hp, Wp]` plane it publishes. When the dense value is a
 *   `physical_view` of (example, channel) planes, the lanes read their slot of the collection
 *   behind the view (one slot each; the view, left without a reader, is erased at the end of
 *   the pass).
 * - `rows` (the `dense-rows` form): one lane per (example, padded row) reads the `[C, W]` row of
 *   every channel and publishes the padded `[C, Wp]` row, the border rows selected as in
 *   {@link padRowStrips}.
 *
 * Without padding the value itself (the `dense` form).
 */
export function padDense(
  b: OpBuilder,
  loc: Location,
  dense: PhysicalValue & { layout: 'dense_nchw' },
  pads: readonly [number, number, number, number],
  padValue: number,
  layout: 'planes' | 'rows' = 'planes',
): PaddedActivation {
  const g = dense.geometry;
  const hp = g.h + pads[0] + pads[2];
  const wp = g.w + pads[1] + pads[3];
  const geometry = { n: g.n, c: g.c, h: hp, w: wp };
  if (hp === g.h && wp === g.w) return { form: 'dense', value: dense.value, geometry };
  if (layout === 'rows') {
    const value = buildPaddedRows(b, loc, dense.value, g, pads, padValue, [g.c, g.w], [g.c, wp], 1, (bb, x, n, h) => bb.slice(x, [n, 0, h, 0], [1, g.c, 1, g.w], [g.c, g.w]));
    return { form: 'dense-rows', value, geometry };
  }
  const planes = planesBehindView(dense.value, g);
  const value = buildBatch(b, loc, g.n * g.c, { weights: [], inputs: [planes ?? dense.value] }, [1, 1, hp, wp], (bb, _w, [x]) => {
    const [n, c] = laneCoordinates(bb, [g.n, g.c]);
    const plane = planes ? bb.slice(x!, [bb.d0, 0, 0, 0, 0], [1, 1, 1, g.h, g.w], [1, 1, g.h, g.w]) : readPlane(bb, x!, dense, n!, c!);
    return bb.insert(plane, bb.splatConstant([1, 1, hp, wp], padValue), [0, 0, pads[0], pads[1]], [1, 1, g.h, g.w]);
  });
  return { form: 'planes', value, geometry };
}

/**
 * One lane per (example, padded row) of `g` padded by `pads`: lane `(n, h)` reads input row
 * `read(bb, x, n, row)` (`rowShape`, `row` an input row index) and publishes the padded row
 * (`paddedShape`, the row inserted at `left` of axis `widthAxis`). Every lane inserts its row at
 * row 0 of a `padValue` splat `[m] + paddedShape` buffer and publishes buffer row
 * `((h - top) floordiv H) mod m` (`m = 1 + max(ceil(top / H), ceil(bottom / H))`): the input row
 * for the rows of the image, a pure `padValue` row for the border rows, with no lane-dependent
 * control flow. A border lane reads a row it does not publish, chosen near its border (row
 * `h - top - band * max(top, bottom)` when both pads are at most H) so that a run of lanes reads
 * a run of rows. Without vertical padding there is no buffer.
 */
function buildPaddedRows(
  b: OpBuilder,
  loc: Location,
  input: Value,
  g: Nchw,
  pads: readonly [number, number, number, number],
  padValue: number,
  rowShape: readonly [number, number],
  paddedShape: readonly [number, number],
  widthAxis: 0 | 1,
  read: (bb: BodyBuilder, x: Value, n: AffineExpr, row: AffineExpr) => Value,
): Value {
  const [top, left, bottom] = pads;
  const hp = g.h + top + bottom;
  const bands = 1 + Math.max(Math.ceil(top / g.h), Math.ceil(bottom / g.h));
  const shift = Math.max(top, bottom) <= g.h ? Math.max(top, bottom) : g.h;
  const at = (axis: number, rank: number): number[] => Array.from({ length: rank }, (_, i) => (i === axis ? left : 0));
  return buildBatch(b, loc, g.n * hp, { weights: [], inputs: [input] }, paddedShape, (bb, _w, [x]) => {
    const [n, h] = laneCoordinates(bb, [g.n, hp]);
    const r = h!.add(-top);
    const band = r.floorDiv(g.h);
    const row = read(bb, x!, n!, bands === 1 ? r : r.add(band.mul(-shift)));
    const widened = paddedShape[widthAxis] !== rowShape[widthAxis];
    if (bands === 1) return widened ? bb.insert(row, bb.splatConstant(paddedShape, padValue), at(widthAxis, 2), rowShape) : row;
    const buffer = bb.insert(row, bb.splatConstant([bands, ...paddedShape], padValue), at(widthAxis + 1, 3), [1, ...rowShape]);
    return bb.slice(buffer, [band.mod(bands), 0, 0], [1, ...paddedShape], paddedShape);
  });
}

/**
 * The row-strip value with a `padValue` border of `pads` as padded NHWC rows (the `rows` form):
 * one lane per (example, padded row) reads one input strip and publishes its padded `[Wp, C]`
 * row, the border rows selected from a small splat buffer (see {@link buildPaddedRows}).
 * Without any padding a `strips` value is returned as it is and a `pixels` value is gathered
 * into strips.
 */
export function padRowStrips(b: OpBuilder, loc: Location, strips: PhysicalValue & { layout: 'nhwc_row_strip' }, pads: readonly [number, number, number, number], padValue: number): PaddedActivation {
  const g = strips.geometry;
  const hp = g.h + pads[0] + pads[2];
  const wp = g.w + pads[1] + pads[3];
  const geometry = { n: g.n, c: g.c, h: hp, w: wp };
  if (hp === g.h && wp === g.w && strips.form === 'strips') return { form: 'rows', value: strips.value, geometry };
  const value = buildPaddedRows(b, loc, strips.value, g, pads, padValue, [g.w, g.c], [wp, g.c], 0, (bb, x, n, row) => readStrip(bb, x, strips, n.mul(g.h).add(row)));
  return { form: 'rows', value, geometry };
}

/**
 * The window `[1, channels, height, width]` at example `n`, channel `c0`, row `h0`, column `w0`
 * of the bound padded input `arg` holding `padded` (`dense` or `planes`: one slice of the
 * channels' planes, the planes' unit dimensions dropped, then one `tensor.expand_shape` when
 * `channels > 1`).
 */
export function readDenseWindow(
  bb: BodyBuilder,
  arg: Value,
  padded: PaddedActivation,
  n: AffineExpr,
  c0: AffineExpr | number,
  channels: number,
  h0: AffineExpr | number,
  w0: AffineExpr | number,
  height: number,
  width: number,
): Value {
  if (padded.form === 'dense') return bb.slice(arg, [n, c0, h0, w0], [1, channels, height, width]);
  if (padded.form !== 'planes') throw new Error(`internal error: a ${padded.form} padded value read as dense`);
  const slot = n.mul(padded.geometry.c).add(c0);
  const sizes = [channels, 1, 1, height, width];
  if (channels === 1) return bb.slice(arg, [slot, 0, 0, h0, w0], sizes, [1, 1, height, width]);
  return bb.expand(bb.slice(arg, [slot, 0, 0, h0, w0], sizes, [channels, height, width]), [[0, 1], [2], [3]], [1, channels, height, width]);
}

/**
 * The window `[height, C, width]` (every channel, rows first) at example `n`, padded row `h0`,
 * column `w0` of the bound padded input `arg` holding `padded` in the `dense-rows` form: one
 * slice of `height` consecutive row slots.
 */
export function readDenseRowWindow(bb: BodyBuilder, arg: Value, padded: PaddedActivation, n: AffineExpr, h0: AffineExpr, w0: AffineExpr | number, height: number, width: number): Value {
  if (padded.form !== 'dense-rows') throw new Error(`internal error: a ${padded.form} padded value read as dense rows`);
  return bb.slice(arg, [n.mul(padded.geometry.h).add(h0), 0, w0], [height, padded.geometry.c, width]);
}

/**
 * Channels `[c0, c0 + count)` of the pixel at example `n`, padded row `h`, column `w` of the
 * bound padded input `arg` holding `padded` in the `rows` form, as a `[1, count]` value (one
 * rank-reduced slice of the padded rows: a crossbar row tile of one kernel tap).
 */
export function readPixelChannels(bb: BodyBuilder, arg: Value, padded: PaddedActivation, n: AffineExpr, h: AffineExpr, w: AffineExpr, c0: number, count: number): Value {
  if (padded.form !== 'rows') throw new Error(`internal error: a ${padded.form} padded value read as rows`);
  return bb.slice(arg, [n.mul(padded.geometry.h).add(h), w, c0], [1, 1, count], [1, count]);
}

/**
 * The window `[height, width, channels]` (NHWC order) at example `n`, padded row `h0`, column
 * `w0`, channel `c0` of the bound padded input `arg` holding `padded` in the `rows` form: one
 * slice of `height` consecutive row slots.
 */
export function readRowWindow(
  bb: BodyBuilder,
  arg: Value,
  padded: PaddedActivation,
  n: AffineExpr,
  h0: AffineExpr,
  w0: AffineExpr | number,
  c0: number,
  height: number,
  width: number,
  channels: number,
): Value {
  if (padded.form !== 'rows') throw new Error(`internal error: a ${padded.form} padded value read as rows`);
  return bb.slice(arg, [n.mul(padded.geometry.h).add(h0), w0, c0], [height, width, channels]);
}
