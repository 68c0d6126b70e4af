/**
 * The `arith` dialect (MLIR 22): constants, integer/index and float arithmetic, comparisons,
 * select and casts, with MLIR's custom assembly, verifiers and folders. The scalar semantics
 * live in `arith-semantics.ts` and are shared with the interpreter rules.
 */
import type { Attribute, Location, Type } from '../ir/attribute';
import {
  DenseElementsAttr,
  DenseResourceElementsAttr,
  FloatAttr,
  IntegerAttr,
  createDenseStorage,
  setStorage,
  type DenseElementType,
} from '../ir/builtin-attributes';
import { FloatType, IndexType, IntegerType, RankedTensorType, VectorType, UnrankedTensorType, isShapedType } from '../ir/builtin-types';
import type { OpBuilder } from '../ir/builder';
import { attrConstraint, typeConstraint, type TypeConstraint } from '../ir/constraints';
import { ConstantOpInterface } from '../ir/core-interfaces';
import { defineDialect, type Dialect } from '../ir/dialect';
import { formatType } from '../ir/format-hooks';
import { implement } from '../ir/interfaces';
import { defineOp, optProp, prop, single, type AnyOpDefinition, type FoldResult } from '../ir/op-definition';
import type { Operation, OperationState } from '../ir/operation';
import { Traits, getElementTypeOrSelf } from '../ir/traits';
import type { Value } from '../ir/value';
import type { AsmParser, DialectAsmParser, DialectAsmPrinter, OpAsmParser, OpAsmPrinter, ParseResult, UnresolvedOperand } from '../syntax/op-asm';
import {
  CMPF_PREDICATES,
  CMPI_PREDICATES,
  FastMathFlagsAttr,
  OverflowFlagsAttr,
  ROUNDING_MODES,
  parseFlagsBody,
  printFlagsBody,
} from './arith-attributes';
import {
  FLOAT_BINARY,
  INT_BINARY,
  compareFloats,
  compareIntegers,
  evaluateCast,
  intWidth,
  roundFloat,
  type ScalarValue,
} from './arith-semantics';
import { arithCanonicalizationPatterns } from './arith-canonicalize';
import { addParsedAttributes, printAttrDict, stateMaps } from './asm-helpers';
import { DM } from './dialect-messages';

// ------------------------------------------------------------------ type constraints

function elementOf(t: Type): Type | undefined {
  if (t instanceof VectorType || t instanceof RankedTensorType || t instanceof UnrankedTensorType) return t.elementType;
  return undefined;
}
function like(description: string, scalar: (t: Type) => boolean): TypeConstraint {
  return typeConstraint(description, (t) => {
    if (scalar(t)) return true;
    const e = elementOf(t);
    return e !== undefined && scalar(e);
  });
}
const isSignlessInt = (t: Type): boolean => t instanceof IntegerType && t.isSignless;
const isSignlessIntOrIndex = (t: Type): boolean => isSignlessInt(t) || t instanceof IndexType;
const isFloat = (t: Type): boolean => t instanceof FloatType;

/** Signless integer or index, or a vector/tensor of them. */
export const SignlessIntegerOrIndexLike = like('signless-integer-like', isSignlessIntOrIndex);
/** Signless integer (not index), or a vector/tensor of them. */
export const SignlessFixedWidthIntegerLike = like('signless-fixed-width-integer-like', isSignlessInt);
/** Float, or a vector/tensor of floats. */
export const FloatLike = like('floating-point-like', isFloat);
/** i1, or a vector/tensor of i1. */
export const BoolLike = like('bool-like', (t) => t instanceof IntegerType && t.isSignless && t.width === 1);
const IndexCastable = like('signless-integer-like or memref of signless-integer', isSignlessIntOrIndex);

const OverflowAttrC = attrConstraint('Integer overflow arith flags', (a): a is OverflowFlagsAttr => a instanceof OverflowFlagsAttr);
const FastMathAttrC = attrConstraint('Floating point fast math flags', (a): a is FastMathFlagsAttr => a instanceof FastMathFlagsAttr);
function enumI64(cases: number): ReturnType<typeof attrConstraint<IntegerAttr>> {
  const list = Array.from({ length: cases }, (_, i) => i).join(', ');
  return attrConstraint(
    `allowed 64-bit signless integer cases: ${list}`,
    (a): a is IntegerAttr =>
      a instanceof IntegerAttr && a.type instanceof IntegerType && a.type.width === 64 && a.type.isSignless && a.value >= 0n && a.value < BigInt(cases),
  );
}
const RoundingModeC = attrConstraint(
  'Floating point rounding mode',
  (a): a is IntegerAttr => a instanceof IntegerAttr && a.type instanceof IntegerType && a.type.width === 32 && a.value >= 0n && a.value < 5n,
);
const TypedConstantC = attrConstraint(
  'TypedAttr instance',
  (a): a is Attribute => a instanceof IntegerAttr || a instanceof FloatAttr || a instanceof DenseElementsAttr || a instanceof DenseResourceElementsAttr,
);

// ------------------------------------------------------------------ folding helpers

type Scalar = IntegerType | IndexType | FloatType;

