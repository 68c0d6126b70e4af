// The README example runs and prints what the README shows.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline, parseSourceString, printOperation } from '@raptor-pim/ir-core';
import { registerSpatialToPimPasses } from '../src';
import { makeContext } from './support/harness';

it('README example', () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
  const source = /parseSourceString\(ctx, `([^`]*)`\)/.exec(readme)![1]!;
  const ctx = makeContext();
  const module = parseSourceString(ctx, source)!;
  const registry = new PassRegistry();
  registerSpatialToPimPasses(registry);
  expect(parsePassPipeline(ctx, 'builtin.module(spat-to-pim)', registry)!.run(module).success).toBe(true);
  const printed = printOperation(module);
  const shown = readme
    .split('\n')
    .filter((l) => l.startsWith('// '))
    .map((l) => l.slice(3).trim());
  for (const line of shown) expect(printed).toContain(line);
});
