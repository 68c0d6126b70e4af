/**
 * Matrix products. `Gemm` and `MatMul` with a constant right operand lower to
 * `spat.graph_compute(_batch)` regions with `spat.wvmm` on crossbar-sized weight tiles (one
 * lane per row; a following BatchNormalization or bias Add folded). MatMul broadcasts numpy-style:
 * 1-D operands, [B.., M, K] x [K, N] as one GEMM over [prod(B) * M, K], batched constant
 * operands as one GEMM per batch slice. Products of two runtime operands use `spat.vvdmul` dot
 * products of a row of A and a column of B (no crossbar weights).
 */
import type { Location, Value } from '@raptor-pim/ir-core';
import { VaddOp, VmulOp, VvdmulOp, WvmmOp, tileWeightMatrix } from '@raptor-pim/spatial-dialect';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import { LoweringMessages as LM } from '../../diagnostics';
import { F32, RowRegion, type LoweringContext, type NodeLowering, type Val, broadcastData } from '../lowering-context';
import { elementCount, tensorType } from '../ir-helpers';

/**
 * The bias added to every output row: a constant per-column row, or a value `val` of shape
 * [rows, cols] (rows 1 or M, cols 1 or N: a per-row value selects the lane's row, a single
 * column is repeated N times) multiplied by `scale`.
 */
type Bias = { readonly kind: 'row'; readonly data: Float32Array } | { readonly kind: 'val'; readonly val: Val; readonly scale: number };

/** Adds `bias` to the body row `y` ([1, nOut]). */
function addBias(cx: LoweringContext, r: RowRegion, y: Value, nOut: number, bias: Bias | undefined, key: string, loc: Location): Value {
  if (!bias) return y;
  const row = [1, nOut];
  const body = r.body;
  if (bias.kind === 'row') return body.binary(VaddOp, y, r.bind(cx.constantVal(`${key}:bias`, bias.data, row, loc)), row);
  const [rows, cols] = bias.val.shape as [number, number];
  let v = r.bind(bias.val);
  if (rows > 1) v = r.laneRow(v, cols);
  if (cols !== nOut) v = body.concat(1, new Array<Value>(nOut).fill(v), new Array<number[]>(nOut).fill([1, 1]), row);
  if (bias.scale !== 1) v = body.binary(VmulOp, v, r.bind(cx.splat(bias.scale, row, loc)), row);
  return body.binary(VaddOp, y, v, row);
}

/**
 * The GEMM decomposition: weights cut into crossbar tiles of the target's crossbar size by
 * spatial-dialect's `tileWeightMatrix` (the tiling plan-lowering uses for convolutions); each
 * output row is the sum over row tiles of wvmm(row slice, tile), column tiles joined with
 * spat.concat, then the bias added with spat.vadd. One row: a graph_compute; M rows: a
 * graph_compute_batch with one lane per row and a blueprint placing the rows.
 */
function emitGemm(cx: LoweringContext, n: OnnxNode, out: string, key: string, x: Val, w: Float32Array, nOut: number, bias: Bias | undefined, loc: Location): Val | undefined {
  const [m, k] = [x.shape[0]!, x.shape[1]!];
  const tiled = tileWeightMatrix(w, k, nOut, cx.crossbar.rows, cx.crossbar.columns);
  if (!tiled.ok) {
    cx.unsupported(n, LM.weightTiling(tiled.message));
    return undefined;
  }
  const { rowTiles, colTiles, tiles } = tiled.value;
  const weights = tiles.map((t) => cx.constant(`${key}:tile:${t.rowTile}:${t.colTile}`, t.data, [t.rows, t.cols], loc));
  const r = new RowRegion(cx, m, weights, loc);
  const body = r.body;
  const row = r.laneRow(r.bind(x), k);
  const slices = Array.from({ length: rowTiles }, (_, i) => {
    const t = tiles[i * colTiles]!;
    return rowTiles === 1 ? row : body.extractSlice(row, [1, k], [0, t.rowOffset], [1, t.rows]);
  });
  const cols: Value[] = [];
  const colShapes: number[][] = [];
  for (let j = 0; j < colTiles; j++) {
    const nc = tiles[j]!.cols;
    let acc: Value | undefined;
    for (let i = 0; i < rowTiles; i++) {
      const p = WvmmOp.build(body.b, { weight: r.weightArgs[i * colTiles + j]!, input: slices[i]!, output: tensorType(cx.context, [1, nc]) }, loc).output;
      acc = acc === undefined ? p : body.binary(VaddOp, acc, p, [1, nc]);
    }
    cols.push(acc!);
    colShapes.push([1, nc]);
  }
  const y = addBias(cx, r, body.concat(1, cols, colShapes, [1, nOut]), nOut, bias, key, loc);
  return cx.emitRows(out, r, nOut, y, loc);
}

