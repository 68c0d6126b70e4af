import type { MLIRContext } from './context';
import { Attribute, Type } from './attribute';
import {
  FloatType,
  IndexType,
  IntegerType,
  NoneType,
  RankedTensorType,
  VectorType,
  getNumElements,
} from './builtin-types';
import { roundToFloatKind, f64ToBits } from './builtin-float-semantics';
import type { AffineMap, IntegerSet } from '../affine/affine-map';

/** The bit width used to wrap an integer of `type` (index is 64). */
export function integerBitWidth(type: IntegerType | IndexType): number {
  return type instanceof IndexType ? IndexType.internalStorageBitWidth : type.width;
}

const SMALL_BIGINT_MIN = -1024;
const SMALL_BIGINT_MAX = 4096;
/** Shared bigints of the small integers, each made on first use (not 5,120 of them at load). */
const SMALL_BIGINTS: (bigint | undefined)[] = new Array<bigint | undefined>(SMALL_BIGINT_MAX - SMALL_BIGINT_MIN);

/** The shared bigint of `n`, an integer in [SMALL_BIGINT_MIN, SMALL_BIGINT_MAX). */
function smallBigInt(n: number): bigint {
  const k = n - SMALL_BIGINT_MIN;
  return SMALL_BIGINTS[k] ?? (SMALL_BIGINTS[k] = BigInt(n));
}

/**
 * `BigInt(n)` for an integral `n`, without allocating for small values (bigints are immutable
 * primitives: sharing one is invisible).
 */
export function toBigInt(n: number): bigint {
  if (n >= SMALL_BIGINT_MIN && n < SMALL_BIGINT_MAX && (n | 0) === n) return smallBigInt(n);
  return BigInt(n);
}

/**
 * `wrapIntegerValue(type, BigInt(n))` for an integral number `n`: small values that the type
 * holds unchanged come from a shared table (no allocation).
 */
function wrapSmallInteger(type: IntegerType, n: number): bigint {
  if (n >= SMALL_BIGINT_MIN && n < SMALL_BIGINT_MAX && (n | 0) === n) {
    // Every cached value fits a signed/signless type of 14+ bits, non-negative ones an unsigned one.
    if (type.width >= 14 && (n >= 0 || !type.isUnsigned)) return smallBigInt(n);
  }
  return wrapIntegerValue(type, BigInt(n));
}

/** One value of an integer dense array, wrapped to `type` (small values: shared bigints). */
function wrapArrayValue(type: IntegerType, x: bigint | number): bigint {
  return typeof x === 'number' ? wrapSmallInteger(type, Math.trunc(x)) : wrapIntegerValue(type, x);
}

/**
 * The context's integer dense arrays, bucketed by a numeric hash of type, length and values
 * (kept in the context's uniquer, not in a module-level WeakMap: see `location.ts`).
 */
function intArrayBuckets(context: MLIRContext): Map<number, DenseArrayAttr[]> {
  return context.unique('a.darr-table', () => new Map<number, DenseArrayAttr[]>());
}

/**
 * Wraps `value` to the two's-complement range of `type` as MLIR's APInt storage does:
 * signless and signed types hold signed values (i1 holds 0 or 1), unsigned types non-negative.
 */
export function wrapIntegerValue(type: IntegerType | IndexType, value: bigint): bigint {
  const width = integerBitWidth(type);
  if (type instanceof IntegerType && ((type.width === 1 && type.isSignless) || type.isUnsigned)) return BigInt.asUintN(width, value);
  return BigInt.asIntN(width, value);
}

/**
 * An integer constant of an integer or index type (`42 : i32`, `true`). Values are stored
 * as bigint, wrapped to the type like MLIR's APInt.
 */
