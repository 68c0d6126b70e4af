// Runs a TypeScript benchmark script with the workspace packages resolved from source (no build
// needed): `node --conditions=@raptor-pim/source -r @swc-node/register SCRIPT ARGS` from the
// workspace root, output inherited. Every launcher under tools/bench uses it:
//
//   import { runTs } from '../run-ts.mjs';
//   process.exit(runTs(import.meta.url, 'bench.ts', process.argv.slice(2)));
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Runs `script` (relative to the folder of the module `from`, an `import.meta.url`) with `args`,
 * after the Node options `nodeArgs`; returns its exit status.
 */
export function runTs(from, script, args = [], nodeArgs = []) {
  const file = path.resolve(path.dirname(fileURLToPath(from)), script);
  const r = spawnSync(process.execPath, [...nodeArgs, '--conditions=@raptor-pim/source', '-r', '@swc-node/register', file, ...args], {
    stdio: 'inherit',
    cwd: root,
  });
  return r.status ?? 1;
}
