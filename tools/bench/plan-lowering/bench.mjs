#!/usr/bin/env node
// The plan-lowering benchmark: per shared model, plan count, materializations (planning on with
// the local search / off / exact solver), op count after spat-lower-plans and lowering time
// (median wall and CPU milliseconds of lowerPlans). --interpret adds the interpreter's time on
// the imported and the lowered module. Sibling packages are read from source (no build).
//
//   node tools/bench/plan-lowering/bench.mjs [--rounds N] [--interpret] [--models a,b]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const r = spawnSync(process.execPath, ['--conditions=@raptor-pim/source', '-r', '@swc-node/register', path.join(here, 'bench.ts'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(r.status ?? 1);