function scalarOf(type: Type): Scalar | undefined {
  const e = getElementTypeOrSelf(type);
  return e instanceof IntegerType || e instanceof IndexType || e instanceof FloatType ? e : undefined;
}

/** The scalar values of a constant operand: one (scalar/splat) or all elements, or undefined. */
function constantElements(attr: Attribute | undefined): { values: ScalarValue[]; splat: boolean } | undefined {
  if (attr instanceof IntegerAttr) return { values: [attr.value], splat: true };
  if (attr instanceof FloatAttr) return { values: [attr.value], splat: true };
  if (attr instanceof DenseElementsAttr) {
    const n = attr.isSplat ? 1 : attr.numElements;
    const et = attr.elementType;
    const values: ScalarValue[] = new Array(n);
    for (let i = 0; i < n; i++) values[i] = et instanceof FloatType ? attr.getNumber(i) : attr.getBigInt(i);
    return { values, splat: attr.isSplat };
  }
  return undefined;
}

/** Builds the constant attribute of `type` from scalar results (splat when one value). */
function makeConstant(type: Type, values: readonly ScalarValue[]): Attribute | undefined {
  if (type instanceof IntegerType || type instanceof IndexType) return IntegerAttr.get(type, values[0] as bigint);
  if (type instanceof FloatType) return FloatAttr.get(type, values[0] as number);
  if (type instanceof RankedTensorType || type instanceof VectorType) {
    const et = type.elementType as DenseElementType;
    if (!(et instanceof IntegerType || et instanceof IndexType || et instanceof FloatType)) return undefined;
    if (et instanceof IntegerType && et.width > 64) return undefined;
    const storage = createDenseStorage(et, values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      setStorage(storage, i, typeof v === 'bigint' && !(storage instanceof BigInt64Array || storage instanceof BigUint64Array) ? Number(BigInt.asIntN(53, v)) : v);
    }
    try {
      return DenseElementsAttr.get(type, storage);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Folds an elementwise op over constant operands: `fn` maps the operands' scalars (or
 * returns undefined = do not fold) for each element.
 */
function foldElementwise(
  resultType: Type,
  operands: readonly (Attribute | undefined)[],
  fn: (args: ScalarValue[]) => ScalarValue | undefined,
): FoldResult {
  const consts = operands.map(constantElements);
  if (consts.some((c) => c === undefined)) return null;
  const cs = consts as { values: ScalarValue[]; splat: boolean }[];
  const allSplat = cs.every((c) => c.splat);
  const n = allSplat ? 1 : Math.max(...cs.map((c) => c.values.length));
  if (!allSplat && cs.some((c) => !c.splat && c.values.length !== n)) return null;
  const out: ScalarValue[] = new Array(n);
  const args: ScalarValue[] = new Array(cs.length);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < cs.length; k++) args[k] = cs[k]!.splat ? cs[k]!.values[0]! : cs[k]!.values[i]!;
    const r = fn(args);
    if (r === undefined) return null;
    out[i] = r;
  }
  const attr = makeConstant(resultType, out);
  return attr ? [attr] : null;
}

function isConstInt(attr: Attribute | undefined, value: bigint): boolean {
  if (attr instanceof IntegerAttr) return attr.value === value;
  if (attr instanceof DenseElementsAttr && attr.isSplat && !(attr.elementType instanceof FloatType)) return attr.getBigInt(0) === value;
  return false;
}

