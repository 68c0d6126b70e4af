/**
 * The explicit data movement of the lowering: layout materializations (dense NCHW <-> NHWC
 * row strips, as graph batches) and padding (one `spat.graph_compute` inserting the input into
 * a constant padded tensor). Every function inserts at the builder's insertion point.
 */
import { getAffineConstantExpr, type AffineExpr, type Location, type OpBuilder, type Value } from '@raptor-pim/ir-core';
import { buildBatch, buildCompute, buildPhysicalView, type BodyBuilder } from './compute-builders';
import { readPixel, readPlane, type PhysicalValue } from './physical-values';

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
 * The row-strip value `strips` as one NHWC tensor `[N, H + top + bottom, W + left + right, C]`
 * whose border is `padValue` (a `spat.graph_compute`: reshape, then insert into a splat).
 */
export function padRowStrips(b: OpBuilder, loc: Location, strips: PhysicalValue & { layout: 'nhwc_row_strip' }, pads: readonly [number, number, number, number], padValue: number): Value {
  const g = strips.geometry;
  const hp = g.h + pads[0] + pads[2];
  const wp = g.w + pads[1] + pads[3];
  const [padded] = buildCompute(b, loc, { weights: [], inputs: [strips.value] }, [[g.n, hp, wp, g.c]], (bb, _w, [x]) => {
    const nhwc = bb.reshape(x!, [g.n, g.h, g.w, g.c]);
    if (hp === g.h && wp === g.w) return [nhwc];
    return [bb.insert(nhwc, bb.splatConstant([g.n, hp, wp, g.c], padValue), [0, pads[0], pads[1], 0], [g.n, g.h, g.w, g.c])];
  });
  return padded!;
}

/**
 * The dense value as `[N, C, H + top + bottom, W + left + right]` with a `padValue` border (the
 * value itself without padding).
 */
export function padDense(b: OpBuilder, loc: Location, dense: PhysicalValue & { layout: 'dense_nchw' }, pads: readonly [number, number, number, number], padValue: number): Value {
  const g = dense.geometry;
  const hp = g.h + pads[0] + pads[2];
  const wp = g.w + pads[1] + pads[3];
  if (hp === g.h && wp === g.w) return dense.value;
  const [padded] = buildCompute(b, loc, { weights: [], inputs: [dense.value] }, [[g.n, g.c, hp, wp]], (bb, _w, [x]) => [
    bb.insert(x!, bb.splatConstant([g.n, g.c, hp, wp], padValue), [0, 0, pads[0], pads[1]], [g.n, g.c, g.h, g.w]),
  ]);
  return padded!;
}
