/**
 * Builders of the graph IR the plan lowering emits: `spat.graph_compute` and
 * `spat.graph_compute_batch` with their bodies (lane argument, weight and input bindings,
 * `spat.in_parallel` publication of one fragment per lane at `[lane, 0, ...]`), physical-view
 * blueprints, and a body builder with the tensor / affine / `spat` element-wise ops bodies use.
 * Every op is created through its definition's typed `build` (no op-name strings).
 */
import {
  ArrayAttr,
  ConstantOp,
  DenseArrayAttr,
  DenseElementsAttr,
  FloatType,
  IndexType,
  IntegerAttr,
  IntegerType,
  RankedTensorType,
  getAffineDimExpr,
  AffineMap,
  AffineConstantExpr,
  type AffineExpr,
  type Location,
  type MLIRContext,
  type OpBuilder,
  type Value,
} from '@raptor-pim/ir-core';
import {
  BlueprintOp,
  ConcatOp,
  GraphComputeBatchOp,
  GraphComputeOp,
  InParallelOp,
  ReluOp,
  SigmoidOp,
  SpatEnumAttr,
  VaddOp,
  VavgOp,
  VmaxOp,
  VmulOp,
  WvmmOp,
  YieldOp,
} from '@raptor-pim/spatial-dialect';
import {
  SplatOp,
  TensorCollapseShapeOp,
  TensorExpandShapeOp,
  createAffineApply,
  createExtract,
  createExtractSlice,
  createInsertSlice,
  createParallelInsertSlice,
  type IndexOrValue,
} from '@raptor-pim/upstream-dialects';

/** A static f32 tensor type of `shape`. */
export function f32Tensor(ctx: MLIRContext, shape: readonly number[]): RankedTensorType {
  return RankedTensorType.get(ctx, shape, FloatType.f32(ctx));
}

/** `arith.constant` of a dense f32 tensor (`data` adopted, not copied) at the builder's point. */
export function denseConstant(b: OpBuilder, loc: Location, shape: readonly number[], data: Float32Array): Value {
  const type = f32Tensor(b.context, shape);
  return ConstantOp.build(b, { value: DenseElementsAttr.adopt(type, data), result: type }, loc).result;
}

/** `arith.constant` of a splat f32 tensor. */
export function splatConstant(b: OpBuilder, loc: Location, shape: readonly number[], value: number): Value {
  const type = f32Tensor(b.context, shape);
  return ConstantOp.build(b, { value: DenseElementsAttr.splat(type, value), result: type }, loc).result;
}

function reassociation(ctx: MLIRContext, groups: readonly (readonly number[])[]): ArrayAttr {
  const i64 = IntegerType.get(ctx, 64);
  return ArrayAttr.get(
    ctx,
    groups.map((g) => ArrayAttr.get(ctx, g.map((d) => IntegerAttr.get(i64, d)))),
  );
}

function shapeOf(v: Value): readonly number[] {
  return (v.type as RankedTensorType).shape;
}

const sameShape = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((d, i) => d === b[i]);

/**
 * Emits the ops of a compute body at the end of one block: slices, reshapes, affine index
 * arithmetic on the lane, constants and the `spat` element-wise ops.
 */
export class BodyBuilder {
  constructor(
    /** The builder, positioned in the body block. */
    readonly b: OpBuilder,
    /** The location every op gets (the plan's). */
    readonly loc: Location,
    /** The lane argument (batches), or undefined. */
    readonly lane: Value | undefined,
  ) {}

  private readonly applied = new Map<AffineExpr, Value>();

  /** The context. */
  get ctx(): MLIRContext {
    return this.b.context;
  }

  /** The lane as the affine dimension `d0`. */
  get d0(): AffineExpr {
    return getAffineDimExpr(this.ctx, 0);
  }

