#!/usr/bin/env node
// Code generation on the shared models: compile each model through bufferization with the
// compiler, emit the bundle (timed), run it in pim-sim and compare with onnxruntime's reference
// output; with --pimsim-nn PATH also run HEAPLab's pimsim-nn (ChipTest) on the bundle.
// Runs bench.ts with the workspace packages resolved from source (no build needed).
//
// Usage: node tools/bench/codegen/bench.mjs [--models a,b] [--softmax] [--out DIR] [--pimsim-nn PATH]
import { runTs } from '../run-ts.mjs';

process.exit(runTs(import.meta.url, 'bench.ts', process.argv.slice(2)));
