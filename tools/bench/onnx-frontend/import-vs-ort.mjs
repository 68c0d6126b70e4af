#!/usr/bin/env node
// Import time of an ONNX model with @raptor-pim/onnx-frontend against onnxruntime-node session
// creation for the same file, in the same run. Two measures of ours:
//   - full import: read + validate + infer shapes + build the Spatial module + verify it
//     (importOnnxModel after readOnnxFile): the figure issue #15 targets (<= 0.6x);
//   - read + validate + infer shapes only (loadOnnxFile).
// Interleaved rounds (order rotated each round), medians, ratios.
//
// Usage (after `npx nx build onnx-frontend`):
//   node tools/bench/onnx-frontend/import-vs-ort.mjs [model.onnx] [--rounds N]
// Default model: ../shared/models/ultraface-slim-320/model.onnx beside the repository
// (override the shared folder with RAPTOR_SHARED_DIR).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const dist = join(repo, 'packages/onnx-frontend/dist/index.js');
if (!existsSync(dist)) {
  console.error(`missing ${dist}: run \`npx nx build onnx-frontend\` first`);
  process.exit(1);
}
const { loadOnnxFile, readOnnxFile, importOnnxModel, hasErrors, formatDiagnostic } = await import(dist);
const { InferenceSession } = await import('onnxruntime-node');

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 30;
const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds');
const shared = process.env.RAPTOR_SHARED_DIR ?? resolve(repo, '../shared');
const model = positional[0] ?? join(shared, 'models/ultraface-slim-320/model.onnx');
const model_ = model;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function ours() {
  const t = performance.now();
  const r = loadOnnxFile(model);
  const ms = performance.now() - t;
  if (hasErrors(r.diagnostics)) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
  return ms;
}

const phases = { read: [], inferShapes: [], lower: [], verify: [] };
function oursFull() {
  const t = performance.now();
  const { model, diagnostics } = readOnnxFile(model_);
  if (!model) throw new Error(diagnostics.map(formatDiagnostic).join('\n'));
  const read = performance.now() - t;
  const r = importOnnxModel(model);
  const ms = performance.now() - t;
  if (!r.module) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
  phases.read.push(read);
  for (const [k, v] of Object.entries(r.timings)) (phases[k] ??= []).push(v);
  return ms;
}

async function ort(level) {
  const t = performance.now();
  const s = await InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: level, logSeverityLevel: 3 });
  const ms = performance.now() - t;
  await s.release();
  return ms;
}

// Warm up both (JIT, file cache, ORT kernel registry).
for (let i = 0; i < 5; i++) {
  ours();
  oursFull();
  for (const v of Object.values(phases)) v.length = 0;
  await ort('all');
  await ort('disabled');
}
const times = { full: [], ours: [], ortAll: [], ortDisabled: [] };
for (let i = 0; i < rounds; i++) {
  // Rotate the order each round so no side always runs first.
  const order = [['full', () => oursFull()], ['ours', () => ours()], ['ortAll', () => ort('all')], ['ortDisabled', () => ort('disabled')]];
  for (let k = 0; k < order.length; k++) {
    const [name, run] = order[(k + i) % order.length];
    times[name].push(await run());
  }
}
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
const lo = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.min(...v)]));
console.log(`model: ${model}`);
console.log(`rounds: ${rounds} (interleaved, medians, 1 intra-op thread for onnxruntime)`);
console.log(`onnx-frontend full import (to verified IR): median ${m.full.toFixed(2)} ms (min ${lo.full.toFixed(2)})`);
console.log(`  phases (medians): ${Object.entries(phases).map(([k, v]) => `${k} ${median(v).toFixed(2)}`).join(', ')} ms`);
console.log(`onnx-frontend read+validate+infer:          median ${m.ours.toFixed(2)} ms (min ${lo.ours.toFixed(2)})`);
console.log(`onnxruntime session create (opt=all):       median ${m.ortAll.toFixed(2)} ms (min ${lo.ortAll.toFixed(2)})`);
console.log(`onnxruntime session create (opt=disabled):  median ${m.ortDisabled.toFixed(2)} ms (min ${lo.ortDisabled.toFixed(2)})`);
console.log(`full import   / session create (opt=all):      ${(m.full / m.ortAll).toFixed(3)}x  (target <= 0.6x: ${m.full <= 0.6 * m.ortAll ? 'met' : 'NOT met'})`);
console.log(`full import   / session create (opt=disabled): ${(m.full / m.ortDisabled).toFixed(3)}x`);
console.log(`read+infer    / session create (opt=all):      ${(m.ours / m.ortAll).toFixed(3)}x`);
console.log(`read+infer    / session create (opt=disabled): ${(m.ours / m.ortDisabled).toFixed(3)}x`);
