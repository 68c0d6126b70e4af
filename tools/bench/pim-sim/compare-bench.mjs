// Compares pim-sim with pimsim-nn on the 185 micro-benchmarks and the two-core example and
// prints per-family mismatches. Usage: node tools/bench/pim-sim/compare-bench.mjs [--all] [name-prefix]
import { runTs } from './run-ts.mjs';
process.exit(runTs('compare-bench.ts', process.argv.slice(2)));
