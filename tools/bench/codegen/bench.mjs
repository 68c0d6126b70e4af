#!/usr/bin/env node
// Code generation on the shared models: compile each model through bufferization with the
// compiler, emit the bundle (timed), run it in pim-sim and compare with onnxruntime's reference
// output; with --pimsim-nn PATH also run HEAPLab's pimsim-nn (ChipTest) on the bundle.
// Runs bench.ts with the workspace packages resolved from source (no build needed).
//
// Usage: node tools/bench/codegen/bench.mjs [--models a,b] [--softmax] [--out DIR] [--pimsim-nn PATH]
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
