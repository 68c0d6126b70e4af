/** Data-movement lowerings: `Identity`/`Dropout` (aliases), `Concat`, `Split`, and `Flatten`/`Reshape`/`Squeeze`/`Unsqueeze`. */
import { LoweringMessages as LM } from '../../diagnostics';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import { type LoweringContext, type NodeLowering, type Val } from '../lowering-context';
import { elementCount, tensorType } from '../mlir-text';

function alias(cx: LoweringContext, n: OnnxNode, loc: string): void {
  if (n.opType === 'Dropout' && (n.outputs[1] ?? '') !== '' && cx.isUsed(n.outputs[1]!)) {
    cx.unsupported(n, 'the mask output is used (only inference-mode Dropout is supported)');
    return;
  }
  const x = cx.input(n, 0, loc);
  if (x) cx.define(n.outputs[0]!, x);
}

function lowerConcat(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const outShape = cx.shapeOf(n.outputs[0]!);
  const rank = outShape.length;
  let axis = getAttribute(n, 'axis', 'int') ?? 1;
  if (axis < 0) axis += rank;
  const ins: Val[] = [];
  for (let i = 0; i < n.inputs.length; i++) {
    const v = cx.input(n, i, loc);
    if (!v) return;
    if (elementCount(v.shape) > 0) ins.push(v);
  }
  if (rank === 4 && axis === 1) {
    cx.emitPlan(n.outputs[0]!, 'spat.concat_plan', ins, outShape, 'axis = 1 : i64', loc);
    return;
  }
  const args = ins.map(() => cx.fresh('a'));
  const types = ins.map((v) => tensorType(v.shape));
  const r = cx.fresh('r');
  const t = tensorType(outShape);
  const ssa = cx.fresh();
  cx.lines.push(
    `${ssa} = spat.graph_compute [] = [] (${args.join(', ')}) = (${ins.map((i) => i.ssa).join(', ')}) crossbarWeights 0 : [] (${types.join(', ')}) -> ${t} {`,
    `  ${r} = spat.concat axis ${axis} ${args.join(', ')} : (${types.join(', ')}) -> ${t} ${loc}`,
    `  spat.yield ${r} : ${t} ${loc}`,
    `} ${loc}`,
  );
  cx.define(n.outputs[0]!, { ssa, shape: outShape });
}

/** Split: one `spat.graph_compute` per output, extracting its static slice along the axis. */
function lowerSplit(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const rank = x.shape.length;
  let axis = getAttribute(n, 'axis', 'int') ?? 0;
  if (axis < 0) axis += rank;
  const t = tensorType(x.shape);
  let offset = 0;
  for (const out of n.outputs) {
    const shape = cx.shapeOf(out);
    if (out !== '') {
      const a = cx.fresh('a');
      const r = cx.fresh('r');
      const ssa = cx.fresh();
      const offsets = x.shape.map((_, i) => (i === axis ? offset : 0));
      const ot = tensorType(shape);
      cx.lines.push(
        `${ssa} = spat.graph_compute [] = [] (${a}) = (${x.ssa}) crossbarWeights 0 : [] (${t}) -> ${ot} {`,
        `  ${r} = tensor.extract_slice ${a}[${offsets.join(', ')}] [${shape.join(', ')}] [${shape.map(() => 1).join(', ')}] : ${t} to ${ot} ${loc}`,
        `  spat.yield ${r} : ${ot} ${loc}`,
        `} ${loc}`,
      );
      cx.define(out, { ssa, shape });
    }
    offset += shape[axis] ?? 0;
  }
}

function lowerReshape(cx: LoweringContext, n: OnnxNode, loc: string): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const outShape = cx.shapeOf(n.outputs[0]!);
  if (outShape.join() === x.shape.join()) {
    cx.define(n.outputs[0]!, x);
    return;
  }
  if (outShape.length === 2) {
    for (let k = 0; k <= x.shape.length; k++) {
      if (elementCount(x.shape.slice(0, k)) === outShape[0] && elementCount(x.shape.slice(k)) === outShape[1]) {
        cx.emitPlan(n.outputs[0]!, 'spat.flatten_plan', [x], outShape, `axis = ${k} : i64`, loc);
        return;
      }
    }
  }
  cx.error(n, LM.noSpatReshape(n.opType, cx.nodeName(n), x.shape, outShape));
}

/** Lowerings of this file, by ONNX operator. */
export const DATA_MOVEMENT_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Identity: alias,
  Dropout: alias,
  Concat: lowerConcat,
  Split: lowerSplit,
  Flatten: lowerReshape,
  Reshape: lowerReshape,
  Squeeze: lowerReshape,
  Unsqueeze: lowerReshape,
};
