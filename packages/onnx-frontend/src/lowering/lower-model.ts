/**
 * ONNX -> Spatial plans: `importOnnxModel` turns a validated, shape-inferred ONNX model into a
 * `builtin.module` with one `func.func @main` of `spat.*_plan` ops (convolutions, pooling,
 * element-wise plans), `spat.graph_compute(_batch)` regions for matrix products (weights tiled
 * onto crossbar-sized `spat.wvmm`) and softmax, and `arith.constant` weights. Every op carries
 * the ONNX node name as a name location. The module is built as MLIR text, parsed and verified.
 */
import { MLIRContext, parseSourceString, verify, type Operation } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { LoweringMessages as LM, Messages, hasErrors, type OnnxDiagnostic } from '../diagnostics';
import { OnnxDataType, dataTypeName } from '../onnx/dtypes';
import { getAttribute, type OnnxModel, type OnnxNode, type OnnxTensor } from '../onnx/model';
import { type InferredValue, inferShapes } from '../shapes/infer-shapes';
import { tensorToNumbers } from '../shapes/constant-eval';
import { denseF32, elementCount, i64Array, nameLoc, tensorType } from './mlir-text';

/** Default crossbar size (rows = columns), from the hardware defaults: 128 x 128. */
export const DEFAULT_CROSSBAR_SIZE = 128;

/** The ONNX operators {@link importOnnxModel} lowers, alphabetical. */
export const LOWERED_OPERATORS: readonly string[] = [
  'Add', 'BatchNormalization', 'Clip', 'Concat', 'Constant', 'Conv', 'Dropout', 'Flatten', 'Gemm', 'GlobalAveragePool', 'HardSigmoid', 'Identity',
  'MatMul', 'MaxPool', 'Mul', 'Relu', 'Reshape', 'Resize', 'Sigmoid', 'Softmax', 'Split', 'Squeeze', 'Unsqueeze', 'Upsample',
];

/** Options of {@link importOnnxModel}. */
export interface ImportOnnxOptions {
  /** Concrete shapes of graph inputs by name (binds symbolic dims). */
  readonly inputShapes?: Readonly<Record<string, readonly number[]>>;
  /** Rows and columns of one crossbar: the weight tile size of `spat.wvmm` (default 128). */
  readonly crossbarSize?: number;
  /** Name of the generated function (default `main`). */
  readonly functionName?: string;
}

/** A graph input or output of the imported function. */
export interface ImportedValue {
  readonly name: string;
  readonly shape: readonly number[];
}

/** The result of {@link importOnnxModel}. */
export interface ImportedModule {
  /** The verified module, or undefined when an error was reported. */
  readonly module: Operation | undefined;
  /** The MLIR text the module was parsed from (empty when lowering failed). */
  readonly text: string;
  /** The context owning the module. */
  readonly context: MLIRContext;
  readonly functionName: string;
  readonly inputs: readonly ImportedValue[];
  readonly outputs: readonly ImportedValue[];
  readonly diagnostics: OnnxDiagnostic[];
}

/** A runtime value of the function under construction. */
interface Val {
  readonly ssa: string;
  readonly shape: readonly number[];
}

const F32 = OnnxDataType.FLOAT;

/** Lowers one graph; collects diagnostics instead of throwing. */
class Lowering {
  private readonly lines: string[] = [];
  private readonly vals = new Map<string, Val>();
  private readonly constSsa = new Map<string, string>();
  private readonly uses = new Map<string, OnnxNode[]>();
  private readonly graphOutputs = new Set<string>();
  private readonly fused = new Set<OnnxNode>();
  private counter = 0;
  readonly diagnostics: OnnxDiagnostic[] = [];

  constructor(
    private readonly model: OnnxModel,
    private readonly values: ReadonlyMap<string, InferredValue>,
    private readonly crossbar: number,
  ) {
    for (const n of model.graph.nodes) for (const i of n.inputs) if (i !== '') this.uses.set(i, [...(this.uses.get(i) ?? []), n]);
    for (const o of model.graph.outputs) this.graphOutputs.add(o.name);
  }

  private get opset(): number {
    return this.model.opsets.get('') ?? 0;
  }

  private fresh(prefix = 'v'): string {
    return `%${prefix}${this.counter++}`;
  }

  private error(node: OnnxNode | undefined, message: string, value?: string): void {
    this.diagnostics.push({
      severity: 'error',
      location: node ? { file: this.model.file, node: node.name, nodeIndex: node.index } : { file: this.model.file, value },
      message,
    });
  }

  private nodeName(n: OnnxNode): string {
    return n.name !== '' ? n.name : `${n.opType}_${n.index}`;
  }

  /** The single consumer of `name`, if it has exactly one use and is not a graph output. */
  private soleConsumer(name: string): OnnxNode | undefined {
    const u = this.uses.get(name);
    if (!u || u.length !== 1 || this.graphOutputs.has(name)) return undefined;
    return u[0];
  }

  private constantOf(name: string): OnnxTensor | undefined {
    if (name === '') return undefined;
    return this.values.get(name)?.constant;
  }

  private floatsOf(name: string): Float32Array | undefined {
    const c = this.constantOf(name);
    return c ? Float32Array.from(tensorToNumbers(c)) : undefined;
  }

  private shapeOf(name: string): readonly number[] {
    return this.values.get(name)?.shape ?? [];
  }

  /** Emits (once) an arith.constant for `data` and returns its SSA name. */
  private constant(key: string, data: Float32Array, shape: readonly number[], loc: string): string {
    const k = `${key}|${shape.join('x')}`;
    const known = this.constSsa.get(k);
    if (known) return known;
    const ssa = this.fresh('cst');
    this.lines.push(`${ssa} = arith.constant ${denseF32(data)} : ${tensorType(shape)} ${loc}`);
    this.constSsa.set(k, ssa);
    return ssa;
  }

  /** The runtime value of an ONNX name (materializing constants). */
  private value(name: string, loc: string): Val | undefined {
    const v = this.vals.get(name);
    if (v) return v;
    const info = this.values.get(name);
    if (info?.constant) {
      if (info.dataType !== F32) return undefined;
      const val = { ssa: this.constant(`n:${name}`, Float32Array.from(tensorToNumbers(info.constant)), info.shape, loc), shape: info.shape };
      this.vals.set(name, val);
      return val;
    }
    return undefined;
  }

