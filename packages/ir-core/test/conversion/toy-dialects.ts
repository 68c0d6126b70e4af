import {
  AnySignlessInteger,
  ConversionTarget,
  I32,
  I64,
  I64Attr,
  IntegerType,
  MLIRContext,
  Traits,
  TypeConverter,
  anyRegion,
  createConversionPattern,
  defineDialect,
  defineOp,
  prop,
  registerBuiltinDialects,
  single,
  variadic,
  type AnyConversionPattern,
  type Dialect,
} from '../../src';

// The source dialect: `toy` ops on i32.

/** `toy.const`: an i32 constant. */
export const ToyConstOp = defineOp({
  name: 'toy.const',
  attributes: { value: prop(I64Attr) },
  results: { result: single(I32) },
  traits: [Traits.Pure],
});
/** `toy.add`. */
export const ToyAddOp = defineOp({
  name: 'toy.add',
  operands: { lhs: single(AnySignlessInteger), rhs: single(AnySignlessInteger) },
  results: { result: single(AnySignlessInteger) },
  traits: [Traits.Pure],
});
/** `toy.neg`: dynamically legal on i64 (illegal on i32). */
export const ToyNegOp = defineOp({
  name: 'toy.neg',
  operands: { input: single(AnySignlessInteger) },
  results: { result: single(AnySignlessInteger) },
  traits: [Traits.Pure],
});
/** `toy.mystery`: illegal and no pattern converts it. */
export const ToyMysteryOp = defineOp({
  name: 'toy.mystery',
  operands: { inputs: variadic() },
  results: { result: single(I32) },
});
/** `toy.func`: a body whose entry block binds i32 arguments. */
export const ToyFuncOp = defineOp({
  name: 'toy.func',
  regions: { body: anyRegion() },
  traits: [Traits.IsolatedFromAbove],
});
/** `toy.return`. */
export const ToyReturnOp = defineOp({
  name: 'toy.return',
  operands: { values: variadic() },
  traits: [Traits.IsTerminator],
});
/** The toy dialect. */
export const ToyDialect: Dialect = defineDialect({
  namespace: 'toy',
  operations: [ToyConstOp, ToyAddOp, ToyNegOp, ToyMysteryOp, ToyFuncOp, ToyReturnOp],
});

// The target dialect: `low` ops on i64.

/** `low.const`. */
export const LowConstOp = defineOp({
  name: 'low.const',
  attributes: { value: prop(I64Attr) },
  results: { result: single(I64) },
  traits: [Traits.Pure],
});
/** `low.add`. */
export const LowAddOp = defineOp({
  name: 'low.add',
  operands: { lhs: single(I64), rhs: single(I64) },
  results: { result: single(I64) },
  traits: [Traits.Pure],
});
/** `low.neg`. */
export const LowNegOp = defineOp({
  name: 'low.neg',
  operands: { input: single(I64) },
  results: { result: single(I64) },
  traits: [Traits.Pure],
});
/** `low.trunc`: i64 -> i32 (a user source materialization). */
export const LowTruncOp = defineOp({
  name: 'low.trunc',
  operands: { input: single(I64) },
  results: { result: single(I32) },
  traits: [Traits.Pure],
});
/** `low.func`. */
export const LowFuncOp = defineOp({
  name: 'low.func',
  regions: { body: anyRegion() },
  traits: [Traits.IsolatedFromAbove],
});
/** `low.return`. */
export const LowReturnOp = defineOp({
  name: 'low.return',
  operands: { values: variadic() },
  traits: [Traits.IsTerminator],
});
/** The low dialect. */
export const LowDialect: Dialect = defineDialect({
  namespace: 'low',
  operations: [LowConstOp, LowAddOp, LowNegOp, LowTruncOp, LowFuncOp, LowReturnOp],
});

/** A context with builtin, toy and low registered (and unregistered `other.*` ops allowed). */
export function toyContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerBuiltinDialects(ctx);
  ctx.registerDialect(ToyDialect);
  ctx.registerDialect(LowDialect);
  ctx.allowUnregisteredDialects = true;
  return ctx;
}

/** i32 -> i64; everything else unchanged. */
export function toyTypeConverter(ctx: MLIRContext): TypeConverter {
  const i32 = IntegerType.get(ctx, 32);
  const i64 = IntegerType.get(ctx, 64);
  return new TypeConverter().addConversion((t) => t).addConversion((t) => (t === i32 ? i64 : undefined));
}

/** toy illegal (toy.neg legal on i64), low and builtin legal. */
export function toyTarget(ctx: MLIRContext): ConversionTarget {
  const i64 = IntegerType.get(ctx, 64);
  return new ConversionTarget()
    .addLegalDialect('low', 'builtin')
    .addIllegalDialect(ToyDialect)
    .addDynamicallyLegalOp(ToyNegOp, (op) => ToyNegOp.get(op).input.type === i64);
}

/** The toy-to-low patterns (none for `toy.mystery`). */
export function toyPatterns(tc: TypeConverter): AnyConversionPattern[] {
  return [
    createConversionPattern(
      ToyConstOp,
      (op, _adaptor, rw) => {
        const c = LowConstOp.build(rw, { value: op.value, result: rw.convertType(op.result.type)! }, op.location);
        rw.replaceOp(op.op, [c.result]);
        return true;
      },
      { typeConverter: tc },
    ),
    createConversionPattern(
      ToyAddOp,
      (op, adaptor, rw) => {
        const t = rw.convertType(op.result.type);
        if (!t) return false;
        rw.replaceOp(op.op, [LowAddOp.build(rw, { lhs: adaptor.lhs, rhs: adaptor.rhs, result: t }, op.location).result]);
        return true;
      },
      { typeConverter: tc },
    ),
    createConversionPattern(
      ToyNegOp,
      (op, adaptor, rw) => {
        rw.replaceOp(op.op, [LowNegOp.build(rw, { input: adaptor.input, result: rw.convertType(op.result.type)! }, op.location).result]);
        return true;
      },
      { typeConverter: tc },
    ),
    createConversionPattern(
      ToyFuncOp,
      (op, _adaptor, rw) => {
        if (!rw.convertRegionTypes(op.body, tc)) return false;
        const f = LowFuncOp.build(rw, {}, op.location);
        rw.inlineRegionBefore(op.body, f.body, null);
        rw.eraseOp(op.op);
        return true;
      },
      { typeConverter: tc },
    ),
    createConversionPattern(
      ToyReturnOp,
      (op, adaptor, rw) => {
        LowReturnOp.build(rw, { values: adaptor.values }, op.location);
        rw.eraseOp(op.op);
        return true;
      },
      { typeConverter: tc },
    ),
  ];
}
