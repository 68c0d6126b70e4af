/**
 * The state of one graph lowering and the helpers every operator lowering uses: the builder
 * of the function body, constants (deduplicated, their data attached at creation), the values
 * defined so far, plan-op emission, and compute regions built with a {@link BodyBuilder}.
 * Operator lowerings (`ops/*.ts`) receive it and build ops through it; diagnostics are
 * collected, never thrown.
 */
import { Block, ConstantOp, DenseElementsAttr, OpBuilder, type Attribute, type Location, type MLIRContext, type Value } from '@raptor-pim/ir-core';
import { createFragmentAssembly, createGraphCompute, createGraphComputeBatch, createInParallel, createPlan, createYield, type PlanOpDefinition } from '@raptor-pim/spatial-dialect';
import { IndexType } from '@raptor-pim/ir-core';
import { createParallelInsertSlice } from '@raptor-pim/upstream-dialects';
import { LoweringMessages as LM, type OnnxDiagnostic } from '../diagnostics';
import { OnnxDataType, dataTypeName } from '../onnx/dtypes';
import { getAttribute, type OnnxModel, type OnnxNode, type OnnxTensor } from '../onnx/model';
import type { InferredValue } from '../shapes/infer-shapes';
import { tensorToFloat32, tensorToNumbers } from '../shapes/constant-eval';
import { BodyBuilder, type BinaryOpDefinition, type UnaryOpDefinition } from './body-builder';
import type { CrossbarShape } from './crossbar';
import { elementCount, nameLoc, tensorType } from './ir-helpers';

/** A runtime value of the function under construction and its static shape. */
export interface Val {
  readonly value: Value;
  readonly shape: readonly number[];
}

/** Lowers one ONNX node; reports problems through `cx.error`/`cx.unsupported`. */
export type NodeLowering = (cx: LoweringContext, n: OnnxNode, loc: Location) => void;

/** The attributes of a planning op besides its logical layout (`pads`, `strides`, `group`, ...). */
export type PlanAttributes = Readonly<Record<string, Attribute>>;

/** ONNX float32. */
export const F32 = OnnxDataType.FLOAT;

/**
 * The body of a per-row region under construction (see {@link LoweringContext.emitRows}): one
 * lane per row when there are several rows. Block arguments: the lane (several rows), the
 * resident weights, then the runtime inputs in the order they are bound.
 */
export class RowRegion {
  readonly block: Block;
  readonly body: BodyBuilder;
  /** The lane (row index) argument, when there are several rows. */
  readonly lane: Value | undefined;
  /** The weights' block arguments, in order. */
  readonly weightArgs: readonly Value[];
  /** The runtime values bound so far. */
  readonly inputs: Value[] = [];

  constructor(
    cx: LoweringContext,
    /** Number of rows. */
    readonly rows: number,
    /** Resident crossbar weights (constants). */
    readonly weights: readonly Value[],
    loc: Location,
  ) {
    this.block = new Block();
    this.lane = rows > 1 ? this.block.addArgument(cx.indexType, loc) : undefined;
    this.weightArgs = weights.map((w) => this.block.addArgument(w.type, loc));
    this.body = new BodyBuilder(this.block, cx.context, loc);
  }

  /** Binds `v` as a runtime input of the region; returns its block argument. */
  bind(v: Val): Value {
    this.inputs.push(v.value);
    return this.block.addArgument(v.value.type, this.body.loc);
  }

  /** Row `lane` of the body value `v` ([m, cols]) as [1, cols] (`v` itself for one row). */
  laneRow(v: Value, cols: number): Value {
    if (!this.lane) return v;
    return this.body.slice(v, [this.lane, 0], [1, cols], [1, 1]);
  }
}

