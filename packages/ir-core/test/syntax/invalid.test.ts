import * as fs from 'node:fs';
import * as path from 'node:path';
import { MLIRContext } from '@raptor-pim/ir-core';
import { describeExpectedDiagnostics } from '../../../../tools/test-support/expected-diagnostics';

// Parser diagnostics: each case is parsed only (as `mlir-opt --split-input-file
// --verify-diagnostics` reports parse errors before any verification).
const dir = path.resolve(__dirname, '../fixtures');
for (const file of fs.readdirSync(dir).filter((f) => /^invalid-.*\.mlir$/.test(f)).sort()) {
  describeExpectedDiagnostics(file, path.join(dir, file), {
    makeContext: () => new MLIRContext(),
    allowUnregisteredDialects: true,
    run: () => undefined,
  });
}
