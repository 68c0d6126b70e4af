import * as fs from 'node:fs';
import * as path from 'node:path';
import { MLIRContext, parseSourceString, printOperation, verify, type Diagnostic, type Operation, type PrintOptions } from '@raptor-pim/ir-core';
import { registerBuiltinDialects } from '../../src/dialects/index';

/** The round-trip corpus: mlir-opt 22's own output for the files in `sources/`. */
export const CORPUS_DIR = path.resolve(__dirname, '../fixtures/corpus');

/** One corpus file and the printing mode it is written in. */
export interface CorpusFile {
  readonly name: string;
  readonly text: string;
  /** Written in the generic form (`*.generic.mlir`). */
  readonly generic: boolean;
  /** Written with locations (`*.debuginfo.mlir`). */
  readonly debugInfo: boolean;
}

/** Every corpus file (top level of the corpus folder), sorted by name. */
export function loadCorpus(): CorpusFile[] {
  return fs
    .readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.mlir'))
    .sort()
    .map((name) => ({
      name,
      text: fs.readFileSync(path.join(CORPUS_DIR, name), 'utf8'),
      generic: name.includes('.generic.'),
      debugInfo: name.includes('.debuginfo.'),
    }));
}

/** A context with the builtin dialects registered and unregistered ops allowed. */
export function newContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerBuiltinDialects(ctx);
  ctx.allowUnregisteredDialects = true;
  return ctx;
}

/** Parses and verifies `text`; returns the module and every diagnostic emitted. */
export function parseAndVerify(text: string, filename: string): { module: Operation | undefined; diagnostics: Diagnostic[] } {
  const ctx = newContext();
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text, { filename });
    return m && verify(m) ? m : undefined;
  });
  return { module: result, diagnostics };
}

/** Prints like `mlir-opt` writes a file (its extra final newline included). */
export function printAsTool(module: Operation, options: PrintOptions): string {
  return printOperation(module, options) + '\n';
}

/** Renders diagnostics as `line:col: message` for readable assertion failures. */
export function describe(diags: readonly Diagnostic[]): string[] {
  return diags.map((d) => {
    const loc = d.location as unknown as { line?: number; column?: number };
    return `${loc.line ?? '?'}:${loc.column ?? '?'}: ${d.message}`;
  });
}
