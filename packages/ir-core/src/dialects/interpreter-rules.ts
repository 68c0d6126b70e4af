/**
 * Interpreter rules of the func and arith ops (scalars and tensors/vectors, elementwise), on
 * the interpreter's runtime values: integers up to 32 bits and index as numbers, 64-bit
 * integers as bigint, i1 as 0/1, floats as numbers rounded to their type, shaped values as
 * typed arrays. Integer semantics are exact (computed on bigint, wrapped to the bit width);
 * undefined behavior (division by zero, signed overflow of divsi, over-wide shifts, out of
 * range float-to-int) fails with a diagnostic at the op instead of inventing a value.
 */
import type { Attribute } from '../ir/attribute';
import { DenseElementsAttr, DenseResourceElementsAttr, FloatAttr, IntegerAttr, SymbolRefAttr, wrapIntegerValue } from '../ir/builtin-attributes';
import { FloatType, IndexType, IntegerType } from '../ir/builtin-types';
import type { Operation } from '../ir/operation';
import { getElementTypeOrSelf } from '../ir/traits';
import { Yield, type ExecutionContext, type InterpreterRegistry, type InterpreterRule, type RuleResult } from '../interpreter/interpreter';
import { ShapedValue, wrapInteger, type RuntimeValue } from '../interpreter/runtime-value';
import { FLOAT_BINARY, INT_BINARY, compareFloats, compareIntegers, evaluateCast, intWidth, roundFloat } from './arith-semantics';
import { DM } from './dialect-messages';

type Element = number | bigint;

/**
 * A runtime value from an integer of `type` given as bigint: wrapped exactly on bigint first
 * (products of two i32 exceed 2^53), then number for widths up to 32 and index, bigint above.
 */
function fromBig(type: IntegerType | IndexType, v: bigint): Element {
  const w = wrapIntegerValue(type, v);
  return type instanceof IndexType || type.width <= 32 ? Number(w) : wrapInteger(type, w);
}
const big = (v: Element): bigint => (typeof v === 'bigint' ? v : BigInt(Math.trunc(v)));

/**
 * Applies `fn` elementwise over scalar or shaped operands (shaped ones must share the shape;
 * scalars broadcast, as the condition of `arith.select`). Returns the results or a failure.
 */
function elementwise(
  ctx: ExecutionContext,
  op: Operation,
  operands: readonly RuntimeValue[],
  fn: (args: Element[]) => Element | string,
): RuleResult {
  const resultType = op.getResult(0).type;
  const shaped = operands.find((o): o is ShapedValue => o instanceof ShapedValue);
  if (!shaped) {
    for (const o of operands) if (typeof o !== 'number' && typeof o !== 'bigint') return ctx.fail(op, DM.unsupportedRuntimeValue(op.name));
    const r = fn(operands as Element[]);
    return typeof r === 'string' ? ctx.fail(op, r) : [r];
  }
  const out = ShapedValue.allocate('tensor', getElementTypeOrSelf(resultType), shaped.shape);
  if (!out) return ctx.fail(op, DM.unsupportedRuntimeValue(op.name));
  const arrays = operands.map((o) => (o instanceof ShapedValue ? o.toContiguousArray() : undefined));
  const n = out.numElements;
  const args: Element[] = new Array(operands.length);
  const dst = out.data as unknown as Element[];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < operands.length; k++) {
      const a = arrays[k];
      args[k] = a ? (a[i] as Element) : (operands[k] as Element);
    }
    const r = fn(args);
    if (typeof r === 'string') return ctx.fail(op, r);
    dst[i] = r;
  }
  return [out];
}

function intType(op: Operation, value = 0): IntegerType | IndexType | undefined {
  const t = getElementTypeOrSelf(op.getOperand(value).type);
  return t instanceof IntegerType || t instanceof IndexType ? t : undefined;
}

function intRule(mnemonic: string): InterpreterRule {
  const fn = INT_BINARY[mnemonic]!;
  const what = mnemonic.startsWith('sh') ? 'shift amount out of range' : 'division by zero or signed overflow';
  return (ctx, op, operands) => {
    const t = intType(op);
    if (!t) return ctx.fail(op, DM.unsupportedRuntimeValue(op.name));
    const w = intWidth(t);
    return elementwise(ctx, op, operands, ([a, b]) => {
      const r = fn(big(a!), big(b!), w);
      return r === undefined ? DM.undefinedBehavior(op.name, what) : fromBig(t, r);
    });
  };
}

function floatRule(mnemonic: string): InterpreterRule {
  const fn = FLOAT_BINARY[mnemonic]!;
  return (ctx, op, operands) => {
    const t = getElementTypeOrSelf(op.getResult(0).type);
    if (!(t instanceof FloatType)) return ctx.fail(op, DM.unsupportedRuntimeValue(op.name));
    return elementwise(ctx, op, operands, ([a, b]) => roundFloat(t, fn(Number(a), Number(b))));
  };
}