/** A constant of `type` (scalar or splat) holding the integer `value`, if representable. */
function intConstant(type: Type, value: bigint): Attribute | undefined {
  if (type instanceof IntegerType || type instanceof IndexType) return IntegerAttr.get(type, value);
  if ((type instanceof RankedTensorType || type instanceof VectorType) && type.shape.every((d) => d >= 0)) {
    try {
      return DenseElementsAttr.splat(type, value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * MLIR's operand-identity folds of the integer ops (`x - x = 0`, `x * 0 = 0`, `x & x = x`,
 * `x | -1 = -1`, `x ^ x = 0`, `x rem 1 = 0`, `max(x, x) = x`, `x + 0 = x`, ...).
 */
function foldIntIdentity(mnemonic: string, op: Operation, rhs: Attribute | undefined): FoldResult {
  const x = op.getOperand(0);
  const same = x === op.getOperand(1);
  const type = op.getResult(0).type;
  const constant = (v: bigint): FoldResult => {
    const a = intConstant(type, v);
    return a ? [a] : null;
  };
  switch (mnemonic) {
    case 'addi':
    case 'ori':
    case 'xori':
    case 'shli':
    case 'shrsi':
    case 'shrui':
      if (isConstInt(rhs, 0n)) return [x];
      break;
    case 'subi':
      if (isConstInt(rhs, 0n)) return [x];
      break;
    case 'muli':
    case 'divsi':
    case 'divui':
      if (isConstInt(rhs, 1n)) return [x];
      break;
  }
  switch (mnemonic) {
    case 'subi':
    case 'xori':
      return same ? constant(0n) : null;
    case 'muli':
      return isConstInt(rhs, 0n) ? constant(0n) : null;
    case 'andi':
      if (same || isConstInt(rhs, -1n)) return [x];
      return isConstInt(rhs, 0n) ? constant(0n) : null;
    case 'ori':
      if (same) return [x];
      return isConstInt(rhs, -1n) ? constant(-1n) : null;
    case 'remsi':
    case 'remui':
      return isConstInt(rhs, 1n) ? constant(0n) : null;
    case 'maxsi':
    case 'minsi':
    case 'maxui':
    case 'minui':
      return same ? [x] : null;
    default:
      return null;
  }
}

// ------------------------------------------------------------------ custom assembly helpers

function parseOperands(p: OpAsmParser, n: number): ParseResult<UnresolvedOperand[]> {
  const out: UnresolvedOperand[] = [];
  for (let i = 0; i < n; i++) {
    if (i && !p.parseComma()) return undefined;
    const o = p.parseOperand();
    if (!o) return undefined;
    out.push(o);
  }
  return out;
}

/** Parses an optional `overflow<...>` / `fastmath<...>` clause into property `name`. */
function parseFlagsClause(p: AsmParser, state: OperationState, kind: 'overflow' | 'fastmath', name: string, withDefault: boolean): boolean {
  const { properties } = stateMaps(state);
  if (p.parseOptionalKeyword(kind)) {
    const a = parseFlagsBody(p, kind);
    if (!a) return false;
    properties.set(name, a);
  } else if (withDefault) {
    properties.set(name, kind === 'overflow' ? OverflowFlagsAttr.get(p.context) : FastMathFlagsAttr.get(p.context));
  }
  return true;
}

function printFlagsClause(op: Operation, printer: OpAsmPrinter, kind: 'overflow' | 'fastmath', name: string, elideNone: boolean): void {
  const a = op.getProperty(name) ?? op.getDiscardableAttr(name);
  if (!(a instanceof OverflowFlagsAttr || a instanceof FastMathFlagsAttr)) return;
  if (elideNone && a.isNone) return;
  printer.print(' ' + kind);
  printFlagsBody(a, printer);
}

type FlagKind = 'overflow' | 'fastmath' | undefined;
const FLAG_PROP: Record<'overflow' | 'fastmath', string> = { overflow: 'overflowFlags', fastmath: 'fastmath' };

function inherentOf(names: readonly string[]): ReadonlySet<string> {
  return new Set(names);
}

/**
 * `%a, %b, ... [flags] attr-dict : type`: MLIR's format of the same-type element-wise ops with
 * `arity` operands (binary ops; `negf` with one).
 */
function sameTypeAsm(arity: number, flags: FlagKind, inherent: ReadonlySet<string>) {
  return {
    parse(p: OpAsmParser, state: OperationState): boolean {
      const ops = parseOperands(p, arity);
      if (!ops) return false;
      if (flags && !parseFlagsClause(p, state, flags, FLAG_PROP[flags], true)) return false;
      const attrs = p.parseOptionalAttrDict();
      if (!attrs) return false;
      addParsedAttributes(state, attrs, inherent);
      if (!p.parseColon()) return false;
      const type = p.parseType();
      if (!type) return false;
      const values: Value[] = [];
      if (!p.resolveOperands(ops, type, values)) return false;
      state.operands = values;
      state.resultTypes = [type];
      return true;
    },
    print(op: Operation, p: OpAsmPrinter): void {
      p.print(' ');
      p.printOperands(op.operands);
      if (flags) printFlagsClause(op, p, flags, FLAG_PROP[flags], true);
      printAttrDict(p, op, flags ? [FLAG_PROP[flags]] : []);
      p.print(' : ');
      p.printType(op.getResult(0).type);
    },
  };
}

interface CastOptions {
  /** `overflow<...>` with a default (trunci). */
  overflow?: boolean;
  /** Optional `fastmath<...>` without a default (extf, truncf). */
  fastmath?: boolean;
  /** Optional rounding mode keyword (truncf). */
  roundingMode?: boolean;
}

/** `%in [roundingmode] [flags] attr-dict : T to U`. */
function castAsm(opts: CastOptions, inherent: ReadonlySet<string>) {
  const elided = [...(opts.overflow ? ['overflowFlags'] : []), ...(opts.fastmath ? ['fastmath'] : []), ...(opts.roundingMode ? ['roundingmode'] : [])];
  return {
    parse(p: OpAsmParser, state: OperationState): boolean {
      const o = p.parseOperand();
      if (!o) return false;
      if (opts.overflow && !parseFlagsClause(p, state, 'overflow', 'overflowFlags', true)) return false;
      if (opts.roundingMode) {
        const mode = p.parseOptionalKeyword(ROUNDING_MODES);
        if (mode !== null) {
          stateMaps(state).properties.set('roundingmode', IntegerAttr.get(IntegerType.get(p.context, 32), (ROUNDING_MODES as readonly string[]).indexOf(mode)));
        }
      }
      if (opts.fastmath && !parseFlagsClause(p, state, 'fastmath', 'fastmath', false)) return false;
      const attrs = p.parseOptionalAttrDict();
      if (!attrs) return false;
      addParsedAttributes(state, attrs, inherent);
      if (!p.parseColon()) return false;
      const from = p.parseType();
      if (!from || !p.parseKeyword('to')) return false;
      const to = p.parseType();
      if (!to) return false;
      const values: Value[] = [];
      if (!p.resolveOperand(o, from, values)) return false;
      state.operands = values;
      state.resultTypes = [to];
      return true;
    },
    print(op: Operation, p: OpAsmPrinter): void {
      p.print(' ');
      p.printOperand(op.getOperand(0));
      if (opts.overflow) printFlagsClause(op, p, 'overflow', 'overflowFlags', true);
      if (opts.roundingMode) {
        const m = op.getProperty('roundingmode') ?? op.getDiscardableAttr('roundingmode');
        if (m instanceof IntegerAttr && ROUNDING_MODES[Number(m.value)]) p.print(' ' + ROUNDING_MODES[Number(m.value)]);
      }
      if (opts.fastmath) printFlagsClause(op, p, 'fastmath', 'fastmath', false);
      printAttrDict(p, op, elided);
      p.print(' : ');
      p.printType(op.getOperand(0).type);
      p.print(' to ');
      p.printType(op.getResult(0).type);
    },
  };
}

// ------------------------------------------------------------------ constant

function constantResultName(op: Operation, setName: (v: Value, n: string) => void): void {
  const value = op.getAttr('value');
  const type = op.numResults ? op.getResult(0).type : undefined;
  if (!type) return;
  if (value instanceof IntegerAttr) {
    if (type instanceof IntegerType && type.width === 1) {
      setName(op.getResult(0), value.value ? 'true' : 'false');
      return;
    }
    let v = value.value;
    if (type instanceof IntegerType) v = BigInt.asIntN(type.width, v);
    const spelling = type instanceof IntegerType ? (type.isSigned ? 'si' : type.isUnsigned ? 'ui' : 'i') + type.width : '';
    setName(op.getResult(0), type instanceof IntegerType ? `c${v}_${spelling}` : `c${v}`);
  } else setName(op.getResult(0), 'cst');
}

/** `arith.constant`: `%c0 = arith.constant 0 : index`, `%cst = arith.constant dense<...> : tensor<...>`. */
export const ConstantOp = defineOp({
  name: 'arith.constant',
  summary: 'integer or floating point constant',
  results: { result: single() },
  attributes: { value: prop(TypedConstantC) },
  traits: [Traits.Pure, Traits.ConstantLike],
  interfaces: [implement(ConstantOpInterface, { getValue: (op: Operation) => op.getAttr('value') })],
  parse(p, state) {
    const attrs = p.parseOptionalAttrDict();
    if (!attrs) return false;
    addParsedAttributes(state, attrs, new Set(['value']));
    const loc = p.getCurrentLocation();
    const value = p.parseAttribute();
    if (!value) return false;
    const type = value instanceof IntegerAttr || value instanceof FloatAttr || value instanceof DenseElementsAttr || value instanceof DenseResourceElementsAttr ? value.type : undefined;
    if (!type) {
      p.emitError(DM.expectedConstantValue, loc);
      return false;
    }
    stateMaps(state).properties.set('value', value);
    state.resultTypes = [type];
    return true;
  },
  print(op, p) {
    printAttrDict(p, op, ['value']);
    p.print(' ');
    p.printAttribute(op.getAttr('value')!);
  },
  getAsmResultNames: constantResultName,
  verify(view) {
    const value = view.value;
    const type = view.result.type;
    const vt = value instanceof IntegerAttr || value instanceof FloatAttr || value instanceof DenseElementsAttr || value instanceof DenseResourceElementsAttr ? value.type : undefined;
    if (!vt) {
      view.emitOpError(DM.constantValueKind);
      return false;
    }
    if (vt !== type) {
      view.emitOpError(DM.constantTypeMismatch);
      return false;
    }
    if (type instanceof IntegerType && !type.isSignless) {
      view.emitOpError(DM.constantIntegerSignless);
      return false;
    }
    return true;
  },
  fold(view) {
    return [view.value];
  },
});

// ------------------------------------------------------------------ binary ops

const intInherent = inherentOf(['overflowFlags']);
const floatInherent = inherentOf(['fastmath']);

function intBinaryOp(mnemonic: string, opts: { overflow?: boolean; commutative?: boolean; summary: string }) {
  const fn = INT_BINARY[mnemonic]!;
  return defineOp({
    name: `arith.${mnemonic}`,
    summary: opts.summary,
    operands: { lhs: single(SignlessIntegerOrIndexLike), rhs: single(SignlessIntegerOrIndexLike) },
    results: { result: single(SignlessIntegerOrIndexLike) },
    attributes: opts.overflow ? { overflowFlags: optProp(OverflowAttrC, (c) => OverflowFlagsAttr.get(c)) } : {},
    traits: [Traits.Pure, Traits.SameOperandsAndResultType, Traits.Elementwise, ...(opts.commutative ? [Traits.Commutative] : [])],
    ...sameTypeAsm(2, opts.overflow ? 'overflow' : undefined, opts.overflow ? intInherent : new Set()),
    fold(view, operands) {
      const type = view.op.getResult(0).type;
      const scalar = scalarOf(type);
      if (!(scalar instanceof IntegerType || scalar instanceof IndexType)) return null;
      const folded = foldElementwise(type, operands, ([a, b]) => {
        const r = fn(a as bigint, b as bigint, intWidth(scalar));
        return r === undefined ? undefined : BigInt.asIntN(Math.max(intWidth(scalar), 1), r);
      });
      if (folded) return folded;
      return foldIntIdentity(mnemonic, view.op, operands[1]);
    },
  });
}

function floatBinaryOp(mnemonic: string, opts: { commutative?: boolean; summary: string }) {
  const fn = FLOAT_BINARY[mnemonic]!;
  return defineOp({
    name: `arith.${mnemonic}`,
    summary: opts.summary,
    operands: { lhs: single(FloatLike), rhs: single(FloatLike) },
    results: { result: single(FloatLike) },
    attributes: { fastmath: optProp(FastMathAttrC, (c) => FastMathFlagsAttr.get(c)) },
    traits: [Traits.Pure, Traits.SameOperandsAndResultType, Traits.Elementwise, ...(opts.commutative ? [Traits.Commutative] : [])],
    ...sameTypeAsm(2, 'fastmath', floatInherent),
    fold(view, operands) {
      const type = view.op.getResult(0).type;
      const scalar = scalarOf(type);
      if (!(scalar instanceof FloatType)) return null;
      return foldElementwise(type, operands, ([a, b]) => roundFloat(scalar, fn(a as number, b as number)));
    },
  });
}

/** `arith.addi`. */
export const AddIOp = intBinaryOp('addi', { overflow: true, commutative: true, summary: 'integer addition operation' });
/** `arith.subi`. */
export const SubIOp = intBinaryOp('subi', { overflow: true, summary: 'integer subtraction operation' });
/** `arith.muli`. */
export const MulIOp = intBinaryOp('muli', { overflow: true, commutative: true, summary: 'integer multiplication operation' });
/** `arith.divsi`. */
export const DivSIOp = intBinaryOp('divsi', { summary: 'signed integer division operation' });
/** `arith.divui`. */
export const DivUIOp = intBinaryOp('divui', { summary: 'unsigned integer division operation' });
/** `arith.remsi`. */
export const RemSIOp = intBinaryOp('remsi', { summary: 'signed integer division remainder operation' });
/** `arith.remui`. */
export const RemUIOp = intBinaryOp('remui', { summary: 'unsigned integer division remainder operation' });
/** `arith.ceildivsi`. */
export const CeilDivSIOp = intBinaryOp('ceildivsi', { summary: 'signed ceil integer division operation' });
/** `arith.floordivsi`. */
export const FloorDivSIOp = intBinaryOp('floordivsi', { summary: 'signed floor integer division operation' });
/** `arith.andi`. */
export const AndIOp = intBinaryOp('andi', { commutative: true, summary: 'integer binary and' });
/** `arith.ori`. */
export const OrIOp = intBinaryOp('ori', { commutative: true, summary: 'integer binary or' });
/** `arith.xori`. */
export const XOrIOp = intBinaryOp('xori', { commutative: true, summary: 'integer binary xor' });
/** `arith.shli`. */
export const ShLIOp = intBinaryOp('shli', { overflow: true, summary: 'integer left-shift' });
/** `arith.shrsi`. */
export const ShRSIOp = intBinaryOp('shrsi', { summary: 'signed integer right-shift' });
/** `arith.shrui`. */
export const ShRUIOp = intBinaryOp('shrui', { summary: 'unsigned integer right-shift' });
/** `arith.maxsi`. */
export const MaxSIOp = intBinaryOp('maxsi', { commutative: true, summary: 'signed integer maximum operation' });
/** `arith.minsi`. */
export const MinSIOp = intBinaryOp('minsi', { commutative: true, summary: 'signed integer minimum operation' });
/** `arith.maxui`. */
export const MaxUIOp = intBinaryOp('maxui', { commutative: true, summary: 'unsigned integer maximum operation' });
/** `arith.minui`. */
export const MinUIOp = intBinaryOp('minui', { commutative: true, summary: 'unsigned integer minimum operation' });

/** `arith.addf`. */
export const AddFOp = floatBinaryOp('addf', { commutative: true, summary: 'floating point addition operation' });
/** `arith.subf`. */
export const SubFOp = floatBinaryOp('subf', { summary: 'floating point subtraction operation' });
/** `arith.mulf`. */
export const MulFOp = floatBinaryOp('mulf', { commutative: true, summary: 'floating point multiplication operation' });
/** `arith.divf`. */
export const DivFOp = floatBinaryOp('divf', { summary: 'floating point division operation' });
/** `arith.remf`. */
export const RemFOp = floatBinaryOp('remf', { summary: 'floating point division remainder operation' });
/** `arith.maximumf`. */
export const MaximumFOp = floatBinaryOp('maximumf', { commutative: true, summary: 'floating-point maximum operation' });
/** `arith.minimumf`. */
export const MinimumFOp = floatBinaryOp('minimumf', { commutative: true, summary: 'floating-point minimum operation' });
/** `arith.maxnumf`. */
export const MaxNumFOp = floatBinaryOp('maxnumf', { commutative: true, summary: 'floating-point maximum operation' });
/** `arith.minnumf`. */
export const MinNumFOp = floatBinaryOp('minnumf', { commutative: true, summary: 'floating-point minimum operation' });

/** `arith.negf`. */
export const NegFOp = defineOp({
  name: 'arith.negf',
  summary: 'floating point negation',
  operands: { operand: single(FloatLike) },
  results: { result: single(FloatLike) },
  attributes: { fastmath: optProp(FastMathAttrC, (c) => FastMathFlagsAttr.get(c)) },
  traits: [Traits.Pure, Traits.SameOperandsAndResultType, Traits.Elementwise],
  ...sameTypeAsm(1, 'fastmath', floatInherent),
  fold(view, operands) {
    const type = view.op.getResult(0).type;
    const scalar = scalarOf(type);
    if (!(scalar instanceof FloatType)) return null;
    return foldElementwise(type, operands, ([a]) => -(a as number));
  },
});

// ------------------------------------------------------------------ comparisons and select

/** The shape-compatible i1 type for comparing values of `type`. */
function i1Like(type: Type): Type {
  const i1 = IntegerType.get(type.context, 1);
  if (type instanceof VectorType) return VectorType.get(type.context, type.shape, i1, type.scalableDims);
  if (type instanceof RankedTensorType) return RankedTensorType.get(type.context, type.shape, i1);
  if (type instanceof UnrankedTensorType) return UnrankedTensorType.get(type.context, i1);
  return i1;
}

function compareAsm(predicates: readonly string[], fastmath: boolean) {
  const inherent = inherentOf(fastmath ? ['predicate', 'fastmath'] : ['predicate']);
  return {
    parse(p: OpAsmParser, state: OperationState): boolean {
      const loc = p.getCurrentLocation();
      const word = p.parseOptionalKeywordName() ?? p.parseOptionalString();
      const index = word === null ? -1 : predicates.indexOf(word);
      if (index < 0) {
        p.emitError(DM.expectedEnumKeyword('predicate', predicates), loc);
        return false;
      }
      stateMaps(state).properties.set('predicate', IntegerAttr.get(IntegerType.get(p.context, 64), index));
      if (!p.parseComma()) return false;
      const ops = parseOperands(p, 2);
      if (!ops) return false;
      if (fastmath && !parseFlagsClause(p, state, 'fastmath', 'fastmath', true)) return false;
      const attrs = p.parseOptionalAttrDict();
      if (!attrs) return false;
      addParsedAttributes(state, attrs, inherent);
      if (!p.parseColon()) return false;
      const type = p.parseType();
      if (!type) return false;
      const values: Value[] = [];
      if (!p.resolveOperands(ops, type, values)) return false;
      state.operands = values;
      state.resultTypes = [i1Like(type)];
      return true;
    },
    print(op: Operation, p: OpAsmPrinter): void {
      const pred = op.getAttr('predicate');
      const index = pred instanceof IntegerAttr ? Number(pred.value) : -1;
      p.print(' ' + (predicates[index] ?? '<<invalid predicate>>') + ', ');
      p.printOperands(op.operands);
      if (fastmath) printFlagsClause(op, p, 'fastmath', 'fastmath', true);
      printAttrDict(p, op, fastmath ? ['predicate', 'fastmath'] : ['predicate']);
      p.print(' : ');
      p.printType(op.getOperand(0).type);
    },
  };
}

function verifyCompareResult(op: Operation): boolean {
  if (op.getResult(0).type !== i1Like(op.getOperand(0).type)) {
    op.emitOpError(DM.compareResultType);
    return false;
  }
  return true;
}

/** `arith.cmpi`: `%r = arith.cmpi slt, %a, %b : i32`. */
export const CmpIOp = defineOp({
  name: 'arith.cmpi',
  summary: 'integer comparison operation',
  operands: { lhs: single(SignlessIntegerOrIndexLike), rhs: single(SignlessIntegerOrIndexLike) },
  results: { result: single(BoolLike) },
  attributes: { predicate: prop(enumI64(CMPI_PREDICATES.length)) },
  traits: [Traits.Pure, Traits.SameTypeOperands, Traits.Elementwise],
  ...compareAsm(CMPI_PREDICATES, false),
  verify: (view) => verifyCompareResult(view.op),
  fold(view, operands) {
    const type = view.op.getOperand(0).type;
    const scalar = scalarOf(type);
    if (!(scalar instanceof IntegerType || scalar instanceof IndexType)) return null;
    const pred = Number(view.predicate.value);
    if (view.lhs === view.rhs) {
      // x == x, x <= x, x >= x hold; x != x, x < x, x > x do not (MLIR's cmpi folder).
      const holds = [0, 3, 5, 7, 9].includes(pred);
      const a = intConstant(view.op.getResult(0).type, holds ? 1n : 0n);
      return a ? [a] : null;
    }
    return foldElementwise(view.op.getResult(0).type, operands, ([a, b]) =>
      compareIntegers(pred, a as bigint, b as bigint, intWidth(scalar)) ? 1n : 0n,
    );
  },
});

/** `arith.cmpf`: `%r = arith.cmpf olt, %a, %b : f32`. */
export const CmpFOp = defineOp({
  name: 'arith.cmpf',
  summary: 'floating-point comparison operation',
  operands: { lhs: single(FloatLike), rhs: single(FloatLike) },
  results: { result: single(BoolLike) },
  attributes: { predicate: prop(enumI64(CMPF_PREDICATES.length)), fastmath: optProp(FastMathAttrC, (c) => FastMathFlagsAttr.get(c)) },
  traits: [Traits.Pure, Traits.SameTypeOperands, Traits.Elementwise],
  ...compareAsm(CMPF_PREDICATES, true),
  verify: (view) => verifyCompareResult(view.op),
  fold(view, operands) {
    const pred = Number(view.predicate.value);
    return foldElementwise(view.op.getResult(0).type, operands, ([a, b]) => (compareFloats(pred, a as number, b as number) ? 1n : 0n));
  },
});

/** `arith.select`: `%r = arith.select %c, %a, %b : i32` (`: vector<4xi1>, vector<4xi32>` for a shaped condition). */
export const SelectOp = defineOp({
  name: 'arith.select',
  summary: 'select operation',
  operands: { condition: single(BoolLike), true_value: single(), false_value: single() },
  results: { result: single() },
  traits: [Traits.Pure, Traits.Elementwise],
  parse(p, state) {
    const ops = parseOperands(p, 3);
    if (!ops) return false;
    const attrs = p.parseOptionalAttrDict();
    if (!attrs) return false;
    addParsedAttributes(state, attrs, new Set());
    if (!p.parseColon()) return false;
    let condType: Type | undefined = IntegerType.get(p.context, 1);
    let type = p.parseType();
    if (!type) return false;
    if (p.parseOptionalComma()) {
      condType = type;
      type = p.parseType();
      if (!type) return false;
    }
    const values: Value[] = [];
    if (!p.resolveOperand(ops[0]!, condType, values) || !p.resolveOperands([ops[1]!, ops[2]!], type, values)) return false;
    state.operands = values;
    state.resultTypes = [type];
    return true;
  },
  print(op, p) {
    p.print(' ');
    p.printOperands(op.operands);
    printAttrDict(p, op);
    p.print(' : ');
    const c = op.getOperand(0).type;
    if (isShapedType(c)) {
      p.printType(c);
      p.print(', ');
    }
    p.printType(op.getResult(0).type);
  },
  verify(view) {
    const t = view.result.type;
    if (view.true_value.type !== t || view.false_value.type !== t) {
      view.emitOpError('failed to verify that all of {true_value, false_value, result} have same type');
      return false;
    }
    const c = view.condition.type;
    if (isShapedType(c) && i1Like(t) !== c) {
      view.emitOpError(DM.selectConditionShape);
      return false;
    }
    return true;
  },
  fold(view, operands) {
    const [c] = operands;
    if (c instanceof IntegerAttr) return [c.value ? view.true_value : view.false_value];
    if (view.true_value === view.false_value) return [view.true_value];
    return null;
  },
});

// ------------------------------------------------------------------ casts

type WidthRule = 'wider' | 'narrower' | 'same' | 'index' | 'any';

function castOp(
  mnemonic: string,
  summary: string,
  from: TypeConstraint,
  to: TypeConstraint,
  width: WidthRule,
  opts: CastOptions = {},
) {
  const attributes: Record<string, ReturnType<typeof optProp>> = {};
  if (opts.overflow) attributes.overflowFlags = optProp(OverflowAttrC, (c) => OverflowFlagsAttr.get(c));
  if (opts.roundingMode) attributes.roundingmode = optProp(RoundingModeC);
  if (opts.fastmath) attributes.fastmath = optProp(FastMathAttrC);
  const inherent = new Set(Object.keys(attributes));
  return defineOp({
    name: `arith.${mnemonic}`,
    summary,
    operands: { in: single(from) },
    results: { out: single(to) },
    attributes,
    traits: [Traits.Pure, Traits.Elementwise, Traits.SameOperandsAndResultShape],
    ...castAsm(opts, inherent),
    verify(view) {
      const a = getElementTypeOrSelf(view.op.getOperand(0).type);
      const b = getElementTypeOrSelf(view.op.getResult(0).type);
      const wa = a instanceof IndexType ? 64 : (a as IntegerType | FloatType).width;
      const wb = b instanceof IndexType ? 64 : (b as IntegerType | FloatType).width;
      const ok =
        width === 'wider' ? wb > wa : width === 'narrower' ? wb < wa : width === 'same' ? wa === wb : width === 'index' ? (a instanceof IndexType) !== (b instanceof IndexType) : true;
      if (!ok) {
        view.emitOpError(DM.castIncompatible(formatType(view.op.getOperand(0).type), formatType(view.op.getResult(0).type)));
        return false;
      }
      return true;
    },
    fold(view, operands) {
      const fromT = scalarOf(view.op.getOperand(0).type);
      const toT = scalarOf(view.op.getResult(0).type);
      if (!fromT || !toT) return null;
      const rm = view.op.getAttr('roundingmode');
      const mode = rm instanceof IntegerAttr ? Number(rm.value) : undefined;
      if (mnemonic === 'bitcast' && fromT === toT) return [view.op.getOperand(0)];
      return foldElementwise(view.op.getResult(0).type, operands, ([v]) => evaluateCast(mnemonic, v!, fromT, toT, mode));
    },
  });
}

const SignlessIntOrFloatLike = like('signless-integer-or-float-like', (t) => isSignlessIntOrIndex(t) || isFloat(t));

/** `arith.index_cast`. */
export const IndexCastOp = castOp('index_cast', 'int to index cast and vice versa', IndexCastable, IndexCastable, 'index');
/** `arith.index_castui`. */
export const IndexCastUIOp = castOp('index_castui', 'unsigned index cast', IndexCastable, IndexCastable, 'index');
/** `arith.sitofp`. */
export const SIToFPOp = castOp('sitofp', 'cast from integer type to floating-point', SignlessFixedWidthIntegerLike, FloatLike, 'any');
/** `arith.uitofp`. */
export const UIToFPOp = castOp('uitofp', 'cast from unsigned integer type to floating-point', SignlessFixedWidthIntegerLike, FloatLike, 'any');
/** `arith.fptosi`. */
export const FPToSIOp = castOp('fptosi', 'cast from floating-point type to integer type', FloatLike, SignlessFixedWidthIntegerLike, 'any');
/** `arith.fptoui`. */
export const FPToUIOp = castOp('fptoui', 'cast from floating-point type to integer type', FloatLike, SignlessFixedWidthIntegerLike, 'any');
/** `arith.extsi`. */
export const ExtSIOp = castOp('extsi', 'integer sign extension operation', SignlessFixedWidthIntegerLike, SignlessFixedWidthIntegerLike, 'wider');
/** `arith.extui`. */
export const ExtUIOp = castOp('extui', 'integer zero extension operation', SignlessFixedWidthIntegerLike, SignlessFixedWidthIntegerLike, 'wider');
/** `arith.trunci`. */
export const TruncIOp = castOp('trunci', 'integer truncation operation', SignlessFixedWidthIntegerLike, SignlessFixedWidthIntegerLike, 'narrower', {
  overflow: true,
});
/** `arith.extf`. */
export const ExtFOp = castOp('extf', 'cast from floating-point to wider floating-point', FloatLike, FloatLike, 'wider', { fastmath: true });
/** `arith.truncf`. */
export const TruncFOp = castOp('truncf', 'cast from floating-point to narrower floating-point', FloatLike, FloatLike, 'narrower', {
  roundingMode: true,
  fastmath: true,
});
/** `arith.bitcast`. */
export const BitcastOp = castOp('bitcast', 'bitcast between values of equal bit width', SignlessIntOrFloatLike, SignlessIntOrFloatLike, 'same');

// ------------------------------------------------------------------ the dialect

/** Every arith op definition, in MLIR's documentation order. */
export const ARITH_OPS: readonly AnyOpDefinition[] = [
  ConstantOp,
  AddIOp,
  SubIOp,
  MulIOp,
  DivSIOp,
  DivUIOp,
  RemSIOp,
  RemUIOp,
  CeilDivSIOp,
  FloorDivSIOp,
  AndIOp,
  OrIOp,
  XOrIOp,
  ShLIOp,
  ShRSIOp,
  ShRUIOp,
  MaxSIOp,
  MinSIOp,
  MaxUIOp,
  MinUIOp,
  AddFOp,
  SubFOp,
  MulFOp,
  DivFOp,
  RemFOp,
  MaximumFOp,
  MinimumFOp,
  MaxNumFOp,
  MinNumFOp,
  NegFOp,
  CmpIOp,
  CmpFOp,
  SelectOp,
  IndexCastOp,
  IndexCastUIOp,
  SIToFPOp,
  UIToFPOp,
  FPToSIOp,
  FPToUIOp,
  ExtSIOp,
  ExtUIOp,
  TruncIOp,
  ExtFOp,
  TruncFOp,
  BitcastOp,
];

/** Builds an `arith.constant` of `value` (MLIR's `materializeConstant` for arith). */
function materializeConstant(builder: OpBuilder, value: Attribute, type: Type, location: Location): Operation | null {
  const t = value instanceof IntegerAttr || value instanceof FloatAttr || value instanceof DenseElementsAttr ? value.type : undefined;
  if (t !== type) return null;
  return builder.create({ name: 'arith.constant', location, properties: { value }, resultTypes: [type] });
}

/** The `arith` dialect: its ops and the `#arith.overflow` / `#arith.fastmath` attributes. */
export const ArithDialect: Dialect = defineDialect({
  namespace: 'arith',
  operations: ARITH_OPS,
  materializeConstant,
  getCanonicalizationPatterns: () => arithCanonicalizationPatterns(),
  parseAttribute(parser: DialectAsmParser): ParseResult<Attribute> {
    const loc = parser.getCurrentLocation();
    const mnemonic = parser.parseOptionalKeyword(['overflow', 'fastmath']);
    if (mnemonic === null) {
      parser.emitError(DM.expectedEnumKeyword('mnemonic', ['overflow', 'fastmath']), loc);
      return undefined;
    }
    return parseFlagsBody(parser, mnemonic as 'overflow' | 'fastmath');
  },
  printAttribute(attr: Attribute, printer: DialectAsmPrinter): boolean {
    if (attr instanceof OverflowFlagsAttr) printer.print('overflow');
    else if (attr instanceof FastMathFlagsAttr) printer.print('fastmath');
    else return false;
    printFlagsBody(attr, printer);
    return true;
  },
});