/** Lowering state of one graph. */
export class LoweringContext {
  /** The builder of the function body (at its end). */
  readonly b: OpBuilder;
  /** Nodes already lowered as part of another node (fused patterns): skipped by the driver. */
  readonly fused = new Set<OnnxNode>();
  readonly diagnostics: OnnxDiagnostic[] = [];
  private readonly vals = new Map<string, Val>();
  private readonly constants = new Map<string, Value>();
  private readonly uses = new Map<string, OnnxNode[]>();
  private readonly graphOutputs = new Set<string>();
  private counter = 0;

  constructor(
    readonly context: MLIRContext,
    /** The function body the ops are appended to. */
    readonly body: Block,
    readonly model: OnnxModel,
    readonly values: ReadonlyMap<string, InferredValue>,
    /** The crossbars weights are tiled onto (the `spat.wvmm` weight tile size). */
    readonly crossbar: CrossbarShape,
  ) {
    this.b = OpBuilder.atBlockEnd(body, context);
    for (const n of model.graph.nodes) {
      for (const i of n.inputs) {
        if (i === '') continue;
        const u = this.uses.get(i);
        if (u) u.push(n);
        else this.uses.set(i, [n]);
      }
    }
    for (const o of model.graph.outputs) this.graphOutputs.add(o.name);
  }

  /** The `index` type. */
  get indexType(): IndexType {
    return IndexType.get(this.context);
  }

  /** The default-domain opset of the model. */
  get opset(): number {
    return this.model.opsets.get('') ?? 0;
  }

  /** A fresh name for a lowered intermediate that is not an ONNX value. */
  temp(): string {
    return `\u0000t${this.counter++}`;
  }

  /** Reports an error located at `node` (or at the value `value` when there is no node). */
  error(node: OnnxNode | undefined, message: string, value?: string): void {
    this.diagnostics.push({
      severity: 'error',
      location: node ? { file: this.model.file, node: node.name, nodeIndex: node.index } : { file: this.model.file, value },
      message,
    });
  }

  /** Reports that a supported operator appears in a form the lowering does not handle. */
  unsupported(n: OnnxNode, why: string): void {
    this.error(n, LM.unsupportedForm(n.opType, this.nodeName(n), why));
  }

  /** The node's name, or `<OpType>_<index>` for unnamed nodes. */
  nodeName(n: OnnxNode): string {
    return n.name !== '' ? n.name : `${n.opType}_${n.index}`;
  }

  /** The name location of a node. */
  locOf(n: OnnxNode): Location {
    return nameLoc(this.context, this.nodeName(n));
  }

  /** True when some node consumes `name`. */
  isUsed(name: string): boolean {
    return name !== '' && (this.uses.has(name) || this.graphOutputs.has(name));
  }

  /** The single consumer of `name`, if it has exactly one use and is not a graph output. */
  soleConsumer(name: string): OnnxNode | undefined {
    const u = this.uses.get(name);
    if (!u || u.length !== 1 || this.graphOutputs.has(name)) return undefined;
    return u[0];
  }

  /** The compile-time value of `name` (initializer, Constant, folded or bound input). */
  constantOf(name: string): OnnxTensor | undefined {
    if (name === '') return undefined;
    return this.values.get(name)?.constant;
  }

  /**
   * The compile-time value of `name` as f32 values. For a float32 tensor this is the tensor's
   * own data (no copy): treat it as read-only and copy it before writing into it.
   */
  floatsOf(name: string): Float32Array | undefined {
    const c = this.constantOf(name);
    if (!c) return undefined;
    return c.data instanceof Float32Array ? c.data : tensorToFloat32(c);
  }

  /** The compile-time value of `name` as numbers (any numeric type). */
  numbersOf(name: string): number[] | undefined {
    const c = this.constantOf(name);
    return c ? tensorToNumbers(c) : undefined;
  }

  /** The inferred static shape of `name`. */
  shapeOf(name: string): readonly number[] {
    return this.values.get(name)?.shape ?? [];
  }

  /** The ONNX element type of `name` (0 when unknown). */
  dataTypeOf(name: string): number {
    return this.values.get(name)?.dataType ?? 0;
  }