export class IntegerAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly type: IntegerType | IndexType,
    readonly value: bigint,
  ) {
    super(context);
  }
  static get(type: IntegerType | IndexType, value: bigint | number): IntegerAttr {
    const v = wrapIntegerValue(type, typeof value === 'number' ? BigInt(Math.trunc(value)) : value);
    const context = type.context;
    return context.unique(`a.int:${type.id}:${v}`, () => new IntegerAttr(context, type, v));
  }
  /** `true`/`false`: an `i1` IntegerAttr (MLIR's BoolAttr). */
  static bool(context: MLIRContext, value: boolean): IntegerAttr {
    return IntegerAttr.get(IntegerType.get(context, 1), value ? 1n : 0n);
  }
  /** True for i1 attributes (printed `true`/`false`). */
  get isBool(): boolean {
    return this.type instanceof IntegerType && this.type.width === 1 && this.type.isSignless;
  }
  /** The value as a JS number (exact when within the safe integer range). */
  get number(): number {
    return Number(this.value);
  }
}

/** A float constant (`1.5 : f32`), rounded to its type's value set on construction. */
export class FloatAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly type: FloatType,
    readonly value: number,
  ) {
    super(context);
  }
  static get(type: FloatType, value: number): FloatAttr {
    const v = roundToFloatKind(type.kind, value);
    const context = type.context;
    return context.unique(`a.float:${type.id}:${f64ToBits(v)}`, () => new FloatAttr(context, type, v));
  }
}

/** `"text"` optionally with a type (`"text" : i32`). */
export class StringAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly value: string,
    readonly type: Type | undefined,
  ) {
    super(context);
  }
  static get(context: MLIRContext, value: string, type?: Type): StringAttr {
    return context.unique(`a.str:${type && !(type instanceof NoneType) ? type.id : ''}:${value}`, () =>
      new StringAttr(context, value, type && !(type instanceof NoneType) ? type : undefined),
    );
  }
}

/** `unit`: the presence-only attribute. */
export class UnitAttr extends Attribute {
  private constructor(context: MLIRContext) {
    super(context);
  }
  static get(context: MLIRContext): UnitAttr {
    return context.unique('a.unit', () => new UnitAttr(context));
  }
}

function attrListKey(attrs: readonly Attribute[]): string {
  let key = '';
  for (let i = 0; i < attrs.length; i++) key += (i ? ',' : '') + attrs[i].id;
  return key;
}

/** `[a, b, ...]`. */
export class ArrayAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly elements: readonly Attribute[],
  ) {
    super(context);
  }
  static get(context: MLIRContext, elements: readonly Attribute[]): ArrayAttr {
    return context.unique(`a.array:${attrListKey(elements)}`, () => new ArrayAttr(context, Object.freeze([...elements])));
  }
  get length(): number {
    return this.elements.length;
  }
}

/**
 * `array<i64: 1, 2>`: a dense array of integers (i1, i8, i16, i32, i64) or floats (f32, f64).
 * Integer values are bigint (wrapped to the element type), float values are numbers.
 */
