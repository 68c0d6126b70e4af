/**
 * The state of one graph lowering and the helpers every operator lowering uses: SSA names,
 * constants (deduplicated), the values defined so far, plan-op emission, and compute regions
 * built with a {@link BodyBuilder}. Operator lowerings (`ops/*.ts`) receive it and append MLIR
 * text through it; diagnostics are collected, never thrown.
 */
import { LoweringMessages as LM, type OnnxDiagnostic } from '../diagnostics';
import { OnnxDataType, dataTypeName } from '../onnx/dtypes';
import { getAttribute, type OnnxModel, type OnnxNode, type OnnxTensor } from '../onnx/model';
import type { InferredValue } from '../shapes/infer-shapes';
import { tensorToFloat32, tensorToNumbers } from '../shapes/constant-eval';
import { BodyBuilder } from './body-builder';
import { elementCount, nameLoc, tensorType } from './mlir-text';

/** A runtime value of the function under construction: its SSA name and static shape. */
export interface Val {
  readonly ssa: string;
  readonly shape: readonly number[];
}

/** A value bound into a compute region: its body name, the outer SSA value, and its type. */
export interface RegionBinding {
  readonly arg: string;
  readonly value: string;
  readonly type: string;
}

/** Lowers one ONNX node; reports problems through `cx.error`/`cx.unsupported`. */
export type NodeLowering = (cx: LoweringContext, n: OnnxNode, loc: string) => void;

/** Handle prefix of the constants whose data {@link LoweringContext.payloads} holds. */
export const PAYLOAD_PREFIX = 'raptor_payload_';

/** ONNX float32. */
export const F32 = OnnxDataType.FLOAT;

/** Lowering state of one graph. */
export class LoweringContext {
  /** Lines of the function body, in order (without indentation). */
  readonly lines: string[] = [];
  /** Nodes already lowered as part of another node (fused patterns): skipped by the driver. */
  readonly fused = new Set<OnnxNode>();
  readonly diagnostics: OnnxDiagnostic[] = [];
  /** Data of the `dense_resource<raptor_payload_K>` constants, indexed by K. */
  readonly payloads: Float32Array[] = [];
  private readonly vals = new Map<string, Val>();
  private readonly constSsa = new Map<string, string>();
  private readonly uses = new Map<string, OnnxNode[]>();
  private readonly graphOutputs = new Set<string>();
  private counter = 0;

