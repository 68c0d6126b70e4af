import type { MLIRContext } from './context';
import { Attribute, Type } from './attribute';
// Used only inside functions (never at module evaluation), so the import cycle with
// builtin-attributes is harmless in ESM and CommonJS alike.
import { AffineMapAttr, IntegerAttr } from './builtin-attributes';

/**
 * The sentinel for a dynamic dimension (`?`) in shapes and for dynamic strides/offsets in
 * strided layouts, like MLIR's `ShapedType::kDynamic` (which is INT64_MIN).
 */
export const DYNAMIC = Number.MIN_SAFE_INTEGER;

/** True when `dim` is the {@link DYNAMIC} sentinel. */
export function isDynamic(dim: number): boolean {
  return dim === DYNAMIC;
}

function typeListKey(types: readonly Type[]): string {
  let key = '';
  for (let i = 0; i < types.length; i++) key += (i ? ',' : '') + types[i].id;
  return key;
}

/** Signedness semantics of an {@link IntegerType}: `i8` signless, `si8` signed, `ui8` unsigned. */
export type Signedness = 'signless' | 'signed' | 'unsigned';

/** `iN`, `siN`, `uiN`: an integer of `width` bits (1 .. 2^24). */
export class IntegerType extends Type {
  private constructor(
    context: MLIRContext,
    readonly width: number,
    readonly signedness: Signedness,
  ) {
    super(context);
  }
  /** The uniqued integer type; e.g. `IntegerType.get(ctx, 32)` is `i32`. */
  static get(context: MLIRContext, width: number, signedness: Signedness = 'signless'): IntegerType {
    if (signedness === 'signless' && width >= 1 && width <= 128 && (width | 0) === width) {
      // The common case (i1 ... i64 signless) through a per-context table: no key string.
      const table = context.unique('t.int-signless-table', () => [] as (IntegerType | undefined)[]);
      return (table[width] ??= context.unique(`t.int:${width}:signless`, () => new IntegerType(context, width, signedness)));
    }
    return context.unique(`t.int:${width}:${signedness}`, () => new IntegerType(context, width, signedness));
  }
  get isSignless(): boolean {
    return this.signedness === 'signless';
  }
  get isSigned(): boolean {
    return this.signedness === 'signed';
  }
  get isUnsigned(): boolean {
    return this.signedness === 'unsigned';
  }
}

/** `index`: the target's pointer-sized integer (64 bits for constant folding, as in MLIR). */
export class IndexType extends Type {
  private constructor(context: MLIRContext) {
    super(context);
  }
  static get(context: MLIRContext): IndexType {
    return context.unique('t.index', () => new IndexType(context));
  }
  /** Bit width used for index constants (MLIR's `IndexType::kInternalStorageBitWidth`). */
  static readonly internalStorageBitWidth = 64;
}

/** The spellings of MLIR's builtin floating-point types. */
export type FloatKind =
  | 'f16'
  | 'bf16'
  | 'f32'
  | 'f64'
  | 'f80'
  | 'f128'
  | 'tf32'
  | 'f4E2M1FN'
  | 'f6E2M3FN'
  | 'f6E3M2FN'
  | 'f8E5M2'
  | 'f8E4M3'
  | 'f8E4M3FN'
  | 'f8E5M2FNUZ'
  | 'f8E4M3FNUZ'
  | 'f8E4M3B11FNUZ'
  | 'f8E3M4'
  | 'f8E8M0FNU';

const FLOAT_WIDTHS: Record<FloatKind, number> = {
  f16: 16,
  bf16: 16,
  f32: 32,
  f64: 64,
  f80: 80,
  f128: 128,
  tf32: 19,
  f4E2M1FN: 4,
  f6E2M3FN: 6,
  f6E3M2FN: 6,
  f8E5M2: 8,
  f8E4M3: 8,
  f8E4M3FN: 8,
  f8E5M2FNUZ: 8,
  f8E4M3FNUZ: 8,
  f8E4M3B11FNUZ: 8,
  f8E3M4: 8,
  f8E8M0FNU: 8,
};

/** True when `name` spells a builtin float type (`f32`, `bf16`, `f8E4M3FN`, ...). */
export function isFloatKind(name: string): name is FloatKind {
  return Object.prototype.hasOwnProperty.call(FLOAT_WIDTHS, name);
}

/**
 * A builtin floating-point type. Values of `f16`, `bf16`, `f32` and `f64` are represented
 * exactly (rounded to the type on construction of a {@link FloatAttr}); wider and 8-bit
 * formats are held as the nearest `f64` (a known limit).
 */