export class DenseArrayAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly elementType: IntegerType | FloatType,
    readonly values: readonly bigint[] | readonly number[],
  ) {
    super(context);
  }
  /** An integer dense array (values wrapped to `elementType`). */
  static getInts(elementType: IntegerType, values: readonly (bigint | number)[]): DenseArrayAttr {
    const length = values.length;
    let h1 = 0x811c9dc5 | 0;
    let h2 = length | 0;
    // Sizes, offsets and strides are small integer numbers that the type holds as they are (what
    // `wrapSmallInteger` returns for them): hashed and compared as numbers, without converting
    // each one to a bigint and back. Any other value takes the general path (same hash).
    let small = elementType.width >= 14;
    if (small) {
      const unsigned = elementType.isUnsigned;
      for (let i = 0; i < length; i++) {
        const n = values[i];
        if (typeof n !== 'number' || (n | 0) !== n || n < SMALL_BIGINT_MIN || n >= SMALL_BIGINT_MAX || (n < 0 && unsigned)) {
          small = false;
          break;
        }
        h1 = Math.imul(h1 ^ n, 0x01000193);
        h2 = Math.imul(h2 + ((n / 4294967296) | 0), 0x5bd1e995) ^ (h2 >>> 13);
      }
    }
    if (!small) {
      h1 = 0x811c9dc5 | 0;
      h2 = length | 0;
      for (let i = 0; i < length; i++) {
        const n = Number(wrapArrayValue(elementType, values[i]!));
        h1 = Math.imul(h1 ^ (n | 0), 0x01000193);
        h2 = Math.imul(h2 + ((n / 4294967296) | 0), 0x5bd1e995) ^ (h2 >>> 13);
      }
    }
    const context = elementType.context;
    // Arrays are uniqued through a numeric hash bucket and an exact comparison: no key string,
    // and no value array unless the attribute is new.
    const buckets = intArrayBuckets(context);
    const hash = (Math.imul(h1 ^ elementType.id, 0x9e3779b1) ^ h2) >>> 0;
    let bucket = buckets.get(hash);
    if (!bucket) buckets.set(hash, (bucket = []));
    for (const existing of bucket) {
      if (existing.elementType !== elementType) continue;
      const ev = existing.values as readonly bigint[];
      if (ev.length !== length) continue;
      let same = true;
      if (small) {
        for (let i = 0; i < length && same; i++) if (ev[i] !== smallBigInt(values[i] as number)) same = false;
      } else {
        for (let i = 0; i < length && same; i++) if (ev[i] !== wrapArrayValue(elementType, values[i]!)) same = false;
      }
      if (same) return existing;
    }
    const v = new Array<bigint>(length);
    if (small) for (let i = 0; i < length; i++) v[i] = smallBigInt(values[i] as number);
    else for (let i = 0; i < length; i++) v[i] = wrapArrayValue(elementType, values[i]!);
    const created = new DenseArrayAttr(context, elementType, Object.freeze(v));
    bucket.push(created);
    return created;
  }
  /** A float dense array (values rounded to `elementType`). */
  static getFloats(elementType: FloatType, values: readonly number[]): DenseArrayAttr {
    const v = values.map((x) => roundToFloatKind(elementType.kind, x));
    const context = elementType.context;
    return context.unique(`a.darr:${elementType.id}:${v.map((x) => f64ToBits(x)).join(',')}`, () =>
      new DenseArrayAttr(context, elementType, Object.freeze(v)),
    );
  }
  /** `array<i64: ...>` from numbers (the common case for sizes and offsets). */
  static i64(context: MLIRContext, values: readonly (number | bigint)[]): DenseArrayAttr {
    return DenseArrayAttr.getInts(IntegerType.get(context, 64), values);
  }
  /** `array<i32: ...>`. */
  static i32(context: MLIRContext, values: readonly (number | bigint)[]): DenseArrayAttr {
    return DenseArrayAttr.getInts(IntegerType.get(context, 32), values);
  }
  /** The values as numbers (exact within the safe integer range); a new array the caller may change. */
  toNumbers(): number[] {
    return this.numbers.slice();
  }
  private numberCache: readonly number[] | undefined;
  /**
   * The values as numbers, converted once (a shared frozen array): segment sizes and static
   * offsets are read on every verification and print of an op.
   */
  get numbers(): readonly number[] {
    return (this.numberCache ??= Object.freeze((this.values as readonly (number | bigint)[]).map((v) => Number(v))));
  }
  get length(): number {
    return this.values.length;
  }
}

/** One `name = value` entry of a dictionary. */
export interface NamedAttribute {
  readonly name: string;
  readonly value: Attribute;
}

function compareKeys(a: string, b: string): number {
  // MLIR sorts by StringRef comparison: byte-wise on UTF-8; code-unit order agrees for ASCII.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `{a = 1, b}`: a dictionary with entries sorted by name (as MLIR stores them). */
export class DictionaryAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly entries: readonly NamedAttribute[],
  ) {
    super(context);
  }
  /**
   * The uniqued dictionary of `entries` (sorted here). Duplicate names are an internal error:
   * the parser reports them as diagnostics before calling this.
   */
  static get(context: MLIRContext, entries: readonly NamedAttribute[] | Readonly<Record<string, Attribute>>): DictionaryAttr {
    const list: NamedAttribute[] = Array.isArray(entries)
      ? [...(entries as readonly NamedAttribute[])]
      : Object.keys(entries).map((name) => ({ name, value: (entries as Record<string, Attribute>)[name] }));
    // Insertion sort in place: dictionaries are small and usually sorted or nearly so.
    for (let i = 1; i < list.length; i++) {
      const e = list[i]!;
      let j = i - 1;
      while (j >= 0 && compareKeys(list[j]!.name, e.name) > 0) {
        list[j + 1] = list[j]!;
        j--;
      }
      list[j + 1] = e;
    }
    let key = 'a.dict:';
    for (let i = 0; i < list.length; i++) {
      if (i > 0 && list[i - 1].name === list[i].name) throw new Error(`duplicate dictionary key '${list[i].name}'`);
      key += `${list[i].name.length}:${list[i].name}=${list[i].value.id};`;
    }
    return context.unique(key, () => new DictionaryAttr(context, Object.freeze(list.map((e) => Object.freeze({ ...e })))));
  }
  /** The value of `name`, if present (binary search). */
  get(name: string): Attribute | undefined {
    let lo = 0;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareKeys(this.entries[mid].name, name);
      if (c === 0) return this.entries[mid].value;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
  get size(): number {
    return this.entries.length;
  }
}

