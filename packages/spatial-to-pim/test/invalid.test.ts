// spat-to-pim refuses what it cannot convert with a diagnostic at the op (expected-error cases),
// and a refused function is left exactly as it was.
import { parseSourceString, printOperation, splitInputFile, verify, verifyDiagnostics } from '@raptor-pim/ir-core';
import { makeContext, readFixture, runPipeline } from './support/harness';

const FILE = 'invalid.mlir';

describe(FILE, () => {
  it.each(splitInputFile(readFixture(FILE)).map((c, i) => [i, c] as const))('case %d', (_i, chunk) => {
    const ctx = makeContext();
    ctx.allowUnregisteredDialects = true;
    let before = '';
    let after = '';
    const { problems } = verifyDiagnostics(
      ctx,
      FILE,
      chunk.text,
      () => {
        const m = parseSourceString(ctx, chunk.text, { filename: FILE, lineOffset: chunk.lineOffset });
        if (!m || !verify(m)) return;
        before = printOperation(m);
        runPipeline(m, 'spat-to-pim', undefined, false);
        after = printOperation(m);
      },
      chunk.lineOffset,
    );
    expect(problems.map((p) => p.message)).toEqual([]);
    expect(after).toBe(before);
  });
});
