/**
 * Expected-diagnostic files in MLIR's style (split by `// -----`, `// expected-error@+1
 * {{...}}`): test/fixtures/invalid/verify-communication.mlir under `spat-verify-communication`
 * (every contract the checker enforces) and test/fixtures/invalid/schedule.mlir under
 * `spat-schedule`. A case with an expected error must fail the pass; the others must pass it.
 */
import * as path from 'node:path';
import { MLIRContext } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { registerSchedulerPasses } from '@raptor-pim/scheduler';
import { describeExpectedDiagnostics, passPipelineRunner } from '../../../tools/test-support/expected-diagnostics';

const FIXTURES_DIR = path.join(__dirname, 'fixtures');
const FILES: [string, string][] = [
  ['invalid/verify-communication.mlir', 'spat-verify-communication'],
  ['invalid/schedule.mlir', 'spat-schedule'],
];

function makeContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  return ctx;
}

for (const [file, passes] of FILES) {
  describeExpectedDiagnostics(`${file} under ${passes}`, path.join(FIXTURES_DIR, file), {
    makeContext,
    run: passPipelineRunner(`builtin.module(${passes})`, registerSchedulerPasses),
    checkOutcome: true,
    requireExpectations: false, // the first case is a valid transfer the checker must accept
  });
}
