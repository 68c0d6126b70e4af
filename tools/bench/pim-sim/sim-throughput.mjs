// Benchmarks (a) simulated instructions per second and (c) peak memory on a generated
// vector-heavy 64-core bundle of 1M instructions. Usage: node tools/bench/pim-sim/sim-throughput.mjs [instructions]
import { runTs } from './run-ts.mjs';
process.exit(runTs('sim-throughput.ts', process.argv.slice(2), ['--expose-gc']));