export class FloatType extends Type {
  private constructor(
    context: MLIRContext,
    readonly kind: FloatKind,
  ) {
    super(context);
  }
  static get(context: MLIRContext, kind: FloatKind): FloatType {
    return context.unique(`t.float:${kind}`, () => new FloatType(context, kind));
  }
  static f16(context: MLIRContext): FloatType {
    return FloatType.get(context, 'f16');
  }
  static bf16(context: MLIRContext): FloatType {
    return FloatType.get(context, 'bf16');
  }
  static f32(context: MLIRContext): FloatType {
    return FloatType.get(context, 'f32');
  }
  static f64(context: MLIRContext): FloatType {
    return FloatType.get(context, 'f64');
  }
  /** The storage width in bits (`tf32` is 19). */
  get width(): number {
    return FLOAT_WIDTHS[this.kind];
  }
}

/** `none`. */
export class NoneType extends Type {
  private constructor(context: MLIRContext) {
    super(context);
  }
  static get(context: MLIRContext): NoneType {
    return context.unique('t.none', () => new NoneType(context));
  }
}

/** `complex<T>`. */
export class ComplexType extends Type {
  private constructor(
    context: MLIRContext,
    readonly elementType: Type,
  ) {
    super(context);
  }
  static get(context: MLIRContext, elementType: Type): ComplexType {
    return context.unique(`t.complex:${elementType.id}`, () => new ComplexType(context, elementType));
  }
}

/** `(inputs) -> results`. */
export class FunctionType extends Type {
  private constructor(
    context: MLIRContext,
    readonly inputs: readonly Type[],
    readonly results: readonly Type[],
  ) {
    super(context);
  }
  static get(context: MLIRContext, inputs: readonly Type[], results: readonly Type[]): FunctionType {
    return context.unique(
      `t.fn:${typeListKey(inputs)}>${typeListKey(results)}`,
      () => new FunctionType(context, Object.freeze([...inputs]), Object.freeze([...results])),
    );
  }
}

/** `tuple<T, ...>`. */
export class TupleType extends Type {
  private constructor(
    context: MLIRContext,
    readonly types: readonly Type[],
  ) {
    super(context);
  }
  static get(context: MLIRContext, types: readonly Type[]): TupleType {
    return context.unique(`t.tuple:${typeListKey(types)}`, () => new TupleType(context, Object.freeze([...types])));
  }
}

/** `tensor<4x?xf32, #encoding>`; dynamic dimensions are {@link DYNAMIC}. */
export class RankedTensorType extends Type {
  private constructor(
    context: MLIRContext,
    readonly shape: readonly number[],
    readonly elementType: Type,
    readonly encoding: Attribute | undefined,
  ) {
    super(context);
  }
  static get(context: MLIRContext, shape: readonly number[], elementType: Type, encoding?: Attribute): RankedTensorType {
    // Uniqued through a numeric hash bucket and an exact comparison (no key string: verifiers
    // and parsers look tensor types up per op).
    let h = Math.imul(elementType.id ^ 0x2545f491, 0x01000193) ^ (encoding ? encoding.id : 0) ^ (shape.length << 24);
    for (let i = 0; i < shape.length; i++) {
      const d = shape[i]!;
      h = Math.imul(h ^ (d | 0), 0x01000193) ^ ((d / 4294967296) | 0);
    }
    const buckets = context.unique('t.tensor-table', () => new Map<number, RankedTensorType[]>());
    const hash = h >>> 0;
    let bucket = buckets.get(hash);
    if (!bucket) buckets.set(hash, (bucket = []));
    for (const t of bucket) {
      if (t.elementType !== elementType || t.encoding !== encoding || t.shape.length !== shape.length) continue;
      let same = true;
      for (let i = 0; i < shape.length && same; i++) same = t.shape[i] === shape[i];
      if (same) return t;
    }
    const created = new RankedTensorType(context, Object.freeze([...shape]), elementType, encoding);
    bucket.push(created);
    return created;
  }
  get rank(): number {
    return this.shape.length;
  }
}

/** `tensor<*xf32>`. */
export class UnrankedTensorType extends Type {
  private constructor(
    context: MLIRContext,
    readonly elementType: Type,
  ) {
    super(context);
  }
  static get(context: MLIRContext, elementType: Type): UnrankedTensorType {
    return context.unique(`t.utensor:${elementType.id}`, () => new UnrankedTensorType(context, elementType));
  }
}

