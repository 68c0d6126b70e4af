#!/usr/bin/env node
// See explain.ts: the buffers live at the memory peak of the worst core streams of one model.
//   node tools/bench/bufferization/explain.mjs MODEL STRATEGY [--top N] [--save FILE] [--verbose] [--scheduler-options k=v,...]
//   node tools/bench/bufferization/explain.mjs --from FILE.mlir   (a saved module; *.pim.mlir is bufferized first)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const r = spawnSync(
  process.execPath,
  ['--conditions=@raptor-pim/source', '-r', '@swc-node/register', path.join(here, 'explain.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root },
);
process.exit(r.status ?? 1);