  /** `affine.apply` of `expr(d0 = lane)` (one op per distinct expression of a body). */
  index(expr: AffineExpr): Value {
    if (!this.lane) throw new Error('internal error: lane index outside a batch');
    const known = this.applied.get(expr);
    if (known) return known;
    const v = createAffineApply(this.b, this.loc, AffineMap.get(this.ctx, 1, 0, [expr]), [this.lane]);
    this.applied.set(expr, v);
    return v;
  }

  /** An offset: a static number, or `affine.apply` of a lane expression (constants fold). */
  offset(expr: AffineExpr | number): IndexOrValue {
    if (typeof expr === 'number') return expr;
    if (expr instanceof AffineConstantExpr) return expr.value;
    return this.index(expr);
  }

  /**
   * `tensor.extract_slice` of `source` at `offsets` with `sizes` (unit strides unless given);
   * `resultShape` gives a rank-reduced result (unit dimensions dropped).
   */
  slice(source: Value, offsets: readonly (AffineExpr | number)[], sizes: readonly number[], resultShape?: readonly number[], strides?: readonly number[]): Value {
    const shape = resultShape ?? sizes;
    return createExtractSlice(
      this.b,
      this.loc,
      source,
      { offsets: offsets.map((o) => this.offset(o)), sizes, strides: strides ?? sizes.map(() => 1) },
      f32Tensor(this.ctx, shape),
    );
  }

  /** `tensor.insert_slice` of `source` into `dest` at static `offsets` (sizes: the source's shape, padded with leading 1s). */
  insert(source: Value, dest: Value, offsets: readonly number[], sizes: readonly number[]): Value {
    return createInsertSlice(this.b, this.loc, source, dest, { offsets, sizes });
  }

  /** `tensor.collapse_shape` with `groups`. */
  collapse(source: Value, groups: readonly (readonly number[])[], resultShape: readonly number[]): Value {
    return TensorCollapseShapeOp.build(this.b, { src: source, result: f32Tensor(this.ctx, resultShape), reassociation: reassociation(this.ctx, groups) }, this.loc).result;
  }

  /** `tensor.expand_shape` with `groups`. */
  expand(source: Value, groups: readonly (readonly number[])[], resultShape: readonly number[]): Value {
    return TensorExpandShapeOp.build(
      this.b,
      {
        src: source,
        output_shape: [],
        result: f32Tensor(this.ctx, resultShape),
        reassociation: reassociation(this.ctx, groups),
        static_output_shape: DenseArrayAttr.i64(this.ctx, [...resultShape]),
      },
      this.loc,
    ).result;
  }

  /**
   * `source` with the same elements in row-major order and shape `shape`: a collapse to one
   * dimension followed by an expand (either skipped when not needed).
   */
  reshape(source: Value, shape: readonly number[]): Value {
    const from = shapeOf(source);
    if (sameShape(from, shape)) return source;
    const n = from.reduce((a, c) => a * c, 1);
    let flat = source;
    if (from.length !== 1) flat = this.collapse(source, [from.map((_, i) => i)], [n]);
    if (shape.length === 1) return flat;
    return this.expand(flat, [shape.map((_, i) => i)], shape);
  }

  /** `tensor.extract` of one element at (possibly lane-dependent) `indices`. */
  element(source: Value, indices: readonly (AffineExpr | number)[]): Value {
    const idx = indices.map((i) => {
      const o = this.offset(i);
      return typeof o === 'number' ? this.indexConstant(o) : o;
    });
    return createExtract(this.b, this.loc, source, idx);
  }

  private readonly constants = new Map<number, Value>();

  /** An `index` constant (one per value per body). */
  indexConstant(value: number): Value {
    const known = this.constants.get(value);
    if (known) return known;
    const type = IndexType.get(this.ctx);
    const v = ConstantOp.build(this.b, { value: IntegerAttr.get(type, value), result: type }, this.loc).result;
    this.constants.set(value, v);
    return v;
  }

  /** `tensor.splat` of the scalar `value` to `shape`. */
  splat(value: Value, shape: readonly number[]): Value {
    return SplatOp.build(this.b, { input: value, dynamicSizes: [], aggregate: f32Tensor(this.ctx, shape) }, this.loc).aggregate;
  }

