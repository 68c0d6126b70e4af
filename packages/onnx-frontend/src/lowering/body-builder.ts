/**
 * Builds the body of a compute region: element-wise spat ops, `spat.concat`, and the data
 * movement the Spatial dialect expresses with upstream `tensor` ops inside a region (static
 * slices, reshapes through `tensor.collapse_shape`/`tensor.expand_shape`, and transposes as a
 * sequence of strided slices). Ops are appended to one (detached) block; every method returns
 * the value of its result.
 */
import { ArrayAttr, DenseArrayAttr, IntegerAttr, IntegerType, OpBuilder, type Block, type Location, type MLIRContext, type Value } from '@raptor-pim/ir-core';
import { ConcatOp, type ReluOp, type VaddOp } from '@raptor-pim/spatial-dialect';
import { TensorCollapseShapeOp, TensorExpandShapeOp, createEmpty, createExtractSlice, createInsertSlice } from '@raptor-pim/upstream-dialects';
import { elementCount, tensorType } from './ir-helpers';

/** A one-operand element-wise spat op (`ReluOp`, `SigmoidOp`, `SoftmaxOp`, `VavgOp`). */
export type UnaryOpDefinition = typeof ReluOp;
/** A two-operand element-wise spat op (`VaddOp`, `VsubOp`, `VmulOp`, `VmaxOp`). */
export type BinaryOpDefinition = typeof VaddOp;

function reassociation(ctx: MLIRContext, groups: readonly (readonly number[])[]): ArrayAttr {
  const i64 = IntegerType.get(ctx, 64);
  return ArrayAttr.get(
    ctx,
    groups.map((g) => ArrayAttr.get(ctx, g.map((d) => IntegerAttr.get(i64, d)))),
  );
}

/** Builder of the ops of one region body. */
export class BodyBuilder {
  /** The builder, at the end of the body block. */
  readonly b: OpBuilder;

  constructor(
    /** The body block (its arguments are the bound values). */
    readonly block: Block,
    readonly ctx: MLIRContext,
    /** The location of every op (the ONNX node name). */
    readonly loc: Location,
  ) {
    this.b = OpBuilder.atBlockEnd(block, ctx);
  }

  /** An element-wise op of definition `def` on `a` (shape `shape`): relu, sigmoid, softmax. */
  unary(def: UnaryOpDefinition, a: Value, shape: readonly number[]): Value {
    return def.build(this.b, { input: a, output: tensorType(this.ctx, shape) }, this.loc).output;
  }

  /** An element-wise op of definition `def` on `a`, `b` (shape `shape`): vadd, vsub, vmul, vmax. */
  binary(def: BinaryOpDefinition, a: Value, b: Value, shape: readonly number[]): Value {
    return def.build(this.b, { lhs: a, rhs: b, output: tensorType(this.ctx, shape) }, this.loc).output;
  }

  /** `spat.concat axis k` of `parts` (shapes `shapes`) giving `outShape`. */
  concat(axis: number, parts: readonly Value[], _shapes: readonly (readonly number[])[], outShape: readonly number[]): Value {
    if (parts.length === 1) return parts[0]!;
    return ConcatOp.build(this.b, { inputs: parts, output: tensorType(this.ctx, outShape), axis: IntegerAttr.get(IntegerType.get(this.ctx, 64), axis) }, this.loc).output;
  }

  /** `tensor.empty() : tensor<shape>`. */
  empty(shape: readonly number[]): Value {
    return createEmpty(this.b, this.loc, tensorType(this.ctx, shape));
  }

  /**
   * `tensor.extract_slice` of `v` at `offsets` (static, or the lane value) with `sizes`; the
   * result has shape `resultShape` (default `sizes`; fewer dimensions for a rank-reducing slice).
   */
  slice(v: Value, offsets: readonly (number | Value)[], sizes: readonly number[], strides: readonly number[], resultShape: readonly number[] = sizes): Value {
    return createExtractSlice(this.b, this.loc, v, { offsets, sizes, strides }, tensorType(this.ctx, resultShape));
  }

  /** `tensor.extract_slice` of `v` (shape `from`) at static offsets/sizes/strides; the result has shape `sizes`. */
  extractSlice(v: Value, from: readonly number[], offsets: readonly number[], sizes: readonly number[], strides?: readonly number[]): Value {
    const st = strides ?? sizes.map(() => 1);
    if (offsets.every((o) => o === 0) && st.every((s) => s === 1) && sizes.every((s, i) => s === from[i])) return v;
    return this.slice(v, offsets, sizes, st);
  }

  /** `tensor.insert_slice` of `src` (shape `sizes`) into `dest` (shape `destShape`). */
  insertSlice(src: Value, dest: Value, _destShape: readonly number[], offsets: readonly number[], sizes: readonly number[], strides?: readonly number[]): Value {
    return createInsertSlice(this.b, this.loc, src, dest, { offsets, sizes, strides: strides ?? sizes.map(() => 1) });
  }

