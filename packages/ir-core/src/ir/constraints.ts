import type { Attribute, Type } from './attribute';
import {
  ArrayAttr,
  DenseArrayAttr,
  DenseElementsAttr,
  DictionaryAttr,
  FloatAttr,
  IntegerAttr,
  StringAttr,
  SymbolRefAttr,
  TypeAttr,
  UnitAttr,
  AffineMapAttr,
} from './builtin-attributes';
import {
  FloatType,
  IndexType,
  IntegerType,
  MemRefType,
  RankedTensorType,
  UnrankedMemRefType,
  UnrankedTensorType,
  VectorType,
} from './builtin-types';

/**
 * A constraint on an operand or result type, with the description MLIR's ODS prints in
 * "operand #0 must be <description>, but got '<type>'".
 */
export interface TypeConstraint {
  /** Human description (ODS `summary`). */
  readonly description: string;
  /** True when `type` satisfies the constraint. */
  check(type: Type): boolean;
}

/**
 * A constraint on an attribute, narrowing it to `A`; its description is printed in
 * "attribute 'x' failed to satisfy constraint: <description>".
 */
export interface AttrConstraint<A extends Attribute = Attribute> {
  /** Human description (ODS `summary`). */
  readonly description: string;
  /** True when `attr` satisfies the constraint. */
  check(attr: Attribute): attr is A;
}

/** Builds a type constraint from a predicate. */
export function typeConstraint(description: string, check: (type: Type) => boolean): TypeConstraint {
  return { description, check };
}

/** Builds an attribute constraint from a type guard. */
export function attrConstraint<A extends Attribute>(
  description: string,
  check: (attr: Attribute) => attr is A,
): AttrConstraint<A> {
  return { description, check };
}

const isInt = (t: Type): t is IntegerType => t instanceof IntegerType;
const isSignless = (t: Type, w?: number): boolean => isInt(t) && t.isSignless && (w === undefined || t.width === w);

/** Any type. */
export const AnyType = typeConstraint('any type', () => true);
/** Any integer type. */
export const AnyInteger = typeConstraint('integer', isInt);
/** A signless integer. */
export const AnySignlessInteger = typeConstraint('signless integer', (t) => isSignless(t));
/** `index`. */
export const Index = typeConstraint('index', (t) => t instanceof IndexType);
/** A signless integer or index. */
export const AnySignlessIntegerOrIndex = typeConstraint(
  'signless integer or index',
  (t) => isSignless(t) || t instanceof IndexType,
);
/** Any float type. */
export const AnyFloat = typeConstraint('floating-point', (t) => t instanceof FloatType);
/** `i1`. */
export const I1 = typeConstraint('1-bit signless integer', (t) => isSignless(t, 1));
/** `i32`. */
export const I32 = typeConstraint('32-bit signless integer', (t) => isSignless(t, 32));
/** `i64`. */
export const I64 = typeConstraint('64-bit signless integer', (t) => isSignless(t, 64));
/** `f32`. */
export const F32 = typeConstraint('32-bit float', (t) => t instanceof FloatType && t.kind === 'f32');
/** Any ranked or unranked tensor. */
export const AnyTensor = typeConstraint(
  'tensor of any type values',
  (t) => t instanceof RankedTensorType || t instanceof UnrankedTensorType,
);
/** Any ranked tensor. */
export const AnyRankedTensor = typeConstraint('ranked tensor of any type values', (t) => t instanceof RankedTensorType);
/** Any memref. */
export const AnyMemRef = typeConstraint(
  'memref of any type values',
  (t) => t instanceof MemRefType || t instanceof UnrankedMemRefType,
);
/** Any vector. */
export const AnyVector = typeConstraint('vector of any type values', (t) => t instanceof VectorType);
/** Ranked tensor whose element type satisfies one of `elements`. */
export function TensorOf(...elements: TypeConstraint[]): TypeConstraint {
  return typeConstraint(
    `tensor of ${elements.map((e) => e.description).join(' or ')} values`,
    (t) => (t instanceof RankedTensorType || t instanceof UnrankedTensorType) && elements.some((e) => e.check(t.elementType)),
  );
}
/** Memref whose element type satisfies one of `elements`. */
export function MemRefOf(...elements: TypeConstraint[]): TypeConstraint {
  return typeConstraint(
    `memref of ${elements.map((e) => e.description).join(' or ')} values`,
    (t) => (t instanceof MemRefType || t instanceof UnrankedMemRefType) && elements.some((e) => e.check(t.elementType)),
  );
}
/** Satisfies any of `cs`. */
export function AnyOf(...cs: TypeConstraint[]): TypeConstraint {
  return typeConstraint(cs.map((c) => c.description).join(' or '), (t) => cs.some((c) => c.check(t)));
}

