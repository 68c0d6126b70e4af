// One (model, strategy) of bench.mjs, in a process of its own (so its wall time, peak heap and
// RSS are its own): compile with raptor-compile on the default target, simulate the bundle with
// pim-sim in latency mode (batch 1: values, latency, energy) and throughput mode (timing only),
// compare output 0 with onnxruntime's. Prints one JSON object (a CaseRecord) on stdout.
//
// Usage: node tools/bench/compile/run-case.mjs MODEL_DIR STRATEGY
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { RAPTOR_COMPILE_PIPELINE, RAPTOR_STAGES, compile, createRaptorPassRegistry } from '@raptor-pim/compiler';
import { readNpy as readOnnxNpy, readOnnxFile, tensorToNumbers } from '@raptor-pim/onnx-frontend';
import { simulateBundle } from '@raptor-pim/pim-sim';
import { cloneConfig, defaultTarget, validateBundle } from '@raptor-pim/pim-target';
import { conformanceRatio } from '../../../packages/compiler/test/support/conformance-compile';
import type { CaseRecord } from './records';

const [modelDir, strategy] = process.argv.slice(2);
if (!modelDir || !strategy) {
  process.stderr.write('usage: case.ts MODEL_DIR STRATEGY\n');
  process.exit(2);
}
const model = path.basename(modelDir);
const record: CaseRecord = { model, strategy, ok: false, vsoftmax: false };
const done = (): never => {
  record.maxRssBytes = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify(record) + '\n');
  process.exit(0);
};

const { model: onnx } = readOnnxFile(path.join(modelDir, 'model.onnx'));
if (!onnx) {
  record.failure = { stage: 'read', message: 'model.onnx is not readable' };
  done();
}
const input = readOnnxNpy(fs.readFileSync(path.join(modelDir, 'input_0.npy'))).tensor!;
const reference = readOnnxNpy(fs.readFileSync(path.join(modelDir, 'output_0.npy'))).tensor!;
// A symbolic graph input takes the shape of input_0.npy (as raptor run binds it).
const first = onnx!.graph.inputs[0]!;
const symbolic = first.shape === undefined || first.shape.some((d) => typeof d !== 'number' || d < 0);
const inputShapes: Record<string, number[]> = symbolic ? { [first.name]: [...input.dims] } : {};
// pimsim-nn has no vsoftmax, so the default target disallows it: allowed for models with a Softmax.
record.vsoftmax = onnx!.graph.nodes.some((n) => n.opType === 'Softmax' || n.opType === 'LogSoftmax');
const target = defaultTarget();
target.config.raptor_config.allow_vsoftmax = record.vsoftmax;

const stages = RAPTOR_STAGES.map((s) => ({ ...s, pipeline: s.pipeline.replace(/spat-schedule(?![-\w{])/, `spat-schedule{strategy=${strategy}}`) }));
const t0 = performance.now();
// Each step is announced on stderr, so a run stopped by bench.ts's time limit says where it was.
const result = compile(onnx!, {
  target,
  registry: createRaptorPassRegistry({ stages }),
  pipeline: RAPTOR_COMPILE_PIPELINE,
  import: { inputShapes },
  onProgress: (e) => process.stderr.write(`step ${e.stage}: ${e.pass} since ${((performance.now() - t0) / 1000).toFixed(1)} s\n`),
});
record.compileMs = performance.now() - t0;
record.peakHeapBytes = result.report.peakHeapBytes;
record.stageMs = Object.fromEntries(result.report.stages.map((s) => [s.stage, Number(s.ms.toFixed(1))]));
const f = result.report.schedule?.functions[0];
if (f) {
  record.estimate = { latencyNs: f.latencyNs, throughput: f.throughput };
  record.bounds = { latencyMinNs: f.bounds.latencyMinNs, throughputMax: f.bounds.throughputMax, crossbarsNeeded: f.bounds.crossbarsNeeded };
}
if (!result.ok || !result.bundle) {
  const error = result.diagnostics.find((d) => d.severity === 'error');
  record.failure = { stage: error?.stage ?? 'pipeline', message: (error?.message ?? 'no bundle').split('\n')[0]! };
  done();
}
const bundle = result.bundle!;
record.cores = result.report.emit?.activeCores ?? bundle.coreCount;
record.crossbars = result.report.emit?.crossbars;
record.instructions = result.report.emit?.instructions;
const validation = validateBundle(bundle);
if (validation.errorCount > 0) {
  record.failure = { stage: 'validate', message: validation.diagnostics.find((d) => d.severity === 'error')!.message };
  done();
}
const inputs = { [bundle.inputs[0]!.name]: { dtype: 'f32' as const, shape: [...bundle.inputs[0]!.shape], data: Float32Array.from(tensorToNumbers(input)) } };
process.stderr.write(`step pim-sim: latency mode since ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
const s0 = performance.now();
const latency = simulateBundle(bundle, { mode: 'latency', inputs });
record.simMs = performance.now() - s0;
if (!latency.ok || !latency.timing) {
  record.failure = { stage: 'pim-sim', message: latency.error?.message ?? 'no timing' };
  done();
}
record.latencyNs = latency.timing!.latencyNs;
record.energyPj = latency.timing!.energyPj;
record.matches = conformanceRatio(latency.outputs[0]!.array.data as ArrayLike<number>, tensorToNumbers(reference)) <= 1;
// Throughput mode: long enough for 8 inferences one after another (as raptor run does).
const config = cloneConfig(bundle.target!.config);
const neededMs = (8 * record.latencyNs) / 1e6;
if (config.sim_config.sim_time < neededMs) config.sim_config.sim_time = Math.ceil(neededMs * 1000) / 1000;
const throughput = simulateBundle(bundle, { mode: 'throughput', inputs, timingOnly: true, target: { config, network: bundle.target!.network } });
if (throughput.ok && throughput.timing && throughput.timing.latencyNs > 0) record.throughput = throughput.timing.rounds / (throughput.timing.latencyNs * 1e-9);
record.ok = record.matches;
if (!record.matches) record.failure = { stage: 'compare', message: 'pim-sim output 0 differs from onnxruntime beyond the tolerance' };
done();
