/**
 * Matrix products: `Gemm` and `MatMul` lower to `spat.graph_compute(_batch)` regions with
 * `spat.wvmm` on crossbar-sized weight tiles (a following BatchNormalization or bias Add folded).
 */
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import { type LoweringContext, type NodeLowering, type Val } from '../lowering-context';
import { tensorType } from '../mlir-text';

function lowerMatmul(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  if (x.shape.length !== 2) return cx.unsupported(n, `the first operand has rank ${x.shape.length} (only [M, K] matrices are lowered)`);
  const w0 = cx.floatsOf(n.inputs[1]!);
  const wShape = cx.shapeOf(n.inputs[1]!);
  if (!w0 || wShape.length !== 2) return cx.unsupported(n, 'the second operand is not a constant [K, N] matrix (crossbar weights must be compile-time constants)');
  const isGemm = n.opType === 'Gemm';
  if (isGemm && (getAttribute(n, 'transA', 'int') ?? 0) !== 0) return cx.unsupported(n, 'transA = 1');
  const transB = isGemm && (getAttribute(n, 'transB', 'int') ?? 0) !== 0;
  const alpha = isGemm ? getAttribute(n, 'alpha', 'float') ?? 1 : 1;
  const beta = isGemm ? getAttribute(n, 'beta', 'float') ?? 1 : 1;
  const [m, k] = [x.shape[0]!, x.shape[1]!];
  const nOut = transB ? wShape[0]! : wShape[1]!;
  const w = new Float32Array(k * nOut);
  for (let i = 0; i < k; i++) for (let j = 0; j < nOut; j++) w[i * nOut + j] = alpha * (transB ? w0[j * k + i]! : w0[i * nOut + j]!);
  let bias: Float32Array | undefined;
  if (isGemm && (n.inputs[2] ?? '') !== '') {
    const c = cx.perChannel(n.inputs[2]!, nOut, 2, 1);
    if (!c) return cx.unsupported(n, 'C is not a constant broadcastable to [N]');
    bias = Float32Array.from(c, (v) => v * beta);
  }
  let out = n.outputs[0]!;
  const bnNode = cx.soleConsumer(out);
  if (bnNode?.opType === 'BatchNormalization' && bnNode.inputs[0] === out) {
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
    const c = cx.perChannel(other, nOut, 2, 1);
    if (c && cx.shapeOf(add.outputs[0]!).join() === [m, nOut].join()) {
      bias = Float32Array.from({ length: nOut }, (_, j) => (bias ? bias[j]! : 0) + c[j]!);
      cx.fused.add(add);
      out = add.outputs[0]!;
    }
  }
  emitGemm(cx, out, n, x, w, k, nOut, bias, loc);
}

/**
 * The GEMM decomposition: weights cut into crossbar tiles (at most `crossbar` rows and
 * columns); each output row is sum over row tiles of wvmm(row slice, tile), column tiles
 * joined with spat.concat, then the bias added with spat.vadd. One row: a graph_compute;
 * M rows: a graph_compute_batch with one lane per row and a blueprint placing the rows.
 */
function emitGemm(cx: LoweringContext, out: string, n: OnnxNode, x: Val, w: Float32Array, k: number, nOut: number, bias: Float32Array | undefined, loc: string): void {
  const m = x.shape[0]!;
  const t = cx.crossbar;
  const kTiles = Math.ceil(k / t);
  const nTiles = Math.ceil(nOut / t);
  const tileOuter: string[] = [];
  const tileArgs: string[] = [];
  const tileTypes: string[] = [];
  const tileIndex = (i: number, j: number): number => i * nTiles + j;
  for (let i = 0; i < kTiles; i++) {
    const kr = Math.min(t, k - i * t);
    for (let j = 0; j < nTiles; j++) {
      const nc = Math.min(t, nOut - j * t);
      const tile = new Float32Array(kr * nc);
      for (let r = 0; r < kr; r++) for (let c = 0; c < nc; c++) tile[r * nc + c] = w[(i * t + r) * nOut + j * t + c]!;
      tileOuter.push(cx.constant(`tile:${n.index}:${i}:${j}`, tile, [kr, nc], loc));
      tileArgs.push(cx.fresh('w'));
      tileTypes.push(tensorType([kr, nc]));
    }
  }
  const xArg = cx.fresh('a');
  const inOuter = [x.ssa];
  const inArgs = [xArg];
  const inTypes = [tensorType(x.shape)];
  let biasArg: string | undefined;
  if (bias) {
    biasArg = cx.fresh('a');
    inOuter.push(cx.constant(`gbias:${n.index}`, bias, [1, nOut], loc));
    inArgs.push(biasArg);
    inTypes.push(tensorType([1, nOut]));
  }
  const body: string[] = [];
  const rowT = tensorType([1, k]);
  let row = xArg;
  const lane = cx.fresh('lane');
  if (m > 1) {
    row = cx.fresh('row');
    body.push(`${row} = tensor.extract_slice ${xArg}[${lane}, 0] [1, ${k}] [1, 1] : ${tensorType(x.shape)} to ${rowT} ${loc}`);
  }
  const slices: string[] = [];
  for (let i = 0; i < kTiles; i++) {
    const kr = Math.min(t, k - i * t);
    if (kTiles === 1) {
      slices.push(row);
      continue;
    }
    const s = cx.fresh('s');
    body.push(`${s} = tensor.extract_slice ${row}[0, ${i * t}] [1, ${kr}] [1, 1] : ${rowT} to ${tensorType([1, kr])} ${loc}`);
    slices.push(s);
  }
  const cols: string[] = [];
  const colTypes: string[] = [];
  for (let j = 0; j < nTiles; j++) {
    const nc = Math.min(t, nOut - j * t);
    const ct = tensorType([1, nc]);
    let acc: string | undefined;
    for (let i = 0; i < kTiles; i++) {
      const kr = Math.min(t, k - i * t);
      const p = cx.fresh('p');
      body.push(`${p} = spat.wvmm[${tileArgs[tileIndex(i, j)]}](${slices[i]}) : (${tensorType([kr, nc])}, ${tensorType([1, kr])}) -> ${ct} ${loc}`);
      if (acc === undefined) acc = p;
      else {
        const s = cx.fresh('sum');
        body.push(`${s} = spat.vadd ${acc}, ${p} : (${ct}, ${ct}) -> ${ct} ${loc}`);
        acc = s;
      }
    }
    cols.push(acc!);
    colTypes.push(ct);
  }
  const yt = tensorType([1, nOut]);
  let y = cols[0]!;
  if (nTiles > 1) {
    y = cx.fresh('cat');
    body.push(`${y} = spat.concat axis 1 ${cols.join(', ')} : (${colTypes.join(', ')}) -> ${yt} ${loc}`);
  }
  if (biasArg) {
    const b = cx.fresh('bias');
    body.push(`${b} = spat.vadd ${y}, ${biasArg} : (${yt}, ${yt}) -> ${yt} ${loc}`);
    y = b;
  }
  const weightsText = `[${tileArgs.join(', ')}] = [${tileOuter.join(', ')}] (${inArgs.join(', ')}) = (${inOuter.join(', ')}) crossbarWeights ${tileArgs.length} : [${tileTypes.join(', ')}] (${inTypes.join(', ')})`;
  cx.emitRows(out, m, nOut, lane, weightsText, body, y, loc);
}

/** Lowerings of this file, by ONNX operator. */
export const MATMUL_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Gemm: lowerMatmul,
  MatMul: lowerMatmul,
};
