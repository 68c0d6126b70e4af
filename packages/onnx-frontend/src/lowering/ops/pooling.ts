/** Pooling lowerings: `MaxPool` and `GlobalAveragePool`. */
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import { type LoweringContext, type NodeLowering } from '../lowering-context';
import { i64Array } from '../mlir-text';
import { resolvePads } from './conv';

function lowerMaxPool(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  if (x.shape.length !== 4) return cx.unsupported(n, `${x.shape.length - 2} spatial dimension(s) (only 2-D max pooling has a spat plan)`);
  if ((n.outputs[1] ?? '') !== '' && cx.isUsed(n.outputs[1]!)) return cx.unsupported(n, 'the Indices output is used');
  if ((getAttribute(n, 'storage_order', 'int') ?? 0) !== 0) return cx.unsupported(n, 'storage_order 1');
  const kernel = getAttribute(n, 'kernel_shape', 'ints') ?? [1, 1];
  const strides = getAttribute(n, 'strides', 'ints') ?? [1, 1];
  const dilations = getAttribute(n, 'dilations', 'ints') ?? [1, 1];
  const outShape = cx.shapeOf(n.outputs[0]!);
  const pads = resolvePads(cx, n, x.shape.slice(2), kernel, strides, dilations, outShape.slice(2));
  if (!pads) return;
  // ceil_mode: extend the end padding so that the floor formula gives the inferred size.
  for (let i = 0; i < 2; i++) {
    const needed = (outShape[2 + i]! - 1) * strides[i]! + dilations[i]! * (kernel[i]! - 1) + 1 - (x.shape[2 + i]! + pads[i]! + pads[2 + i]!);
    if (needed > 0) pads[2 + i]! += needed;
  }
  const props = `dilations = ${i64Array(dilations)}, kernelShape = ${i64Array(kernel)}, pads = ${i64Array(pads)}, strides = ${i64Array(strides)}`;
  cx.emitPlan(n.outputs[0]!, 'spat.max_pool2d_plan', [x], outShape, props, loc);
}

function simplePlan(cx: LoweringContext, n: OnnxNode, op: string, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const shape = cx.shapeOf(n.outputs[0]!);
  if (op !== 'spat.relu_plan' && x.shape.length !== 4) return cx.unsupported(n, `input rank ${x.shape.length} (expected an NCHW rank-4 tensor)`);
  if (op === 'spat.global_average_pool_plan' && x.shape[0] !== 1) return cx.unsupported(n, 'batch size other than 1');
  cx.emitPlan(n.outputs[0]!, op, [x], shape, '', loc);
}

/** Lowerings of this file, by ONNX operator. */
export const POOLING_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  MaxPool: lowerMaxPool,
  GlobalAveragePool: (cx, n, loc) => simplePlan(cx, n, 'spat.global_average_pool_plan', loc),
};
