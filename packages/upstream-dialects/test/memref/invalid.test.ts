/**
 * MLIR-style negative tests: test/fixtures/memref/invalid.mlir holds one case per verifier rule
 * (split by `// -----`, `// expected-error@+1 {{...}}` directives). The same file passes
 * `mlir-opt --split-input-file --allow-unregistered-dialect --verify-diagnostics` (LLVM 22),
 * so every message is MLIR's.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeExpectedDiagnostics } from '../../../../tools/test-support/expected-diagnostics';
import { makeContext } from './helpers';

/** `case N (memref.op)`: the first memref op of the case names it. */
const memrefCaseTitle = (chunk: { text: string }, i: number): string => {
  const firstOp = chunk.text.split('\n').find((l) => /memref\.[a-z_.]+/.test(l) && !l.startsWith('//'));
  return `case ${i + 1} (${firstOp ? /memref\.[a-z_.]+/.exec(firstOp)![0] : 'chunk'})`;
};

for (const fixture of ['invalid.mlir', 'invalid-differences.mlir']) {
  describeExpectedDiagnostics(`memref verifier diagnostics (${fixture})`, path.resolve(__dirname, '../fixtures/memref', fixture), {
    makeContext,
    allowUnregisteredDialects: true,
    caseTitle: memrefCaseTitle,
    requireExpectations: false, // some cases are valid inputs next to the rule they border on
  });
}

const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
(fs.existsSync(mlirOpt) ? it : it.skip)('invalid.mlir passes mlir-opt 22 --verify-diagnostics (every message is MLIR\'s)', () => {
  const file = path.resolve(__dirname, '../fixtures/memref/invalid.mlir');
  const r = spawnSync(mlirOpt, ['--split-input-file', '--allow-unregistered-dialect', '--verify-diagnostics', file, '-o', '/dev/null'], {
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});
