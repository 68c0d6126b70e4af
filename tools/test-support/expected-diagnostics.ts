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
  Diagnostic,
  PassRegistry,
  UnknownLoc,
  parsePassPipeline,
  parseSourceString,
  printOperation,
  splitInputFile,
  verify,
  verifyDiagnostics,
  type InputChunk,
  type MLIRContext,
  type Operation,
  type PassManager,
} from '@raptor-pim/ir-core';

/** How the cases of a fixture are checked. */
export interface ExpectedDiagnosticsOptions {
  /** A fresh context for each case, with the dialects the fixture uses. */
  makeContext(): MLIRContext;
  /** Accept ops of unregistered dialects (`test.*` standing for any op), like `--allow-unregistered-dialect`. */
  readonly allowUnregisteredDialects?: boolean;
  /**
   * What runs on a case after it parsed (default: the verifier). A stage passes
   * {@link passPipelineRunner} to check the diagnostics of its passes. It may return whether
   * it succeeded (see {@link checkOutcome}).
   */
  readonly run?: (module: Operation, context: MLIRContext) => boolean | void;
  /**
   * Also check the outcome: the case must parse and verify, and `run` must fail exactly when
   * the case expects an error (so a pass that reports its error but forgets
   * `signalPassFailure()`, or fails silently, is caught). Default false.
   */
  readonly checkOutcome?: boolean;
  /** A case whose run failed must leave the module printing exactly as before (no half-done rewrite). Default false. */
  readonly unchangedOnFailure?: boolean;
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
  const run = options.run ?? ((m: Operation) => verify(m));
  // What the run did (a holder object: the callback below assigns it).
  const seen: { parsed: boolean; outcome: boolean | undefined; before: string; after: string } = { parsed: false, outcome: undefined, before: '', after: '' };
  const { problems } = verifyDiagnostics(
    ctx,
    fileName,
    chunk.text,
    () => {
      const m = parseSourceString(ctx, chunk.text, { filename: fileName, lineOffset: chunk.lineOffset });
      if (!m) return;
      seen.parsed = true;
      if (options.unchangedOnFailure) seen.before = printOperation(m);
      const r = run(m, ctx);
      seen.outcome = typeof r === 'boolean' ? r : undefined;
      if (options.unchangedOnFailure) seen.after = printOperation(m);
    },
    chunk.lineOffset,
  );
  const extra = (message: string): Diagnostic => new Diagnostic('error', UnknownLoc.get(ctx), message);
  if (options.checkOutcome) {
    const expectsError = /expected-error/.test(chunk.text);
    if (!seen.parsed) problems.push(extra('the case does not parse'));
    else if (seen.outcome === undefined) problems.push(extra('checkOutcome needs a run that returns whether it succeeded'));
    else if (seen.outcome === expectsError) {
      problems.push(extra(expectsError ? 'the run succeeded although the case expects an error' : 'the run failed although the case expects no error'));
    }
  }
  if (options.unchangedOnFailure && seen.outcome === false && seen.after !== seen.before) problems.push(extra('the failed run changed the module'));
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
 * with the passes `register` adds (as `mlir-opt --pass-pipeline=... --verify-diagnostics`);
 * `configure` sees the pass manager first (to set a pass-context value such as the target).
 * Returns whether everything succeeded. A pipeline that does not parse is reported as a
 * diagnostic of the case.
 */
export function passPipelineRunner(
  pipeline: string,
  register: (registry: PassRegistry) => void,
  configure?: (pm: PassManager) => void,
): (module: Operation, context: MLIRContext) => boolean {
  return (module, context) => {
    if (!verify(module)) return false;
    const registry = new PassRegistry();
    register(registry);
    const pm = parsePassPipeline(context, pipeline, registry);
    if (!pm) return false;
    configure?.(pm);
    return pm.run(module).success;
  };
}
