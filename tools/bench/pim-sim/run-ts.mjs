// Runs a TypeScript benchmark script of this folder with sibling packages resolved from source.
// Usage: node tools/bench/pim-sim/run-ts.mjs <script.ts> [args...]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

export function runTs(script, args = [], nodeArgs = []) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.resolve(here, '../../..');
  const r = spawnSync(
    process.execPath,
    [...nodeArgs, '--conditions=@raptor-pim/source', '-r', '@swc-node/register', path.join(here, script), ...args],
    { stdio: 'inherit', cwd: root },
  );
  return r.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(runTs(process.argv[2], process.argv.slice(3)));
