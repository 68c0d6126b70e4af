// Runs a TypeScript script of this folder with the workspace packages resolved from source.
// Usage (from another launcher): runTs('bench.ts', args)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');

/** Runs `script` (a file of this folder) with `args`; returns its exit status. */
export function runTs(script, args = [], nodeArgs = []) {
  const r = spawnSync(
    process.execPath,
    [...nodeArgs, '--conditions=@raptor-pim/source', '-r', '@swc-node/register', path.join(here, script), ...args],
    { stdio: 'inherit', cwd: root },
  );
  return r.status ?? 1;
}
