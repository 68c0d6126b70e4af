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
import { runTs } from '../run-ts.mjs';

process.exit(runTs(import.meta.url, 'bench.ts', process.argv.slice(2)));
