import {
  MLIRContext,
  parseSourceString,
  printOperation,
  verify,
  type Operation,
} from '@raptor-pim/ir-core';
import { registerUpstreamDialects } from '@raptor-pim/upstream-dialects';

/** A context with every dialect of the package (and builtin/func/arith). */
export function makeContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerUpstreamDialects(ctx);
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

/** Custom and generic text of `text` after a parse/verify. */
export function roundTrip(text: string): { custom: string; generic: string } {
  const m = parseVerified(text);
  return { custom: printOperation(m), generic: printOperation(m, { generic: true }) };
}