/** `@root::@nested::@leaf`: a symbol reference (flat when `nested` is empty). */
export class SymbolRefAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly root: string,
    readonly nested: readonly string[],
  ) {
    super(context);
  }
  static get(context: MLIRContext, root: string, nested: readonly string[] = []): SymbolRefAttr {
    const key = `a.sym:${[root, ...nested].map((s) => `${s.length}:${s}`).join('')}`;
    return context.unique(key, () => new SymbolRefAttr(context, root, Object.freeze([...nested])));
  }
  /** The last name (`leaf` in `@root::@leaf`). */
  get leaf(): string {
    return this.nested.length ? this.nested[this.nested.length - 1] : this.root;
  }
  get isFlat(): boolean {
    return this.nested.length === 0;
  }
}

/** A type used as an attribute (`i32` in `{type = i32}`). */
export class TypeAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly value: Type,
  ) {
    super(context);
  }
  static get(value: Type): TypeAttr {
    const context = value.context;
    return context.unique(`a.type:${value.id}`, () => new TypeAttr(context, value));
  }
}

/** `affine_map<...>` as an attribute. */
export class AffineMapAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly value: AffineMap,
  ) {
    super(context);
  }
  static get(value: AffineMap): AffineMapAttr {
    const context = value.context;
    return context.unique(`a.amap:${value.id}`, () => new AffineMapAttr(context, value));
  }
}

/** `affine_set<...>` as an attribute. */
export class IntegerSetAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly value: IntegerSet,
  ) {
    super(context);
  }
  static get(value: IntegerSet): IntegerSetAttr {
    const context = value.context;
    return context.unique(`a.iset:${value.id}`, () => new IntegerSetAttr(context, value));
  }
}

/**
 * `strided<[s0, s1], offset: N>`: a memref layout; dynamic strides and offsets are
 * `DYNAMIC` (printed `?`). An offset of 0 is omitted when printed.
 */
export class StridedLayoutAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly offset: number,
    readonly strides: readonly number[],
  ) {
    super(context);
  }
  static get(context: MLIRContext, offset: number, strides: readonly number[]): StridedLayoutAttr {
    return context.unique(`a.strided:${offset}:${strides.join(',')}`, () =>
      new StridedLayoutAttr(context, offset, Object.freeze([...strides])),
    );
  }
}

/**
 * An attribute of a dialect that is not registered (or has no attribute parser), kept
 * verbatim: `#spat<...>` has namespace `spat` and data `...`; `#spat.layout<...>` has data
 * `layout<...>` (MLIR's OpaqueAttr split). Printed back as MLIR prints it.
 */
export class OpaqueAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly dialectNamespace: string,
    readonly data: string,
    readonly type: Type | undefined,
  ) {
    super(context);
  }
  static get(context: MLIRContext, dialectNamespace: string, data: string, type?: Type): OpaqueAttr {
    return context.unique(`a.opaque:${dialectNamespace}:${type ? type.id : ''}:${data}`, () =>
      new OpaqueAttr(context, dialectNamespace, data, type),
    );
  }
}

/** Typed-array storage of dense elements (MLIR's raw data, one element per slot). */
export type DenseStorage =
  | Uint8Array
  | Int8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array
  | Float32Array
  | Float64Array;

/** The element types dense elements support: integers up to 64 bits, index, f16/bf16/f32/f64. */
export type DenseElementType = IntegerType | IndexType | FloatType;

