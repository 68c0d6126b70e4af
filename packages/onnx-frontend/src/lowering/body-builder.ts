/**
 * Writes the body of a compute region: element-wise spat ops, `spat.concat`, and the data
 * movement the Spatial dialect expresses with upstream `tensor` ops inside a region (static
 * slices, reshapes through `tensor.collapse_shape`/`tensor.expand_shape`, and transposes as a
 * sequence of strided slices). Every method returns the SSA name of its result.
 */
import type { LoweringContext } from './lowering-context';
import { elementCount, tensorType } from './mlir-text';

/** Builder of the lines of one region body. */
export class BodyBuilder {
  /** The body lines, unindented, in order. */
  readonly lines: string[] = [];

  constructor(
    private readonly cx: LoweringContext,
    /** The location appended to every op (the ONNX node name). */
    readonly loc: string,
  ) {}

  /** Appends a raw line (the caller appends the location). */
  push(line: string): void {
    this.lines.push(line);
  }

  /** A fresh SSA name. */
  fresh(prefix = 'r'): string {
    return this.cx.fresh(prefix);
  }

  /** `spat.<op>(%a)` on a tensor of `shape` (relu, sigmoid, softmax). */
  unary(op: string, a: string, shape: readonly number[]): string {
    const t = tensorType(shape);
    const r = this.fresh();
    this.lines.push(`${r} = ${op}(${a}) : ${t} -> ${t} ${this.loc}`);
    return r;
  }

  /** `spat.<op> %a, %b` on two tensors of `shape` (vadd, vsub, vmul, vmax). */
  binary(op: string, a: string, b: string, shape: readonly number[]): string {
    const t = tensorType(shape);
    const r = this.fresh();
    this.lines.push(`${r} = ${op} ${a}, ${b} : (${t}, ${t}) -> ${t} ${this.loc}`);
    return r;
  }

  /** `spat.concat axis k` of `parts` (shapes `shapes`) giving `outShape`. */
  concat(axis: number, parts: readonly string[], shapes: readonly (readonly number[])[], outShape: readonly number[]): string {
    if (parts.length === 1) return parts[0]!;
    const r = this.fresh('cat');
    this.lines.push(`${r} = spat.concat axis ${axis} ${parts.join(', ')} : (${shapes.map(tensorType).join(', ')}) -> ${tensorType(outShape)} ${this.loc}`);
    return r;
  }

  /** `tensor.empty() : tensor<shape>`. */
  empty(shape: readonly number[]): string {
    const r = this.fresh('e');
    this.lines.push(`${r} = tensor.empty() : ${tensorType(shape)} ${this.loc}`);
    return r;
  }

  /** `tensor.extract_slice` of `v` (shape `from`) at static offsets/sizes/strides; the result has shape `sizes`. */
  extractSlice(v: string, from: readonly number[], offsets: readonly number[], sizes: readonly number[], strides?: readonly number[]): string {
    const st = strides ?? sizes.map(() => 1);
    if (offsets.every((o) => o === 0) && st.every((s) => s === 1) && sizes.every((s, i) => s === from[i])) return v;
    const r = this.fresh('s');
    this.lines.push(`${r} = tensor.extract_slice ${v}[${offsets.join(', ')}] [${sizes.join(', ')}] [${st.join(', ')}] : ${tensorType(from)} to ${tensorType(sizes)} ${this.loc}`);
    return r;
  }

  /** `tensor.insert_slice` of `src` (shape `sizes`) into `dest` (shape `destShape`). */
  insertSlice(src: string, dest: string, destShape: readonly number[], offsets: readonly number[], sizes: readonly number[], strides?: readonly number[]): string {
    const st = strides ?? sizes.map(() => 1);
    const r = this.fresh('ins');
    this.lines.push(`${r} = tensor.insert_slice ${src} into ${dest}[${offsets.join(', ')}] [${sizes.join(', ')}] [${st.join(', ')}] : ${tensorType(sizes)} into ${tensorType(destShape)} ${this.loc}`);
    return r;
  }

  /**
   * `v` (shape `from`) reshaped to `to` (same element count, row-major order): a
   * `tensor.collapse_shape` to rank 1 then a `tensor.expand_shape`; nothing when equal.
   */
  reshape(v: string, from: readonly number[], to: readonly number[]): string {
    if (from.length === to.length && from.every((d, i) => d === to[i])) return v;
    if (elementCount(from) !== elementCount(to)) throw new Error(`internal error: reshape ${from.join('x')} -> ${to.join('x')} changes the element count`);
    const r = this.fresh('rs');
    if (to.length === 0) {
      this.lines.push(`${r} = tensor.collapse_shape ${v} [] : ${tensorType(from)} into ${tensorType([])} ${this.loc}`);
      return r;
    }
    if (from.length === 0) {
      this.lines.push(`${r} = tensor.expand_shape ${v} [] output_shape [${to.join(', ')}] : ${tensorType([])} into ${tensorType(to)} ${this.loc}`);
      return r;
    }
    const n = elementCount(from);
    let flat = v;
    if (from.length > 1) {
      flat = to.length === 1 ? r : this.fresh('flat');
      this.lines.push(`${flat} = tensor.collapse_shape ${v} [[${from.map((_, i) => i).join(', ')}]] : ${tensorType(from)} into ${tensorType([n])} ${this.loc}`);
    }
    if (to.length === 1) return flat;
    this.lines.push(`${r} = tensor.expand_shape ${flat} [[${to.map((_, i) => i).join(', ')}]] output_shape [${to.join(', ')}] : ${tensorType([n])} into ${tensorType(to)} ${this.loc}`);
    return r;
  }

  /**
   * `v` (shape `shape`) with its dimensions permuted: output dim k is input dim `perm[k]`.
   * Copies with slices: the largest set of dimensions that keeps its relative order under the
   * permutation moves as one block (a rank-reducing `tensor.extract_slice` to the block's
   * sizes, then a rank-reducing `tensor.insert_slice`); the loop runs over the other
   * dimensions, so an NCHW -> NHWC transpose costs C extract/insert pairs.
   */
  transpose(v: string, shape: readonly number[], perm: readonly number[]): string {
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
    const block = outShape.filter((_, k) => kept.has(k));
    let acc = this.empty(outShape);
    const idx = new Array<number>(loopDims.length).fill(0);
    const total = loopDims.reduce((p, k) => p * outShape[k]!, 1);
    for (let it = 0; it < total; it++) {
      const outOffsets = new Array<number>(rank).fill(0);
      loopDims.forEach((k, j) => (outOffsets[k] = idx[j]!));
      const inOffsets = shape.map((_, i) => outOffsets[perm.indexOf(i)]!);
      // Rank-reducing slices: the block travels as a tensor of the kept sizes only.
      const s = this.fresh('s');
      this.lines.push(`${s} = tensor.extract_slice ${v}[${inOffsets.join(', ')}] [${sliceIn.join(', ')}] [${sliceIn.map(() => 1).join(', ')}] : ${tensorType(shape)} to ${tensorType(block)} ${this.loc}`);
      const next = this.fresh('ins');
      this.lines.push(`${next} = tensor.insert_slice ${s} into ${acc}[${outOffsets.join(', ')}] [${sliceOut.join(', ')}] [${sliceOut.map(() => 1).join(', ')}] : ${tensorType(block)} into ${tensorType(outShape)} ${this.loc}`);
      acc = next;
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
