import * as core from '@raptor-pim/ir-core';
import {
  MLIRContext,
  parseSourceString,
  printAttribute,
  printOperationForDiagnostic,
  printType,
  setDiagnosticFormatters,
  verify,
  type Dialect,
  type Operation,
} from '@raptor-pim/ir-core';
import { MemRefDialect } from '@raptor-pim/upstream-dialects';

type Register = (ctx: MLIRContext) => void;
const exported = core as unknown as { registerBuiltinDialects?: Register; FuncDialect?: Dialect; ArithDialect?: Dialect };
/**
 * Registers func and arith from ir-core when its public API has them. The builtin dialect is
 * deliberately not registered: with it, ir-core's printer currently prints `builtin.module {`
 * where MLIR prints `module {` (reported to the ir-core owner); unregistered, ir-core parses and
 * prints the module as MLIR does.
 */
export const registerBuiltin: Register | undefined =
  exported.FuncDialect && exported.ArithDialect
    ? (ctx) => {
        ctx.registerDialect(exported.FuncDialect!);
        ctx.registerDialect(exported.ArithDialect!);
      }
    : undefined;

/** A context with memref (and func/arith when available; else unregistered ops allowed). */
export function makeContext(): MLIRContext {
  setDiagnosticFormatters(printType, printAttribute, printOperationForDiagnostic);
  const ctx = new MLIRContext();
  ctx.registerDialect(MemRefDialect);
  if (registerBuiltin) registerBuiltin(ctx);
  ctx.allowUnregisteredDialects = true;
  return ctx;
}

/** Parses and verifies `text`; fails the test with the diagnostics otherwise. */
export function parseVerified(text: string, ctx = makeContext()): Operation {
  const { result, diagnostics } = ctx.diagnostics.capture(() => parseSourceString(ctx, text));
  expect(diagnostics.map((d) => d.message)).toEqual([]);
  const v = ctx.diagnostics.capture(() => verify(result!));
  expect(v.diagnostics.map((d) => d.message)).toEqual([]);
  return result!;
}

/**
 * Known ir-core type-parser difference (reported to its owner): MLIR drops an explicit integer
 * memory space 0 (`memref<4xf32, 0>` is `memref<4xf32>`); ir-core keeps it.
 */
export const dropSpace0 = (s: string): string => s.replace(/(memref<[^<>]*), 0>/g, '$1>');
