/**
 * `AveragePool` (1-D to 3-D) as a depthwise convolution (conv-nd.ts): with weights 1/|kernel|
 * when every window divides by |kernel| (count_include_pad = 1 without a ceil_mode overhang,
 * or no padding and no overhang); otherwise a sum pool (weights 1) times a constant map of the
 * reciprocal tap count of each output position (`spat.vmul` in a graph_compute).
 */
import type { Location } from '@raptor-pim/ir-core';
import { VmulOp } from '@raptor-pim/spatial-dialect';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import type { LoweringContext, NodeLowering } from '../lowering-context';
import { elementCount } from '../ir-helpers';
import { emitConvNd } from './conv-nd';
import { floorEndPads, resolveWindow, tapCounts } from './window';

function lowerAveragePool(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const rank = x.shape.length;
  if (rank < 3 || rank > 5) return cx.unsupported(n, `${rank - 2} spatial dimension(s) (1-D, 2-D and 3-D average pooling are lowered)`);
  const outShape = cx.shapeOf(n.outputs[0]!);
  const kernel = getAttribute(n, 'kernel_shape', 'ints') ?? [];
  const win = resolveWindow(cx, n, x.shape.slice(2), kernel, outShape.slice(2));
  if (!win) return;
  const includePad = (getAttribute(n, 'count_include_pad', 'int') ?? 0) !== 0;
  const counts = win.output.map((_, i) => tapCounts(win, i, includePad));
  const taps = elementCount(kernel);
  const uniform = counts.every((axis, i) => axis.every((k) => k === kernel[i]));
  const c = x.shape[1]!;
  const weight = new Float32Array(c * taps).fill(uniform ? 1 / taps : 1);
  const sumOut = uniform ? n.outputs[0]! : cx.temp();
  const sum = emitConvNd(cx, sumOut, x, { weight, wShape: [c, 1, ...kernel], group: c, window: { ...win, end: floorEndPads(win) }, key: `avgpool:${n.index}` }, loc);
  if (uniform) return;
  // Reciprocal of the divisor of every output position (the product of the per-axis counts).
  const spatial = outShape.slice(2);
  const planeSize = elementCount(spatial);
  const plane = new Float32Array(planeSize);
  const idx = new Array<number>(spatial.length).fill(0);
  for (let p = 0; p < planeSize; p++) {
    let divisor = 1;
    for (let i = 0; i < spatial.length; i++) divisor *= counts[i]![idx[i]!]!;
    plane[p] = divisor === 0 ? 0 : 1 / divisor; // a window without any input tap averages to 0, as in onnxruntime
    for (let i = spatial.length - 1; i >= 0; i--) {
      if (++idx[i]! < spatial[i]!) break;
      idx[i] = 0;
    }
  }
  const planes = outShape[0]! * c;
  const map = new Float32Array(planes * planeSize);
  for (let q = 0; q < planes; q++) map.set(plane, q * planeSize);
  const recip = cx.constantVal(`avgpool:${n.index}:recip`, map, outShape, loc);
  cx.elementwise(n.outputs[0]!, VmulOp, [sum, recip], loc);
}

/** Lowerings of this file, by ONNX operator. */
export const AVERAGE_POOL_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  AveragePool: lowerAveragePool,
};
