/** The README's Verified-rules table is the one generated from the negative-case fixtures. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');

it('README lists every Verified rule with its negative case', () => {
  const table = execFileSync(process.execPath, [path.join(root, 'tools/verified-rules-table.mjs')], { encoding: 'utf8' }).trim();
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  expect(readme).toContain(table);
  const total = [...table.matchAll(/\| (\d+) \|$/gm)].reduce((s, m) => s + Number(m[1]), 0);
  expect(total).toBeGreaterThanOrEqual(100);
});
