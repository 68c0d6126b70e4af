/**
 * Golden and expected-error fixtures of `spat-lower-plans` (test/fixtures/*.mlir, the stage
 * harness of tools/test-support): `lower-dense.mlir` (every plan, dense), `lower-row-strip.mlir`
 * (every row-strip form and both materializations, layouts recorded as spat-plan-layouts
 * records them), `plan-and-lower.mlir` (the full pipeline on the hand-built chain), and the
 * `*-invalid.mlir` files (one case per diagnostic). Regenerate with
 * `UPDATE_GOLDEN=1 npx jest -c packages/plan-lowering/jest.config.ts fixtures`.
 */
import * as path from 'node:path';
import { MLIRContext } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';
import { describeStageFixtures } from '../../../tools/test-support/stage-fixtures';

function makeContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  return ctx;
}

describeStageFixtures('spat-lower-plans fixtures', {
  fixturesDir: path.join(__dirname, 'fixtures'),
  makeContext,
  register: registerPlanLoweringPasses,
  registerOthers: registerLayoutPlannerPasses,
});