  constructor(
    readonly model: OnnxModel,
    readonly values: ReadonlyMap<string, InferredValue>,
    /** Rows and columns of one crossbar (the `spat.wvmm` weight tile size). */
    readonly crossbar: number,
  ) {
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

  /** The default-domain opset of the model. */
  get opset(): number {
    return this.model.opsets.get('') ?? 0;
  }

  /** A fresh SSA name `%<prefix><n>`. */
  fresh(prefix = 'v'): string {
    return `%${prefix}${this.counter++}`;
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
  locOf(n: OnnxNode): string {
    return nameLoc(this.nodeName(n));
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
   * Emits (once per `key` and shape) an `arith.constant` holding `data`; returns its SSA name.
   * The text carries a `dense_resource<raptor_payload_K>` placeholder: the data is attached to
   * the parsed op as a dense attribute directly (see {@link payloads}), without a hex round trip
   * or a copy: `data` belongs to the module from this call on and must not be modified.
   */
  constant(key: string, data: Float32Array, shape: readonly number[], loc: string): string {
    const k = `${key}|${shape.join('x')}`;
    const known = this.constSsa.get(k);
    if (known) return known;
    const ssa = this.fresh('cst');
    const handle = `${PAYLOAD_PREFIX}${this.payloads.length}`;
    this.payloads.push(data);
    this.lines.push(`${ssa} = arith.constant dense_resource<${handle}> : ${tensorType(shape)} ${loc}`);
    this.constSsa.set(k, ssa);
    return ssa;
  }

  /** A constant value (see {@link constant}) as a {@link Val}. */
  constantVal(key: string, data: Float32Array, shape: readonly number[], loc: string): Val {
    return { ssa: this.constant(key, data, shape, loc), shape };
  }

  /** A splat f32 constant of `shape` (hex float literal: exact). */
  splat(value: number, shape: readonly number[], loc: string): Val {
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

  /** The runtime value of an ONNX name, materializing f32 constants; undefined if unavailable. */
  value(name: string, loc: string): Val | undefined {
    const v = this.vals.get(name);
    if (v) return v;
    const info = this.values.get(name);
    if (info?.constant) {
      if (info.dataType !== F32) return undefined;
      const val = { ssa: this.constant(`n:${name}`, this.floatsOf(name)!, info.shape, loc), shape: info.shape };
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
  input(n: OnnxNode, i: number, loc: string): Val | undefined {
    const name = n.inputs[i] ?? '';
    const v = this.value(name, loc);
    if (!v) this.error(n, LM.nonFloatValue(name, dataTypeName(this.values.get(name)?.dataType ?? 0)));
    return v;
  }

  /** Emits a quoted planning op `"op"(operands) <{props, logicalLayout}>` defining `out`. */
  emitPlan(out: string, op: string, operands: readonly Val[], shape: readonly number[], props: string, loc: string): Val {
    const ssa = this.fresh();
    const p = props === '' ? 'logicalLayout = #spat<logical_layout nchw>' : `${props}, logicalLayout = #spat<logical_layout nchw>`;
    this.lines.push(`${ssa} = "${op}"(${operands.map((o) => o.ssa).join(', ')}) <{${p}}> : (${operands.map((o) => tensorType(o.shape)).join(', ')}) -> ${tensorType(shape)} ${loc}`);
    const v = { ssa, shape };
    this.define(out, v);
    return v;
  }

  /**
   * A `spat.graph_compute` without resident weights over `inputs`, whose body `build` writes
   * with the given {@link BodyBuilder} (its arguments are the bound inputs) and returns the
   * yielded value. Defines `out` (when given) and returns the result.
   */
  compute(out: string | undefined, inputs: readonly Val[], outShape: readonly number[], loc: string, build: (b: BodyBuilder, args: readonly string[]) => string): Val {
    const args = inputs.map(() => this.fresh('a'));
    const b = new BodyBuilder(this, loc);
    const r = build(b, args);
    const t = tensorType(outShape);
    const ssa = this.fresh();
    this.lines.push(
      `${ssa} = spat.graph_compute [] = [] (${args.join(', ')}) = (${inputs.map((i) => i.ssa).join(', ')}) crossbarWeights 0 : [] (${inputs.map((i) => tensorType(i.shape)).join(', ')}) -> ${t} {`,
      ...b.lines.map((l) => `  ${l}`),
      `  spat.yield ${r} : ${t} ${loc}`,
      `} ${loc}`,
    );
    const v = { ssa, shape: outShape };
    if (out !== undefined) this.define(out, v);
    return v;
  }

  /** A `spat.graph_compute` applying one element-wise spat op (`spat.relu(%a)` or `spat.vadd %a, %b` form) to same-shaped inputs. */
  elementwise(out: string | undefined, op: string, inputs: readonly Val[], loc: string): Val {
    const shape = inputs[0]!.shape;
    return this.compute(out, inputs, shape, loc, (b, args) => (args.length === 1 ? b.unary(op, args[0]!, shape) : b.binary(op, args[0]!, args[1]!, shape)));
  }

  /** `x` reshaped to `shape` (same element count) by a graph_compute; `x` itself when equal. */
  reshape(out: string | undefined, x: Val, shape: readonly number[], loc: string): Val {
    if (x.shape.join('x') === shape.join('x') && x.shape.length === shape.length) {
      if (out !== undefined) this.define(out, x);
      return x;
    }
    return this.compute(out, [x], shape, loc, (b, [a]) => b.reshape(a!, x.shape, shape));
  }

  /**
   * Wraps a per-row body into a `spat.graph_compute` (one row) or a `spat.graph_compute_batch`
   * with one lane per row plus a `spat.blueprint` placing the [1, nOut] rows of an [m, nOut]
   * result. `weights` are the resident crossbar weights, `inputs` the runtime inputs; the body
   * may use `lane` (the row index) and returns the yielded row `y`.
   */
  emitRows(out: string, m: number, nOut: number, lane: string, weights: readonly RegionBinding[], inputs: readonly RegionBinding[], body: readonly string[], y: string, loc: string): Val {
    const yt = tensorType([1, nOut]);
    const ssa = this.fresh();
    const list = (bs: readonly RegionBinding[], pick: (b: RegionBinding) => string) => bs.map(pick).join(', ');
    const head = `[${list(weights, (b) => b.arg)}] = [${list(weights, (b) => b.value)}] (${list(inputs, (b) => b.arg)}) = (${list(inputs, (b) => b.value)})`;
    const tail = `crossbarWeights ${weights.length} : [${list(weights, (b) => b.type)}] (${list(inputs, (b) => b.type)})`;
    if (m === 1) {
      this.lines.push(`${ssa} = spat.graph_compute ${head} ${tail} -> ${yt} {`, ...body.map((l) => `  ${l}`), `  spat.yield ${y} : ${yt} ${loc}`, `} ${loc}`);
      const v = { ssa, shape: [1, nOut] };
      this.define(out, v);
      return v;
    }
    const outArg = this.fresh('out');
    const ft = tensorType([m, 1, nOut]);
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
    const v = { ssa: logical, shape: [m, nOut] };
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
