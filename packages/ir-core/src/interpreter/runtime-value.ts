import type { Type } from '../ir/attribute';
import { FloatType, IndexType, IntegerType } from '../ir/builtin-types';

/** A typed array backing a tensor or buffer. */
export type ElementArray =
  | Float64Array
  | Float32Array
  | Int8Array
  | Int16Array
  | Int32Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array;

/**
 * The typed array kind used for elements of `type`:
 * - `f64` -> Float64Array; `f32`, `f16`, `bf16` and other floats -> Float32Array (values of
 *   16-bit floats are not re-rounded to 16 bits);
 * - `i1` -> Uint8Array (0/1); `i8`/`i16`/`i32` (signless/signed) -> Int8/16/32Array;
 *   unsigned `ui8/16/32` -> Uint8/16/32Array; 64-bit integers -> BigInt64Array/BigUint64Array;
 * - `index` -> Float64Array (exact up to 2^53, like scalar index values).
 * Returns undefined for other element types.
 */
export function arrayKindFor(type: Type): ((n: number) => ElementArray) | undefined {
  if (type instanceof FloatType) return type.kind === 'f64' ? (n) => new Float64Array(n) : (n) => new Float32Array(n);
  if (type instanceof IndexType) return (n) => new Float64Array(n);
  if (type instanceof IntegerType) {
    const w = type.width;
    const u = type.isUnsigned;
    if (w === 1) return (n) => new Uint8Array(n);
    if (w <= 8) return u ? (n) => new Uint8Array(n) : (n) => new Int8Array(n);
    if (w <= 16) return u ? (n) => new Uint16Array(n) : (n) => new Int16Array(n);
    if (w <= 32) return u ? (n) => new Uint32Array(n) : (n) => new Int32Array(n);
    if (w <= 64) return u ? (n) => new BigUint64Array(n) : (n) => new BigInt64Array(n);
  }
  return undefined;
}

/** Row-major (identity layout) strides of `shape`. */
export function contiguousStrides(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= shape[i]!;
  }
  return s;
}

/**
 * A tensor or buffer value: a typed array plus shape, strides and offset (a strided view).
 * `kind: 'tensor'` values have value semantics (rules must not mutate their inputs);
 * `kind: 'buffer'` values (memrefs) are mutable and may alias (views share `data`).
 */
export class ShapedValue {
  constructor(
    /** `tensor` (immutable value) or `buffer` (mutable memory). */
    readonly kind: 'tensor' | 'buffer',
    /** The element type. */
    readonly elementType: Type,
    /** The shape. */
    readonly shape: readonly number[],
    /** The backing storage (shared between views). */
    readonly data: ElementArray,
    /** Strides in elements. */
    readonly strides: readonly number[] = contiguousStrides(shape),
    /** Offset of element [0, ..., 0] in `data`. */
    readonly offset = 0,
  ) {}

  /**
   * A new zero-filled contiguous value of `shape` and `elementType`; `undefined` when the
   * element type has no typed array kind.
   */
  static allocate(kind: 'tensor' | 'buffer', elementType: Type, shape: readonly number[]): ShapedValue | undefined {
    const make = arrayKindFor(elementType);
    if (!make) return undefined;
    let n = 1;
    for (const d of shape) n *= d;
    return new ShapedValue(kind, elementType, [...shape], make(n));
  }

  /** Number of elements. */
  get numElements(): number {
    let n = 1;
    for (const d of this.shape) n *= d;
    return n;
  }

  /** True when the view is row-major contiguous from `offset`. */
  get isContiguous(): boolean {
    const c = contiguousStrides(this.shape);
    for (let i = 0; i < c.length; i++) if (this.shape[i]! > 1 && c[i] !== this.strides[i]) return false;
    return true;
  }

  /** The storage index of the element at `indices`. */
  indexOf(indices: readonly number[]): number {
    let k = this.offset;
    for (let i = 0; i < indices.length; i++) k += indices[i]! * this.strides[i]!;
    return k;
  }

  /** The element at `indices` (number, or bigint for 64-bit integers). */
  get(indices: readonly number[]): number | bigint {
    return this.data[this.indexOf(indices)]!;
  }

  /** Sets the element at `indices` (buffers, or tensors being built by a rule). */
  set(indices: readonly number[], value: number | bigint): void {
    (this.data as unknown as (number | bigint)[])[this.indexOf(indices)] = value;
  }

  /** The elements in row-major order, as a new contiguous array of the same kind. */
  toContiguousArray(): ElementArray {
    if (this.offset === 0 && this.isContiguous && this.data.length === this.numElements) return this.data.slice();
    const make = arrayKindFor(this.elementType)!;
    const out = make(this.numElements);
    const rank = this.shape.length;
    const idx = new Array<number>(rank).fill(0);
    const src = this.data as unknown as (number | bigint)[];
    const dst = out as unknown as (number | bigint)[];
    for (let k = 0; k < out.length; k++) {
      dst[k] = src[this.indexOf(idx)]!;
      for (let d = rank - 1; d >= 0; d--) {
        if (++idx[d]! < this.shape[d]!) break;
        idx[d] = 0;
      }
    }
    return out;
  }

  /** A contiguous copy (of kind `kind`, default the same). */
  copy(kind: 'tensor' | 'buffer' = this.kind): ShapedValue {
    return new ShapedValue(kind, this.elementType, [...this.shape], this.toContiguousArray());
  }
}

/** A dialect-defined runtime object (e.g. a channel or a core handle). */
export interface RuntimeObject {
  /** What it is, for diagnostics. */
  readonly runtimeKind: string;
}

/**
 * A runtime value. Scalars: floats and integers up to 32 bits are `number` (integers wrapped
 * to their width), `index` is `number` (exact up to 2^53), 64-bit integers are `bigint`,
 * `i1` is 0 or 1. Tensors and buffers are {@link ShapedValue}s; dialects may add
 * {@link RuntimeObject}s.
 */
export type RuntimeValue = number | bigint | ShapedValue | RuntimeObject;

/** Wraps `v` to the value set of integer `type` (two's complement), returning number or bigint per the scalar convention. */
export function wrapInteger(type: IntegerType | IndexType, v: number | bigint): number | bigint {
  if (type instanceof IndexType) return typeof v === 'bigint' ? Number(v) : v;
  const w = type.width;
  if (w > 32) return type.isUnsigned ? BigInt.asUintN(w, BigInt(v)) : BigInt.asIntN(w, BigInt(v));
  const n = typeof v === 'bigint' ? Number(BigInt.asIntN(64, v)) : v;
  if (w === 32) return type.isUnsigned ? n >>> 0 : n | 0;
  if (w === 1) return n & 1;
  const m = 2 ** w;
  let r = ((Math.trunc(n) % m) + m) % m;
  if (!type.isUnsigned && r >= m / 2) r -= m;
  return r;
}