  private define(name: string, v: Val): void {
    this.vals.set(name, v);
  }

  run(functionName: string): string | undefined {
    const g = this.model.graph;
    const args: string[] = [];
    g.inputs.forEach((inp, i) => {
      const info = this.values.get(inp.name);
      if (!info || info.dataType !== F32) {
        this.error(undefined, LM.nonFloatValue(inp.name, dataTypeName(info?.dataType ?? inp.elemType)), inp.name);
        return;
      }
      const ssa = `%arg${i}`;
      args.push(`${ssa}: ${tensorType(info.shape)} ${nameLoc(inp.name)}`);
      this.define(inp.name, { ssa, shape: info.shape });
    });
    for (const n of g.nodes) {
      if (this.fused.has(n)) continue;
      if (n.outputs.every((o) => o === '' || this.values.get(o)?.constant !== undefined)) continue; // folded
      const before = this.diagnostics.length;
      this.lowerNode(n);
      if (this.diagnostics.length > before) continue;
    }
    const results: string[] = [];
    const resultTypes: string[] = [];
    for (const o of g.outputs) {
      const v = this.value(o.name, 'loc(unknown)');
      if (!v) {
        if (!hasErrors(this.diagnostics)) this.error(undefined, LM.nonFloatValue(o.name, dataTypeName(this.values.get(o.name)?.dataType ?? o.elemType)), o.name);
        continue;
      }
      results.push(v.ssa);
      resultTypes.push(tensorType(v.shape));
    }
    if (hasErrors(this.diagnostics)) return undefined;
    const resultText = resultTypes.length === 1 ? resultTypes[0]! : `(${resultTypes.join(', ')})`;
    const out = [`module {`, `  func.func @${functionName}(${args.join(', ')}) -> ${resultText} {`];
    for (const l of this.lines) out.push(`    ${l}`);
    const outputNames = g.outputs.map((o) => o.name).join(', ');
    out.push(`    func.return ${results.join(', ')} : ${resultTypes.join(', ')} ${nameLoc(outputNames)}`, `  } ${nameLoc(g.name || functionName)}`, `} ${nameLoc(this.model.file)}`, '');
    return out.join('\n');
  }

  // ------------------------------------------------------------------------------- dispatch

  private lowerNode(n: OnnxNode): void {
    if (n.domain !== '' && n.domain !== 'ai.onnx') {
      this.error(n, Messages.unsupportedDomainOp(n.opType, n.domain, this.nodeName(n)));
      return;
    }
    const loc = nameLoc(this.nodeName(n));
    switch (n.opType) {
      case 'Identity':
      case 'Dropout':
        return this.alias(n, loc);
      case 'Conv':
        return this.lowerConv(n, loc);
      case 'BatchNormalization':
        return this.lowerStandaloneBatchNorm(n, loc);
      case 'Relu':
        return this.simplePlan(n, 'spat.relu_plan', loc);
      case 'Sigmoid':
        return this.lowerSigmoid(n, loc);
      case 'MaxPool':
        return this.lowerMaxPool(n, loc);
      case 'GlobalAveragePool':
        return this.simplePlan(n, 'spat.global_average_pool_plan', loc);
      case 'Add':
        return this.lowerAdd(n, loc);
      case 'Mul':
        return this.lowerMul(n, loc);
      case 'Concat':
        return this.lowerConcat(n, loc);
      case 'Flatten':
      case 'Reshape':
      case 'Squeeze':
      case 'Unsqueeze':
        return this.lowerReshape(n, loc);
      case 'Resize':
      case 'Upsample':
        return this.lowerResize(n, loc);
      case 'Gemm':
      case 'MatMul':
        return this.lowerMatmul(n, loc);
      case 'Softmax':
        return this.lowerSoftmax(n, loc);
      case 'Split':
        return this.lowerSplit(n, loc);
      case 'Clip':
        return this.lowerClip(n, loc);
      case 'HardSigmoid':
        return this.lowerHardSigmoid(n, loc);
      default:
        this.error(n, LM.unsupportedOperator(n.opType, this.nodeName(n), this.opset, LOWERED_OPERATORS.join(', ')));
    }
  }

  private input(n: OnnxNode, i: number, loc: string): Val | undefined {
    const name = n.inputs[i] ?? '';
    const v = this.value(name, loc);
    if (!v) this.error(n, LM.nonFloatValue(name, dataTypeName(this.values.get(name)?.dataType ?? 0)));
    return v;
  }

  private unsupported(n: OnnxNode, why: string): void {
    this.error(n, LM.unsupportedForm(n.opType, this.nodeName(n), why));
  }

  private alias(n: OnnxNode, loc: string): void {
    if (n.opType === 'Dropout' && (n.outputs[1] ?? '') !== '' && this.uses.has(n.outputs[1]!)) {
      this.unsupported(n, 'the mask output is used (only inference-mode Dropout is supported)');
      return;
    }
    const x = this.input(n, 0, loc);
    if (x) this.define(n.outputs[0]!, x);
  }

  private simplePlan(n: OnnxNode, op: string, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    const shape = this.shapeOf(n.outputs[0]!);
    if (op !== 'spat.relu_plan' && x.shape.length !== 4) return this.unsupported(n, `input rank ${x.shape.length} (expected an NCHW rank-4 tensor)`);
    if (op === 'spat.global_average_pool_plan' && x.shape[0] !== 1) return this.unsupported(n, 'batch size other than 1');
    this.emitPlan(n.outputs[0]!, op, [x], shape, '', loc);
  }

  private emitPlan(out: string, op: string, operands: readonly Val[], shape: readonly number[], props: string, loc: string): Val {
    const ssa = this.fresh();
    const p = props === '' ? 'logicalLayout = #spat<logical_layout nchw>' : `${props}, logicalLayout = #spat<logical_layout nchw>`;
    this.lines.push(`${ssa} = "${op}"(${operands.map((o) => o.ssa).join(', ')}) <{${p}}> : (${operands.map((o) => tensorType(o.shape)).join(', ')}) -> ${tensorType(shape)} ${loc}`);
    const v = { ssa, shape };
    this.define(out, v);
    return v;
  }

