#!/usr/bin/env node
// The plan-lowering benchmark: per shared model, plan count, materializations (planning on with
// the local search / off / exact solver), op count after spat-lower-plans and lowering time
// (median wall and CPU milliseconds of lowerPlans). --interpret adds the interpreter's time on
// the imported and the lowered module. Sibling packages are read from source (no build).
//
//   node tools/bench/plan-lowering/bench.mjs [--rounds N] [--interpret] [--models a,b]
import { runTs } from '../run-ts.mjs';

process.exit(runTs(import.meta.url, 'bench.ts', process.argv.slice(2)));
