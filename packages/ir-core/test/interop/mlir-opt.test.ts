/**
 * Interop with mlir-opt 22: our generic output parses in mlir-opt and prints back the same; our
 * parser reads mlir-opt's generic output and prints it back identically; custom forms agree.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { findMlirOpt, runMlirOpt } from './mlir-opt';
import { CORPUS_DIR, describe as describeDiags, loadCorpus, parseAndVerify, printAsTool } from '../roundtrip/corpus';

const found = findMlirOpt();
const corpus = loadCorpus();

if ('missing' in found) {
  // Say why instead of passing silently (CI installs mlir-22-tools, so this should not happen there).
  console.warn(`interop tests skipped: ${found.missing}`);
  if (process.env.CI) {
    // CI installs mlir-22-tools: a missing mlir-opt there is a broken setup, not a skip.
    test('mlir-opt 22 is installed in CI', () => {
      throw new Error(found.missing);
    });
  } else test.skip(`interop with mlir-opt (${found.missing})`, () => undefined);
} else {
  const tool = found.path;
  const unreg = ['--allow-unregistered-dialect'];

  describe.each(corpus.map((f) => [f.name, f] as const))('%s', (name, file) => {
    const debug = file.debugInfo ? ['--mlir-print-debuginfo'] : [];
    const ours = () => {
      const r = parseAndVerify(file.text, name);
      expect(describeDiags(r.diagnostics)).toEqual([]);
      return r.module!;
    };

    it('our generic output parses in mlir-opt and prints back the same', () => {
      const generic = printAsTool(ours(), { generic: true, debugInfo: file.debugInfo });
      expect(runMlirOpt(tool, [...unreg, ...debug, '--mlir-print-op-generic'], generic)).toBe(generic);
    });

    it('our custom output is what mlir-opt prints for it', () => {
      const custom = printAsTool(ours(), { debugInfo: file.debugInfo });
      expect(runMlirOpt(tool, [...unreg, ...debug], custom)).toBe(custom);
    });

    it("we read mlir-opt's generic output and print it back identically", () => {
      const theirs = runMlirOpt(tool, [...unreg, ...debug, '--mlir-print-op-generic'], file.text);
      const r = parseAndVerify(theirs, name);
      expect(describeDiags(r.diagnostics)).toEqual([]);
      expect(printAsTool(r.module!, { generic: true, debugInfo: file.debugInfo })).toBe(theirs);
    });

    it("we read mlir-opt's custom output and print it back identically", () => {
      const theirs = runMlirOpt(tool, [...unreg, ...debug], file.text);
      const r = parseAndVerify(theirs, name);
      expect(describeDiags(r.diagnostics)).toEqual([]);
      expect(printAsTool(r.module!, { debugInfo: file.debugInfo })).toBe(theirs);
    });
  });

  describe('invalid-input files', () => {
    const dir = path.join(CORPUS_DIR, 'invalid');
    it.each([
      ['registered.mlir', []],
      ['syntax.mlir', ['--allow-unregistered-dialect']],
    ] as const)('mlir-opt --verify-diagnostics accepts %s (so the expectations are MLIR\'s)', (file, extra) => {
      const r = spawnSync(tool, [...extra, '--split-input-file', '--verify-diagnostics', path.join(dir, file)], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    });
  });

  test('the interop tests really ran mlir-opt 22', () => {
    expect(runMlirOpt(tool, ['--version'], '')).toMatch(/LLVM version 22\./);
  });
}
