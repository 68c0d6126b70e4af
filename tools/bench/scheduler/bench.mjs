#!/usr/bin/env node
// Scheduler benchmark: per shared model and strategy, the estimated latency and throughput,
// their ratio to the bounds (hardware-defaults.md), the ratio to `layer-sequential`, crossbar
// utilisation, peak local memory and the schedule time, on the default 64-core target.
// Sibling packages are read from source (no build needed).
//
//   node tools/bench/scheduler/bench.mjs [model ...] [--json] [--option NAME=VALUE ...]
//
// Models default to every shared model the pipeline lowers; resnet18 is included (slowest).
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
