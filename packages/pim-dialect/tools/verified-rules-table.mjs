#!/usr/bin/env node
// Prints the README's "op -> Verified rules -> tests" table from test/fixtures/invalid/*.mlir
// (the first comment line of every case reads `// <op>: <rule>`).
// Usage: node packages/pim-dialect/tools/verified-rules-table.mjs
import * as fs from 'node:fs';
import * as path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const dir = path.resolve(here, '../test/fixtures/invalid');
const OPS = ['concat', 'core', 'core_batch', 'halt', 'memcp', 'memcp_dh', 'memcp_hd', 'receive', 'send', 'sync', 'transpose', 'vavg', 'vmm', 'vmv',
  'vrelu', 'vsigm', 'vsoftmax', 'vtanh', 'vvadd', 'vvdmul', 'vvmax', 'vvmul', 'vvsub', 'wait'];
const rules = new Map(OPS.map((o) => [o, []]));
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.mlir') && f !== 'assumed.mlir').sort()) {
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n');
  lines.forEach((l, i) => {
    const m = /^\/\/ (\w+): (.+)$/.exec(l);
    if (m && (i === 0 || lines[i - 2] === '// -----' || lines[i - 1] === '')) rules.get(m[1])?.push(`${m[2]} (${f}:${i + 1})`);
  });
}
console.log('| Op | Verified rules, each with its negative case (fixture:line) | Cases |');
console.log('|---|---|---|');
for (const [op, list] of rules) console.log(`| \`pim.${op}\` | ${list.length ? list.join('; ') : '—'} | ${list.length} |`);