  // ------------------------------------------------------------------------------- conv

  /** Scale and shift of an inference BatchNormalization node with constant parameters. */
  private batchNormParams(bn: OnnxNode): { scale: Float32Array; shift: Float32Array } | undefined {
    const [gamma, beta, mean, variance] = [1, 2, 3, 4].map((i) => this.floatsOf(bn.inputs[i] ?? ''));
    if (!gamma || !beta || !mean || !variance) return undefined;
    if (bn.outputs.slice(1).some((o) => o !== '' && this.uses.has(o))) return undefined;
    const eps = getAttribute(bn, 'epsilon', 'float') ?? 1e-5;
    const c = gamma.length;
    const scale = new Float32Array(c);
    const shift = new Float32Array(c);
    for (let i = 0; i < c; i++) {
      scale[i] = gamma[i]! / Math.sqrt(variance[i]! + eps);
      shift[i] = beta[i]! - mean[i]! * scale[i]!;
    }
    return { scale, shift };
  }

  /** A constant of shape broadcastable to per-channel [C] at `axis` of a rank-`rank` tensor, as [C] values. */
  private perChannel(name: string, channels: number, rank: number, axis: number): Float32Array | undefined {
    const data = this.floatsOf(name);
    if (!data || this.values.get(name)?.dataType !== F32) return undefined;
    const shape = this.shapeOf(name);
    if (elementCount(shape) === 1) return new Float32Array(channels).fill(data[0]!);
    if (shape.length > rank) return undefined;
    const padded = [...new Array<number>(rank - shape.length).fill(1), ...shape];
    if (padded.some((d, i) => (i === axis ? d !== channels : d !== 1))) return undefined;
    return data;
  }

  private lowerConv(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    if (x.shape.length !== 4) return this.unsupported(n, `${x.shape.length - 2} spatial dimension(s) (only 2-D convolution has a spat plan)`);
    const w0 = this.floatsOf(n.inputs[1] ?? '');
    if (!w0) return this.unsupported(n, 'the weight is not a constant');
    const wShape = this.shapeOf(n.inputs[1]!);
    const cout = wShape[0]!;
    const perOut = elementCount(wShape) / cout;
    const weight = Float32Array.from(w0);
    let bias: Float32Array | undefined = (n.inputs[2] ?? '') !== '' ? this.floatsOf(n.inputs[2]!) : undefined;
    if ((n.inputs[2] ?? '') !== '' && !bias) return this.unsupported(n, 'the bias is not a constant');
    // Fold a following BatchNormalization, then a following per-channel Add.
    let out = n.outputs[0]!;
    const next = this.soleConsumer(out);
    if (next?.opType === 'BatchNormalization' && next.inputs[0] === out) {
      const bn = this.batchNormParams(next);
      if (bn && bn.scale.length === cout) {
        for (let co = 0; co < cout; co++) for (let k = 0; k < perOut; k++) weight[co * perOut + k]! *= bn.scale[co]!;
        const b = new Float32Array(cout);
        for (let co = 0; co < cout; co++) b[co] = (bias ? bias[co]! : 0) * bn.scale[co]! + bn.shift[co]!;
        bias = b;
        this.fused.add(next);
        out = next.outputs[0]!;
      }
    }
    const add = this.soleConsumer(out);
    if (add?.opType === 'Add') {
      const other = add.inputs[0] === out ? add.inputs[1]! : add.inputs[0]!;
      const c = this.perChannel(other, cout, 4, 1);
      if (c && this.shapeOf(add.outputs[0]!).join() === this.shapeOf(out).join()) {
        const b = new Float32Array(cout);
        for (let co = 0; co < cout; co++) b[co] = (bias ? bias[co]! : 0) + c[co]!;
        bias = b;
        this.fused.add(add);
        out = add.outputs[0]!;
      }
    }
    const kernel = wShape.slice(2);
    const strides = getAttribute(n, 'strides', 'ints') ?? [1, 1];
    const dilations = getAttribute(n, 'dilations', 'ints') ?? [1, 1];
    const group = getAttribute(n, 'group', 'int') ?? 1;
    const outShape = this.shapeOf(n.outputs[0]!);
    const pads = this.pads(n, x.shape.slice(2), kernel, strides, dilations, outShape.slice(2));
    if (!pads) return;
    const ops: Val[] = [x, { ssa: this.constant(`w:${n.inputs[1]}:${n.index}`, weight, wShape, loc), shape: wShape }];
    if (bias) ops.push({ ssa: this.constant(`b:${n.index}`, bias, [cout], loc), shape: [cout] });
    const props = `dilations = ${i64Array(dilations)}, group = ${group} : i64, pads = ${i64Array(pads)}, strides = ${i64Array(strides)}`;
    this.emitPlan(out, 'spat.conv2d_plan', ops, outShape, props, loc);
  }

