import { KernelMessages } from '../../diagnostics';
import { kernelFail, kernelOk, validateTensor } from './tensor';
import type { F32Tensor, KernelResult } from './tensor';

const KERNEL = 'resizeNearest';

/** How an output coordinate maps to an input coordinate (ONNX `coordinate_transformation_mode`). */
export type CoordinateTransformationMode =
  | 'asymmetric'
  | 'half_pixel'
  | 'pytorch_half_pixel'
  | 'align_corners';

/** How a fractional input coordinate becomes an index (ONNX `nearest_mode`). */
export type NearestMode = 'floor' | 'ceil' | 'round_prefer_floor' | 'round_prefer_ceil';

/**
 * Options of {@link resizeNearest}. Give exactly one of `scales` or `sizes` (one entry per
 * input axis). The defaults, `asymmetric` + `floor`, are the semantics this package uses for
 * `spat.resize_nearest_plan` (asymmetric coordinates, the rounding PyTorch's nearest upsampling
 * exports); ONNX's own default `nearest_mode` is `round_prefer_floor`.
 */
export interface ResizeNearestOptions {
  /** Per-axis scale factors (output = floor(input * scale), computed in f32 like onnxruntime). */
  readonly scales?: readonly number[];
  /** Per-axis output sizes; the per-axis scale is then `size / input` in f32. */
  readonly sizes?: readonly number[];
  /** Default `asymmetric`: `x_in = x_out / scale`. */
  readonly coordinateTransformationMode?: CoordinateTransformationMode;
  /** Default `floor`. */
  readonly nearestMode?: NearestMode;
}

const f32 = Math.fround;

/**
 * Coordinate modes {@link nearestIndexMap} computes: the kernel's modes plus
 * `tf_half_pixel_for_nn`, which importers need to compare ONNX models with the plan.
 */
export type IndexMapCoordinateMode = CoordinateTransformationMode | 'tf_half_pixel_for_nn';

/**
 * Roundings {@link nearestIndexMap} computes: the kernel's nearest modes plus `simple`, the
 * rounding of ONNX Upsample and Resize-10 (truncate; ceil when downsampling).
 */
export type IndexMapNearestMode = NearestMode | 'simple';

/**
 * Source index for every output index of one axis (`inSize` -> `outSize` with `scale`),
 * computed with onnxruntime's f32 arithmetic (so fractional boundaries round identically), then
 * clamped to `[0, inSize - 1]`. An axis whose scale is 1 and whose size does not change maps to
 * itself, as onnxruntime leaves such axes untransformed.
 */
export function nearestIndexMap(inSize: number, outSize: number, scale: number, mode: IndexMapCoordinateMode, nearest: IndexMapNearestMode): Int32Array {
  const map = new Int32Array(outSize);
  const s = f32(scale);
  if (s === 1 && outSize === inSize) {
    for (let o = 0; o < outSize; o++) map[o] = o;
    return map;
  }
  for (let o = 0; o < outSize; o++) {
    let x: number;
    switch (mode) {
      case 'asymmetric':
        x = f32(o / s);
        break;
      case 'half_pixel':
        x = f32(f32(f32(o + 0.5) / s) - 0.5);
        break;
      case 'pytorch_half_pixel':
        x = outSize > 1 ? f32(f32(f32(o + 0.5) / s) - 0.5) : 0;
        break;
      case 'tf_half_pixel_for_nn':
        x = f32(f32(o + 0.5) / s);
        break;
      case 'align_corners':
        x = outSize === 1 ? 0 : f32(f32(o * (inSize - 1)) / (outSize - 1));
        break;
    }
    let i: number;
    switch (nearest) {
      case 'simple':
        i = s < 1 ? Math.ceil(x) : Math.trunc(x);
        break;
      case 'floor':
        i = Math.floor(x);
        break;
      case 'ceil':
        i = Math.ceil(x);
        break;
      case 'round_prefer_floor':
        i = x - Math.floor(x) === 0.5 ? Math.floor(x) : Math.round(x);
        break;
      case 'round_prefer_ceil':
        // std::round: halves away from zero.
        i = x < 0 ? -Math.round(-x) : Math.round(x);
        break;
    }
    map[o] = i < 0 ? 0 : i >= inSize ? inSize - 1 : i;
  }
  return map;
}

const COORDINATE_MODES: readonly string[] = ['asymmetric', 'half_pixel', 'pytorch_half_pixel', 'align_corners'];
const NEAREST_MODES: readonly string[] = ['floor', 'ceil', 'round_prefer_floor', 'round_prefer_ceil'];

