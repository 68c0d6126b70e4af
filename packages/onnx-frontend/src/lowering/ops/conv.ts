/**
 * `Conv` with 1 to 3 spatial axes on `spat.conv2d_plan` (see conv-nd.ts), with a following
 * inference BatchNormalization and a following per-channel Add folded into its weights and bias.
 */
import type { Location } from '@raptor-pim/ir-core';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import type { LoweringContext, NodeLowering } from '../lowering-context';
import { elementCount } from '../ir-helpers';
import { emitConvNd } from './conv-nd';
import { resolveWindow } from './window';

/**
 * A copy of `weight` ([scale.length, perOut], row-major) with row `r` multiplied by `scale[r]`.
 * A function of its own so that the loop over every weight is optimized by the engine even
 * though each model has few convolutions.
 */
function scaledRows(weight: Float32Array, scale: Float32Array, perOut: number): Float32Array {
  const out = new Float32Array(weight.length);
  for (let r = 0; r < scale.length; r++) {
    const s = scale[r]!;
    const base = r * perOut;
    for (let k = 0; k < perOut; k++) out[base + k] = weight[base + k]! * s;
  }
  return out;
}

function lowerConv(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const rank = x.shape.length;
  if (rank < 3 || rank > 5) return cx.unsupported(n, `${rank - 2} spatial dimension(s) (1-D, 2-D and 3-D convolutions are lowered)`);
  const w0 = cx.floatsOf(n.inputs[1] ?? '');
  if (!w0) return cx.unsupported(n, 'the weight is not a constant (crossbar weights must be compile-time constants)');
  const wShape = cx.shapeOf(n.inputs[1]!);
  const cout = wShape[0]!;
  const perOut = elementCount(wShape) / cout;
  let weight = w0; // the model's data (read-only): folding below works on a copy
  const hasBias = (n.inputs[2] ?? '') !== '';
  let bias: Float32Array | undefined = hasBias ? cx.floatsOf(n.inputs[2]!) : undefined;
  if (hasBias && !bias) return cx.unsupported(n, 'the bias is not a constant');
  // Fold a following BatchNormalization, then a following per-channel Add.
  let out = n.outputs[0]!;
  const next = cx.soleConsumer(out);
  if (next?.opType === 'BatchNormalization' && next.inputs[0] === out) {
    const bn = cx.batchNormParams(next);
    if (bn && bn.scale.length === cout) {
      weight = scaledRows(weight, bn.scale, perOut);
      const b = new Float32Array(cout);
      for (let co = 0; co < cout; co++) b[co] = (bias ? bias[co]! : 0) * bn.scale[co]! + bn.shift[co]!;
      bias = b;
      cx.fused.add(next);
      out = next.outputs[0]!;
    }
  }
  const add = cx.soleConsumer(out);
  if (add?.opType === 'Add') {
    const other = add.inputs[0] === out ? add.inputs[1]! : add.inputs[0]!;
    const c = cx.perChannel(other, cout, rank, 1);
    if (c && cx.shapeOf(add.outputs[0]!).join() === cx.shapeOf(out).join()) {
      const b = new Float32Array(cout);
      for (let co = 0; co < cout; co++) b[co] = (bias ? bias[co]! : 0) + c[co]!;
      bias = b;
      cx.fused.add(add);
      out = add.outputs[0]!;
    }
  }
  const group = getAttribute(n, 'group', 'int') ?? 1;
  const win = resolveWindow(cx, n, x.shape.slice(2), wShape.slice(2), cx.shapeOf(n.outputs[0]!).slice(2));
  if (!win) return;
  emitConvNd(cx, out, x, { weight, wShape, bias, group, window: win, key: `conv:${n.index}` }, loc);
}

/** Lowerings of this file, by ONNX operator. */
export const CONV_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Conv: lowerConv,
};
