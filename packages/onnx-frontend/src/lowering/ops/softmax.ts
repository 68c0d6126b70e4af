/**
 * `Softmax` over any axis, both semantics. Opset < 13 normalizes the rows of the input
 * flattened to `[prod(dims < axis), prod(dims >= axis)]`; opset >= 13 normalizes along `axis`
 * alone, so the input is first transposed to put `axis` last (when a non-unit dimension follows
 * it). Either way the lowering works on `[m, L]` rows and maps the result back:
 * - `L = 1`: every output is 1 (`x - x + 1`, which keeps NaN/inf propagation);
 * - `L = 2`: `softmax(a, b) = (sigmoid(a - b), sigmoid(b - a))` on the two columns, one
 *   graph_compute whatever `m` (ultraface's [1, 4420, 2] scores);
 * - few rows: one graph_compute with `spat.softmax` on each `[1, L]` row slice;
 * - many rows: a `spat.graph_compute_batch` with one lane per row (`cx.emitRows`), between two
 *   graph_computes that reshape/transpose to and from the rows.
 */
import type { Location, Value } from '@raptor-pim/ir-core';
import { SigmoidOp, SoftmaxOp, VaddOp, VsubOp } from '@raptor-pim/spatial-dialect';
import { getAttribute, type OnnxNode } from '../../onnx/model';
import type { BodyBuilder } from '../body-builder';
import { RowRegion, type LoweringContext, type NodeLowering, type Val } from '../lowering-context';
import { elementCount } from '../ir-helpers';

/** Up to this many rows, the softmax rows are slices of one graph_compute rather than lanes of a batch. */
const ROWS_IN_ONE_REGION = 16;

function lowerSoftmax(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const out = n.outputs[0]!;
  const shape = x.shape;
  const rank = shape.length;
  const legacy = cx.opset < 13;
  const axisAttr = getAttribute(n, 'axis', 'int') ?? (legacy ? 1 : -1);
  const axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
  if (rank > 0 && (axis < 0 || axis >= rank)) throw new Error(`internal error: Softmax axis ${axisAttr} of a rank-${rank} input passed shape inference`);
  // Rows [m, L] of the (possibly transposed) input: output dim k of the transpose is input dim perm[k].
  let perm = shape.map((_, i) => i);
  let rowLength = elementCount(shape.slice(axis));
  if (!legacy) {
    rowLength = shape[axis]!;
    if (shape.slice(axis + 1).some((d) => d !== 1)) perm = [...perm.filter((i) => i !== axis), axis];
  }
  const m = elementCount(shape) / Math.max(1, rowLength);
  const permuted = perm.map((p) => shape[p]!);
  const inverse = perm.map((_, k) => perm.indexOf(k));
  const rows = [m, rowLength];
  const toRows = (b: BodyBuilder, v: Value): Value => b.reshape(b.transpose(v, shape, perm), permuted, rows);
  const fromRows = (b: BodyBuilder, v: Value): Value => b.transpose(b.reshape(v, rows, permuted), permuted, inverse);

  if (rank === 0 || rowLength <= 1) {
    cx.compute(out, [x, cx.splat(1, shape, loc)], shape, loc, (b, [a, one]) => b.binary(VaddOp, b.binary(VsubOp, a!, a!, shape), one!, shape));
    return;
  }
  if (rowLength === 2) {
    cx.compute(out, [x], shape, loc, (b, [a]) => {
      const r = toRows(b, a!);
      const col = [m, 1];
      const c0 = b.extractSlice(r, rows, [0, 0], col);
      const c1 = b.extractSlice(r, rows, [0, 1], col);
      const y0 = b.unary(SigmoidOp, b.binary(VsubOp, c0, c1, col), col);
      const y1 = b.unary(SigmoidOp, b.binary(VsubOp, c1, c0, col), col);
      return fromRows(b, b.concat(1, [y0, y1], [col, col], rows));
    });
    return;
  }
  if (m <= ROWS_IN_ONE_REGION) {
    cx.compute(out, [x], shape, loc, (b, [a]) => {
      const r = toRows(b, a!);
      const row = [1, rowLength];
      const parts = Array.from({ length: m }, (_, i) => b.unary(SoftmaxOp, b.extractSlice(r, rows, [i, 0], row), row));
      return fromRows(b, b.concat(0, parts, parts.map(() => row), rows));
    });
    return;
  }
  const isRows = rank === 2 && shape[0] === m;
  const input: Val = isRows ? x : cx.compute(undefined, [x], rows, loc, (b, [a]) => toRows(b, a!));
  const normalized = softmaxRows(cx, isRows ? out : `\u0000softmax-rows:${n.index}`, input, loc);
  if (!isRows) cx.compute(out, [normalized], shape, loc, (b, [a]) => fromRows(b, a!));
}

/** `spat.softmax` on each row of an [m, L] value: one lane per row of a graph_compute_batch. */
function softmaxRows(cx: LoweringContext, out: string, x: Val, loc: Location): Val {
  const [m, len] = [x.shape[0]!, x.shape[1]!];
  const region = new RowRegion(cx, m, [], loc);
  const a = region.bind(x);
  const row = region.body.slice(a, [region.lane ?? 0, 0], [1, len], [1, 1]);
  return cx.emitRows(out, region, len, region.body.unary(SoftmaxOp, row, [1, len]), loc);
}

/** Lowerings of this file, by ONNX operator. */
export const SOFTMAX_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Softmax: lowerSoftmax,
};
