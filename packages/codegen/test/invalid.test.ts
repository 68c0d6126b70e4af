/**
 * MLIR-style negative tests of `pim-verify-codegen`: test/fixtures/invalid/*.mlir hold one case
 * per verification rule (split by `// -----`, `// expected-error@+1 {{...}}`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSourceString, splitInputFile, verify, verifyDiagnostics } from '@raptor-pim/ir-core';
import { defaultTarget } from '@raptor-pim/pim-target';
import { VerifyCodegenPass } from '../src';
import { FIXTURES, makeContext } from './helpers';

const dir = path.join(FIXTURES, 'invalid');
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.mlir')).sort()) {
  describe(`pim-verify-codegen diagnostics (${file})`, () => {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    splitInputFile(text).forEach((chunk, i) => {
      const title = /^\/\/ (.*)$/m.exec(chunk.text)?.[1] ?? `case ${i + 1}`;
      it(`${title} (line ${chunk.lineOffset + 1})`, () => {
        expect(chunk.text).toMatch(/expected-(error|warning)/);
        const ctx = makeContext();
        let verified = false;
        let passFailed = false;
        const { problems } = verifyDiagnostics(
          ctx,
          file,
          chunk.text,
          () => {
            const m = parseSourceString(ctx, chunk.text, { filename: file, lineOffset: chunk.lineOffset });
            if (!m || !verify(m)) return;
            verified = true;
            const pass = new VerifyCodegenPass(defaultTarget());
            passFailed = !pass.run(m);
          },
          chunk.lineOffset,
        );
        expect(problems.map((d) => d.message)).toEqual([]);
        expect(verified).toBe(true);
        expect(passFailed).toBe(!/expected-warning/.test(chunk.text));
      });
    });
  });
}
