/** The README example emits what the README shows. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultTarget, disassemble } from '@raptor-pim/pim-target';
import { emitBundle } from '../src';
import { parseModule } from './helpers';

it('README example', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../README.md'), 'utf8');
  const source = /parseSourceString\(ctx, `([\s\S]*?)`\)!/.exec(readme)![1]!;
  const shown = /console\.log\(disassemble\(r\.bundle\.programs\[0\]!\)\);\n((?:\/\/ .*\n)+)/.exec(readme)![1]!.replace(/^\/\/ /gm, '');
  const r = emitBundle(parseModule(source), defaultTarget());
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  expect(disassemble(r.bundle.programs[0]!)).toBe(shown);
});
