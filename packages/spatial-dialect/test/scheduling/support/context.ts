// Test support for the scheduling ops: a context with the full `spat` dialect (and builtin,
// func, arith, affine, tensor, scf, memref), unregistered `test.*` ops allowed for free values,
// and an interpreter registry with every spat rule plus `test.keep` (a no-op use).
import {
  FloatType,
  Interpreter,
  InterpreterRegistry,
  MLIRContext,
  ShapedValue,
  parseSourceString,
  verify,
  type Operation,
  type RunResult,
  type RuntimeValue,
} from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '../../../src/ir/dialect';
import { registerAllSpatialInterpreterRules } from '../../../src/interpreter/register';

/** A context with the spat dialect and what its bodies use; unregistered ops allowed. */
export function makeContext(): MLIRContext {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  registerSpatialDialect(ctx);
  return ctx;
}

/** A registry with all spat rules (and builtin/upstream ones) plus `test.keep`. */
export function makeRegistry(): InterpreterRegistry {
  const r = new InterpreterRegistry();
  registerAllSpatialInterpreterRules(r);
  r.register('test.keep', () => []);
  return r;
}

/** Parses (and verifies unless `verifyIt` is false); returns the module or the diagnostics. */
export function parse(ctx: MLIRContext, text: string, verifyIt = true): { module?: Operation; errors: string[] } {
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text, { filename: 'test.mlir' });
    return m && (!verifyIt || verify(m)) ? m : undefined;
  });
  return { module: result, errors: diagnostics.map((d) => d.message) };
}

/** An f32 tensor value of `shape` with `data`. */
export function tensor(ctx: MLIRContext, shape: number[], data: number[]): ShapedValue {
  return new ShapedValue('tensor', FloatType.get(ctx, 'f32'), shape, Float32Array.from(data));
}

/** Runs `@name` of `module` with `args`. */
export function run(module: Operation, name: string, args: readonly unknown[]): RunResult {
  return new Interpreter(makeRegistry()).runFunction(module, name, args as readonly RuntimeValue[]);
}
