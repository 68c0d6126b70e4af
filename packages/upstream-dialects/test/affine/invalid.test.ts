/**
 * MLIR-style negative tests for the affine dialect: test/fixtures/affine/invalid.mlir holds one case per
 * verifier rule (split by `// -----`, `// expected-error@+1 {{...}}`). The same file passes
 * `mlir-opt --split-input-file --verify-diagnostics` (LLVM 22), so every message is MLIR's.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeExpectedDiagnostics, expectedMessageTitle } from '../../../../tools/test-support/expected-diagnostics';
import { makeContext } from '../tensor/helpers';

describeExpectedDiagnostics('affine verifier diagnostics', path.resolve(__dirname, '../fixtures/affine/invalid.mlir'), {
  makeContext,
  caseTitle: expectedMessageTitle,
});

const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
(fs.existsSync(mlirOpt) ? it : it.skip)('invalid.mlir passes mlir-opt 22 --verify-diagnostics (the messages are MLIR\'s)', () => {
  const file = path.resolve(__dirname, '../fixtures/affine/invalid.mlir');
  expect(() => execFileSync(mlirOpt, ['--split-input-file', '--verify-diagnostics', file], { stdio: 'pipe' })).not.toThrow();
});
