/** Test helpers: a context with pim and every dialect its programs use; parse + verify. */
import { MLIRContext, parseSourceString, printOperation, verify, type Diagnostic, type Operation } from '@raptor-pim/ir-core';
import { registerPimDialect } from '../src';

/** A context with pim, builtin/func/arith, affine, tensor, scf and memref. */
export function makeContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerPimDialect(ctx);
  return ctx;
}

/** Parses and verifies `text`; returns the module or the diagnostics. */
export function tryParse(text: string, ctx = makeContext()): { module?: Operation; diagnostics: readonly Diagnostic[] } {
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text);
    return m && verify(m) ? m : undefined;
  });
  return { module: result, diagnostics };
}

/** Parses and verifies `text`, failing the test with the diagnostics otherwise. */
export function parseVerified(text: string, ctx = makeContext()): Operation {
  const { module, diagnostics } = tryParse(text, ctx);
  expect(diagnostics.map((d) => d.message)).toEqual([]);
  return module!;
}

/** Custom form. */
export function printCustom(op: Operation): string {
  return printOperation(op, { localScope: true });
}

/** Generic form. */
export function printGeneric(op: Operation): string {
  return printOperation(op, { generic: true, localScope: true });
}
