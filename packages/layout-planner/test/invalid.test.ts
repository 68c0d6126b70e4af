/**
 * Expected-diagnostic files in MLIR's style (split by `// -----`, `// expected-error@+1
 * {{...}}`): test/fixtures/invalid/verify-layouts.mlir under `spat-verify-layouts` (every
 * contract the checker enforces), test/fixtures/invalid/plan-layouts.mlir under
 * `spat-plan-layouts`, and test/fixtures/debug-layouts*.mlir (`debug-layouts` remarks, exact and local).
 * A case with an expected error must fail the pipeline; the others must pass it.
 */
import * as path from 'node:path';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { describeExpectedDiagnostics, passPipelineRunner } from '../../../tools/test-support/expected-diagnostics';
import { FIXTURES_DIR, makeContext } from './helpers';

const FILES: [string, string][] = [
  ['invalid/verify-layouts.mlir', 'spat-verify-layouts'],
  ['invalid/plan-layouts.mlir', 'spat-plan-layouts'],
  ['debug-layouts.mlir', 'spat-plan-layouts{debug-layouts}'],
  ['debug-layouts-local.mlir', 'spat-plan-layouts{solver=local debug-layouts}'],
];

for (const [file, passes] of FILES) {
  describeExpectedDiagnostics(`${file} under ${passes}`, path.join(FIXTURES_DIR, file), {
    makeContext,
    run: passPipelineRunner(`builtin.module(func.func(${passes}))`, registerLayoutPlannerPasses),
    checkOutcome: true,
  });
}