  /**
   * Builds (once per `key` and shape) an `arith.constant` holding `data` and returns its value.
   * The data is adopted by the attribute, not copied: `data` belongs to the module from this
   * call on and must not be modified.
   */
  constant(key: string, data: Float32Array, shape: readonly number[], loc: Location): Value {
    const k = `${key}|${shape.join('x')}`;
    const known = this.constants.get(k);
    if (known) return known;
    const type = tensorType(this.context, shape);
    const v = ConstantOp.build(this.b, { value: DenseElementsAttr.adopt(type, data), result: type }, loc).result;
    this.constants.set(k, v);
    return v;
  }

  /** A constant value (see {@link constant}) as a {@link Val}. */
  constantVal(key: string, data: Float32Array, shape: readonly number[], loc: Location): Val {
    return { value: this.constant(key, data, shape, loc), shape };
  }

  /** A splat f32 constant of `shape` (deduplicated by bit pattern and shape). */
  splat(value: number, shape: readonly number[], loc: Location): Val {
    const f = Float32Array.of(value);
    const bits = new Uint32Array(f.buffer)[0]!;
    const k = `splat:${bits}|${shape.join('x')}`;
    let v = this.constants.get(k);
    if (!v) {
      const type = tensorType(this.context, shape);
      v = ConstantOp.build(this.b, { value: DenseElementsAttr.splat(type, f[0]!), result: type }, loc).result;
      this.constants.set(k, v);
    }
    return { value: v, shape };
  }

  /** The runtime value of an ONNX name, materializing f32 constants; undefined if unavailable. */
  value(name: string, loc: Location): Val | undefined {
    const v = this.vals.get(name);
    if (v) return v;
    const info = this.values.get(name);
    if (info?.constant) {
      if (info.dataType !== F32) return undefined;
      const val = { value: this.constant(`n:${name}`, this.floatsOf(name)!, info.shape, loc), shape: info.shape };
      this.vals.set(name, val);
      return val;
    }
    return undefined;
  }

  /** Binds the ONNX name `name` to `v`. */
  define(name: string, v: Val): void {
    this.vals.set(name, v);
  }

  /** The value of input `i` of `n`; reports an error (non-f32 value) when unavailable. */
  input(n: OnnxNode, i: number, loc: Location): Val | undefined {
    const name = n.inputs[i] ?? '';
    const v = this.value(name, loc);
    if (!v) this.error(n, LM.nonFloatValue(name, dataTypeName(this.values.get(name)?.dataType ?? 0)));
    return v;
  }

  /** Builds a planning op of definition `def` (logical layout NCHW) with `attributes`, defining `out`. */
  emitPlan(out: string, def: PlanOpDefinition, operands: readonly Val[], shape: readonly number[], attributes: PlanAttributes, loc: Location): Val {
    const value = createPlan(this.b, loc, def, operands.map((o) => o.value), tensorType(this.context, shape), attributes);
    const v = { value, shape };
    this.define(out, v);
    return v;
  }

  /**
   * A `spat.graph_compute` without resident weights over `inputs`, whose body `build` writes
   * with the given {@link BodyBuilder} (its arguments are the bound inputs) and returns the
   * yielded value. Defines `out` (when given) and returns the result.
   */
  compute(out: string | undefined, inputs: readonly Val[], outShape: readonly number[], loc: Location, build: (b: BodyBuilder, args: readonly Value[]) => Value): Val {
    const block = new Block(
      inputs.map((i) => i.value.type),
      inputs.map(() => loc),
    );
    const b = new BodyBuilder(block, this.context, loc);
    const r = build(b, block.arguments);
    createYield(b.b, loc, [r]);
    const value = createGraphCompute(this.b, loc, { weights: [], inputs: inputs.map((i) => i.value) }, [tensorType(this.context, outShape)], block)[0]!;
    const v = { value, shape: outShape };
    if (out !== undefined) this.define(out, v);
    return v;
  }