/**
 * Product of two runtime matrices a [M, K] and b [K, N] without crossbars: each output row is
 * N `spat.vvdmul` dot products of the lane's row of `a` with a column of `b` (a [K, 1] slice
 * reshaped to [1, K]), joined with spat.concat, scaled by `alpha` and offset by `bias`.
 */
function emitRuntimeProduct(cx: LoweringContext, out: string, key: string, a: Val, bm: Val, alpha: number, bias: Bias | undefined, loc: Location): Val {
  const [m, k] = [a.shape[0]!, a.shape[1]!];
  const nOut = bm.shape[1]!;
  const r = new RowRegion(cx, m, [], loc);
  const body = r.body;
  const row = r.laneRow(r.bind(a), k);
  const bArg = r.bind(bm);
  const dots: Value[] = [];
  for (let j = 0; j < nOut; j++) {
    const col = body.extractSlice(bArg, [k, nOut], [0, j], [k, 1]);
    const colRow = body.reshape(col, [k, 1], [1, k]);
    dots.push(VvdmulOp.build(body.b, { lhs: row, rhs: colRow, output: tensorType(cx.context, [1, 1]) }, loc).output);
  }
  let y = body.concat(1, dots, dots.map(() => [1, 1]), [1, nOut]);
  if (alpha !== 1) y = body.binary(VmulOp, y, r.bind(cx.splat(alpha, [1, nOut], loc)), [1, nOut]);
  y = addBias(cx, r, y, nOut, bias, key, loc);
  return cx.emitRows(out, r, nOut, y, loc);
}

/** Folds a following BatchNormalization and a following per-column bias Add into `w`/`bias`; returns the ONNX name the GEMM defines. */
function foldEpilogue(cx: LoweringContext, out: string, w: Float32Array, k: number, nOut: number, bias: Float32Array | undefined, outRank: number): { out: string; bias: Float32Array | undefined } {
  const bnNode = cx.soleConsumer(out);
  if (outRank === 2 && bnNode?.opType === 'BatchNormalization' && bnNode.inputs[0] === out) {
    const bn = cx.batchNormParams(bnNode);
    if (bn && bn.scale.length === nOut) {
      for (let i = 0; i < k; i++) for (let j = 0; j < nOut; j++) w[i * nOut + j]! *= bn.scale[j]!;
      bias = Float32Array.from({ length: nOut }, (_, j) => (bias ? bias[j]! : 0) * bn.scale[j]! + bn.shift[j]!);
      cx.fused.add(bnNode);
      out = bnNode.outputs[0]!;
    }
  }
  const add = cx.soleConsumer(out);
  if (add?.opType === 'Add') {
    const other = add.inputs[0] === out ? add.inputs[1]! : add.inputs[0]!;
    const c = cx.perChannel(other, nOut, outRank, outRank - 1);
    if (c && cx.shapeOf(add.outputs[0]!).join() === cx.shapeOf(out).join()) {
      bias = Float32Array.from({ length: nOut }, (_, j) => (bias ? bias[j]! : 0) + c[j]!);
      cx.fused.add(add);
      out = add.outputs[0]!;
    }
  }
  return { out, bias };
}

/** `v` transposed ([r, c] -> [c, r]) by a graph_compute. */
function transposed(cx: LoweringContext, v: Val, loc: Location): Val {
  const shape = [v.shape[1]!, v.shape[0]!];
  return cx.compute(undefined, [v], shape, loc, (b, [a]) => b.transpose(a!, v.shape, [1, 0]));
}

