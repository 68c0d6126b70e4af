/** Convolution lowerings: `Conv` (with a following BatchNormalization and per-channel Add folded in) and standalone inference `BatchNormalization`. */
import { Messages } from '../../diagnostics';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import { type LoweringContext, type NodeLowering, type Val } from '../lowering-context';
import { elementCount, i64Array } from '../mlir-text';

function lowerConv(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  if (x.shape.length !== 4) return cx.unsupported(n, `${x.shape.length - 2} spatial dimension(s) (only 2-D convolution has a spat plan)`);
  const w0 = cx.floatsOf(n.inputs[1] ?? '');
  if (!w0) return cx.unsupported(n, 'the weight is not a constant');
  const wShape = cx.shapeOf(n.inputs[1]!);
  const cout = wShape[0]!;
  const perOut = elementCount(wShape) / cout;
  const weight = Float32Array.from(w0);
  let bias: Float32Array | undefined = (n.inputs[2] ?? '') !== '' ? cx.floatsOf(n.inputs[2]!) : undefined;
  if ((n.inputs[2] ?? '') !== '' && !bias) return cx.unsupported(n, 'the bias is not a constant');
  // Fold a following BatchNormalization, then a following per-channel Add.
  let out = n.outputs[0]!;
  const next = cx.soleConsumer(out);
  if (next?.opType === 'BatchNormalization' && next.inputs[0] === out) {
    const bn = cx.batchNormParams(next);
    if (bn && bn.scale.length === cout) {
      for (let co = 0; co < cout; co++) for (let k = 0; k < perOut; k++) weight[co * perOut + k]! *= bn.scale[co]!;
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
    const c = cx.perChannel(other, cout, 4, 1);
    if (c && cx.shapeOf(add.outputs[0]!).join() === cx.shapeOf(out).join()) {
      const b = new Float32Array(cout);
      for (let co = 0; co < cout; co++) b[co] = (bias ? bias[co]! : 0) + c[co]!;
      bias = b;
      cx.fused.add(add);
      out = add.outputs[0]!;
    }
  }
  const kernel = wShape.slice(2);
  const strides = getAttribute(n, 'strides', 'ints') ?? [1, 1];
  const dilations = getAttribute(n, 'dilations', 'ints') ?? [1, 1];
  const group = getAttribute(n, 'group', 'int') ?? 1;
  const outShape = cx.shapeOf(n.outputs[0]!);
  const pads = resolvePads(cx, n, x.shape.slice(2), kernel, strides, dilations, outShape.slice(2));
  if (!pads) return;
  const ops: Val[] = [x, { ssa: cx.constant(`w:${n.inputs[1]}:${n.index}`, weight, wShape, loc), shape: wShape }];
  if (bias) ops.push({ ssa: cx.constant(`b:${n.index}`, bias, [cout], loc), shape: [cout] });
  const props = `dilations = ${i64Array(dilations)}, group = ${group} : i64, pads = ${i64Array(pads)}, strides = ${i64Array(strides)}`;
  cx.emitPlan(out, 'spat.conv2d_plan', ops, outShape, props, loc);
}

function lowerStandaloneBatchNorm(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const bn = cx.batchNormParams(n);
  if (!bn || x.shape.length !== 4) return cx.unsupported(n, 'only inference BatchNormalization with constant parameters on NCHW tensors (lowered as a depthwise 1x1 convolution) or folded into a preceding Conv/Gemm');
  const c = x.shape[1]!;
  const w = { ssa: cx.constant(`bnw:${n.index}`, bn.scale, [c, 1, 1, 1], loc), shape: [c, 1, 1, 1] };
  const b = { ssa: cx.constant(`bnb:${n.index}`, bn.shift, [c], loc), shape: [c] };
  cx.emitPlan(n.outputs[0]!, 'spat.conv2d_plan', [x, w, b], x.shape, `dilations = ${i64Array([1, 1])}, group = ${c} : i64, pads = ${i64Array([0, 0, 0, 0])}, strides = ${i64Array([1, 1])}`, loc);
}

/** Lowerings of this file, by ONNX operator. */
export const CONV_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Conv: lowerConv,
  BatchNormalization: lowerStandaloneBatchNorm,
};

/** [top, left, bottom, right] pads from `pads` or `auto_pad` (ONNX order is begins then ends). */
export function resolvePads(cx: LoweringContext, n: OnnxNode, inSpatial: readonly number[], kernel: readonly number[], strides: readonly number[], dilations: readonly number[], outSpatial: readonly number[]): number[] | undefined {
  const autoPad = getAttribute(n, 'auto_pad', 'string') ?? 'NOTSET';
  if (autoPad === 'NOTSET') {
    const p = getAttribute(n, 'pads', 'ints') ?? [0, 0, 0, 0];
    return [p[0]!, p[1]!, p[2]!, p[3]!];
  }
  if (autoPad === 'VALID') return [0, 0, 0, 0];
  if (autoPad !== 'SAME_UPPER' && autoPad !== 'SAME_LOWER') {
    cx.error(n, Messages.unsupportedAttributeValue(n.opType, 'auto_pad', autoPad, 'NOTSET, VALID, SAME_UPPER, SAME_LOWER'));
    return undefined;
  }
  const begin: number[] = [];
  const end: number[] = [];
  for (let i = 0; i < 2; i++) {
    const total = Math.max(0, (outSpatial[i]! - 1) * strides[i]! + (kernel[i]! - 1) * dilations[i]! + 1 - inSpatial[i]!);
    const small = Math.floor(total / 2);
    begin.push(autoPad === 'SAME_UPPER' ? small : total - small);
    end.push(autoPad === 'SAME_UPPER' ? total - small : small);
  }
  return [begin[0]!, begin[1]!, end[0]!, end[1]!];
}