  /** A `spat.graph_compute` applying one element-wise spat op (`def`: relu, sigmoid, vadd, ...) to same-shaped inputs. */
  elementwise(out: string | undefined, def: UnaryOpDefinition | BinaryOpDefinition, inputs: readonly Val[], loc: Location): Val {
    const shape = inputs[0]!.shape;
    return this.compute(out, inputs, shape, loc, (b, args) => (args.length === 1 ? b.unary(def as UnaryOpDefinition, args[0]!, shape) : b.binary(def as BinaryOpDefinition, args[0]!, args[1]!, shape)));
  }

  /** `x` reshaped to `shape` (same element count) by a graph_compute; `x` itself when equal. */
  reshape(out: string | undefined, x: Val, shape: readonly number[], loc: Location): Val {
    if (x.shape.join('x') === shape.join('x') && x.shape.length === shape.length) {
      if (out !== undefined) this.define(out, x);
      return x;
    }
    return this.compute(out, [x], shape, loc, (b, [a]) => b.reshape(a!, x.shape, shape));
  }

  /**
   * Finishes the per-row region `r` whose body yields the row `y` ([1, nOut]): a
   * `spat.graph_compute` (one row) or a `spat.graph_compute_batch` with one lane per row plus a
   * `spat.blueprint` placing the [1, nOut] rows of the [m, nOut] result. Defines `out`.
   */
  emitRows(out: string, r: RowRegion, nOut: number, y: Value, loc: Location): Val {
    const m = r.rows;
    const bindings = { weights: r.weights, inputs: r.inputs };
    if (!r.lane) {
      createYield(r.body.b, loc, [y]);
      const value = createGraphCompute(this.b, loc, bindings, [tensorType(this.context, [1, nOut])], r.block)[0]!;
      const v = { value, shape: [1, nOut] };
      this.define(out, v);
      return v;
    }
    const ft = tensorType(this.context, [m, 1, nOut]);
    const outArg = r.block.addArgument(ft, loc);
    const par = createInParallel(r.body.b, loc);
    createParallelInsertSlice(OpBuilder.atBlockEnd(par, this.context), loc, y, outArg, { offsets: [r.lane, 0, 0], sizes: [1, 1, nOut], strides: [1, 1, 1] });
    const collection = createGraphComputeBatch(this.b, loc, m, bindings, ft, r.block);
    const pieces = Array.from({ length: m }, (_, row) => ({ operandIndex: 0, sourceSlot: row, sourceOffset: 0, offsets: [row, 0], sizes: [1, nOut], strides: [1, 1] }));
    const v = { value: createFragmentAssembly(this.b, loc, [collection], tensorType(this.context, [m, nOut]), pieces), shape: [m, nOut] };
    this.define(out, v);
    return v;
  }

  /** A constant broadcastable to per-channel [C] at `axis` of a rank-`rank` tensor, as [C] values. */
  perChannel(name: string, channels: number, rank: number, axis: number): Float32Array | undefined {
    const data = this.floatsOf(name);
    if (!data || this.values.get(name)?.dataType !== F32) return undefined;
    const shape = this.shapeOf(name);
    if (elementCount(shape) === 1) return new Float32Array(channels).fill(data[0]!);
    if (shape.length > rank) return undefined;
    const padded = [...new Array<number>(rank - shape.length).fill(1), ...shape];
    if (padded.some((d, i) => (i === axis ? d !== channels : d !== 1))) return undefined;
    return data;
  }

  /** Scale and shift of an inference BatchNormalization node with constant parameters. */
  batchNormParams(bn: OnnxNode): { scale: Float32Array; shift: Float32Array } | undefined {
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
}

/** `data` of shape `src` broadcast (numpy rules) to `shape`, or undefined when not broadcastable. */
export function broadcastData(data: Float32Array, src: readonly number[], shape: readonly number[]): Float32Array | undefined {
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
  return out;
}
