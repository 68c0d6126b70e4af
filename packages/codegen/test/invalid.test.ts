/**
 * MLIR-style negative tests of `pim-verify-codegen`: test/fixtures/invalid/*.mlir hold one case
 * per verification rule (split by `// -----`, `// expected-error@+1 {{...}}`). A case with an
 * expected error must fail the pass; a case with only expected warnings must pass.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { verify } from '@raptor-pim/ir-core';
import { defaultTarget } from '@raptor-pim/pim-target';
import { describeExpectedDiagnostics } from '../../../tools/test-support/expected-diagnostics';
import { VerifyCodegenPass } from '../src';
import { FIXTURES, makeContext } from './helpers';

const dir = path.join(FIXTURES, 'invalid');
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.mlir')).sort()) {
  describeExpectedDiagnostics(`pim-verify-codegen diagnostics (${file})`, path.join(dir, file), {
    makeContext,
    run: (m) => verify(m) && new VerifyCodegenPass(defaultTarget()).run(m),
    checkOutcome: true,
  });
}
