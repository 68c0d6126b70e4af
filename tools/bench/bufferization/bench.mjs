#!/usr/bin/env node
// Benchmark of spat-to-pim + pim-bufferize + pim-plan-memory + pim-verify-memory: per program,
// copies inserted, worst-stream planned peak vs lower bound, host memory used, pass times.
// Runs bench.ts with the workspace packages resolved from source (no build needed).
//
// Usage: node tools/bench/bufferization/bench.mjs [--models a,b] [--strategies a,b] [--layers N] [--rounds N] [--verbose]
//          [--files a.pim.mlir,...] (saved PIM modules instead of models/fixtures) [--local-memory BYTES]
//          [--scheduler-options local-memory=report] (schedule even when the scheduler finds a core over its memory)
//          [--cpu] (pass times as CPU time of the process instead of wall-clock time)
//          [--bufferization DIR] (the passes of another source tree of the package, for before/after)
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
