/**
 * Expected-diagnostic files in MLIR's style (split by `// -----`, `// expected-error@+1
 * {{...}}`): test/fixtures/invalid/verify-communication.mlir under `spat-verify-communication`
 * (every contract the checker enforces), test/fixtures/invalid/schedule.mlir and
 * schedule-capacity.mlir under `spat-schedule` (B0: a model that does not fit the target names
 * the crossbars needed and available and the largest layer), and
 * split-oversized-computes.mlir under `spat-split-oversized-computes` (what cannot be split; a
 * compute that fits is accepted). A case with an expected error must fail the pass; the others
 * must pass it.
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
  ['invalid/schedule-capacity.mlir', 'spat-schedule'],
  ['invalid/split-oversized-computes.mlir', 'spat-split-oversized-computes'],
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
    requireExpectations: false, // some cases are valid programs the pass must accept
  });
}
