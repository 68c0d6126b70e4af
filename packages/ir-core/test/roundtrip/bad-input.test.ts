/**
 * Bad input never throws or hangs: MLIR-style expected-diagnostic files (the same files pass
 * `mlir-opt --verify-diagnostics`, see the interop tests), and the pathological sizes: 10,000
 * nested regions and a 100 MB line.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSourceString, printOperation, renderDiagnostics, splitInputFile, verify, verifyDiagnostics, type Diagnostic } from '@raptor-pim/ir-core';
import { CORPUS_DIR, newContext } from './corpus';

const INVALID = path.join(CORPUS_DIR, 'invalid');

/** Runs a file like `mlir-opt --split-input-file --verify-diagnostics`; returns rendered problems. */
function checkFile(file: string, allowUnregistered: boolean): string {
  const text = fs.readFileSync(path.join(INVALID, file), 'utf8');
  const lines = text.split('\n');
  const problems: Diagnostic[] = [];
  let chunks = 0;
  for (const chunk of splitInputFile(text)) {
    chunks++;
    const ctx = newContext();
    ctx.allowUnregisteredDialects = allowUnregistered;
    const r = verifyDiagnostics(
      ctx,
      file,
      chunk.text,
      () => {
        const m = parseSourceString(ctx, chunk.text, { filename: file, lineOffset: chunk.lineOffset });
        return m !== undefined && verify(m);
      },
      chunk.lineOffset,
    );
    problems.push(...r.problems);
  }
  expect(chunks).toBeGreaterThan(5);
  return renderDiagnostics(problems, (_f, line) => lines[line - 1]);
}

test('registered.mlir: each case gets its diagnostic at the right place', () => {
  expect(checkFile('registered.mlir', false)).toBe('');
});

test('syntax.mlir: each case gets its diagnostic at the right place', () => {
  expect(checkFile('syntax.mlir', true)).toBe('');
});

/** Parses and verifies; asserts the outcome is a module or located diagnostics, never a throw. */
function parseSafely(text: string): { ok: boolean; diagnostics: Diagnostic[] } {
  const ctx = newContext();
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text, { filename: 'big.mlir' });
    return m !== undefined && verify(m) ? m : undefined;
  });
  if (!result) {
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const d of diagnostics) expect((d.location as unknown as { line: number }).line).toBeGreaterThan(0);
  }
  return { ok: result !== undefined, diagnostics };
}

test('10,000 nested regions: a module or a located diagnostic, no stack overflow', () => {
  const depth = 10_000;
  const text = '"t.op"() ({\n'.repeat(depth) + '"t.leaf"() : () -> ()\n' + '}) : () -> ()\n'.repeat(depth);
  const started = Date.now();
  const r = parseSafely(text);
  if (!r.ok) expect(r.diagnostics[0]!.message).toMatch(/nest/);
  expect(Date.now() - started).toBeLessThan(20_000);
});

test('900 nested regions (accepted by the parser) verify and print without a stack overflow', () => {
  // Nesting that the parser accepts must also verify and print without recursion limits.
  const depth = 900;
  const text = '"t.op"() ({\n'.repeat(depth) + '"t.leaf"() : () -> ()\n' + '}) : () -> ()\n'.repeat(depth);
  const ctx = newContext();
  const m = parseSourceString(ctx, text);
  expect(m).toBeDefined();
  expect(verify(m!)).toBe(true);
  expect(printOperation(m!, { generic: true }).length).toBeGreaterThan(text.length);
});

test('a 100 MB line: valid (one huge string attribute) parses, an unterminated one gets a diagnostic', () => {
  const big = 'x'.repeat(100 * 1024 * 1024);
  const started = Date.now();
  const good = parseSafely(`"t.op"() {s = "${big}"} : () -> ()\n`);
  expect(good.ok).toBe(true);
  const bad = parseSafely(`"t.op"() {s = "${big}} : () -> ()\n`);
  expect(bad.ok).toBe(false);
  expect(bad.diagnostics[0]!.message).toContain('string literal');
  // The rendered diagnostic quotes a bounded slice of the line, not 100 MB.
  const rendered = renderDiagnostics(bad.diagnostics, () => big);
  expect(rendered.length).toBeLessThan(20_000);
  expect(Date.now() - started).toBeLessThan(30_000);
});

test('a 100 MB line of garbage gets a located diagnostic quickly', () => {
  const text = '"t.op"() : () -> () ' + '@'.repeat(100 * 1024 * 1024);
  const started = Date.now();
  const r = parseSafely(text);
  expect(r.ok).toBe(false);
  expect(Date.now() - started).toBeLessThan(10_000);
});
