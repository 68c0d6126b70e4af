/** Test helpers of the layout-planner suites: parse + verify in a context with the spat dialect. */
import * as path from 'node:path';
import { MLIRContext, parseSourceString, verify, type Diagnostic, type Operation } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';

/** The shared/ folder beside the repository checkout (override with RAPTOR_SHARED_DIR). */
export const SHARED_DIR = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(__dirname, '../../../../shared');
/** Root of the shared test models. */
export const MODELS_DIR = path.join(SHARED_DIR, 'models');
/** This package's fixtures. */
export const FIXTURES_DIR = path.join(__dirname, 'fixtures');

/** A context with spat and the upstream dialects. */
export function makeContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  return ctx;
}

/** Parses and verifies `text`, failing the test with the diagnostics otherwise. */
export function parseVerified(text: string, ctx = makeContext()): Operation {
  const { result, diagnostics } = ctx.diagnostics.capture(() => {
    const m = parseSourceString(ctx, text, { filename: 'input.mlir' });
    return m && verify(m) ? m : undefined;
  });
  expect(diagnostics.map((d: Diagnostic) => d.message)).toEqual([]);
  return result!;
}

/** The first op named `name` in `root` (pre-order). */
export function firstOp(root: Operation, name: string): Operation {
  let found: Operation | undefined;
  root.walk((op) => {
    if (!found && op.name === name) found = op;
  });
  if (!found) throw new Error(`no ${name} in the module`);
  return found;
}
