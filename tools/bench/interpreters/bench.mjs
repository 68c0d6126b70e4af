#!/usr/bin/env node
// Interpreter benchmark of the concurrent-streams executor: per shared model, the median CPU
// time of the Spatial interpreter on the scheduled module (scheduler `throughput`) and of the PIM
// interpreter on the same program after spat-to-pim + pim-bufferize (memrefs).
// Sibling packages are read from source (no build needed).
//
//   node tools/bench/interpreters/bench.mjs [--rounds N] [--rules FILE] [model ...]
//
// Models default to lenet5 mlp_batch4 resnet_mini. --rules FILE loads a module exporting
// `overrideRules(registry, pim)`, applied after the default rules, to A/B another implementation
// of the multi-core rules in the same script.
import { runTs } from '../run-ts.mjs';
process.exit(runTs(import.meta.url, 'bench.ts', process.argv.slice(2)));
