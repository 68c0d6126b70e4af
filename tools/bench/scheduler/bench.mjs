#!/usr/bin/env node
// Scheduler benchmark: per shared model and strategy, the estimated latency and throughput,
// their ratio to the bounds (hardware-defaults.md), the ratio to `layer-sequential`, crossbar
// utilisation, peak local memory and the schedule time, on the default 64-core target.
// Sibling packages are read from source (no build needed).
//
//   node tools/bench/scheduler/bench.mjs [model ...] [--json] [--option NAME=VALUE ...]
//
// Models default to every shared model the pipeline lowers; resnet18 is included (slowest).
import { runTs } from '../run-ts.mjs';

process.exit(runTs(import.meta.url, 'bench.ts', process.argv.slice(2)));
