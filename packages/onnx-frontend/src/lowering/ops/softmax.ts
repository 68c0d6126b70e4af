/** `Softmax`: `spat.softmax` over complete slices (rows in a graph_compute_batch). */
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import { type LoweringContext, type NodeLowering } from '../lowering-context';
import { tensorType } from '../mlir-text';

function lowerSoftmax(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const rank = x.shape.length;
  let axis = getAttribute(n, 'axis', 'int') ?? (cx.opset >= 13 ? -1 : 1);
  if (axis < 0) axis += rank;
  // Rows of a [M, N] matrix along the last axis (opset < 13 flattens from `axis`: the same for rank 2).
  const isRows = rank === 2 && axis === 1;
  const onlyAxis = x.shape.every((d, i) => i === axis || d === 1) && (cx.opset >= 13 || x.shape.slice(0, axis).every((d) => d === 1));
  if (!isRows && !onlyAxis) return cx.unsupported(n, `softmax over axis ${axis} of ${x.shape.join('x')} (spat.softmax normalizes a complete slice: rows of a rank-2 tensor, or a tensor whose other dimensions are 1)`);
  if (!isRows || x.shape[0] === 1) {
    cx.elementwise(n.outputs[0]!, 'spat.softmax', [x], loc);
    return;
  }
  const [m, nOut] = [x.shape[0]!, x.shape[1]!];
  const a = cx.fresh('a');
  const lane = cx.fresh('lane');
  const row = cx.fresh('row');
  const r = cx.fresh('r');
  const yt = tensorType([1, nOut]);
  const body = [
    `${row} = tensor.extract_slice ${a}[${lane}, 0] [1, ${nOut}] [1, 1] : ${tensorType(x.shape)} to ${yt} ${loc}`,
    `${r} = spat.softmax(${row}) : ${yt} -> ${yt} ${loc}`,
  ];
  cx.emitRows(n.outputs[0]!, m, nOut, lane, `[] = [] (${a}) = (${x.ssa}) crossbarWeights 0 : [] (${tensorType(x.shape)})`, body, r, loc);
}

/** Lowerings of this file, by ONNX operator. */
export const SOFTMAX_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Softmax: lowerSoftmax,
};
