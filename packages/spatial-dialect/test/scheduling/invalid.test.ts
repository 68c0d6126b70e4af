// One negative test per Verified rule (test/fixtures/scheduling/invalid.mlir): each case must
// produce exactly its expected diagnostics.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSourceString, renderDiagnostics, splitInputFile, verify, verifyDiagnostics } from '@raptor-pim/ir-core';
import { makeContext } from './support/context';

const FILE = path.resolve(__dirname, '../fixtures/scheduling/invalid.mlir');
const chunks = splitInputFile(fs.readFileSync(FILE, 'utf8'));
const ruleOf = (text: string): string => /^\/\/ rule: (.*)$/m.exec(text)?.[1]?.trim() ?? '<no rule>';

describe('Verified rules of the scheduling ops (invalid.mlir)', () => {
  it('every case names a distinct rule', () => {
    const rules = chunks.map((c) => ruleOf(c.text));
    expect(rules).not.toContain('<no rule>');
    expect(new Set(rules).size).toBe(rules.length);
  });

  for (const chunk of chunks) {
    it(ruleOf(chunk.text), () => {
      const ctx = makeContext();
      const { problems } = verifyDiagnostics(ctx, 'invalid.mlir', chunk.text, () => {
        const m = parseSourceString(ctx, chunk.text, { filename: 'invalid.mlir', lineOffset: chunk.lineOffset });
        if (m) verify(m);
      }, chunk.lineOffset);
      expect(renderDiagnostics(problems)).toBe('');
    });
  }
});
