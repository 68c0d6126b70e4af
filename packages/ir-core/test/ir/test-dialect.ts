import {
  AnySignlessInteger,
  BranchOpInterface,
  DenseArrayAttr,
  I32,
  I64Attr,
  IntegerAttr,
  IntegerType,
  MLIRContext,
  OpBuilder,
  StrAttr,
  Traits,
  anyRegion,
  defineDialect,
  defineOp,
  implement,
  optProp,
  optional,
  prop,
  single,
  successor,
  variadic,
  type Attribute,
  type Dialect,
} from '../../src';
import { TestLoc } from './helpers';


/** `test.const`: a constant i32 (property `value`). */
export const ConstOp = defineOp({
  name: 'test.const',
  summary: 'integer constant',
  attributes: { value: prop(I64Attr) },
  results: { result: single(AnySignlessInteger) },
  traits: [Traits.Pure, Traits.ConstantLike],
  fold: (op) => [op.value],
});

/** `test.add`: integer addition (folds constants, x + 0 -> x). */
export const AddOp = defineOp({
  name: 'test.add',
  operands: { lhs: single(AnySignlessInteger), rhs: single(AnySignlessInteger) },
  results: { result: single(AnySignlessInteger) },
  traits: [Traits.Pure, Traits.Commutative, Traits.SameOperandsAndResultType],
  fold(op, [l, r]) {
    if (l instanceof IntegerAttr && r instanceof IntegerAttr) return [IntegerAttr.get(l.type, l.value + r.value)];
    if (r instanceof IntegerAttr && r.value === 0n) return [op.lhs];
    return null;
  },
});

/** `test.mul`: integer multiplication. */
export const MulOp = defineOp({
  name: 'test.mul',
  operands: { lhs: single(AnySignlessInteger), rhs: single(AnySignlessInteger) },
  results: { result: single(AnySignlessInteger) },
  traits: [Traits.Pure, Traits.SameOperandsAndResultType],
});

/** `test.seg`: three operand groups with segment sizes. */
export const SegOp = defineOp({
  name: 'test.seg',
  operands: { a: single(I32), b: variadic(I32), c: optional(I32) },
  attributes: { tag: optProp(StrAttr) },
});

/** `test.print`: a side-effecting sink. */
export const PrintOp = defineOp({ name: 'test.print', operands: { values: variadic() } });

/** `test.func`: a function-like symbol. */
export const FuncOp = defineOp({
  name: 'test.func',
  attributes: { sym_name: prop(StrAttr) },
  regions: { body: anyRegion() },
  traits: [Traits.IsolatedFromAbove, Traits.Symbol],
});

/** `test.return`: terminator of `test.func`. */
export const ReturnOp = defineOp({
  name: 'test.return',
  operands: { values: variadic() },
  traits: [Traits.IsTerminator, Traits.ReturnLike, Traits.HasParent('test.func')],
});

/** `test.br`: unconditional branch forwarding its operands. */
export const BrOp = defineOp({
  name: 'test.br',
  operands: { args: variadic() },
  successors: { dest: successor() },
  traits: [Traits.IsTerminator],
  interfaces: [implement(BranchOpInterface, { getSuccessorOperands: (op) => op.operands })],
});

/** `test.cond_br`: conditional branch (no forwarded operands). */
export const CondBrOp = defineOp({
  name: 'test.cond_br',
  operands: { cond: single() },
  successors: { t: successor(), f: successor() },
  traits: [Traits.IsTerminator],
});

/** `test.module`: a symbol table without terminator. */
export const ModuleOp = defineOp({
  name: 'test.module',
  regions: { body: anyRegion() },
  traits: [Traits.IsolatedFromAbove, Traits.SymbolTable, Traits.NoTerminator, Traits.SingleBlock],
});

/** `test.graph`: a graph region. */
export const GraphOp = defineOp({
  name: 'test.graph',
  regions: { body: anyRegion() },
  traits: [Traits.HasOnlyGraphRegion, Traits.NoTerminator, Traits.SingleBlock],
});

/** The `test` dialect (materializes constants as `test.const`). */
export const TestDialect: Dialect = defineDialect({
  namespace: 'test',
  operations: [ConstOp, AddOp, MulOp, SegOp, PrintOp, FuncOp, ReturnOp, BrOp, CondBrOp, ModuleOp, GraphOp],
  materializeConstant(builder: OpBuilder, value: Attribute, type, location) {
    if (!(value instanceof IntegerAttr)) return null;
    return ConstOp.build(builder, { value: IntegerAttr.get(IntegerType.get(builder.context, 64), value.value), result: type }, location).op;
  },
});

/** A context with the test dialect and helpers. */
export function testContext() {
  const ctx = new MLIRContext();
  ctx.registerDialect(TestDialect);
  const i32 = IntegerType.get(ctx, 32);
  const i64 = IntegerType.get(ctx, 64);
  const loc = (label = 'x') => new TestLoc(ctx, label);
  const int = (v: number) => IntegerAttr.get(i64, v);
  const b = new OpBuilder(ctx);
  return { ctx, i32, i64, loc, int, b, seg: (xs: number[]) => DenseArrayAttr.i32(ctx, xs) };
}
