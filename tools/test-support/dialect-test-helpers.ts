/**
 * Test helpers shared by the dialect packages' suites (spatial-dialect, pim-dialect): parse and
 * verify in a context with one dialect registered, print custom/generic forms, and compare the
 * reference's examples with printed output. Workspace test support, not a published package.
 */
import { MLIRContext, parseSourceString, printOperation, verify, type Diagnostic, type Operation, type ParseOptions, type PrintOptions } from '@raptor-pim/ir-core';

/** The helpers for one dialect (see {@link dialectTestHelpers}). */
export interface DialectTestHelpers {
  /** A context with the dialect and everything it registers. */
  makeContext(): MLIRContext;
  /** Parses and verifies `text`; returns the module or the diagnostics. */
  tryParse(text: string, ctx?: MLIRContext, options?: ParseOptions): { module?: Operation; diagnostics: readonly Diagnostic[] };
  /** Parses and verifies `text`, failing the test with the diagnostics otherwise. */
  parseVerified(text: string, ctx?: MLIRContext, options?: ParseOptions): Operation;
  /** Parses and verifies `text` keeping the source names of SSA values (`%lane`, `%w`). */
  parseRetained(text: string, ctx?: MLIRContext): Operation;
}

/** Helpers for the dialect that `register` adds to a context. */
export function dialectTestHelpers(register: (ctx: MLIRContext) => void): DialectTestHelpers {
  const makeContext = (): MLIRContext => {
    const ctx = new MLIRContext();
    register(ctx);
    return ctx;
  };
  const tryParse = (text: string, ctx = makeContext(), options: ParseOptions = {}): { module?: Operation; diagnostics: readonly Diagnostic[] } => {
    const { result, diagnostics } = ctx.diagnostics.capture(() => {
      const m = parseSourceString(ctx, text, options);
      return m && verify(m) ? m : undefined;
    });
    return { module: result, diagnostics };
  };
  const parseVerified = (text: string, ctx = makeContext(), options: ParseOptions = {}): Operation => {
    const { module, diagnostics } = tryParse(text, ctx, options);
    expect(diagnostics.map((d) => d.message)).toEqual([]);
    return module!;
  };
  const parseRetained = (text: string, ctx = makeContext()): Operation => parseVerified(text, ctx, { retainIdentifierNames: true });
  return { makeContext, tryParse, parseVerified, parseRetained };
}

/** Custom form with inline attributes (the reference writes them inline). */
export function printCustom(op: Operation, options: PrintOptions = {}): string {
  return printOperation(op, { ...options, localScope: true });
}

/** Generic form with inline attributes. */
export function printGeneric(op: Operation, options: PrintOptions = {}): string {
  return printOperation(op, { ...options, generic: true, localScope: true });
}

/**
 * The lines of `text` without their leading indentation (the reference prints region bodies
 * flush left, our printer indents them by 2 per level as mlir-opt does) and without the final
 * newline.
 */
export function unindentedLines(text: string): string[] {
  return text
    .replace(/\n+$/, '')
    .split('\n')
    .map((l) => l.replace(/^ +/, ''));
}

/**
 * Expects the lines of `example` to occur, byte for byte up to leading indentation, as
 * consecutive lines of `printed`; on failure the report shows the closest window.
 */
export function expectConsecutiveLines(printed: string, example: string): void {
  const lines = unindentedLines(printed);
  const want = unindentedLines(example);
  const joined = want.join('\n');
  for (let i = lines.indexOf(want[0]!); i >= 0; i = lines.indexOf(want[0]!, i + 1))
    if (lines.slice(i, i + want.length).join('\n') === joined) return;
  const start = lines.indexOf(want[0]!);
  if (start < 0) expect(lines).toContain(want[0]);
  expect(lines.slice(start, start + want.length).join('\n')).toBe(joined);
}

/**
 * The case text of a fixture as the printer should give it back: `// ...` comment lines and
 * blank lines dropped, wrapped in `module {` ... `}`, leading indentation removed.
 */
export function expectedModuleLines(caseText: string): string[] {
  const body = caseText.split('\n').filter((l) => l.trim() !== '' && !/^\s*\/\//.test(l));
  return unindentedLines(['module {', ...body, '}'].join('\n'));
}