/**
 * Nearest-neighbour resize of a tensor of any rank (ONNX `Resize` with `mode = nearest`;
 * `spat.resize_nearest_plan` with the default options). For every axis `d` and output index
 * `o`, the source index is `nearest(transform(o))`, clamped to the input; with the defaults
 * `src = floor(o / scale_d)` and, for sizes, `scale_d = size_d / input_d` (f32).
 *
 * Output sizes: `sizes` when given, else `floor(f32(input_d * scale_d))`. When the output shape
 * equals the input shape the input is copied unchanged, whatever the scales (onnxruntime does
 * the same, e.g. for scale 1.25 on an axis of size 2).
 * Fails when neither or both of scales/sizes are given, a list has the wrong length, a scale is
 * not finite and positive, a size is not a positive integer, or a mode is unknown.
 *
 * @example resizeNearest(createTensor([1, 1, 1, 2], [1, 2]), { scales: [1, 1, 2, 2] })
 * // -> shape [1, 1, 2, 4], data [1, 1, 2, 2, 1, 1, 2, 2]
 */
export function resizeNearest(input: F32Tensor, options: ResizeNearestOptions): KernelResult<F32Tensor> {
  const problem = validateTensor(KERNEL, 'input', input);
  if (problem !== undefined) return kernelFail(problem);
  const mode = options.coordinateTransformationMode ?? 'asymmetric';
  const nearest = options.nearestMode ?? 'floor';
  if (!COORDINATE_MODES.includes(mode)) {
    return kernelFail(KernelMessages.attributeValue(KERNEL, 'coordinateTransformationMode', String(mode), COORDINATE_MODES.join(' | ')));
  }
  if (!NEAREST_MODES.includes(nearest)) {
    return kernelFail(KernelMessages.attributeValue(KERNEL, 'nearestMode', String(nearest), NEAREST_MODES.join(' | ')));
  }
  if ((options.scales === undefined) === (options.sizes === undefined)) return kernelFail(KernelMessages.resizeTarget(KERNEL));
  const rank = input.shape.length;
  const scales = new Array<number>(rank);
  const outShape = new Array<number>(rank);
  if (options.scales !== undefined) {
    if (options.scales.length !== rank) return kernelFail(KernelMessages.attributeLength(KERNEL, 'scales', options.scales, rank));
    for (let d = 0; d < rank; d++) {
      const s = options.scales[d]!;
      if (!Number.isFinite(s) || !(s > 0)) return kernelFail(KernelMessages.resizeScale(KERNEL, options.scales));
      scales[d] = f32(s);
      outShape[d] = Math.floor(f32(f32(s) * input.shape[d]!));
    }
  } else {
    const sizes = options.sizes!;
    if (sizes.length !== rank) return kernelFail(KernelMessages.attributeLength(KERNEL, 'sizes', sizes, rank));
    for (let d = 0; d < rank; d++) {
      const size = sizes[d]!;
      if (!Number.isSafeInteger(size) || size < 1) return kernelFail(KernelMessages.attributeRange(KERNEL, 'sizes', sizes, 1));
      outShape[d] = size;
      scales[d] = input.shape[d] === 0 ? 1 : f32(size / input.shape[d]!);
    }
  }
  for (let d = 0; d < rank; d++) {
    if (input.shape[d] === 0 && outShape[d]! > 0) return kernelFail(KernelMessages.emptyReduction(KERNEL, input.shape));
  }
  // onnxruntime copies the input when no axis changes size, whatever the given scales.
  if (outShape.every((size, d) => size === input.shape[d])) return kernelOk({ shape: outShape, data: input.data.slice() });

  const maps: Int32Array[] = [];
  for (let d = 0; d < rank; d++) maps.push(nearestIndexMap(input.shape[d]!, outShape[d]!, scales[d]!, mode, nearest));
  let total = 1;
  for (let d = 0; d < rank; d++) total *= outShape[d]!;
  const out = new Float32Array(total);
  if (total === 0) return kernelOk({ shape: outShape, data: out });
  if (rank === 0) {
    out[0] = input.data[0]!;
    return kernelOk({ shape: outShape, data: out });
  }
  const inStrides = new Array<number>(rank);
  let stride = 1;
  for (let d = rank - 1; d >= 0; d--) {
    inStrides[d] = stride;
    stride *= input.shape[d]!;
  }
  // Odometer over all output axes but the last; the last axis is a gather through its map.
  const counter = new Int32Array(rank);
  const last = rank - 1;
  const lastMap = maps[last]!;
  const lastStride = inStrides[last]!;
  const lastSize = outShape[last]!;
  const x = input.data;
  let o = 0;
  for (;;) {
    let base = 0;
    for (let d = 0; d < last; d++) base += maps[d]![counter[d]!]! * inStrides[d]!;
    for (let q = 0; q < lastSize; q++) out[o++] = x[base + lastMap[q]! * lastStride]!;
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
