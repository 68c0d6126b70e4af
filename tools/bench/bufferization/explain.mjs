#!/usr/bin/env node
// See explain.ts: the buffers live at the memory peak of the worst core streams of one model.
//   node tools/bench/bufferization/explain.mjs MODEL STRATEGY [--top N] [--save FILE] [--verbose] [--scheduler-options k=v,...]
//   node tools/bench/bufferization/explain.mjs --from FILE.mlir   (a saved module; *.pim.mlir is bufferized first)
import { runTs } from '../run-ts.mjs';

process.exit(runTs(import.meta.url, 'explain.ts', process.argv.slice(2)));
