// The conversion example of README.md ("Dialect conversion"), kept runnable here.
import {
  ConversionTarget,
  I32,
  I64,
  IntegerType,
  MLIRContext,
  Traits,
  TypeConverter,
  applyFullConversion,
  createConversionPattern,
  defineDialect,
  defineOp,
  parseSourceString,
  printOperation,
  registerBuiltinDialects,
  markFuncOpsDynamicallyLegal,
  populateFuncTypeConversionPatterns,
  single,
} from '../../src';

test('README conversion example', () => {
  // --- README example start
  const WideOp = defineOp({ name: 'src.wide', operands: { input: single(I32) }, results: { result: single(I32) }, traits: [Traits.Pure] });
  const NarrowOp = defineOp({ name: 'dst.narrow', operands: { input: single(I64) }, results: { result: single(I64) }, traits: [Traits.Pure] });

  const ctx = new MLIRContext();
  registerBuiltinDialects(ctx);
  ctx.registerDialect(defineDialect({ namespace: 'src', operations: [WideOp] }));
  ctx.registerDialect(defineDialect({ namespace: 'dst', operations: [NarrowOp] }));
  const module = parseSourceString(ctx, `
    func.func @f(%x: i32) -> i32 {
      %y = "src.wide"(%x) : (i32) -> i32
      return %y : i32
    }`)!;

  // i32 becomes i64; every other type stays.
  const i32 = IntegerType.get(ctx, 32);
  const typeConverter = new TypeConverter()
    .addConversion((t) => t)
    .addConversion((t) => (t === i32 ? IntegerType.get(ctx, 64) : undefined));
  // src is illegal, dst legal; func ops are legal once their types are.
  const target = new ConversionTarget().addLegalDialect('dst', 'builtin').addIllegalDialect('src');
  markFuncOpsDynamicallyLegal(target, typeConverter);
  const lowerWide = createConversionPattern(
    WideOp,
    (op, adaptor, rewriter) => {
      const type = rewriter.convertType(op.result.type);
      if (!type) return false;
      rewriter.replaceOp(op.op, [NarrowOp.build(rewriter, { input: adaptor.input, result: type }, op.location).result]);
      return true;
    },
    { typeConverter },
  );
  const result = applyFullConversion(module, target, [lowerWide, ...populateFuncTypeConversionPatterns(typeConverter)]);
  console.log(printOperation(module));
  // func.func @f(%arg0: i64) -> i64 {
  //   %0 = "dst.narrow"(%arg0) : (i64) -> i64
  //   return %0 : i64
  // }

  // Without the func patterns the signature stays i32: the casts that connect it to the
  // converted op remain, a full conversion rejects them and leaves the module as it was.
  const again = parseSourceString(ctx, printOperation(module).replaceAll('i64', 'i32').replace('dst.narrow', 'src.wide'))!;
  const failed = applyFullConversion(again, target, [lowerWide]);
  console.log(failed.success, failed.failures.map((f) => f.message));
  // false [ "failed to legalize operation 'func.func'", ... ]
  // --- README example end
  expect(result.success).toBe(true);
  expect(printOperation(module)).toBe(
    ['module {', '  func.func @f(%arg0: i64) -> i64 {', '    %0 = "dst.narrow"(%arg0) : (i64) -> i64', '    return %0 : i64', '  }', '}', ''].join('\n'),
  );
  expect(failed.success).toBe(false);
  expect(failed.failures.map((f) => f.message)).toEqual([
    "failed to legalize operation 'func.func'",
    "failed to legalize unresolved materialization from ('i32') to ('i64') that remained live after conversion",
    "failed to legalize unresolved materialization from ('i64') to ('i32') that remained live after conversion",
    "failed to legalize operation 'func.return'",
  ]);
  expect(printOperation(again)).toContain('"src.wide"');
});