  /** A splat f32 constant of `shape` inside the body. */
  splatConstant(shape: readonly number[], value: number): Value {
    return splatConstant(this.b, this.loc, shape, value);
  }

  /** `spat.wvmm[weight](input)`: `[1, rows]` times `[rows, cols]` gives `[1, cols]`. */
  wvmm(weight: Value, input: Value): Value {
    const cols = shapeOf(weight)[1]!;
    return WvmmOp.build(this.b, { weight, input, output: f32Tensor(this.ctx, [1, cols]) }, this.loc).output;
  }

  /** `spat.vadd`. */
  add(lhs: Value, rhs: Value): Value {
    return VaddOp.build(this.b, { lhs, rhs, output: lhs.type }, this.loc).output;
  }

  /** `spat.vmax`. */
  max(lhs: Value, rhs: Value): Value {
    return VmaxOp.build(this.b, { lhs, rhs, output: lhs.type }, this.loc).output;
  }

  /** `spat.vmul`. */
  mul(lhs: Value, rhs: Value): Value {
    return VmulOp.build(this.b, { lhs, rhs, output: lhs.type }, this.loc).output;
  }

  /** `spat.relu`. */
  relu(input: Value): Value {
    return ReluOp.build(this.b, { input, output: input.type }, this.loc).output;
  }

  /** SiLU as `x * sigmoid(x)` (`spat.sigmoid` then `spat.vmul`). */
  silu(input: Value): Value {
    const s = SigmoidOp.build(this.b, { input, output: input.type }, this.loc).output;
    return this.mul(input, s);
  }

  /** `spat.vavg` of the whole `input` into a one-element tensor of `resultShape`. */
  average(input: Value, resultShape: readonly number[]): Value {
    return VavgOp.build(this.b, { input, output: f32Tensor(this.ctx, resultShape) }, this.loc).output;
  }

  /** `spat.concat` along `axis` (the operand itself when there is one). */
  concat(axis: number, inputs: readonly Value[]): Value {
    if (inputs.length === 1) return inputs[0]!;
    return this.concatOf(axis, inputs);
  }

  /** `spat.concat` of `inputs` along `axis`, also of a single input. */
  concatOf(axis: number, inputs: readonly Value[]): Value {
    const shape = [...shapeOf(inputs[0]!)];
    shape[axis] = inputs.reduce((s, v) => s + shapeOf(v)[axis]!, 0);
    return ConcatOp.build(this.b, { inputs, output: f32Tensor(this.ctx, shape), axis: IntegerAttr.get(IntegerType.get(this.ctx, 64), axis) }, this.loc).output;
  }

  /** Left-to-right `spat.vadd` chain of `values` (partial sums of crossbar tiles). */
  sum(values: readonly Value[]): Value {
    let acc = values[0]!;
    for (let i = 1; i < values.length; i++) acc = this.add(acc, values[i]!);
    return acc;
  }

  /** Left-to-right `spat.vmax` chain of `values`. */
  maxOf(values: readonly Value[]): Value {
    let acc = values[0]!;
    for (let i = 1; i < values.length; i++) acc = this.max(acc, values[i]!);
    return acc;
  }
}

/** What {@link buildBatch} and {@link buildCompute} bind. */
export interface ComputeBindings {
  /** Resident crossbar weights (constants). */
  readonly weights: readonly Value[];
  /** Runtime inputs. */
  readonly inputs: readonly Value[];
}

/**
 * A `spat.graph_compute_batch` of `laneCount` lanes publishing one `fragmentShape` fragment per
 * lane into slot `lane` (the graph fragment contract): the result is `[laneCount] + fragmentShape`.
 * `body(bb, weightArgs, inputArgs)` returns the lane's fragment.
 */