/** True when `type` can be the element type of a {@link DenseElementsAttr}. */
export function isDenseElementType(type: Type): type is DenseElementType {
  if (type instanceof IntegerType) return type.width <= 64;
  if (type instanceof IndexType) return true;
  if (type instanceof FloatType) return ['f16', 'bf16', 'f32', 'f64'].includes(type.kind);
  return false;
}

/**
 * A new zeroed storage array for `count` elements of `elementType`: i1 -> Uint8Array (0/1),
 * signless/signed iN -> Int8/16/32Array or BigInt64Array, uiN -> unsigned arrays, index ->
 * BigInt64Array, f16/bf16/f32 -> Float32Array (values rounded to the type), f64 -> Float64Array.
 */
export function createDenseStorage(elementType: DenseElementType, count: number): DenseStorage {
  if (elementType instanceof FloatType) return elementType.kind === 'f64' ? new Float64Array(count) : new Float32Array(count);
  if (elementType instanceof IndexType) return new BigInt64Array(count);
  const w = elementType.width;
  const unsigned = elementType.isUnsigned;
  if (w === 1) return new Uint8Array(count);
  if (w <= 8) return unsigned ? new Uint8Array(count) : new Int8Array(count);
  if (w <= 16) return unsigned ? new Uint16Array(count) : new Int16Array(count);
  if (w <= 32) return unsigned ? new Uint32Array(count) : new Int32Array(count);
  return unsigned ? new BigUint64Array(count) : new BigInt64Array(count);
}

/** The typed-array class {@link createDenseStorage} uses for `elementType` (no array made). */
function denseStorageClass(elementType: DenseElementType): new (length: number) => DenseStorage {
  if (elementType instanceof FloatType) return elementType.kind === 'f64' ? Float64Array : Float32Array;
  if (elementType instanceof IndexType) return BigInt64Array;
  const w = elementType.width;
  const unsigned = elementType.isUnsigned;
  if (w === 1) return Uint8Array;
  if (w <= 8) return unsigned ? Uint8Array : Int8Array;
  if (w <= 16) return unsigned ? Uint16Array : Int16Array;
  if (w <= 32) return unsigned ? Uint32Array : Int32Array;
  return unsigned ? BigUint64Array : BigInt64Array;
}

function storageEquals(a: DenseStorage, b: DenseStorage): boolean {
  if (a.constructor !== b.constructor || a.length !== b.length) return false;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 && a.byteLength % 4 === 0) {
    const x = new Int32Array(a.buffer, a.byteOffset, a.byteLength / 4);
    const y = new Int32Array(b.buffer, b.byteOffset, b.byteLength / 4);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * Storages of more than this many bytes are bucketed by a hash of {@link SAMPLED_WORDS} of
 * their 32-bit words (see {@link storageKey}): a model's weights are hashed cold, once each,
 * and a hash of every word cost as much as another pass over all the data. 1 KiB, not more:
 * the many small weights of a model (depthwise and 1x1 kernels, 1-16 KiB each) hashed in full
 * kept the hash loop hot enough to be interpreted for a while and then optimized, in a `raptor
 * import` that is over before that pays (ultraface-slim-320: 0.97x the CPU of the whole import
 * with a 16 KiB threshold).
 */
const SAMPLE_ABOVE_BYTES = 1024;
/**
 * How many words, evenly spaced, the bucket key of a large storage hashes: few enough that the
 * loop costs little even before the engine optimizes it (a `raptor import` runs it cold), enough
 * that distinct weights land in distinct buckets.
 */
const SAMPLED_WORDS = 64;

/** FNV-style hash of every byte of `a` (as 32-bit words in platform order, then the tail). */
function storageHash(a: DenseStorage): number {
  let bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice(); // an aligned copy: the hash depends on the contents only
  // One multiplicative lane over whole 32-bit words (4x fewer steps than bytes), then the
  // trailing bytes: one multiply per word is half the work of two lanes.
  let h = 0x811c9dc5 | 0;
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193) ^ (h >>> 13);
  for (let i = words.length * 4; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193) ^ (h >>> 13);
  return h >>> 0;
}