/** `vector<4x[8]xf32>`: `scalableDims[i]` marks `[n]` dimensions. */
export class VectorType extends Type {
  private constructor(
    context: MLIRContext,
    readonly shape: readonly number[],
    readonly elementType: Type,
    readonly scalableDims: readonly boolean[],
  ) {
    super(context);
  }
  static get(
    context: MLIRContext,
    shape: readonly number[],
    elementType: Type,
    scalableDims?: readonly boolean[],
  ): VectorType {
    const scalable = scalableDims && scalableDims.some((s) => s) ? scalableDims : shape.map(() => false);
    return context.unique(
      `t.vector:${shape.join('x')}:${scalable.map((s) => (s ? 1 : 0)).join('')}:${elementType.id}`,
      () => new VectorType(context, Object.freeze([...shape]), elementType, Object.freeze([...scalable])),
    );
  }
  get rank(): number {
    return this.shape.length;
  }
  get isScalable(): boolean {
    return this.scalableDims.some((s) => s);
  }
}

/** MLIR's `skipDefaultMemorySpace`: an integer memory space 0 means the default (none). */
function canonicalMemorySpace(memorySpace: Attribute | undefined): Attribute | undefined {
  return memorySpace instanceof IntegerAttr && memorySpace.value === 0n ? undefined : memorySpace;
}

/**
 * `memref<4x?xf32, layout, memorySpace>`. `layout` undefined is the identity layout; otherwise a
 * `StridedLayoutAttr` or an `AffineMapAttr` (or another layout attribute).
 */
export class MemRefType extends Type {
  private constructor(
    context: MLIRContext,
    readonly shape: readonly number[],
    readonly elementType: Type,
    readonly layout: Attribute | undefined,
    readonly memorySpace: Attribute | undefined,
  ) {
    super(context);
  }
  static get(
    context: MLIRContext,
    shape: readonly number[],
    elementType: Type,
    layout?: Attribute,
    memorySpace?: Attribute,
  ): MemRefType {
    // As MLIR's MemRefType::get: an identity affine-map layout is the default layout and an
    // integer memory space 0 is the default memory space; both are dropped, so
    // `memref<4xf32, affine_map<(d0) -> (d0)>, 0>` is the same type as `memref<4xf32>`.
    if (layout instanceof AffineMapAttr && layout.value.isIdentity) layout = undefined;
    memorySpace = canonicalMemorySpace(memorySpace);
    return context.unique(
      `t.memref:${shape.join('x')}:${elementType.id}:${layout ? layout.id : ''}:${memorySpace ? memorySpace.id : ''}`,
      () => new MemRefType(context, Object.freeze([...shape]), elementType, layout, memorySpace),
    );
  }
  get rank(): number {
    return this.shape.length;
  }
}

/** `memref<*xf32, memorySpace>`. */
export class UnrankedMemRefType extends Type {
  private constructor(
    context: MLIRContext,
    readonly elementType: Type,
    readonly memorySpace: Attribute | undefined,
  ) {
    super(context);
  }
  static get(context: MLIRContext, elementType: Type, memorySpace?: Attribute): UnrankedMemRefType {
    memorySpace = canonicalMemorySpace(memorySpace);
    return context.unique(
      `t.umemref:${elementType.id}:${memorySpace ? memorySpace.id : ''}`,
      () => new UnrankedMemRefType(context, elementType, memorySpace),
    );
  }
}

/**
 * A type of a dialect that is not registered (or that has no type parser): `!pim.x<...>` is
 * kept verbatim as namespace `pim` and data `x<...>`, and printed back unchanged.
 */
export class OpaqueType extends Type {
  private constructor(
    context: MLIRContext,
    readonly dialectNamespace: string,
    readonly data: string,
  ) {
    super(context);
  }
  static get(context: MLIRContext, dialectNamespace: string, data: string): OpaqueType {
    return context.unique(
      `t.opaque:${dialectNamespace}:${data}`,
      () => new OpaqueType(context, dialectNamespace, data),
    );
  }
}

/** A type with a shape: ranked/unranked tensors, vectors and memrefs. */
export type ShapedType = RankedTensorType | UnrankedTensorType | VectorType | MemRefType | UnrankedMemRefType;

/** True for tensor, vector and memref types. */
export function isShapedType(type: Type): type is ShapedType {
  return (
    type instanceof RankedTensorType ||
    type instanceof UnrankedTensorType ||
    type instanceof VectorType ||
    type instanceof MemRefType ||
    type instanceof UnrankedMemRefType
  );
}

/** True for ranked shaped types (tensor, vector, memref with a shape). */
export function hasRank(type: Type): type is RankedTensorType | VectorType | MemRefType {
  return type instanceof RankedTensorType || type instanceof VectorType || type instanceof MemRefType;
}

/** The number of elements of a statically shaped type, or undefined if a dimension is dynamic. */
export function getNumElements(shape: readonly number[]): number | undefined {
  let n = 1;
  for (const d of shape) {
    if (d === DYNAMIC) return undefined;
    n *= d;
  }
  return n;
}

/** True for integer types and `index`. */
export function isIntegerOrIndex(type: Type): type is IntegerType | IndexType {
  return type instanceof IntegerType || type instanceof IndexType;
}