  /** [top, left, bottom, right] pads from `pads` or `auto_pad` (ONNX order is begins then ends). */
  private pads(n: OnnxNode, inSpatial: readonly number[], kernel: readonly number[], strides: readonly number[], dilations: readonly number[], outSpatial: readonly number[]): number[] | undefined {
    const autoPad = getAttribute(n, 'auto_pad', 'string') ?? 'NOTSET';
    if (autoPad === 'NOTSET') {
      const p = getAttribute(n, 'pads', 'ints') ?? [0, 0, 0, 0];
      return [p[0]!, p[1]!, p[2]!, p[3]!];
    }
    if (autoPad === 'VALID') return [0, 0, 0, 0];
    if (autoPad !== 'SAME_UPPER' && autoPad !== 'SAME_LOWER') {
      this.error(n, Messages.unsupportedAttributeValue(n.opType, 'auto_pad', autoPad, 'NOTSET, VALID, SAME_UPPER, SAME_LOWER'));
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

  private lowerStandaloneBatchNorm(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    const bn = this.batchNormParams(n);
    if (!bn || x.shape.length !== 4) return this.unsupported(n, 'only inference BatchNormalization with constant parameters on NCHW tensors (lowered as a depthwise 1x1 convolution) or folded into a preceding Conv/Gemm');
    const c = x.shape[1]!;
    const w = { ssa: this.constant(`bnw:${n.index}`, bn.scale, [c, 1, 1, 1], loc), shape: [c, 1, 1, 1] };
    const b = { ssa: this.constant(`bnb:${n.index}`, bn.shift, [c], loc), shape: [c] };
    this.emitPlan(n.outputs[0]!, 'spat.conv2d_plan', [x, w, b], x.shape, `dilations = ${i64Array([1, 1])}, group = ${c} : i64, pads = ${i64Array([0, 0, 0, 0])}, strides = ${i64Array([1, 1])}`, loc);
  }

  // ------------------------------------------------------------------------------- pooling, resize

  private lowerMaxPool(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    if (x.shape.length !== 4) return this.unsupported(n, `${x.shape.length - 2} spatial dimension(s) (only 2-D max pooling has a spat plan)`);
    if ((n.outputs[1] ?? '') !== '' && this.uses.has(n.outputs[1]!)) return this.unsupported(n, 'the Indices output is used');
    if ((getAttribute(n, 'storage_order', 'int') ?? 0) !== 0) return this.unsupported(n, 'storage_order 1');
    const kernel = getAttribute(n, 'kernel_shape', 'ints') ?? [1, 1];
    const strides = getAttribute(n, 'strides', 'ints') ?? [1, 1];
    const dilations = getAttribute(n, 'dilations', 'ints') ?? [1, 1];
    const outShape = this.shapeOf(n.outputs[0]!);
    const pads = this.pads(n, x.shape.slice(2), kernel, strides, dilations, outShape.slice(2));
    if (!pads) return;
    // ceil_mode: extend the end padding so that the floor formula gives the inferred size.
    for (let i = 0; i < 2; i++) {
      const needed = (outShape[2 + i]! - 1) * strides[i]! + dilations[i]! * (kernel[i]! - 1) + 1 - (x.shape[2 + i]! + pads[i]! + pads[2 + i]!);
      if (needed > 0) pads[2 + i]! += needed;
    }
    const props = `dilations = ${i64Array(dilations)}, kernelShape = ${i64Array(kernel)}, pads = ${i64Array(pads)}, strides = ${i64Array(strides)}`;
    this.emitPlan(n.outputs[0]!, 'spat.max_pool2d_plan', [x], outShape, props, loc);
  }

  private lowerResize(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    const mode = getAttribute(n, 'mode', 'string') ?? 'nearest';
    if (mode !== 'nearest') return void this.error(n, Messages.unsupportedAttributeValue(n.opType, 'mode', mode, 'nearest'));
    if (n.opType === 'Resize' && this.opset >= 11) {
      const ctm = getAttribute(n, 'coordinate_transformation_mode', 'string') ?? 'half_pixel';
      if (ctm !== 'asymmetric') return void this.error(n, Messages.unsupportedAttributeValue(n.opType, 'coordinate_transformation_mode', ctm, 'asymmetric'));
      const nm = getAttribute(n, 'nearest_mode', 'string') ?? 'round_prefer_floor';
      if (nm !== 'floor') return void this.error(n, Messages.unsupportedAttributeValue(n.opType, 'nearest_mode', nm, 'floor'));
    }
    const outShape = this.shapeOf(n.outputs[0]!);
    if (x.shape.length !== 4 || outShape[0] !== x.shape[0] || outShape[1] !== x.shape[1]) return this.unsupported(n, 'only spatial (H, W) resizing of NCHW tensors has a spat plan');
    for (let i = 2; i < 4; i++) if (outShape[i]! % x.shape[i]! !== 0) return this.unsupported(n, 'non-integer scale factors');
    this.emitPlan(n.outputs[0]!, 'spat.resize_nearest_plan', [x], outShape, '', loc);
  }

  // ------------------------------------------------------------------------------- element-wise

  private lowerSigmoid(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    const s = n.outputs[0]!;
    const mul = this.soleConsumer(s);
    if (mul?.opType === 'Mul') {
      const other = mul.inputs[0] === s ? mul.inputs[1] : mul.inputs[0];
      if (other === n.inputs[0]) {
        this.fused.add(mul);
        this.emitPlan(mul.outputs[0]!, 'spat.silu_plan', [x], x.shape, '', nameLoc(this.nodeName(mul)));
        return;
      }
    }
    this.elementwiseCompute(s, 'spat.sigmoid', [x], loc);
  }

  /** Broadcasts a constant ONNX value to `shape` (numpy rules) as a new constant. */
  private broadcastConstant(name: string, shape: readonly number[], loc: string): Val | undefined {
    const data = this.floatsOf(name);
    if (!data || this.values.get(name)?.dataType !== F32) return undefined;
    const src = this.shapeOf(name);
    if (src.join() === shape.join()) return this.value(name, loc);
    if (src.length > shape.length) return undefined;
    const padded = [...new Array<number>(shape.length - src.length).fill(1), ...src];
    if (padded.some((d, i) => d !== 1 && d !== shape[i])) return undefined;
    const out = new Float32Array(elementCount(shape));
    const idx = new Array<number>(shape.length).fill(0);
    for (let o = 0; o < out.length; o++) {
      let s = 0;
      for (let d = 0; d < shape.length; d++) s = s * padded[d]! + (padded[d] === 1 ? 0 : idx[d]!);
      out[o] = data[s]!;
      for (let d = shape.length - 1; d >= 0; d--) {
        if (++idx[d]! < shape[d]!) break;
        idx[d] = 0;
      }
    }
    return { ssa: this.constant(`bc:${name}`, out, shape, loc), shape };
  }

  private lowerAdd(n: OnnxNode, loc: string): void {
    this.binary(n, loc, 'spat.vadd', true);
  }

  private lowerMul(n: OnnxNode, loc: string): void {
    this.binary(n, loc, 'spat.vmul', false);
  }

  private binary(n: OnnxNode, loc: string, computeOp: string, isAdd: boolean): void {
    const outShape = this.shapeOf(n.outputs[0]!);
    const [a, b] = [n.inputs[0]!, n.inputs[1]!];
    const aConst = this.constantOf(a) !== undefined;
    const bConst = this.constantOf(b) !== undefined;
    if (isAdd && outShape.length === 4 && aConst !== bConst) {
      const [rt, cst] = aConst ? [b, a] : [a, b];
      const bias = this.perChannel(cst, outShape[1]!, 4, 1);
      const x = this.vals.get(rt);
      if (bias && x && x.shape.join() === outShape.join()) {
        const bv = { ssa: this.constant(`bias:${cst}`, bias, [outShape[1]!], loc), shape: [outShape[1]!] };
        this.emitPlan(n.outputs[0]!, 'spat.bias_add_plan', [x, bv], outShape, '', loc);
        return;
      }
    }
    const operand = (name: string, isConst: boolean): Val | undefined => {
      if (isConst) return this.broadcastConstant(name, outShape, loc);
      const v = this.vals.get(name);
      return v && v.shape.length === outShape.length && v.shape.every((d, i) => d === outShape[i] || d === 1) ? v : undefined;
    };
    const x = operand(a, aConst);
    const y = operand(b, bConst);
    if (!x || !y) return this.unsupported(n, `broadcasting ${this.shapeOf(a).join('x')} and ${this.shapeOf(b).join('x')} to ${outShape.join('x')} (runtime operands must have the output rank; spat element-wise ops need equal shapes)`);
    const same = x.shape.join() === outShape.join() && y.shape.join() === outShape.join();
    if (isAdd && outShape.length === 4 && same) {
      this.emitPlan(n.outputs[0]!, 'spat.add_plan', [x, y], outShape, '', loc);
      return;
    }
    if (same) return this.elementwiseCompute(n.outputs[0]!, computeOp, [x, y], loc);
    const t = tensorType(outShape);
    this.compute(n.outputs[0]!, [x, y], outShape, loc, (args, push) => {
      const [ex, ey] = [this.expand(args[0]!, x.shape, outShape, push, loc), this.expand(args[1]!, y.shape, outShape, push, loc)];
      const r = this.fresh('r');
      push(`${r} = ${computeOp} ${ex}, ${ey} : (${t}, ${t}) -> ${t} ${loc}`);
      return r;
    });
  }

  /**
   * Broadcasts a body value of `shape` (same rank, 1 where it differs) to `outShape` by
   * `spat.concat` of copies along each broadcast axis.
   */
  private expand(v: string, shape: readonly number[], outShape: readonly number[], push: (l: string) => void, loc: string): string {
    let cur = v;
    const s = [...shape];
    for (let d = 0; d < outShape.length; d++) {
      if (s[d] === outShape[d]) continue;
      const from = tensorType(s);
      s[d] = outShape[d]!;
      const next = this.fresh('bc');
      push(`${next} = spat.concat axis ${d} ${new Array<string>(outShape[d]!).fill(cur).join(', ')} : (${new Array<string>(outShape[d]!).fill(from).join(', ')}) -> ${tensorType(s)} ${loc}`);
      cur = next;
    }
    return cur;
  }

  /** A `spat.graph_compute` over `inputs` whose body is produced by `body` (returns the yielded value). */
  private compute(out: string, inputs: readonly Val[], outShape: readonly number[], loc: string, body: (args: readonly string[], push: (l: string) => void) => string): void {
    const args = inputs.map(() => this.fresh('a'));
    const lines: string[] = [];
    const r = body(args, (l) => lines.push(`  ${l}`));
    const t = tensorType(outShape);
    const ssa = this.fresh();
    this.lines.push(
      `${ssa} = spat.graph_compute [] = [] (${args.join(', ')}) = (${inputs.map((i) => i.ssa).join(', ')}) crossbarWeights 0 : [] (${inputs.map((i) => tensorType(i.shape)).join(', ')}) -> ${t} {`,
      ...lines,
      `  spat.yield ${r} : ${t} ${loc}`,
      `} ${loc}`,
    );
    this.define(out, { ssa, shape: outShape });
  }

  /** A splat f32 constant of `shape` (hex float literal: exact). */
  private splat(value: number, shape: readonly number[], loc: string): Val {
    const bits = new Uint32Array(Float32Array.of(value).buffer)[0]!;
    const k = `splat:${bits}|${shape.join('x')}`;
    let ssa = this.constSsa.get(k);
    if (!ssa) {
      ssa = this.fresh('cst');
      this.lines.push(`${ssa} = arith.constant dense<0x${bits.toString(16).toUpperCase().padStart(8, '0')}> : ${tensorType(shape)} ${loc}`);
      this.constSsa.set(k, ssa);
    }
    return { ssa, shape };
  }

  /** The scalar value of an optional constant input, or undefined when absent/not constant. */
  private scalarInput(n: OnnxNode, i: number): number | undefined | 'runtime' {
    const name = n.inputs[i] ?? '';
    if (name === '') return undefined;
    const c = this.floatsOf(name);
    return c && c.length === 1 ? c[0]! : 'runtime';
  }

  /**
   * Clip(x, lo, hi) = t - relu(t - hi) with t = vmax(x, lo): `spat.vmax`, `spat.vsub`,
   * `spat.relu` on splat constants in a graph_compute.
   */
  private lowerClip(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    let lo: number | undefined | 'runtime' = getAttribute(n, 'min', 'float');
    let hi: number | undefined | 'runtime' = getAttribute(n, 'max', 'float');
    if (this.opset >= 11) {
      lo = this.scalarInput(n, 1);
      hi = this.scalarInput(n, 2);
    }
    if (lo === 'runtime' || hi === 'runtime') return this.unsupported(n, 'min/max are not constant scalars');
    this.clipCompute(n.outputs[0]!, x, 1, 0, lo, hi, loc);
  }

  /** HardSigmoid(x) = clip(alpha * x + beta, 0, 1). */
  private lowerHardSigmoid(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    this.clipCompute(n.outputs[0]!, x, getAttribute(n, 'alpha', 'float') ?? 0.2, getAttribute(n, 'beta', 'float') ?? 0.5, 0, 1, loc);
  }

  private clipCompute(out: string, x: Val, alpha: number, beta: number, lo: number | undefined, hi: number | undefined, loc: string): void {
    const t = tensorType(x.shape);
    const inputs: Val[] = [x];
    const slot = (v: number): number => inputs.push(this.splat(v, x.shape, loc)) - 1;
    const alphaAt = alpha !== 1 ? slot(alpha) : -1;
    const betaAt = beta !== 0 ? slot(beta) : -1;
    const loAt = lo !== undefined && lo !== 0 ? slot(lo) : -1;
    const hiAt = hi !== undefined ? slot(hi) : -1;
    this.compute(out, inputs, x.shape, loc, (args, push) => {
      let cur = args[0]!;
      const bin = (op: string, rhs: string): void => {
        const r = this.fresh('r');
        push(`${r} = ${op} ${cur}, ${rhs} : (${t}, ${t}) -> ${t} ${loc}`);
        cur = r;
      };
      if (alphaAt >= 0) bin('spat.vmul', args[alphaAt]!);
      if (betaAt >= 0) bin('spat.vadd', args[betaAt]!);
      if (lo === 0) {
        const r = this.fresh('r');
        push(`${r} = spat.relu(${cur}) : ${t} -> ${t} ${loc}`);
        cur = r;
      } else if (loAt >= 0) bin('spat.vmax', args[loAt]!);
      if (hiAt >= 0) {
        const d = this.fresh('r');
        push(`${d} = spat.vsub ${cur}, ${args[hiAt]} : (${t}, ${t}) -> ${t} ${loc}`);
        const rl = this.fresh('r');
        push(`${rl} = spat.relu(${d}) : ${t} -> ${t} ${loc}`);
        bin('spat.vsub', rl);
      }
      return cur;
    });
  }

  /** `spat.graph_compute` applying one element-wise spat op to bound inputs. */
  private elementwiseCompute(out: string, op: string, inputs: readonly Val[], loc: string): void {
    const args = inputs.map(() => this.fresh('a'));
    const t = tensorType(inputs[0]!.shape);
    const r = this.fresh('r');
    const body = inputs.length === 1 ? `${r} = ${op}(${args[0]}) : ${t} -> ${t} ${loc}` : `${r} = ${op} ${args.join(', ')} : (${t}, ${t}) -> ${t} ${loc}`;
    const ssa = this.fresh();
    this.lines.push(
      `${ssa} = spat.graph_compute [] = [] (${args.join(', ')}) = (${inputs.map((i) => i.ssa).join(', ')}) crossbarWeights 0 : [] (${inputs.map(() => t).join(', ')}) -> ${t} {`,
      `  ${body}`,
      `  spat.yield ${r} : ${t} ${loc}`,
      `} ${loc}`,
    );
    this.define(out, { ssa, shape: inputs[0]!.shape });
  }

  // ------------------------------------------------------------------------------- data movement

  private lowerConcat(n: OnnxNode, loc: string): void {
    const outShape = this.shapeOf(n.outputs[0]!);
    const rank = outShape.length;
    let axis = getAttribute(n, 'axis', 'int') ?? 1;
    if (axis < 0) axis += rank;
    const ins: Val[] = [];
    for (let i = 0; i < n.inputs.length; i++) {
      const v = this.input(n, i, loc);
      if (!v) return;
      if (elementCount(v.shape) > 0) ins.push(v);
    }
    if (rank === 4 && axis === 1) {
      this.emitPlan(n.outputs[0]!, 'spat.concat_plan', ins, outShape, 'axis = 1 : i64', loc);
      return;
    }
    const args = ins.map(() => this.fresh('a'));
    const types = ins.map((v) => tensorType(v.shape));
    const r = this.fresh('r');
    const t = tensorType(outShape);
    const ssa = this.fresh();
    this.lines.push(
      `${ssa} = spat.graph_compute [] = [] (${args.join(', ')}) = (${ins.map((i) => i.ssa).join(', ')}) crossbarWeights 0 : [] (${types.join(', ')}) -> ${t} {`,
      `  ${r} = spat.concat axis ${axis} ${args.join(', ')} : (${types.join(', ')}) -> ${t} ${loc}`,
      `  spat.yield ${r} : ${t} ${loc}`,
      `} ${loc}`,
    );
    this.define(n.outputs[0]!, { ssa, shape: outShape });
  }

  /** Split: one `spat.graph_compute` per output, extracting its static slice along the axis. */
  private lowerSplit(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    const rank = x.shape.length;
    let axis = getAttribute(n, 'axis', 'int') ?? 0;
    if (axis < 0) axis += rank;
    const t = tensorType(x.shape);
    let offset = 0;
    for (const out of n.outputs) {
      const shape = this.shapeOf(out);
      if (out !== '') {
        const a = this.fresh('a');
        const r = this.fresh('r');
        const ssa = this.fresh();
        const offsets = x.shape.map((_, i) => (i === axis ? offset : 0));
        const ot = tensorType(shape);
        this.lines.push(
          `${ssa} = spat.graph_compute [] = [] (${a}) = (${x.ssa}) crossbarWeights 0 : [] (${t}) -> ${ot} {`,
          `  ${r} = tensor.extract_slice ${a}[${offsets.join(', ')}] [${shape.join(', ')}] [${shape.map(() => 1).join(', ')}] : ${t} to ${ot} ${loc}`,
          `  spat.yield ${r} : ${ot} ${loc}`,
          `} ${loc}`,
        );
        this.define(out, { ssa, shape });
      }
      offset += shape[axis] ?? 0;
    }
  }

  private lowerReshape(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    const outShape = this.shapeOf(n.outputs[0]!);
    if (outShape.join() === x.shape.join()) {
      this.define(n.outputs[0]!, x);
      return;
    }
    if (outShape.length === 2) {
      for (let k = 0; k <= x.shape.length; k++) {
        if (elementCount(x.shape.slice(0, k)) === outShape[0] && elementCount(x.shape.slice(k)) === outShape[1]) {
          this.emitPlan(n.outputs[0]!, 'spat.flatten_plan', [x], outShape, `axis = ${k} : i64`, loc);
          return;
        }
      }
    }
    this.error(n, LM.noSpatReshape(n.opType, this.nodeName(n), x.shape, outShape));
  }

  // ------------------------------------------------------------------------------- GEMM, softmax

  private lowerMatmul(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    if (x.shape.length !== 2) return this.unsupported(n, `the first operand has rank ${x.shape.length} (only [M, K] matrices are lowered)`);
    const w0 = this.floatsOf(n.inputs[1]!);
    const wShape = this.shapeOf(n.inputs[1]!);
    if (!w0 || wShape.length !== 2) return this.unsupported(n, 'the second operand is not a constant [K, N] matrix (crossbar weights must be compile-time constants)');
    const isGemm = n.opType === 'Gemm';
    if (isGemm && (getAttribute(n, 'transA', 'int') ?? 0) !== 0) return this.unsupported(n, 'transA = 1');
    const transB = isGemm && (getAttribute(n, 'transB', 'int') ?? 0) !== 0;
    const alpha = isGemm ? getAttribute(n, 'alpha', 'float') ?? 1 : 1;
    const beta = isGemm ? getAttribute(n, 'beta', 'float') ?? 1 : 1;
    const [m, k] = [x.shape[0]!, x.shape[1]!];
    const nOut = transB ? wShape[0]! : wShape[1]!;
    const w = new Float32Array(k * nOut);
    for (let i = 0; i < k; i++) for (let j = 0; j < nOut; j++) w[i * nOut + j] = alpha * (transB ? w0[j * k + i]! : w0[i * nOut + j]!);
    let bias: Float32Array | undefined;
    if (isGemm && (n.inputs[2] ?? '') !== '') {
      const c = this.perChannel(n.inputs[2]!, nOut, 2, 1);
      if (!c) return this.unsupported(n, 'C is not a constant broadcastable to [N]');
      bias = Float32Array.from(c, (v) => v * beta);
    }
    let out = n.outputs[0]!;
    const bnNode = this.soleConsumer(out);
    if (bnNode?.opType === 'BatchNormalization' && bnNode.inputs[0] === out) {
      const bn = this.batchNormParams(bnNode);
      if (bn && bn.scale.length === nOut) {
        for (let i = 0; i < k; i++) for (let j = 0; j < nOut; j++) w[i * nOut + j]! *= bn.scale[j]!;
        bias = Float32Array.from({ length: nOut }, (_, j) => (bias ? bias[j]! : 0) * bn.scale[j]! + bn.shift[j]!);
        this.fused.add(bnNode);
        out = bnNode.outputs[0]!;
      }
    }
    const add = this.soleConsumer(out);
    if (add?.opType === 'Add') {
      const other = add.inputs[0] === out ? add.inputs[1]! : add.inputs[0]!;
      const c = this.perChannel(other, nOut, 2, 1);
      if (c && this.shapeOf(add.outputs[0]!).join() === [m, nOut].join()) {
        bias = Float32Array.from({ length: nOut }, (_, j) => (bias ? bias[j]! : 0) + c[j]!);
        this.fused.add(add);
        out = add.outputs[0]!;
      }
    }
    this.emitGemm(out, n, x, w, k, nOut, bias, loc);
  }

  /**
   * The GEMM decomposition: weights cut into crossbar tiles (at most `crossbar` rows and
   * columns); each output row is sum over row tiles of wvmm(row slice, tile), column tiles
   * joined with spat.concat, then the bias added with spat.vadd. One row: a graph_compute;
   * M rows: a graph_compute_batch with one lane per row and a blueprint placing the rows.
   */
  private emitGemm(out: string, n: OnnxNode, x: Val, w: Float32Array, k: number, nOut: number, bias: Float32Array | undefined, loc: string): void {
    const m = x.shape[0]!;
    const t = this.crossbar;
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
        tileOuter.push(this.constant(`tile:${n.index}:${i}:${j}`, tile, [kr, nc], loc));
        tileArgs.push(this.fresh('w'));
        tileTypes.push(tensorType([kr, nc]));
      }
    }
    const xArg = this.fresh('a');
    const inOuter = [x.ssa];
    const inArgs = [xArg];
    const inTypes = [tensorType(x.shape)];
    let biasArg: string | undefined;
    if (bias) {
      biasArg = this.fresh('a');
      inOuter.push(this.constant(`gbias:${n.index}`, bias, [1, nOut], loc));
      inArgs.push(biasArg);
      inTypes.push(tensorType([1, nOut]));
    }
    const body: string[] = [];
    const rowT = tensorType([1, k]);
    let row = xArg;
    const lane = this.fresh('lane');
    if (m > 1) {
      row = this.fresh('row');
      body.push(`${row} = tensor.extract_slice ${xArg}[${lane}, 0] [1, ${k}] [1, 1] : ${tensorType(x.shape)} to ${rowT} ${loc}`);
    }
    const slices: string[] = [];
    for (let i = 0; i < kTiles; i++) {
      const kr = Math.min(t, k - i * t);
      if (kTiles === 1) {
        slices.push(row);
        continue;
      }
      const s = this.fresh('s');
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
        const p = this.fresh('p');
        body.push(`${p} = spat.wvmm[${tileArgs[tileIndex(i, j)]}](${slices[i]}) : (${tensorType([kr, nc])}, ${tensorType([1, kr])}) -> ${ct} ${loc}`);
        if (acc === undefined) acc = p;
        else {
          const s = this.fresh('sum');
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
      y = this.fresh('cat');
      body.push(`${y} = spat.concat axis 1 ${cols.join(', ')} : (${colTypes.join(', ')}) -> ${yt} ${loc}`);
    }
    if (biasArg) {
      const b = this.fresh('bias');
      body.push(`${b} = spat.vadd ${y}, ${biasArg} : (${yt}, ${yt}) -> ${yt} ${loc}`);
      y = b;
    }
    const weightsText = `[${tileArgs.join(', ')}] = [${tileOuter.join(', ')}] (${inArgs.join(', ')}) = (${inOuter.join(', ')}) crossbarWeights ${tileArgs.length} : [${tileTypes.join(', ')}] (${inTypes.join(', ')})`;
    this.emitRows(out, m, nOut, lane, weightsText, body, y, loc);
  }

  /** Wraps a per-row body into a graph_compute (one row) or a graph_compute_batch + blueprint. */
  private emitRows(out: string, m: number, nOut: number, lane: string, bindings: string, body: readonly string[], y: string, loc: string): void {
    const yt = tensorType([1, nOut]);
    const ssa = this.fresh();
    if (m === 1) {
      this.lines.push(`${ssa} = spat.graph_compute ${bindings} -> ${yt} {`, ...body.map((l) => `  ${l}`), `  spat.yield ${y} : ${yt} ${loc}`, `} ${loc}`);
      this.define(out, { ssa, shape: [1, nOut] });
      return;
    }
    const outArg = this.fresh('out');
    const ft = tensorType([m, 1, nOut]);
    const [head, tail] = splitBindings(bindings);
    this.lines.push(
      `${ssa} = spat.graph_compute_batch ${lane} = 0 to ${m} ${head} shared_outs(${outArg}) ${tail} -> ${ft} {`,
      ...body.map((l) => `  ${l}`),
      `  spat.in_parallel {`,
      `    tensor.parallel_insert_slice ${y} into ${outArg}[${lane}, 0, 0] [1, 1, ${nOut}] [1, 1, 1] : ${yt} into ${ft} ${loc}`,
      `  } ${loc}`,
      `} ${loc}`,
    );
    const logical = this.fresh();
    const rows = Array.from({ length: m }, (_, r) => r);
    this.lines.push(
      `${logical} = spat.blueprint fragments(${ssa}) layout nchw physical fragmented offsets [${rows.map((r) => `${r}, 0`).join(', ')}] sizes [${rows.map(() => `1, ${nOut}`).join(', ')}] map explicit mode fragment_assembly operandIndices [${rows.map(() => 0).join(', ')}] sourceSlots [${rows.join(', ')}] sourceOffsets [${rows.map(() => 0).join(', ')}] strides [${rows.map(() => '1, 1').join(', ')}] conflict disjoint coverage complete : (${ft}) -> ${tensorType([m, nOut])} ${loc}`,
    );
    this.define(out, { ssa: logical, shape: [m, nOut] });
  }

  private lowerSoftmax(n: OnnxNode, loc: string): void {
    const x = this.input(n, 0, loc);
    if (!x) return;
    const rank = x.shape.length;
    let axis = getAttribute(n, 'axis', 'int') ?? (this.opset >= 13 ? -1 : 1);
    if (axis < 0) axis += rank;
    // Rows of a [M, N] matrix along the last axis (opset < 13 flattens from `axis`: the same for rank 2).
    const isRows = rank === 2 && axis === 1;
    const onlyAxis = x.shape.every((d, i) => i === axis || d === 1) && (this.opset >= 13 || x.shape.slice(0, axis).every((d) => d === 1));
    if (!isRows && !onlyAxis) return this.unsupported(n, `softmax over axis ${axis} of ${x.shape.join('x')} (spat.softmax normalizes a complete slice: rows of a rank-2 tensor, or a tensor whose other dimensions are 1)`);
    if (!isRows || x.shape[0] === 1) {
      this.elementwiseCompute(n.outputs[0]!, 'spat.softmax', [x], loc);
      return;
    }
    const [m, nOut] = [x.shape[0]!, x.shape[1]!];
    const a = this.fresh('a');
    const lane = this.fresh('lane');
    const row = this.fresh('row');
    const r = this.fresh('r');
    const yt = tensorType([1, nOut]);
    const body = [
      `${row} = tensor.extract_slice ${a}[${lane}, 0] [1, ${nOut}] [1, 1] : ${tensorType(x.shape)} to ${yt} ${loc}`,
      `${r} = spat.softmax(${row}) : ${yt} -> ${yt} ${loc}`,
    ];
    this.emitRows(n.outputs[0]!, m, nOut, lane, `[] = [] (${a}) = (${x.ssa}) crossbarWeights 0 : [] (${tensorType(x.shape)})`, body, r, loc);
  }
}

/** Splits `[..] = [..] (..) = (..) crossbarWeights k : [..] (..)` before `crossbarWeights`. */
function splitBindings(bindings: string): [string, string] {
  const at = bindings.indexOf(' crossbarWeights ');
  return [bindings.slice(0, at), bindings.slice(at + 1)];
}

/**
 * Lowers a validated ONNX model to a verified `builtin.module` of Spatial plans. Never throws
 * on bad input: unsupported operators or forms are reported as diagnostics naming the node.
 *
 * @example
 * const { model } = readOnnxFile('mlp.onnx');
 * const { module, text, diagnostics } = importOnnxModel(model!, { crossbarSize: 128 });
 */
export function importOnnxModel(model: OnnxModel, options: ImportOnnxOptions = {}): ImportedModule {
  const context = new MLIRContext();
  registerSpatialDialect(context);
  const functionName = options.functionName ?? 'main';
  const inferred = inferShapes(model, { inputShapes: options.inputShapes, maxFoldElements: 1 << 24 });
  const diagnostics: OnnxDiagnostic[] = [...inferred.diagnostics];
  const fail = (): ImportedModule => ({ module: undefined, text: '', context, functionName, inputs: [], outputs: [], diagnostics });
  if (!inferred.values || hasErrors(diagnostics)) return fail();
  const values = inferred.values;
  const lowering = new Lowering(model, values, options.crossbarSize ?? DEFAULT_CROSSBAR_SIZE);
  const text = lowering.run(functionName);
  diagnostics.push(...lowering.diagnostics);
  if (text === undefined) return fail();
  const { result, diagnostics: irDiagnostics } = context.diagnostics.capture(() => {
    const m = parseSourceString(context, text, { filename: model.file });
    return m && verify(m) ? m : undefined;
  });
  if (!result) {
    diagnostics.push({ severity: 'error', location: { file: model.file }, message: LM.generatedIrInvalid(irDiagnostics.map((d) => d.message).join('; ')) });
    return { ...fail(), text };
  }
  const io = (name: string): ImportedValue => ({ name, shape: values.get(name)?.shape ?? [] });
  return { module: result, text, context, functionName, inputs: model.graph.inputs.map((i) => io(i.name)), outputs: model.graph.outputs.map((o) => io(o.name)), diagnostics };
}