  private collapse(v: Value, groups: readonly (readonly number[])[], to: readonly number[]): Value {
    return TensorCollapseShapeOp.build(this.b, { src: v, result: tensorType(this.ctx, to), reassociation: reassociation(this.ctx, groups) }, this.loc).result;
  }

  private expand(v: Value, groups: readonly (readonly number[])[], to: readonly number[]): Value {
    return TensorExpandShapeOp.build(
      this.b,
      { src: v, output_shape: [], result: tensorType(this.ctx, to), reassociation: reassociation(this.ctx, groups), static_output_shape: DenseArrayAttr.i64(this.ctx, [...to]) },
      this.loc,
    ).result;
  }

  /**
   * `v` (shape `from`) reshaped to `to` (same element count, row-major order): a
   * `tensor.collapse_shape` to rank 1 then a `tensor.expand_shape`; nothing when equal.
   */
  reshape(v: Value, from: readonly number[], to: readonly number[]): Value {
    if (from.length === to.length && from.every((d, i) => d === to[i])) return v;
    if (elementCount(from) !== elementCount(to)) throw new Error(`internal error: reshape ${from.join('x')} -> ${to.join('x')} changes the element count`);
    if (to.length === 0) return this.collapse(v, [], []);
    if (from.length === 0) return this.expand(v, [], to);
    const n = elementCount(from);
    let flat = v;
    if (from.length > 1) flat = this.collapse(v, [from.map((_, i) => i)], [n]);
    if (to.length === 1) return flat;
    return this.expand(flat, [to.map((_, i) => i)], to);
  }

  /**
   * `v` (shape `shape`) with its dimensions permuted: output dim k is input dim `perm[k]`.
   * Copies with slices: the largest set of dimensions that keeps its relative order under the
   * permutation moves as one block (a rank-reducing `tensor.extract_slice` to the block's
   * sizes, then a rank-reducing `tensor.insert_slice`); the loop runs over the other
   * dimensions, so an NCHW -> NHWC transpose costs C extract/insert pairs.
   */
  transpose(v: Value, shape: readonly number[], perm: readonly number[]): Value {
    const rank = shape.length;
    const outShape = perm.map((p) => shape[p]!);
    if (perm.every((p, i) => p === i)) return v;
    // Dims whose size is 1 can be placed anywhere: a pure reshape when the non-unit dims keep their order.
    const nonUnit = perm.filter((p) => shape[p] !== 1);
    if (nonUnit.every((p, i) => i === 0 || p > nonUnit[i - 1]!)) return this.reshape(v, shape, outShape);
    const kept = keptDims(perm, shape);
    const loopDims = outShape.map((_, k) => k).filter((k) => !kept.has(k));
    const sliceOut = outShape.map((d, k) => (kept.has(k) ? d : 1));
    const sliceIn = shape.map((d, i) => (kept.has(perm.indexOf(i)) ? d : 1));
    const unitIn = sliceIn.map(() => 1);
    const unitOut = sliceOut.map(() => 1);
    const block = outShape.filter((_, k) => kept.has(k));
    let acc = this.empty(outShape);
    const idx = new Array<number>(loopDims.length).fill(0);
    const total = loopDims.reduce((p, k) => p * outShape[k]!, 1);
    for (let it = 0; it < total; it++) {
      const outOffsets = new Array<number>(rank).fill(0);
      loopDims.forEach((k, j) => (outOffsets[k] = idx[j]!));
      const inOffsets = shape.map((_, i) => outOffsets[perm.indexOf(i)]!);
      // Rank-reducing slices: the block travels as a tensor of the kept sizes only.
      const s = this.slice(v, inOffsets, sliceIn, unitIn, block);
      acc = createInsertSlice(this.b, this.loc, s, acc, { offsets: outOffsets, sizes: sliceOut, strides: unitOut });
      for (let j = loopDims.length - 1; j >= 0; j--) {
        if (++idx[j]! < outShape[loopDims[j]!]!) break;
        idx[j] = 0;
      }
    }
    return acc;
  }
}

/**
 * The output dimensions moved as a block by {@link BodyBuilder.transpose}: a subsequence of
 * output dims whose input dims are increasing (so a slice keeps their order), of maximal
 * total size (longest increasing subsequence weighted by log size).
 */
function keptDims(perm: readonly number[], shape: readonly number[]): Set<number> {
  const n = perm.length;
  const w = perm.map((p) => Math.log(Math.max(1, shape[p]!)) + 1e-9);
  const best = new Array<number>(n).fill(0);
  const prev = new Array<number>(n).fill(-1);
  for (let k = 0; k < n; k++) {
    best[k] = w[k]!;
    for (let j = 0; j < k; j++) {
      if (perm[j]! < perm[k]! && best[j]! + w[k]! > best[k]!) {
        best[k] = best[j]! + w[k]!;
        prev[k] = j;
      }
    }
  }
  let end = 0;
  for (let k = 1; k < n; k++) if (best[k]! > best[end]!) end = k;
  const kept = new Set<number>();
  for (let k = end; k >= 0; k = prev[k]!) kept.add(k);
  return kept;
}
