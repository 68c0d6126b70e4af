/**
 * Expected-diagnostic files in MLIR's style for oversized computes:
 * test/fixtures/invalid/split-oversized-computes.mlir under `spat-split-oversized-computes`
 * (what cannot be split, and a compute that fits is accepted) and
 * test/fixtures/invalid/schedule-capacity.mlir under `spat-schedule` (B0: a model that does not
 * fit the target names the crossbars needed and available and the largest layer).
 */
import * as path from 'node:path';
import { MLIRContext } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { registerSchedulerPasses } from '@raptor-pim/scheduler';
import { describeExpectedDiagnostics, passPipelineRunner } from '../../../tools/test-support/expected-diagnostics';

const FIXTURES_DIR = path.join(__dirname, 'fixtures');
const FILES: [string, string][] = [
  ['invalid/split-oversized-computes.mlir', 'spat-split-oversized-computes'],
  ['invalid/schedule-capacity.mlir', 'spat-schedule'],
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
    requireExpectations: false,
  });
}
