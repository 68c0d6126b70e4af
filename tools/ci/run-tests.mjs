#!/usr/bin/env node
// The workspace test command (`npm test`): type-checks and tests every package through nx,
// then prints one line per package and a closing "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const resultsDir = join(root, '.test-results');
rmSync(resultsDir, { recursive: true, force: true });

const nx = spawnSync(
  'npx',
  ['nx', 'run-many', '-t', 'typecheck', 'test', '--outputStyle=static', '--parallel=2', '--skip-nx-cache', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);

let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
if (existsSync(resultsDir)) {
  for (const file of readdirSync(resultsDir).sort()) {
    const s = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
    passed += s.passed;
    failed += s.failed + s.suitesFailed;
    skipped += s.skipped;
    rows.push(`  ${s.package.padEnd(20)} ${String(s.passed).padStart(5)} passed ${String(s.failed).padStart(3)} failed ${String(s.skipped).padStart(3)} skipped`);
  }
}
console.log('\nTest summary per package:');
for (const row of rows) console.log(row);
const status = nx.status ?? 1;
if (status !== 0 && failed === 0) failed = 1; // a type check or a crashed suite failed
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status);
