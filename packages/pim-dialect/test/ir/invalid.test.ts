/**
 * MLIR-style negative tests: test/fixtures/invalid/*.mlir hold one case per Verified rule of the
 * pim ops (split by `// -----`, `// expected-error@+1 {{...}}`), and
 * test/fixtures/invalid/assumed.mlir holds inputs breaking only *Assumed* constraints, which the
 * verifiers must accept.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSourceString, splitInputFile, verify, verifyDiagnostics } from '@raptor-pim/ir-core';
import { makeContext, tryParse } from '../helpers';

const dir = path.resolve(__dirname, '../fixtures/invalid');
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.mlir') && f !== 'assumed.mlir')
  .sort();

for (const fixture of files) {
  describe(`pim verifier diagnostics (${fixture})`, () => {
    const text = fs.readFileSync(path.join(dir, fixture), 'utf8');
    splitInputFile(text).forEach((chunk, i) => {
      const title = /^\/\/ (.*)$/m.exec(chunk.text)?.[1] ?? `case ${i + 1}`;
      it(`${title} (line ${chunk.lineOffset + 1})`, () => {
        expect(chunk.text).toMatch(/expected-error/);
        const ctx = makeContext();
        ctx.allowUnregisteredDialects = true; // test.* ops stand for any op, as with mlir-opt --allow-unregistered-dialect
        const { problems } = verifyDiagnostics(
          ctx,
          fixture,
          chunk.text,
          () => {
            const m = parseSourceString(ctx, chunk.text, {
              filename: fixture,
              lineOffset: chunk.lineOffset,
            });
            if (m) verify(m);
          },
          chunk.lineOffset
        );
        expect(problems.map((d) => d.message)).toEqual([]);
      });
    });
  });
}

describe('Assumed constraints are not verified (assumed.mlir)', () => {
  const text = fs.readFileSync(path.join(dir, 'assumed.mlir'), 'utf8');
  splitInputFile(text).forEach((chunk, i) => {
    const title = /^\/\/ (.*)$/m.exec(chunk.text)?.[1] ?? `case ${i + 1}`;
    it(title, () => {
      expect(tryParse(chunk.text).diagnostics.map((d) => d.message)).toEqual([]);
    });
  });
});
