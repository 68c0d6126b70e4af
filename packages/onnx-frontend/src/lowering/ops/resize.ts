/** Resize lowerings: nearest-neighbour `Resize` and `Upsample` as `spat.resize_nearest_plan`. */
import { Messages } from '../../diagnostics';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import { type LoweringContext, type NodeLowering } from '../lowering-context';

function lowerResize(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const mode = getAttribute(n, 'mode', 'string') ?? 'nearest';
  if (mode !== 'nearest') return void cx.error(n, Messages.unsupportedAttributeValue(n.opType, 'mode', mode, 'nearest'));
  if (n.opType === 'Resize' && cx.opset >= 11) {
    const ctm = getAttribute(n, 'coordinate_transformation_mode', 'string') ?? 'half_pixel';
    if (ctm !== 'asymmetric') return void cx.error(n, Messages.unsupportedAttributeValue(n.opType, 'coordinate_transformation_mode', ctm, 'asymmetric'));
    const nm = getAttribute(n, 'nearest_mode', 'string') ?? 'round_prefer_floor';
    if (nm !== 'floor') return void cx.error(n, Messages.unsupportedAttributeValue(n.opType, 'nearest_mode', nm, 'floor'));
  }
  const outShape = cx.shapeOf(n.outputs[0]!);
  if (x.shape.length !== 4 || outShape[0] !== x.shape[0] || outShape[1] !== x.shape[1]) return cx.unsupported(n, 'only spatial (H, W) resizing of NCHW tensors has a spat plan');
  for (let i = 2; i < 4; i++) if (outShape[i]! % x.shape[i]! !== 0) return cx.unsupported(n, 'non-integer scale factors');
  cx.emitPlan(n.outputs[0]!, 'spat.resize_nearest_plan', [x], outShape, '', loc);
}

/** Lowerings of this file, by ONNX operator. */
export const RESIZE_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Resize: lowerResize,
  Upsample: lowerResize,
};
