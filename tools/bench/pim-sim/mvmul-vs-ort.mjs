// Benchmark (b): functional mvmul throughput (MAC/s) against onnxruntime-node's MatMul on the
// same matrices, one intra-op thread. Usage: node tools/bench/pim-sim/mvmul-vs-ort.mjs [vectors]
import { runTs } from './run-ts.mjs';
process.exit(runTs('mvmul-vs-ort.ts', process.argv.slice(2)));