export function buildBatch(
  b: OpBuilder,
  loc: Location,
  laneCount: number,
  bindings: ComputeBindings,
  fragmentShape: readonly number[],
  body: (bb: BodyBuilder, weights: readonly Value[], inputs: readonly Value[]) => Value,
): Value {
  const ctx = b.context;
  const collection = f32Tensor(ctx, [laneCount, ...fragmentShape]);
  const op = GraphComputeBatchOp.build(
    b,
    { weights: bindings.weights, inputs: bindings.inputs, outputs: [collection], laneCount: IntegerAttr.get(IntegerType.get(ctx, 32), laneCount) },
    loc,
  );
  const region = op.op.regions[0]!;
  const types = [IndexType.get(ctx), ...bindings.weights.map((v) => v.type), ...bindings.inputs.map((v) => v.type), collection];
  const saved = b.saveInsertionPoint();
  const block = b.createBlock(region, null, types, types.map(() => loc));
  const args = block.arguments;
  const nw = bindings.weights.length;
  const bb = new BodyBuilder(b, loc, args[0]);
  const fragment = body(bb, args.slice(1, 1 + nw), args.slice(1 + nw, 1 + nw + bindings.inputs.length));
  const out = args[args.length - 1]!;
  const par = InParallelOp.build(b, {}, loc);
  b.createBlock(par.op.regions[0]!, null, [], []);
  createParallelInsertSlice(b, loc, fragment, out, {
    offsets: [args[0]!, ...fragmentShape.map(() => 0)],
    sizes: [1, ...fragmentShape],
  });
  b.restoreInsertionPoint(saved);
  return op.op.getResult(0);
}

/**
 * A `spat.graph_compute` (one computation, no lanes) binding `bindings`, with results of
 * `resultShapes`; `body(bb, weightArgs, inputArgs)` returns the yielded values.
 */
export function buildCompute(
  b: OpBuilder,
  loc: Location,
  bindings: ComputeBindings,
  resultShapes: readonly (readonly number[])[],
  body: (bb: BodyBuilder, weights: readonly Value[], inputs: readonly Value[]) => readonly Value[],
): Value[] {
  const op = GraphComputeOp.build(b, { weights: bindings.weights, inputs: bindings.inputs, outputs: resultShapes.map((s) => f32Tensor(b.context, s)) }, loc);
  const types = [...bindings.weights.map((v) => v.type), ...bindings.inputs.map((v) => v.type)];
  const saved = b.saveInsertionPoint();
  const block = b.createBlock(op.op.regions[0]!, null, types, types.map(() => loc));
  const args = block.arguments;
  const nw = bindings.weights.length;
  const results = body(new BodyBuilder(b, loc, undefined), args.slice(0, nw), args.slice(nw));
  YieldOp.build(b, { outputs: results }, loc);
  b.restoreInsertionPoint(saved);
  return [...op.op.results];
}

/**
 * The logical `[N, C, H, W]`-style tensor of a collection `[lanes] + fragment` whose slots in
 * row-major order are the logical tensor in row-major order (`spat.blueprint ... mode
 * physical_view`).
 */
export function buildPhysicalView(b: OpBuilder, loc: Location, collection: Value, logicalShape: readonly number[]): Value {
  const ctx = b.context;
  return BlueprintOp.build(
    b,
    {
      fragments: [collection],
      output: f32Tensor(ctx, logicalShape),
      logicalLayout: SpatEnumAttr.get(ctx, 'logical_layout', 'nchw'),
      physicalLayout: SpatEnumAttr.get(ctx, 'physical_layout', 'dense_nchw'),
      offsets: DenseArrayAttr.i64(ctx, []),
      sizes: DenseArrayAttr.i64(ctx, []),
      indexMap: SpatEnumAttr.get(ctx, 'index_map', 'contiguous_row_major'),
      mode: SpatEnumAttr.get(ctx, 'blueprint_mode', 'physical_view'),
      fragmentStrides: DenseArrayAttr.i64(ctx, []),
      conflictPolicy: SpatEnumAttr.get(ctx, 'conflict_policy', 'disjoint'),
      coveragePolicy: SpatEnumAttr.get(ctx, 'coverage_policy', 'complete'),
    },
    loc,
  ).output;
}
