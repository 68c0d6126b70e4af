#!/usr/bin/env node
// Import time of an ONNX model with @raptor-pim/onnx-frontend against onnxruntime-node session
// creation for the same file, in the same run. Two measures of ours:
//   - full import: read + validate + infer shapes + build the Spatial module + verify it
//     (importOnnxModel after readOnnxFile): the figure issue #15 targets (<= 0.6x);
//   - read + validate + infer shapes only (loadOnnxFile).
// Interleaved rounds (order rotated each round), medians, ratios.
// Then, as users run them, whole process against whole process: `raptor import MODEL -o FILE`
// (the built cli, start-up included) against `node ort-session-create.mjs MODEL` (a node process
// creating one session), user+sys CPU from /usr/bin/time, --whole N pairs in turn (default 10;
// 0 skips; needs the cli built), medians and the median of the pair ratios (target <= 1.2x).
//
// Usage (after `npx nx build onnx-frontend`; the whole-process figure needs the cli built):
//   node tools/bench/onnx-frontend/import-vs-ort.mjs [model.onnx] [--rounds N] [--whole N]
// Default model: ../shared/models/ultraface-slim-320/model.onnx beside the repository
// (override the shared folder with RAPTOR_SHARED_DIR).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
const wholeAt = args.indexOf('--whole');
const wholeRounds = wholeAt >= 0 ? Number(args[wholeAt + 1]) : 10;
const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds' && args[i - 1] !== '--whole');
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

// ------------------------------------------------------------------ whole process
const raptorBin = join(repo, 'packages/cli/bin/raptor.cjs');
const ortScript = join(here, 'ort-session-create.mjs');
/** user+sys CPU seconds of one process, as /usr/bin/time accounts it. */
function cpuOf(command, commandArgs) {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', command, ...commandArgs], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed: ${r.stderr}`);
  const [user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return user + sys;
}
if (wholeRounds > 0) {
  if (!existsSync(join(repo, 'packages/cli/dist/bin.cjs')) || !existsSync('/usr/bin/time')) {
    console.log('whole-process figure skipped: needs /usr/bin/time and the cli built (npx nx run-many -t build --projects=tag:raptor)');
  } else {
    const work = mkdtempSync(join(tmpdir(), 'import-vs-ort-'));
    const out = join(work, 'out.mlir');
    const raptor = () => cpuOf(process.execPath, [raptorBin, 'import', model, '-o', out]);
    const session = () => cpuOf(process.execPath, [ortScript, model]);
    raptor(); // warm-up: file cache, and the launcher's compile cache as a user's second run has it
    session();
    const ours = [];
    const theirs = [];
    const ratios = [];
    for (let i = 0; i < wholeRounds; i++) {
      const a = raptor();
      const b = session();
      ours.push(a);
      theirs.push(b);
      ratios.push(a / b);
    }
    rmSync(work, { recursive: true, force: true });
    const r = median(ratios);
    console.log(`whole process (${wholeRounds} pairs, user+sys CPU): raptor import median ${median(ours).toFixed(3)} s, onnxruntime session process ${median(theirs).toFixed(3)} s`);
    console.log(`raptor import / session process (median of pair ratios): ${r.toFixed(3)}x  (target <= 1.2x: ${r <= 1.2 ? 'met' : 'NOT met'})`);
  }
}