/**
 * The bucket part of a dense storage's uniquing key. Small storages hash every byte; larger
 * ones hash {@link SAMPLED_WORDS} 32-bit words at evenly spaced positions (a function of the
 * length only, so equal contents always share a bucket) and the last bytes. The key only picks
 * a bucket: `DenseElementsAttr.adopt` compares full hashes and then whole contents with the
 * attributes in it, so storages that agree on the sampled words cost what they did before.
 */
function storageKey(a: DenseStorage): string {
  const length = a.byteLength;
  if (length <= SAMPLE_ABOVE_BYTES) return `${storageHash(a).toString(36)}.${length}`;
  const bytes = new Uint8Array(a.buffer, a.byteOffset, length);
  const words = length >> 2;
  let h = 0x811c9dc5 | 0;
  for (let k = 0; k < SAMPLED_WORDS; k++) {
    const at = Math.floor((k * words) / SAMPLED_WORDS) * 4;
    const w = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
    h = Math.imul(h ^ w, 0x01000193) ^ (h >>> 13);
  }
  for (let i = Math.max(0, length - 8); i < length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193) ^ (h >>> 13);
  return `~${(h >>> 0).toString(36)}.${length}`;
}

/** Full hashes of the large storages of dense attributes whose sampled bucket was shared. */
const fullHashes = new WeakMap<DenseElementsAttr, number>();

/** The full {@link storageHash} of `attr`'s storage (computed once). */
function fullHashOf(attr: DenseElementsAttr): number {
  let h = fullHashes.get(attr);
  if (h === undefined) {
    h = storageHash(attr.data);
    fullHashes.set(attr, h);
  }
  return h;
}

/** True when every element of `storage` has the bit pattern of the first. */
function isSplatStorage(storage: DenseStorage): boolean {
  const size = storage.BYTES_PER_ELEMENT;
  if (size === 4 && storage.byteOffset % 4 === 0) {
    const w = new Int32Array(storage.buffer, storage.byteOffset, storage.length);
    const first = w[0];
    for (let i = 1; i < w.length; i++) if (w[i] !== first) return false;
    return true;
  }
  const bytes = new Uint8Array(storage.buffer, storage.byteOffset, storage.byteLength);
  for (let i = size; i < bytes.length; i++) if (bytes[i] !== bytes[i % size]) return false;
  return true;
}

/**
 * `dense<...>`: the elements of a statically shaped tensor or vector of integers or floats.
 * A splat (all elements equal) stores one element, as MLIR does; building from a full array
 * whose elements are all equal yields the splat.
 */
