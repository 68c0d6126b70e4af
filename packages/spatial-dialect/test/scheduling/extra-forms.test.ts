// Custom forms beyond the reference examples print back as written (SSA names aside) and
// survive custom -> generic -> custom.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printOperation, splitInputFile } from '@raptor-pim/ir-core';
import { makeContext, parse } from './support/context';

const chunks = splitInputFile(fs.readFileSync(path.resolve(__dirname, '../fixtures/scheduling/extra-forms.mlir'), 'utf8'));

function normalize(text: string): string {
  const names = new Map<string, string>();
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('//') && l !== 'module {' && l !== '}')
    .map((l) =>
      l.replace(/%[A-Za-z_0-9$.\-]+(#\d+)?/g, (m) => {
        let n = names.get(m);
        if (!n) names.set(m, (n = `%v${names.size}`));
        return n;
      }),
    )
    .join('\n');
}

describe('extra custom forms of the scheduling ops', () => {
  chunks.forEach((chunk, k) => {
    it(`case ${k} prints back as written`, () => {
      const verifiable = !chunk.text.includes('test.holder');
      const { module, errors } = parse(makeContext(), chunk.text, verifiable);
      expect(errors).toEqual([]);
      const custom = printOperation(module!);
      expect(normalize(custom)).toBe(normalize(chunk.text));
      const generic = printOperation(module!, { generic: true });
      const back = parse(makeContext(), generic, verifiable);
      expect(back.errors).toEqual([]);
      expect(printOperation(back.module!)).toBe(custom);
    });
  });
});
