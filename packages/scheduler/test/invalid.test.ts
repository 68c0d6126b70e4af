/**
 * Expected-diagnostic files in MLIR's style (split by `// -----`, `// expected-error@+1
 * {{...}}`): test/fixtures/invalid/verify-communication.mlir under `spat-verify-communication`
 * (every contract the checker enforces) and test/fixtures/invalid/schedule.mlir under
 * `spat-schedule`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MLIRContext, PassRegistry, parsePassPipeline, parseSourceString, splitInputFile, verify, verifyDiagnostics } from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { registerSchedulerPasses } from '@raptor-pim/scheduler';

const FIXTURES_DIR = path.join(__dirname, 'fixtures');
const FILES: [string, string][] = [
  ['invalid/verify-communication.mlir', 'spat-verify-communication'],
  ['invalid/schedule.mlir', 'spat-schedule'],
];

describe.each(FILES)('%s under %s', (file, passes) => {
  const text = fs.readFileSync(path.join(FIXTURES_DIR, file), 'utf8');
  splitInputFile(text).forEach((chunk, i) => {
    const title = /^\/\/ (.*)$/m.exec(chunk.text)?.[1] ?? `case ${i + 1}`;
    it(`${title} (line ${chunk.lineOffset + 1})`, () => {
      const ctx = new MLIRContext();
      registerSpatialDialect(ctx);
      const registry = new PassRegistry();
      registerSchedulerPasses(registry);
      let success: boolean | undefined;
      const { problems } = verifyDiagnostics(
        ctx,
        file,
        chunk.text,
        () => {
          const m = parseSourceString(ctx, chunk.text, { filename: file, lineOffset: chunk.lineOffset });
          if (!m || !verify(m)) return;
          success = parsePassPipeline(ctx, `builtin.module(${passes})`, registry)!.run(m).success;
        },
        chunk.lineOffset,
      );
      expect(problems.map((d) => d.message)).toEqual([]);
      expect(success).toBe(!/expected-error/.test(chunk.text));
    });
  });
});
