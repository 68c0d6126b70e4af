import * as path from 'node:path';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';

const ENTRY = path.join(__dirname, 'cli-from-sources.cjs');
const TSCONFIG = path.resolve(__dirname, '../../tsconfig.spec.json');

/**
 * Runs `raptor ARGS` from the sources in a Node process of its own (no build needed, as CI has
 * none), with the V8 settings `raptor compile` gives its own child for a whole model
 * (`--max-old-space-size`, `--max-semi-space-size=64`). For commands too large for a jest
 * worker: its default heap limit is about 4 GiB, and code in jest's module sandbox ran resnet18's
 * compile 2.7x slower than a plain process.
 */
export function runCliFromSources(args: readonly string[], heapMiB = 16384): SpawnSyncReturns<string> {
  return spawnSync(
    process.execPath,
    [`--max-old-space-size=${heapMiB}`, '--max-semi-space-size=64', '--conditions=@raptor-pim/source', '-r', require.resolve('@swc-node/register'), ENTRY, ...args],
    { encoding: 'utf8', maxBuffer: 256 * 2 ** 20, env: { ...process.env, SWC_NODE_PROJECT: TSCONFIG } },
  );
}