function lowerGemm(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const transA = (getAttribute(n, 'transA', 'int') ?? 0) !== 0;
  const transB = (getAttribute(n, 'transB', 'int') ?? 0) !== 0;
  const alpha = getAttribute(n, 'alpha', 'float') ?? 1;
  const beta = getAttribute(n, 'beta', 'float') ?? 1;
  const a0 = cx.input(n, 0, loc);
  if (!a0) return;
  const a = transA ? transposed(cx, a0, loc) : a0;
  const [m, k] = [a.shape[0]!, a.shape[1]!];
  const bName = n.inputs[1]!;
  const bShape = cx.shapeOf(bName);
  const nOut = transB ? bShape[0]! : bShape[1]!;
  const key = `gemm:${n.index}`;
  // C: constant (scaled by beta at compile time) or runtime (broadcast and scaled in the region).
  let rowBias: Float32Array | undefined;
  let bias: Bias | undefined;
  const cName = n.inputs[2] ?? '';
  if (cName !== '') {
    const cData = cx.dataTypeOf(cName) === F32 ? cx.floatsOf(cName) : undefined;
    const cShape = cx.shapeOf(cName);
    if (cData) {
      const full = broadcastData(cData, cShape, [m, nOut]);
      if (!full) return cx.unsupported(n, `C of shape [${cShape.join('x')}] does not broadcast to [${m}x${nOut}]`);
      for (let i = 0; i < full.length; i++) full[i] = full[i]! * beta;
      const padded = [...new Array<number>(2 - Math.min(2, cShape.length)).fill(1), ...cShape];
      if (padded[0] === 1 || m === 1) rowBias = full.slice(0, nOut);
      else bias = { kind: 'val', val: cx.constantVal(`${key}:c`, full, [m, nOut], loc), scale: 1 };
    } else {
      const c = cx.input(n, 2, loc);
      if (!c) return;
      // Numpy broadcasting to [M, N]: rank <= 2, each dimension 1 or the output's.
      const padded = [...new Array<number>(Math.max(0, 2 - c.shape.length)).fill(1), ...c.shape];
      if (padded.length > 2 || (padded[0] !== 1 && padded[0] !== m) || (padded[1] !== 1 && padded[1] !== nOut)) return cx.unsupported(n, `runtime C of shape [${c.shape.join('x')}] does not broadcast to [${m}x${nOut}]`);
      bias = { kind: 'val', val: cx.reshape(undefined, c, padded, loc), scale: beta };
    }
  }
  const b0 = cx.dataTypeOf(bName) === F32 ? cx.floatsOf(bName) : undefined;
  if (!b0) {
    // Runtime B: dot products, no crossbar.
    const bv = cx.input(n, 1, loc);
    if (!bv) return;
    const bm = transB ? transposed(cx, bv, loc) : bv;
    if (rowBias) bias = { kind: 'row', data: rowBias };
    emitRuntimeProduct(cx, n.outputs[0]!, key, a, bm, alpha, bias, loc);
    return;
  }
  const w = new Float32Array(k * nOut);
  for (let i = 0; i < k; i++) for (let j = 0; j < nOut; j++) w[i * nOut + j] = alpha * (transB ? b0[j * k + i]! : b0[i * nOut + j]!);
  let out = n.outputs[0]!;
  if (!bias) ({ out, bias: rowBias } = foldEpilogue(cx, out, w, k, nOut, rowBias, 2));
  emitGemm(cx, n, out, key, a, w, nOut, bias ?? (rowBias ? { kind: 'row', data: rowBias } : undefined), loc);
}

/** Row-major strides of `shape`. */
function stridesOf(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) s[i] = s[i + 1]! * shape[i + 1]!;
  return s;
}

/** For each flat index of the broadcast batch `outBatch`, the flat index into `batch` (numpy rules). */
function batchIndices(batch: readonly number[], outBatch: readonly number[]): number[] {
  const padded = [...new Array<number>(outBatch.length - batch.length).fill(1), ...batch];
  const src = stridesOf(padded);
  const dst = stridesOf(outBatch);
  return Array.from({ length: elementCount(outBatch) }, (_, o) => {
    let s = 0;
    for (let d = 0; d < outBatch.length; d++) if (padded[d] !== 1) s += (Math.floor(o / dst[d]!) % outBatch[d]!) * src[d]!;
    return s;
  });
}