function predicateOf(op: Operation): number {
  const p = op.getAttr('predicate');
  return p instanceof IntegerAttr ? Number(p.value) : -1;
}

function castRule(mnemonic: string): InterpreterRule {
  return (ctx, op, operands) => {
    const from = getElementTypeOrSelf(op.getOperand(0).type);
    const to = getElementTypeOrSelf(op.getResult(0).type);
    const rm = op.getAttr('roundingmode');
    const mode = rm instanceof IntegerAttr ? Number(rm.value) : undefined;
    return elementwise(ctx, op, operands, ([v]) => {
      const input = from instanceof FloatType ? Number(v) : big(v!);
      const r = evaluateCast(mnemonic, input, from, to, mode);
      if (r === undefined) return DM.undefinedBehavior(op.name, 'value out of range for the result type (poison)');
      if (to instanceof IntegerType || to instanceof IndexType) return fromBig(to, r as bigint);
      return r as number;
    });
  };
}

/** The runtime value of a constant attribute (scalar or dense elements). */
export function constantToRuntimeValue(attr: Attribute): RuntimeValue | undefined {
  if (attr instanceof IntegerAttr) return fromBig(attr.type, attr.value);
  if (attr instanceof FloatAttr) return attr.value;
  if (attr instanceof DenseElementsAttr) {
    const et = attr.elementType;
    const out = ShapedValue.allocate('tensor', et, attr.type.shape);
    if (!out) return undefined;
    const dst = out.data as unknown as Element[];
    for (let i = 0; i < dst.length; i++) {
      dst[i] = et instanceof FloatType ? attr.getNumber(i) : fromBig(et, attr.getBigInt(i));
    }
    return out;
  }
  return undefined;
}

const constantRule: InterpreterRule = (ctx, op) => {
  const v = op.getAttr('value');
  if (v instanceof DenseResourceElementsAttr) return ctx.fail(op, DM.resourceConstantWithoutData(v.handle));
  const r = v ? constantToRuntimeValue(v) : undefined;
  return r === undefined ? ctx.fail(op, DM.unsupportedRuntimeValue(op.name)) : [r];
};

const selectRule: InterpreterRule = (ctx, op, operands) => {
  const [c, a, b] = operands;
  if (!(c instanceof ShapedValue)) return [Number(c) !== 0 ? a! : b!];
  return elementwise(ctx, op, operands, ([x, y, z]) => (Number(x) !== 0 ? y! : z!));
};

/** Every arith and func rule, by op name. */
export const BUILTIN_INTERPRETER_RULES: Readonly<Record<string, InterpreterRule>> = (() => {
  const rules: Record<string, InterpreterRule> = {
    'arith.constant': constantRule,
    'arith.select': selectRule,
    'arith.negf': (ctx, op, operands) => elementwise(ctx, op, operands, ([a]) => -Number(a)),
    'arith.cmpi': (ctx, op, operands) => {
      const t = intType(op);
      if (!t) return ctx.fail(op, DM.unsupportedRuntimeValue(op.name));
      const p = predicateOf(op);
      const w = intWidth(t);
      return elementwise(ctx, op, operands, ([a, b]) => (compareIntegers(p, big(a!), big(b!), w) ? 1 : 0));
    },
    'arith.cmpf': (ctx, op, operands) => {
      const p = predicateOf(op);
      return elementwise(ctx, op, operands, ([a, b]) => (compareFloats(p, Number(a), Number(b)) ? 1 : 0));
    },
    'func.return': (_ctx, _op, operands) => new Yield(operands),
    'func.call': (ctx, op, operands) => {
      const callee = op.getAttr('callee');
      if (!(callee instanceof SymbolRefAttr)) return ctx.fail(op, DM.calleeMissingAttr);
      const r = ctx.call(op, callee, operands);
      return r;
    },
  };
  for (const m of Object.keys(INT_BINARY)) rules[`arith.${m}`] = intRule(m);
  for (const m of Object.keys(FLOAT_BINARY)) rules[`arith.${m}`] = floatRule(m);
  for (const m of ['index_cast', 'index_castui', 'sitofp', 'uitofp', 'fptosi', 'fptoui', 'extsi', 'extui', 'trunci', 'extf', 'truncf', 'bitcast']) {
    rules[`arith.${m}`] = castRule(m);
  }
  return rules;
})();

/**
 * Registers the func and arith interpreter rules (`func.call_indirect` is not supported: there
 * are no function values at run time).
 *
 * @example
 * ```ts
 * const registry = new InterpreterRegistry();
 * registerBuiltinInterpreterRules(registry);
 * new Interpreter(registry).runFunction(module, 'clamp', [7]); // { ok: true, values: [29] }
 * ```
 */
export function registerBuiltinInterpreterRules(registry: InterpreterRegistry): void {
  registry.registerAll(BUILTIN_INTERPRETER_RULES);
}