export class DenseElementsAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly type: RankedTensorType | VectorType,
    /** One element when {@link isSplat}, else every element in row-major order. */
    readonly data: DenseStorage,
    readonly isSplat: boolean,
  ) {
    super(context);
  }

  /**
   * The uniqued attribute holding `data` (copied) for `type`; `data` must be a storage array
   * of the kind {@link createDenseStorage} returns for the element type, with one element
   * (splat) or exactly the number of elements. Float values are rounded to the element type.
   */
  static get(type: RankedTensorType | VectorType, data: DenseStorage): DenseElementsAttr {
    return DenseElementsAttr.adopt(type, data.slice() as DenseStorage);
  }

  /**
   * Like {@link get}, but takes ownership of `data` instead of copying it (for large constants
   * built by a frontend): the caller must not modify `data` afterwards.
   */
  static adopt(type: RankedTensorType | VectorType, data: DenseStorage): DenseElementsAttr {
    const elementType = type.elementType;
    if (!isDenseElementType(elementType)) throw new Error('DenseElementsAttr: unsupported element type');
    const count = getNumElements(type.shape);
    if (count === undefined) throw new Error('DenseElementsAttr: dynamic shape');
    if (data.length !== 1 && data.length !== count) throw new Error('DenseElementsAttr: wrong element count');
    if (denseStorageClass(elementType) !== data.constructor) throw new Error('DenseElementsAttr: wrong storage kind');
    let storage = data;
    if (elementType instanceof FloatType && elementType.kind !== 'f32' && elementType.kind !== 'f64') {
      const f = storage as Float32Array;
      for (let i = 0; i < f.length; i++) f[i] = roundToFloatKind(elementType.kind, f[i]);
    }
    if (elementType instanceof IntegerType && elementType.width < 64 && elementType.width !== 8 && elementType.width !== 16 && elementType.width !== 32) {
      wrapStorage(elementType, storage);
    }
    let splat = storage.length === 1;
    if (!splat && storage.length > 1 && isSplatStorage(storage)) {
      splat = true;
      storage = storage.slice(0, 1) as DenseStorage;
    }
    if (count === 0) splat = false;
    const context = type.context;
    const bucket = context.unique(`a.dense:${type.id}:${splat ? 's' : 'f'}:${storageKey(storage)}`, () => [] as DenseElementsAttr[]);
    if (bucket.length > 0) {
      // A large storage's bucket holds storages that agree on the sampled words: full hashes
      // first, so that many near-equal constants are not each compared with all the others.
      const full = storage.byteLength > SAMPLE_ABOVE_BYTES ? storageHash(storage) : undefined;
      for (const existing of bucket) {
        if (full !== undefined && fullHashOf(existing) !== full) continue;
        if (storageEquals(existing.data, storage)) return existing;
      }
    }
    const created = new DenseElementsAttr(context, type, storage, splat);
    bucket.push(created);
    return created;
  }

  /** A splat of one integer or float value. */
  static splat(type: RankedTensorType | VectorType, value: number | bigint): DenseElementsAttr {
    const storage = createDenseStorage(type.elementType as DenseElementType, 1);
    setStorage(storage, 0, value);
    return DenseElementsAttr.get(type, storage);
  }

  /** The number of elements of the type (not of the storage). */
  get numElements(): number {
    return getNumElements(this.type.shape) ?? 0;
  }
  get elementType(): DenseElementType {
    return this.type.elementType as DenseElementType;
  }
  /** Element `i` (row-major) as a number (integers exact within the safe range). */
  getNumber(i: number): number {
    return Number(this.data[this.isSplat ? 0 : i]);
  }
  /** Element `i` as bigint (integer element types only). */
  getBigInt(i: number): bigint {
    const v = this.data[this.isSplat ? 0 : i];
    return typeof v === 'bigint' ? v : BigInt(v);
  }
  /** All elements expanded to a new number array. */
  toNumbers(): number[] {
    const n = this.numElements;
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = this.getNumber(i);
    return out;
  }
}

function wrapStorage(type: IntegerType, storage: DenseStorage): void {
  for (let i = 0; i < storage.length; i++) {
    const v = storage[i];
    const w = wrapIntegerValue(type, typeof v === 'bigint' ? v : BigInt(v));
    (storage as unknown as (number | bigint)[])[i] = typeof v === 'bigint' ? w : Number(w);
  }
}

/** Writes `value` at `index` of a dense storage array (bigint or number as the array needs). */
export function setStorage(storage: DenseStorage, index: number, value: number | bigint): void {
  if (storage instanceof BigInt64Array || storage instanceof BigUint64Array) {
    storage[index] = typeof value === 'bigint' ? value : BigInt(Math.trunc(value));
  } else {
    (storage as Float64Array)[index] = Number(value);
  }
}

/**
 * `dense_resource<name>`: elements stored in a dialect resource blob (`{-# dialect_resources: ... #-}`).
 * The blob is kept as the hex text it was parsed from.
 */
export class DenseResourceElementsAttr extends Attribute {
  private constructor(
    context: MLIRContext,
    readonly type: Type,
    readonly handle: string,
  ) {
    super(context);
  }
  static get(type: Type, handle: string): DenseResourceElementsAttr {
    const context = type.context;
    return context.unique(`a.dres:${type.id}:${handle}`, () => new DenseResourceElementsAttr(context, type, handle));
  }
}

/** Returns the type of a typed attribute (integer, float, typed string, dense), if any. */
export function getAttributeType(attr: Attribute): Type | undefined {
  if (attr instanceof IntegerAttr || attr instanceof FloatAttr || attr instanceof DenseElementsAttr) return attr.type;
  if (attr instanceof StringAttr || attr instanceof OpaqueAttr || attr instanceof DenseResourceElementsAttr) return attr.type;
  return undefined;
}
