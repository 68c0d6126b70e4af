#!/usr/bin/env node
// Benchmark of spat-to-pim: per shared model and built-in strategy, pass time (wall and CPU),
// ops before and after, the most frequent ops emitted, optionally the interpreter check and the bufferization passes.
// Runs bench.ts with the workspace packages resolved from source (no build needed).
//
// Usage: node tools/bench/spatial-to-pim/bench.mjs [--models a,b] [--strategies a,b] [--check] [--bufferize] [--xbars N] [--save DIR] [FILE.mlir ...]
import { runTs } from '../run-ts.mjs';

process.exit(runTs(import.meta.url, 'bench.ts', process.argv.slice(2)));
