#!/usr/bin/env node
// Benchmark of spat-to-pim: per shared model and built-in strategy, pass time (wall and CPU),
// ops before and after, the most frequent ops emitted, optionally the interpreter check and the bufferization passes.
// Runs bench.ts with the workspace packages resolved from source (no build needed).
//
// Usage: node tools/bench/spatial-to-pim/bench.mjs [--models a,b] [--strategies a,b] [--check] [--bufferize] [--xbars N] [--save DIR] [FILE.mlir ...]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const r = spawnSync(
  process.execPath,
  ['--conditions=@raptor-pim/source', '-r', '@swc-node/register', path.join(here, 'bench.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root },
);
process.exit(r.status ?? 1);
