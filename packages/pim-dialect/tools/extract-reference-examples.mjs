#!/usr/bin/env node
// Extracts the code examples of the `pim` op entries and of the intro sections that use pim ops
// from the Raptor dialect reference into test/fixtures/reference/examples.json
// ({ section, code } per example). The wrapped, parseable form of each example lives in
// test/fixtures/reference/examples.mlir (hand-written: it defines the values each example
// uses); the round-trip test checks both agree.
//
// Usage: node packages/pim-dialect/tools/extract-reference-examples.mjs [path/to/raptor-dialect-reference.md]
// Default spec path: $RAPTOR_SHARED/spec/raptor-dialect-reference.md, else the `shared/` folder
// beside the repository checkout.
import * as fs from 'node:fs';
import * as path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const shared = process.env.RAPTOR_SHARED ?? path.resolve(here, '../../../../shared');
const spec = process.argv[2] ?? path.join(shared, 'spec/raptor-dialect-reference.md');
const lines = fs.readFileSync(spec, 'utf8').split('\n');
const out = [];
let section = null;
for (let i = 0; i < lines.length; i++) {
  const line = lines[i];
  const op = /^### `(\w+)\.(\w+)`/.exec(line);
  const intro = /^## (.+)$/.exec(line);
  if (op) section = op[1] === 'pim' ? `pim.${op[2]}` : null;
  else if (intro) section = intro[1].toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-$/, '');
  if (section && line.trim() === '```') {
    const code = [];
    for (i++; i < lines.length && lines[i].trim() !== '```'; i++) code.push(lines[i]);
    const kept = code.filter((l) => !/^\s*\/\//.test(l) && !/^%\w+ = arith\.constant/.test(l)).join('\n');
    if (/\bpim\./.test(kept)) out.push({ section, code: kept });
  }
}
const target = path.resolve(here, '../test/fixtures/reference/examples.json');
fs.writeFileSync(target, JSON.stringify(out, null, 2) + '\n');
console.log(`wrote ${out.length} examples to ${path.relative(process.cwd(), target)}`);
