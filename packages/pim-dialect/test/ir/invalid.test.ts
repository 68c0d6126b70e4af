/**
 * MLIR-style negative tests: test/fixtures/invalid/*.mlir hold one case per Verified rule of the
 * pim ops (split by `// -----`, `// expected-error@+1 {{...}}`), and
 * test/fixtures/invalid/assumed.mlir holds inputs breaking only *Assumed* constraints, which the
 * verifiers must accept.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { splitInputFile } from '@raptor-pim/ir-core';
import { defaultCaseTitle, describeExpectedDiagnostics } from '../../../../tools/test-support/expected-diagnostics';
import { makeContext, tryParse } from '../helpers';

const dir = path.resolve(__dirname, '../fixtures/invalid');
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.mlir') && f !== 'assumed.mlir')
  .sort();

for (const fixture of files) {
  // test.* ops stand for any op, as with `mlir-opt --allow-unregistered-dialect`
  describeExpectedDiagnostics(`pim verifier diagnostics (${fixture})`, path.join(dir, fixture), { makeContext, allowUnregisteredDialects: true });
}

describe('Assumed constraints are not verified (assumed.mlir)', () => {
  const text = fs.readFileSync(path.join(dir, 'assumed.mlir'), 'utf8');
  splitInputFile(text).forEach((chunk, i) => {
    it(defaultCaseTitle(chunk, i), () => {
      expect(tryParse(chunk.text).diagnostics.map((d) => d.message)).toEqual([]);
    });
  });
});
