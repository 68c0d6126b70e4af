/**
 * Standalone inference `BatchNormalization` on any rank `[N, C, ...]`: with constant parameters
 * it is a per-channel affine map `y = x * scale + shift` (`scale = gamma / sqrt(var + eps)`,
 * `shift = beta - mean * scale`). NCHW inputs keep the depthwise 1x1 `spat.conv2d_plan`; other
 * ranks get one graph_compute that broadcasts `[1, C, 1, ...]` constants in the region and
 * applies `spat.vmul` then `spat.vadd`. (A BatchNormalization after a Conv or Gemm is folded
 * into that node's weights by the conv/matmul lowerings and never reaches this one.)
 */
import type { Location } from '@raptor-pim/ir-core';
import { conv2dProps } from './conv-nd';
import { Conv2dPlanOp, VaddOp, VmulOp } from '@raptor-pim/spatial-dialect';
import type { OnnxNode } from '../../onnx/model';
import type { LoweringContext } from '../lowering-context';
import { broadcastInBody } from './broadcast';
import { ElementwiseReasons as R } from './elementwise-messages';

/**
 * Lowers an inference BatchNormalization node on an input of any rank >= 2 (training mode is
 * rejected earlier by shape inference; non-constant parameters are refused here).
 */
export function lowerBatchNormAnyRank(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const rank = x.shape.length;
  if (rank < 2) throw new Error(`internal error: BatchNormalization on a rank-${rank} input passed shape inference`);
  const bn = cx.batchNormParams(n);
  const c = x.shape[1]!;
  if (!bn || bn.scale.length !== c) return cx.unsupported(n, R.batchNormNotConstant);
  if (rank === 4) {
    const w = cx.constantVal(`bnw:${n.index}`, bn.scale, [c, 1, 1, 1], loc);
    const b = cx.constantVal(`bnb:${n.index}`, bn.shift, [c], loc);
    cx.emitPlan(n.outputs[0]!, Conv2dPlanOp, [x, w, b], x.shape, conv2dProps(cx.context, c, [0, 0, 0, 0], [1, 1], [1, 1]), loc);
    return;
  }
  const channelShape = x.shape.map((d, i) => (i === 1 ? d : 1));
  const scale = cx.constantVal(`bnw:${n.index}`, bn.scale, channelShape, loc);
  const shift = cx.constantVal(`bnb:${n.index}`, bn.shift, channelShape, loc);
  cx.compute(n.outputs[0]!, [x, scale, shift], x.shape, loc, (b, [a, s, t]) => {
    const scaled = b.binary(VmulOp, a!, broadcastInBody(b, s!, channelShape, channelShape, x.shape), x.shape);
    return b.binary(VaddOp, scaled, broadcastInBody(b, t!, channelShape, channelShape, x.shape), x.shape);
  });
}
