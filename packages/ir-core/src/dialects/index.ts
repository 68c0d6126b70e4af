/**
 * The dialects every Raptor context starts with: builtin, func and arith.
 */
import type { MLIRContext } from '../ir/context';
import { setDiagnosticFormatters } from '../ir/format-hooks';
import { printAttribute, printOperationForDiagnostic, printType } from '../syntax/printer';
import { ArithDialect } from './arith';
import { BuiltinDialect } from './builtin';
import { FuncDialect } from './func';

/**
 * Registers the `builtin`, `func` and `arith` dialects in `context` (idempotent), and installs
 * the syntax printer as the renderer of types, attributes and operations in diagnostics.
 *
 * @example
 * ```ts
 * const ctx = new MLIRContext();
 * registerBuiltinDialects(ctx);
 * const module = parseSourceString(ctx, 'func.func @f() { return }');
 * ```
 */
export function registerBuiltinDialects(context: MLIRContext): void {
  // Diagnostics render types, attributes and operations as MLIR prints them.
  setDiagnosticFormatters(printType, printAttribute, printOperationForDiagnostic);
  context.operationPrinter ??= printOperationForDiagnostic;
  context.registerDialect(BuiltinDialect);
  context.registerDialect(FuncDialect);
  context.registerDialect(ArithDialect);
}

export { BuiltinDialect, ModuleOp, UnrealizedConversionCastOp, BUILTIN_OPS } from './builtin';
export { FuncDialect, FuncOp, ReturnOp, CallOp, CallIndirectOp, FUNC_OPS } from './func';
export * from './arith';
export * from './arith-attributes';
export { arithCanonicalizationPatterns } from './arith-canonicalize';
export { INT_BINARY, FLOAT_BINARY, compareIntegers, compareFloats, evaluateCast, roundFloat } from './arith-semantics';
export type { ScalarValue, IntBinaryFn, FloatBinaryFn } from './arith-semantics';
export { registerBuiltinInterpreterRules, BUILTIN_INTERPRETER_RULES, constantToRuntimeValue } from './interpreter-rules';
