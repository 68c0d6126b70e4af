import { KernelMessages } from '../../diagnostics';

/**
 * A dense, row-major f32 tensor as the reference kernels see it: an explicit shape and a
 * `Float32Array` holding exactly `product(shape)` elements (a rank-0 tensor holds one).
 *
 * Kernels never mutate their inputs and always return freshly allocated outputs.
 */
export interface F32Tensor {
  /** Dimension sizes, outermost first (NCHW for 4-D activations). */
  readonly shape: readonly number[];
  /** Elements in row-major order; length equals the product of `shape`. */
  readonly data: Float32Array;
}

/** A kernel's successful result. */
export interface KernelSuccess<T> {
  readonly ok: true;
  readonly value: T;
}

/** A kernel's failure: the arguments were inconsistent; `message` says what and why. */
export interface KernelFailure {
  readonly ok: false;
  readonly message: string;
}

/**
 * What every kernel returns: the computed value, or a failure carrying a message. Kernels never
 * throw on bad user shapes or attributes; they return a {@link KernelFailure} instead.
 */
export type KernelResult<T> = KernelSuccess<T> | KernelFailure;

/** Wraps a value as a successful {@link KernelResult}. */
export function kernelOk<T>(value: T): KernelSuccess<T> {
  return { ok: true, value };
}

/** Builds a failed {@link KernelResult} with `message`. */
export function kernelFail(message: string): KernelFailure {
  return { ok: false, message };
}

/**
 * Number of elements of a tensor with `shape` (1 for rank 0).
 *
 * @example shapeSize([2, 3, 4]) === 24
 */
export function shapeSize(shape: readonly number[]): number {
  let size = 1;
  for (let i = 0; i < shape.length; i++) size *= shape[i]!;
  return size;
}

/**
 * Row-major strides, in elements, for `shape`.
 *
 * @example stridesOf([2, 3, 4]) -> [12, 4, 1]
 */
export function stridesOf(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let stride = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = stride;
    stride *= shape[i]!;
  }
  return strides;
}

/**
 * Creates an {@link F32Tensor}. With `data` omitted the tensor is zero-filled; a plain number
 * array is converted (rounded to f32). The shape is copied.
 *
 * Throws only on an internal misuse (data length not matching the shape): use
 * {@link validateTensor} to check user-supplied tensors.
 *
 * @example createTensor([1, 2], [0.5, 1.5])
 */
export function createTensor(shape: readonly number[], data?: Float32Array | readonly number[]): F32Tensor {
  const size = shapeSize(shape);
  let values: Float32Array;
  if (data === undefined) values = new Float32Array(size);
  else if (data instanceof Float32Array) values = data;
  else values = Float32Array.from(data);
  if (values.length !== size) {
    throw new Error(`internal error: createTensor data has ${values.length} elements, shape [${shape.join(', ')}] needs ${size}`);
  }
  return { shape: shape.slice(), data: values };
}

/** True when every entry of `shape` is a non-negative safe integer. */
export function isValidShape(shape: readonly number[]): boolean {
  for (let i = 0; i < shape.length; i++) {
    const d = shape[i]!;
    if (!Number.isSafeInteger(d) || d < 0) return false;
  }
  return true;
}

/**
 * Checks that `tensor` is well formed (non-negative integer dimensions, data length equal to
 * the shape's element count) and, when `rank` is given, that it has that rank. Returns a
 * message naming `kernel` and `operand`, or `undefined` when the tensor is valid.
 */
export function validateTensor(kernel: string, operand: string, tensor: F32Tensor, rank?: number): string | undefined {
  if (!isValidShape(tensor.shape)) return KernelMessages.invalidShape(kernel, operand, tensor.shape);
  const size = shapeSize(tensor.shape);
  if (tensor.data.length !== size) {
    return KernelMessages.dataLengthMismatch(kernel, operand, tensor.shape, size, tensor.data.length);
  }
  if (rank !== undefined && tensor.shape.length !== rank) {
    return KernelMessages.rankMismatch(kernel, operand, tensor.shape, String(rank));
  }
  return undefined;
}

/**
 * Checks an integer attribute list: its length, that every entry is a safe integer, and that
 * it is at least `min`. Returns a message or `undefined`.
 */
export function validateIntList(
  kernel: string,
  attribute: string,
  values: readonly number[],
  length: number,
  min: number,
): string | undefined {
  if (values.length !== length) return KernelMessages.attributeLength(kernel, attribute, values, length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isSafeInteger(v) || v < min) return KernelMessages.attributeRange(kernel, attribute, values, min);
  }
  return undefined;
}

/** Formats a shape as `[a, b, c]` for messages. */
export function formatShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

/**
 * Normalizes a possibly negative `axis` against `rank` (ONNX convention: -1 is the last axis),
 * accepting the range [-rank, rank + extra). Returns the non-negative axis, or -1 when out of range.
 */
export function normalizeAxis(axis: number, rank: number, extra = 0): number {
  if (!Number.isSafeInteger(axis)) return -1;
  const a = axis < 0 ? axis + rank : axis;
  return a >= 0 && a < rank + extra ? a : -1;
}
