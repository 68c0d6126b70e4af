/** The runnable example of the memref example in README.md. */
import {
  ArithDialect,
  FuncDialect,
  Interpreter,
  InterpreterRegistry,
  MLIRContext,
  parseSourceString,
  printOperation,
  registerBuiltinInterpreterRules,
  verify,
} from '@raptor-pim/ir-core';
import { MemRefDialect, registerMemRefInterpreterRules } from '@raptor-pim/upstream-dialects';

it('the docs example parses, verifies, prints and runs', () => {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  ctx.registerDialect(FuncDialect);
  ctx.registerDialect(ArithDialect);
  ctx.registerDialect(MemRefDialect);
  const module = parseSourceString(
    ctx,
    `
func.func @main() -> f32 {
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<2x4xf32>
  %v = arith.constant 2.5 : f32
  memref.store %v, %m[%c1, %c1] : memref<2x4xf32>
  %s = memref.subview %m[1, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  %x = memref.load %s[%c1] : memref<4xf32, strided<[1], offset: 4>>
  memref.dealloc %m : memref<2x4xf32>
  return %x : f32
}`,
  )!;
  expect(verify(module)).toBe(true);
  expect(printOperation(module, { generic: true })).toContain('"memref.subview"');
  const registry = new InterpreterRegistry();
  registerBuiltinInterpreterRules(registry);
  registerMemRefInterpreterRules(registry);
  const r = new Interpreter(registry).runFunction(module, 'main', []);
  expect(r).toEqual({ ok: true, values: [2.5] });
});
