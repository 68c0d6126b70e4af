/**
 * Expected-diagnostic files in MLIR's style (split by `// -----`, `// expected-error@+1
 * {{...}}`): test/fixtures/invalid/verify-layouts.mlir under `spat-verify-layouts` (every
 * contract the checker enforces), test/fixtures/invalid/plan-layouts.mlir under
 * `spat-plan-layouts`, and test/fixtures/debug-layouts*.mlir (`debug-layouts` remarks, exact and local).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline, parseSourceString, splitInputFile, verify, verifyDiagnostics } from '@raptor-pim/ir-core';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { FIXTURES_DIR, makeContext } from './helpers';

const FILES: [string, string][] = [
  ['invalid/verify-layouts.mlir', 'spat-verify-layouts'],
  ['invalid/plan-layouts.mlir', 'spat-plan-layouts'],
  ['debug-layouts.mlir', 'spat-plan-layouts{debug-layouts}'],
  ['debug-layouts-local.mlir', 'spat-plan-layouts{solver=local debug-layouts}'],
];

describe.each(FILES)('%s under %s', (file, passes) => {
  const text = fs.readFileSync(path.join(FIXTURES_DIR, file), 'utf8');
  splitInputFile(text).forEach((chunk, i) => {
    const title = /^\/\/ (.*)$/m.exec(chunk.text)?.[1] ?? `case ${i + 1}`;
    it(`${title} (line ${chunk.lineOffset + 1})`, () => {
      expect(chunk.text).toMatch(/expected-(error|remark)/);
      const ctx = makeContext();
      const registry = new PassRegistry();
      registerLayoutPlannerPasses(registry);
      let success: boolean | undefined;
      const { problems } = verifyDiagnostics(
        ctx,
        file,
        chunk.text,
        () => {
          const m = parseSourceString(ctx, chunk.text, { filename: file, lineOffset: chunk.lineOffset });
          if (!m || !verify(m)) return;
          success = parsePassPipeline(ctx, `builtin.module(func.func(${passes}))`, registry)!.run(m).success;
        },
        chunk.lineOffset,
      );
      expect(problems.map((d) => d.message)).toEqual([]);
      expect(success).toBe(!/expected-error/.test(chunk.text));
    });
  });
});