/** Batch slice `i` of `v` viewed as [count, rows, cols], as [rows, cols]. */
function batchSlice(cx: LoweringContext, v: Val, count: number, i: number, rows: number, cols: number, loc: Location): Val {
  if (count === 1) return cx.reshape(undefined, v, [rows, cols], loc);
  return cx.compute(undefined, [v], [rows, cols], loc, (b, [a]) => {
    const v3 = b.reshape(a!, v.shape, [count, rows, cols]);
    return b.reshape(b.extractSlice(v3, [count, rows, cols], [i, 0, 0], [1, rows, cols]), [1, rows, cols], [rows, cols]);
  });
}

function lowerMatMul(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const bName = n.inputs[1]!;
  const a = cx.input(n, 0, loc);
  if (!a) return;
  const bShape = cx.shapeOf(bName);
  const outShape = cx.shapeOf(n.outputs[0]!);
  const aShape2 = a.shape.length === 1 ? [1, a.shape[0]!] : a.shape;
  const bShape2 = bShape.length === 1 ? [bShape[0]!, 1] : bShape;
  const [m, k] = aShape2.slice(-2) as [number, number];
  const nOut = bShape2[bShape2.length - 1]!;
  const batchA = aShape2.slice(0, -2);
  const batchB = bShape2.slice(0, -2);
  const outBatch = outShape.slice(0, Math.max(0, outShape.length - (a.shape.length === 1 ? 0 : 1) - (bShape.length === 1 ? 0 : 1)));
  const key = `matmul:${n.index}`;
  const b0 = cx.dataTypeOf(bName) === F32 ? cx.floatsOf(bName) : undefined;
  if (b0 && batchB.length === 0) {
    // [B.., M, K] x [K, N]: one GEMM over all rows.
    const rows = elementCount(batchA) * m;
    const w = b0.slice(); // foldEpilogue may scale it in place; b0 is the model's data
    const { out, bias } = outShape.length > 0 ? foldEpilogue(cx, n.outputs[0]!, w, k, nOut, undefined, outShape.length) : { out: n.outputs[0]!, bias: undefined };
    const x2 = cx.reshape(undefined, a, [rows, k], loc);
    const y = emitGemm(cx, n, rows * nOut === elementCount(outShape) && outShape.length === 2 ? out : cx.temp(), key, x2, w, nOut, bias && { kind: 'row', data: bias }, loc);
    if (y && (y.shape.join() !== outShape.join() || outShape.length !== 2)) cx.reshape(out, y, outShape, loc);
    return;
  }
  // Batched or runtime B: one product per output batch slice, stacked and reshaped.
  const bv = b0 ? undefined : cx.input(n, 1, loc);
  if (!b0 && !bv) return;
  const b2 = bv && cx.reshape(undefined, bv, bShape2, loc);
  const countA = elementCount(batchA);
  const countB = elementCount(batchB);
  const ia = batchIndices(batchA, outBatch);
  const ib = batchIndices(batchB, outBatch);
  const parts: Val[] = [];
  for (let o = 0; o < ia.length; o++) {
    const as = batchSlice(cx, a, countA, ia[o]!, m, k, loc);
    const pk = `${key}:${o}`;
    if (b0) {
      const y = emitGemm(cx, n, cx.temp(), pk, as, b0.subarray(ib[o]! * k * nOut, (ib[o]! + 1) * k * nOut), nOut, undefined, loc);
      if (!y) return;
      parts.push(y);
    } else parts.push(emitRuntimeProduct(cx, cx.temp(), pk, as, batchSlice(cx, b2!, countB, ib[o]!, k, nOut, loc), 1, undefined, loc));
  }
  if (parts.length === 1) {
    cx.reshape(n.outputs[0]!, parts[0]!, outShape, loc);
    return;
  }
  cx.compute(n.outputs[0]!, parts, outShape, loc, (b, args) => b.reshape(b.concat(0, args, parts.map((p) => p.shape), [parts.length * m, nOut]), [parts.length * m, nOut], outShape));
}

/** Lowerings of this file, by ONNX operator. */
export const MATMUL_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Gemm: lowerGemm,
  MatMul: lowerMatMul,
};
