/**
 * MLIR-style negative tests: test/fixtures/memref/invalid.mlir holds one case per verifier rule
 * (split by `// -----`, `// expected-error@+1 {{...}}` directives). The same file passes
 * `mlir-opt --split-input-file --allow-unregistered-dialect --verify-diagnostics` (LLVM 22),
 * so every message is MLIR's.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSourceString, splitInputFile, verify, verifyDiagnostics } from '@raptor-pim/ir-core';
import { makeContext } from './helpers';

for (const fixture of ['invalid.mlir', 'invalid-differences.mlir'])
describe(`memref verifier diagnostics (${fixture})`, () => {
  const text = fs.readFileSync(path.resolve(__dirname, '../fixtures/memref', fixture), 'utf8');
  const chunks = splitInputFile(text);
  chunks.forEach((chunk, i) => {
    const firstOp = chunk.text.split('\n').find((l) => /memref\.[a-z_.]+/.test(l) && !l.startsWith('//'));
    const name = firstOp ? /memref\.[a-z_.]+/.exec(firstOp)![0] : 'chunk';
    it(`case ${i + 1} (${name}, line ${chunk.lineOffset + 1})`, () => {
      const ctx = makeContext();
      ctx.allowUnregisteredDialects = true;
      const { problems } = verifyDiagnostics(ctx, fixture, chunk.text, () => {
        const m = parseSourceString(ctx, chunk.text, { filename: fixture, lineOffset: chunk.lineOffset });
        if (m) verify(m);
      }, chunk.lineOffset);
      expect(problems.map((d) => d.message)).toEqual([]);
    });
  });
});

const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
(fs.existsSync(mlirOpt) ? it : it.skip)('invalid.mlir passes mlir-opt 22 --verify-diagnostics (every message is MLIR\'s)', () => {
  const file = path.resolve(__dirname, '../fixtures/memref/invalid.mlir');
  const r = spawnSync(mlirOpt, ['--split-input-file', '--allow-unregistered-dialect', '--verify-diagnostics', file, '-o', '/dev/null'], {
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});
