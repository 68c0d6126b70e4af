import { KernelMessages } from '../../diagnostics';
import { formatShape, kernelFail, kernelOk, normalizeAxis, shapeSize, stridesOf, validateIntList, validateTensor } from './tensor';
import type { F32Tensor, KernelResult } from './tensor';

/**
 * Flattens around `axis` (ONNX `Flatten`, `spat.flatten_plan`): the output is
 * `[prod(shape[0:axis]), prod(shape[axis:])]` with the same row-major element order (a copy).
 * `axis` may be negative (counted from the end) and lies in `[-rank, rank]`.
 *
 * @example flatten(x, 1) // x: [1, 2, 3, 4] -> shape [1, 24]
 */
export function flatten(input: F32Tensor, axis = 1): KernelResult<F32Tensor> {
  const problem = validateTensor('flatten', 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  const rank = input.shape.length;
  const a = normalizeAxis(axis, rank, 1);
  if (a < 0) return kernelFail(KernelMessages.axisOutOfRange('flatten', axis, -rank, rank));
  let outer = 1;
  for (let i = 0; i < a; i++) outer *= input.shape[i]!;
  const inner = shapeSize(input.shape) / (outer === 0 ? 1 : outer);
  return kernelOk({ shape: [outer, outer === 0 ? shapeSize(input.shape.slice(a)) : inner], data: input.data.slice() });
}

/**
 * Concatenates `inputs` along `axis` in operand order (ONNX `Concat`, `spat.concat`,
 * `spat.concat_plan` with axis 1, `pim.concat`). Every input has the same rank and the same
 * sizes on every other axis; the output axis size is the sum. `axis` may be negative.
 *
 * @example concat([a, b], 1) // a, b: [1, 2] -> shape [1, 4]
 */
export function concat(inputs: readonly F32Tensor[], axis: number): KernelResult<F32Tensor> {
  const kernel = 'concat';
  if (inputs.length === 0) return kernelFail(KernelMessages.emptyInputList(kernel));
  for (let i = 0; i < inputs.length; i++) {
    const problem = validateTensor(kernel, `input #${i}`, inputs[i]!);
    if (problem !== undefined) return kernelFail(problem);
  }
  const first = inputs[0]!.shape;
  const rank = first.length;
  const a = normalizeAxis(axis, rank);
  if (a < 0) return kernelFail(KernelMessages.axisOutOfRange(kernel, axis, -rank, rank - 1));
  let axisTotal = 0;
  for (let i = 0; i < inputs.length; i++) {
    const s = inputs[i]!.shape;
    if (s.length !== rank) return kernelFail(KernelMessages.rankMismatch(kernel, `input #${i}`, s, `${rank} (same as input #0)`));
    for (let d = 0; d < rank; d++) {
      if (d !== a && s[d] !== first[d]) {
        const expected = s.slice();
        expected[d] = first[d]!;
        return kernelFail(KernelMessages.shapeMismatch(kernel, `input #${i}`, s, expected, `non-axis dimensions equal input #0`));
      }
    }
    axisTotal += s[a]!;
  }
  const outShape = first.slice();
  outShape[a] = axisTotal;
  let outer = 1;
  for (let d = 0; d < a; d++) outer *= first[d]!;
  let inner = 1;
  for (let d = a + 1; d < rank; d++) inner *= first[d]!;
  const out = new Float32Array(shapeSize(outShape));
  const outBlock = axisTotal * inner;
  let axisOffset = 0;
  for (let i = 0; i < inputs.length; i++) {
    const t = inputs[i]!;
    const block = t.shape[a]! * inner;
    for (let o = 0; o < outer; o++) {
      out.set(t.data.subarray(o * block, (o + 1) * block), o * outBlock + axisOffset * inner);
    }
    axisOffset += t.shape[a]!;
  }
  return kernelOk({ shape: outShape, data: out });
}

/**
 * Splits `input` along `axis` into consecutive pieces of the given `sizes` (ONNX `Split`),
 * which must sum to the axis size. The inverse of {@link concat}.
 *
 * @example split(x, 1, [1, 3]) // x: [1, 4] -> shapes [1, 1] and [1, 3]
 */
export function split(input: F32Tensor, axis: number, sizes: readonly number[]): KernelResult<F32Tensor[]> {
  const kernel = 'split';
  const problem = validateTensor(kernel, 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  const rank = input.shape.length;
  const a = normalizeAxis(axis, rank);
  if (a < 0) return kernelFail(KernelMessages.axisOutOfRange(kernel, axis, -rank, rank - 1));
  const sizesProblem = validateIntList(kernel, 'sizes', sizes, sizes.length, 0);
  if (sizesProblem !== undefined) return kernelFail(sizesProblem);
  let total = 0;
  for (const s of sizes) total += s;
  if (sizes.length === 0 || total !== input.shape[a]) return kernelFail(KernelMessages.splitSizes(kernel, sizes, input.shape[a]!));
  let outer = 1;
  for (let d = 0; d < a; d++) outer *= input.shape[d]!;
  let inner = 1;
  for (let d = a + 1; d < rank; d++) inner *= input.shape[d]!;
  const inBlock = total * inner;
  const results: F32Tensor[] = [];
  let axisOffset = 0;
  for (const size of sizes) {
    const shape = input.shape.slice();
    shape[a] = size;
    const block = size * inner;
    const data = new Float32Array(outer * block);
    for (let o = 0; o < outer; o++) {
      const from = o * inBlock + axisOffset * inner;
      data.set(input.data.subarray(from, from + block), o * block);
    }
    results.push({ shape, data });
    axisOffset += size;
  }
  return kernelOk(results);
}

/**
 * Splits a rank-2 `[R, C]` matrix into `R` row tensors `[1, C]` (`spat.extract_rows`).
 */
export function extractRows(input: F32Tensor): KernelResult<F32Tensor[]> {
  const problem = validateTensor('extractRows', 'input', input, 2);
  if (problem !== undefined) return kernelFail(problem);
  const rows = input.shape[0]!;
  return split(input, 0, new Array<number>(rows).fill(1));
}

function checkSliceGeometry(
  kernel: string,
  shape: readonly number[],
  offsets: readonly number[],
  sizes: readonly number[],
  strides: readonly number[],
): string | undefined {
  const rank = shape.length;
  const problem =
    validateIntList(kernel, 'offsets', offsets, rank, 0) ??
    validateIntList(kernel, 'sizes', sizes, rank, 0) ??
    validateIntList(kernel, 'strides', strides, rank, 1);
  if (problem !== undefined) return problem;
  for (let d = 0; d < rank; d++) {
    const size = sizes[d]!;
    if (size > 0 && offsets[d]! + (size - 1) * strides[d]! >= shape[d]!) {
      return KernelMessages.sliceOutOfBounds(kernel, d, offsets[d]!, size, strides[d]!, shape[d]!);
    }
  }
  return undefined;
}

/** Copies between a strided slice and its row-major container (`toSlice` selects the direction). */
function copyStrided(
  container: Float32Array,
  containerShape: readonly number[],
  slice: Float32Array,
  offsets: readonly number[],
  sizes: readonly number[],
  strides: readonly number[],
  toSlice: boolean,
): void {
  const rank = containerShape.length;
  const total = shapeSize(sizes);
  if (total === 0) return;
  if (rank === 0) {
    if (toSlice) slice[0] = container[0]!;
    else container[0] = slice[0]!;
    return;
  }
  const cStrides = stridesOf(containerShape);
  const step = new Array<number>(rank);
  let base = 0;
  for (let d = 0; d < rank; d++) {
    step[d] = cStrides[d]! * strides[d]!;
    base += offsets[d]! * cStrides[d]!;
  }
  const counter = new Int32Array(rank);
  const last = rank - 1;
  const lastSize = sizes[last]!;
  const lastStep = step[last]!;
  let s = 0;
  for (;;) {
    let c = base;
    for (let d = 0; d < last; d++) c += counter[d]! * step[d]!;
    if (toSlice) for (let q = 0; q < lastSize; q++) slice[s++] = container[c + q * lastStep]!;
    else for (let q = 0; q < lastSize; q++) container[c + q * lastStep] = slice[s++]!;
    let d = last - 1;
    while (d >= 0) {
      counter[d]++;
      if (counter[d]! < sizes[d]!) break;
      counter[d] = 0;
      d--;
    }
    if (d < 0) return;
  }
}

/**
 * Extracts a static strided slice (MLIR `tensor.extract_slice` with static offsets, sizes and
 * strides, no rank reduction): `y[i] = x[offsets + i * strides]` for `i < sizes`.
 * Fails when a list has the wrong length or the slice reads outside the input.
 *
 * @example extractSlice(x, [0, 4], [1, 4], [1, 1]) // x: [1, 8] -> columns 4..7
 */
export function extractSlice(
  input: F32Tensor,
  offsets: readonly number[],
  sizes: readonly number[],
  strides?: readonly number[],
): KernelResult<F32Tensor> {
  const kernel = 'extractSlice';
  const steps = strides ?? new Array<number>(input.shape.length).fill(1);
  const problem = validateTensor(kernel, 'input', input) ?? checkSliceGeometry(kernel, input.shape, offsets, sizes, steps);
  if (problem !== undefined) return kernelFail(problem);
  const data = new Float32Array(shapeSize(sizes));
  copyStrided(input.data, input.shape, data, offsets, sizes, steps, true);
  return kernelOk({ shape: sizes.slice(), data });
}

/**
 * Returns a copy of `dest` with `source` written at a static strided position (MLIR
 * `tensor.insert_slice` / `tensor.parallel_insert_slice` without rank reduction): the inverse
 * of {@link extractSlice}. `source.shape` is the slice size.
 */
export function insertSlice(
  source: F32Tensor,
  dest: F32Tensor,
  offsets: readonly number[],
  strides?: readonly number[],
): KernelResult<F32Tensor> {
  const kernel = 'insertSlice';
  const steps = strides ?? new Array<number>(dest.shape.length).fill(1);
  const problem =
    validateTensor(kernel, 'source', source) ??
    validateTensor(kernel, 'dest', dest) ??
    (source.shape.length !== dest.shape.length
      ? KernelMessages.rankMismatch(kernel, 'source', source.shape, `${dest.shape.length} (same as dest)`)
      : undefined) ??
    checkSliceGeometry(kernel, dest.shape, offsets, source.shape, steps);
  if (problem !== undefined) return kernelFail(problem);
  const data = dest.data.slice();
  copyStrided(data, dest.shape, source.data, offsets, source.shape, steps, false);
  return kernelOk({ shape: dest.shape.slice(), data });
}

/**
 * Permutes axes (ONNX `Transpose`, `pim.transpose`): output axis `d` is input axis `perm[d]`,
 * so `y[i_0..i_{r-1}] = x[j]` with `j[perm[d]] = i_d`. Without `perm`, reverses the axes.
 *
 * @example transpose(x, [1, 0]) // x: [2, 3] -> shape [3, 2], y[j,i] = x[i,j]
 */
export function transpose(input: F32Tensor, perm?: readonly number[]): KernelResult<F32Tensor> {
  const kernel = 'transpose';
  const problem = validateTensor(kernel, 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  const rank = input.shape.length;
  const p = perm ?? input.shape.map((_, i) => rank - 1 - i);
  if (p.length !== rank) return kernelFail(KernelMessages.permutation(kernel, p, rank));
  const seen = new Uint8Array(rank);
  for (const axis of p) {
    if (!Number.isSafeInteger(axis) || axis < 0 || axis >= rank || seen[axis] === 1) {
      return kernelFail(KernelMessages.permutation(kernel, p, rank));
    }
    seen[axis] = 1;
  }
  const outShape = p.map((axis) => input.shape[axis]!);
  const total = shapeSize(outShape);
  const out = new Float32Array(total);
  if (total === 0) return kernelOk({ shape: outShape, data: out });
  if (rank === 0) {
    out[0] = input.data[0]!;
    return kernelOk({ shape: outShape, data: out });
  }
  const inStrides = stridesOf(input.shape);
  const step = p.map((axis) => inStrides[axis]!);
  const counter = new Int32Array(rank);
  const last = rank - 1;
  const lastSize = outShape[last]!;
  const lastStep = step[last]!;
  const x = input.data;
  let o = 0;
  for (;;) {
    let base = 0;
    for (let d = 0; d < last; d++) base += counter[d]! * step[d]!;
    for (let q = 0; q < lastSize; q++) out[o++] = x[base + q * lastStep]!;
    let d = last - 1;
    while (d >= 0) {
      counter[d]++;
      if (counter[d]! < outShape[d]!) break;
      counter[d] = 0;
      d--;
    }
    if (d < 0) break;
  }
  return kernelOk({ shape: outShape, data: out });
}

/**
 * Constant padding (ONNX `Pad` with `mode = constant`): `pads` is
 * `[begin_0, ..., begin_{r-1}, end_0, ..., end_{r-1}]`; output size `in + begin + end` per axis.
 * Negative pads crop (as in ONNX). Elements outside the input take `value` (default 0).
 *
 * @example padConstant(createTensor([1, 2], [1, 2]), [0, 1, 0, 1]) // -> [1, 4]: [0, 1, 2, 0]
 */
export function padConstant(input: F32Tensor, pads: readonly number[], value = 0): KernelResult<F32Tensor> {
  const kernel = 'padConstant';
  const problem = validateTensor(kernel, 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  const rank = input.shape.length;
  const padsProblem = validateIntList(kernel, 'pads', pads, 2 * rank, Number.MIN_SAFE_INTEGER);
  if (padsProblem !== undefined) return kernelFail(padsProblem);
  const outShape = input.shape.map((d, i) => d + pads[i]! + pads[i + rank]!);
  if (outShape.some((d) => d < 0)) {
    return kernelFail(KernelMessages.attributeValue(kernel, 'pads', formatShape(pads), `pads that keep every output dimension >= 0 (got ${formatShape(outShape)})`));
  }
  const total = shapeSize(outShape);
  const out = new Float32Array(total);
  if (value !== 0) out.fill(value);
  if (total === 0 || shapeSize(input.shape) === 0) return kernelOk({ shape: outShape, data: out });
  if (rank === 0) {
    out[0] = input.data[0]!;
    return kernelOk({ shape: outShape, data: out });
  }
  // Copy the overlap of the input and the output window, row by row along the last axis.
  const lo = new Array<number>(rank);
  const hi = new Array<number>(rank);
  for (let d = 0; d < rank; d++) {
    lo[d] = Math.max(0, -pads[d]!);
    hi[d] = Math.min(input.shape[d]!, outShape[d]! - pads[d]!);
    if (hi[d]! <= lo[d]!) return kernelOk({ shape: outShape, data: out });
  }
  const inStrides = stridesOf(input.shape);
  const outStrides = stridesOf(outShape);
  const counter = lo.slice();
  const last = rank - 1;
  for (;;) {
    let inBase = 0;
    let outBase = 0;
    for (let d = 0; d < last; d++) {
      inBase += counter[d]! * inStrides[d]!;
      outBase += (counter[d]! + pads[d]!) * outStrides[d]!;
    }
    out.set(input.data.subarray(inBase + lo[last]!, inBase + hi[last]!), outBase + lo[last]! + pads[last]!);
    let d = last - 1;
    while (d >= 0) {
      counter[d]++;
      if (counter[d]! < hi[d]!) break;
      counter[d] = lo[d]!;
      d--;
    }
    if (d < 0) break;
  }
  return kernelOk({ shape: outShape, data: out });
}

/** Channel ordering of {@link depthToSpace} (ONNX `DepthToSpace` `mode`). */
export type DepthToSpaceMode = 'DCR' | 'CRD';

/**
 * Rearranges channel blocks into spatial blocks (ONNX `DepthToSpace`). Input `[N, C, H, W]`
 * with `C` divisible by `blockSize^2`; output `[N, C / bs^2, H * bs, W * bs]`:
 * - `DCR` (depth-column-row, ONNX's default): `y[n, c, h*bs + i, w*bs + j] = x[n, (i*bs + j) * C' + c, h, w]`
 * - `CRD` (column-row-depth): `y[n, c, h*bs + i, w*bs + j] = x[n, c*bs*bs + i*bs + j, h, w]`
 * where `C' = C / bs^2`.
 */
export function depthToSpace(input: F32Tensor, blockSize: number, mode: DepthToSpaceMode = 'DCR'): KernelResult<F32Tensor> {
  const kernel = 'depthToSpace';
  const problem = validateTensor(kernel, 'input', input, 4);
  if (problem !== undefined) return kernelFail(problem);
  if (mode !== 'DCR' && mode !== 'CRD') return kernelFail(KernelMessages.attributeValue(kernel, 'mode', String(mode), 'DCR | CRD'));
  const [n, c, h, w] = input.shape as [number, number, number, number];
  const bs = blockSize;
  if (!Number.isSafeInteger(bs) || bs < 1 || c % (bs * bs) !== 0) return kernelFail(KernelMessages.blockSize(kernel, bs, c));
  const oc = c / (bs * bs);
  const oh = h * bs;
  const ow = w * bs;
  const out = new Float32Array(n * c * h * w);
  const x = input.data;
  const plane = h * w;
  let o = 0;
  for (let b = 0; b < n; b++) {
    for (let ch = 0; ch < oc; ch++) {
      for (let y = 0; y < oh; y++) {
        const hh = (y / bs) | 0;
        const i = y - hh * bs;
        for (let z = 0; z < ow; z++) {
          const ww = (z / bs) | 0;
          const j = z - ww * bs;
          const src = mode === 'DCR' ? (i * bs + j) * oc + ch : ch * bs * bs + i * bs + j;
          out[o++] = x[(b * c + src) * plane + hh * w + ww]!;
        }
      }
    }
  }
  return kernelOk({ shape: [n, oc, oh, ow], data: out });
}
