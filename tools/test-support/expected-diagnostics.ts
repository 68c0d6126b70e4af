/**
 * The expected-diagnostics harness every package's `invalid.test.ts` uses: a fixture of cases
 * split by `// -----`, each with `// expected-error@+1 {{...}}` directives, is checked like
 * `mlir-opt --split-input-file --verify-diagnostics [--pass-pipeline=...]`: every case must
 * produce exactly its expected diagnostics. Workspace test support, not a published package.
 *
 * ```ts
 * describeExpectedDiagnostics('spat verifier diagnostics', path.join(__dirname, 'fixtures/invalid.mlir'), {
 *   makeContext,
 *   allowUnregisteredDialects: true,
 * });
 * // a stage's pass:
 * describeExpectedDiagnostics('spat-plan-layouts diagnostics', file, {
 *   makeContext,
 *   run: passPipelineRunner('builtin.module(spat-plan-layouts)', registerLayoutPlannerPasses),
 * });
 * ```
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  PassRegistry,
  parsePassPipeline,
  parseSourceString,
  splitInputFile,
  verify,
  verifyDiagnostics,
  type Diagnostic,
  type InputChunk,
  type MLIRContext,
  type Operation,
} from '@raptor-pim/ir-core';

/** How the cases of a fixture are checked. */
export interface ExpectedDiagnosticsOptions {
  /** A fresh context for each case, with the dialects the fixture uses. */
  makeContext(): MLIRContext;
  /** Accept ops of unregistered dialects (`test.*` standing for any op), like `--allow-unregistered-dialect`. */
  readonly allowUnregisteredDialects?: boolean;
  /**
   * What runs on a case after it parsed (default: the verifier). A stage passes
   * {@link passPipelineRunner} to check the diagnostics of its passes.
   */
  readonly run?: (module: Operation, context: MLIRContext) => void;
  /**
   * The test title of a case (default: its first `// ` comment that is not a directive or a
 * `// pipeline:` line, else
   * its first expected message, else `case N`); ` (line N)` is appended.
   */
  readonly caseTitle?: (chunk: InputChunk, index: number) => string;
  /** Every case must contain an `expected-*` directive (default true: a case expecting nothing checks nothing). */
  readonly requireExpectations?: boolean;
}

/** The default case title (see {@link ExpectedDiagnosticsOptions.caseTitle}). */
export function defaultCaseTitle(chunk: InputChunk, index: number): string {
  const lines = chunk.text.split('\n');
  const comment = lines.find((l) => /^\/\/ \S/.test(l) && !l.includes('expected-') && !l.startsWith('// -----') && !l.startsWith('// pipeline:'));
  if (comment) return comment.slice(3).trim();
  const expected = lines.map((l) => /expected-(?:error|warning|remark|note)[^{]*\{\{(.*)\}\}/.exec(l)?.[1]).find((m) => m !== undefined);
  return expected !== undefined ? expected.slice(0, 70) : `case ${index + 1}`;
}

/** A case title made of its number and first expected message (`case 3: 'scf.for' op ...`). */
export function expectedMessageTitle(chunk: InputChunk, index: number): string {
  const line = chunk.text.split('\n').find((l) => /expected-error/.test(l)) ?? '';
  return `case ${index + 1}: ${line.replace(/.*\{\{/, '').replace(/\}\}.*/, '').slice(0, 70)}`;
}

/**
 * Checks one case: parses it (file name `fileName`, lines offset as in the whole file), runs
 * `options.run` (default: verify) and returns the problems: unexpected diagnostics and
 * expected ones that were not produced. Empty means the case passes.
 */
export function checkExpectedDiagnostics(fileName: string, chunk: InputChunk, options: ExpectedDiagnosticsOptions): Diagnostic[] {
  const ctx = options.makeContext();
  if (options.allowUnregisteredDialects) ctx.allowUnregisteredDialects = true;
  const run = options.run ?? ((m: Operation) => void verify(m));
  const { problems } = verifyDiagnostics(
    ctx,
    fileName,
    chunk.text,
    () => {
      const m = parseSourceString(ctx, chunk.text, { filename: fileName, lineOffset: chunk.lineOffset });
      if (m) run(m, ctx);
    },
    chunk.lineOffset,
  );
  return problems;
}

/**
 * Declares a jest `describe` block with one test per `// -----` case of `file`; each test
 * fails with the problems of {@link checkExpectedDiagnostics}.
 */
export function describeExpectedDiagnostics(title: string, file: string, options: ExpectedDiagnosticsOptions): void {
  const fileName = path.basename(file);
  const chunks = splitInputFile(fs.readFileSync(file, 'utf8'));
  const titleOf = options.caseTitle ?? defaultCaseTitle;
  describe(title, () => {
    chunks.forEach((chunk, i) => {
      it(`${titleOf(chunk, i)} (line ${chunk.lineOffset + 1})`, () => {
        if (options.requireExpectations ?? true) expect(chunk.text).toMatch(/expected-(error|warning|remark|note)/);
        expect(checkExpectedDiagnostics(fileName, chunk, options).map((d) => d.message)).toEqual([]);
      });
    });
  });
}

/**
 * A {@link ExpectedDiagnosticsOptions.run} that verifies the case and runs `pipeline` on it
 * with the passes `register` adds (as `mlir-opt --pass-pipeline=... --verify-diagnostics`).
 * A pipeline that does not parse is reported as a diagnostic of the case.
 */
export function passPipelineRunner(pipeline: string, register: (registry: PassRegistry) => void): (module: Operation, context: MLIRContext) => void {
  return (module, context) => {
    if (!verify(module)) return;
    const registry = new PassRegistry();
    register(registry);
    parsePassPipeline(context, pipeline, registry)?.run(module);
  };
}
