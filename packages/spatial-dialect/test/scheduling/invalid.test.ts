// One negative test per Verified rule (test/fixtures/scheduling/invalid.mlir): each case must
// produce exactly its expected diagnostics.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { splitInputFile } from '@raptor-pim/ir-core';
import { describeExpectedDiagnostics } from '../../../../tools/test-support/expected-diagnostics';
import { makeContext } from './support/context';

const FILE = path.resolve(__dirname, '../fixtures/scheduling/invalid.mlir');
const ruleOf = (text: string): string => /^\/\/ rule: (.*)$/m.exec(text)?.[1]?.trim() ?? '<no rule>';

describe('Verified rules of the scheduling ops (invalid.mlir)', () => {
  it('every case names a distinct rule', () => {
    const rules = splitInputFile(fs.readFileSync(FILE, 'utf8')).map((c) => ruleOf(c.text));
    expect(rules).not.toContain('<no rule>');
    expect(new Set(rules).size).toBe(rules.length);
  });
});

describeExpectedDiagnostics('scheduling op verifier diagnostics (invalid.mlir)', FILE, { makeContext, caseTitle: (chunk) => ruleOf(chunk.text) });