/** Any attribute. */
export const AnyAttr = attrConstraint('any attribute', (_a): _a is Attribute => true);
const intAttr = (desc: string, width: number) =>
  attrConstraint(desc, (a): a is IntegerAttr => a instanceof IntegerAttr && isSignless(a.type, width));
/** `i64` IntegerAttr. */
export const I64Attr = intAttr('64-bit signless integer attribute', 64);
/** `i32` IntegerAttr. */
export const I32Attr = intAttr('32-bit signless integer attribute', 32);
/** `i1` IntegerAttr (`true`/`false`). */
export const BoolAttr = intAttr('bool attribute', 1);
/** `index` IntegerAttr. */
export const IndexAttr = attrConstraint(
  'index attribute',
  (a): a is IntegerAttr => a instanceof IntegerAttr && a.type instanceof IndexType,
);
/** Any IntegerAttr. */
export const AnyIntegerAttr = attrConstraint('integer attribute', (a): a is IntegerAttr => a instanceof IntegerAttr);
/** `f32` FloatAttr. */
export const F32Attr = attrConstraint(
  '32-bit float attribute',
  (a): a is FloatAttr => a instanceof FloatAttr && a.type.kind === 'f32',
);
/** `f64` FloatAttr. */
export const F64Attr = attrConstraint(
  '64-bit float attribute',
  (a): a is FloatAttr => a instanceof FloatAttr && a.type.kind === 'f64',
);
/** StringAttr. */
export const StrAttr = attrConstraint('string attribute', (a): a is StringAttr => a instanceof StringAttr);
/** The name of a symbol (a StringAttr). */
export const SymbolNameAttr = attrConstraint('string attribute', (a): a is StringAttr => a instanceof StringAttr);
/** UnitAttr. */
export const UnitAttrConstraint = attrConstraint('unit attribute', (a): a is UnitAttr => a instanceof UnitAttr);
/** TypeAttr. */
export const TypeAttrConstraint = attrConstraint('any type attribute', (a): a is TypeAttr => a instanceof TypeAttr);
/** TypeAttr holding a type satisfying `c`. */
export function TypeAttrOf(c: TypeConstraint): AttrConstraint<TypeAttr> {
  return attrConstraint(`type attribute of ${c.description}`, (a): a is TypeAttr => a instanceof TypeAttr && c.check(a.value));
}
/** Any ArrayAttr. */
export const ArrayAttrConstraint = attrConstraint('array attribute', (a): a is ArrayAttr => a instanceof ArrayAttr);
/** ArrayAttr whose elements all satisfy `c`. */
export function ArrayAttrOf(c: AttrConstraint): AttrConstraint<ArrayAttr> {
  return attrConstraint(
    `array attribute of ${c.description}`,
    (a): a is ArrayAttr => a instanceof ArrayAttr && a.elements.every((e) => c.check(e)),
  );
}
/** `array<i64: ...>`. */
export const DenseI64ArrayAttr = attrConstraint(
  'i64 dense array attribute',
  (a): a is DenseArrayAttr => a instanceof DenseArrayAttr && isSignless(a.elementType, 64),
);
/** `array<i32: ...>`. */
export const DenseI32ArrayAttr = attrConstraint(
  'i32 dense array attribute',
  (a): a is DenseArrayAttr => a instanceof DenseArrayAttr && isSignless(a.elementType, 32),
);
/** `array<i1: ...>`. */
export const DenseBoolArrayAttr = attrConstraint(
  'i1 dense array attribute',
  (a): a is DenseArrayAttr => a instanceof DenseArrayAttr && isSignless(a.elementType, 1),
);
/** `@name` (flat). */
export const FlatSymbolRefAttr = attrConstraint(
  'flat symbol reference attribute',
  (a): a is SymbolRefAttr => a instanceof SymbolRefAttr && a.isFlat,
);
/** `@a::@b`. */
export const SymbolRefAttrConstraint = attrConstraint(
  'symbol reference attribute',
  (a): a is SymbolRefAttr => a instanceof SymbolRefAttr,
);
/** DictionaryAttr. */
export const DictionaryAttrConstraint = attrConstraint(
  'dictionary of named attribute values',
  (a): a is DictionaryAttr => a instanceof DictionaryAttr,
);
/** DenseElementsAttr. */
export const ElementsAttr = attrConstraint(
  'constant vector/tensor attribute',
  (a): a is DenseElementsAttr => a instanceof DenseElementsAttr,
);
/** AffineMapAttr. */
export const AffineMapAttrConstraint = attrConstraint(
  'AffineMap attribute',
  (a): a is AffineMapAttr => a instanceof AffineMapAttr,
);
/** StringAttr whose value is one of `cases` (an enum attribute). */
export function StrEnumAttr(description: string, cases: readonly string[]): AttrConstraint<StringAttr> {
  return attrConstraint(description, (a): a is StringAttr => a instanceof StringAttr && cases.includes(a.value));
}
