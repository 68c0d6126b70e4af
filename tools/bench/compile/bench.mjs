#!/usr/bin/env node
// The compiler end to end on the shared models: per model and built-in strategy, the compile
// wall time and peak heap, the simulated latency (batch 1, pim-sim latency mode), throughput
// (pim-sim throughput mode) and energy, their ratios to layer-sequential and to the schedule's
// bounds, and the scheduler's estimate against the simulation. A model that does not compile is
// a row naming the stage and the diagnostic. Each (model, strategy) runs in a process of its own
// (case.ts) with a time limit. Default target; raptor_config.allow_vsoftmax is set for models
// with a Softmax (pimsim-nn has no vsoftmax). Runs bench.ts with the workspace packages
// resolved from source (no build needed).
//
// Usage: node tools/bench/compile/bench.mjs [--models a,b] [--strategies s,t] [--timeout-s N] [--json FILE]
//        node tools/bench/compile/bench.mjs --table FILE... (the table of saved --json records)
import { runTs } from '../run-ts.mjs';

process.exit(runTs(import.meta.url, 'bench.ts', process.argv.slice(2)));
