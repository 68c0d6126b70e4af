// spat-to-pim refuses what it cannot convert with a diagnostic at the op (expected-error cases),
// and a refused function is left exactly as it was.
import * as path from 'node:path';
import { describeExpectedDiagnostics, passPipelineRunner } from '../../../tools/test-support/expected-diagnostics';
import { registerSpatialToPimPasses } from '../src';
import { FIXTURES, makeContext } from './support/harness';

describeExpectedDiagnostics('invalid.mlir', path.join(FIXTURES, 'invalid.mlir'), {
  makeContext,
  allowUnregisteredDialects: true,
  run: passPipelineRunner('builtin.module(spat-to-pim)', registerSpatialToPimPasses),
  checkOutcome: true,
  unchangedOnFailure: true,
});
