#!/usr/bin/env node
// Micro benchmark: the spatial-dialect reference conv2d kernel against onnxruntime-node
// (CPU, one intra-op thread, graph optimizations disabled) on realistic layers, in one process.
// Prints median milliseconds per run (runs interleaved) and the ratio ours / onnxruntime.
// Not a CI gate. BENCH_LAYER=<index> runs one layer only.
//
//   node tools/bench/kernels/conv-vs-ort.mjs [--iterations N]
//
// The TypeScript kernel sources are transpiled on the fly (typescript's transpileModule) into a
// temporary CommonJS folder, so no build is needed.
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const repo = path.resolve(here, '../../..');
const require = createRequire(path.join(repo, 'package.json'));
const ts = require('typescript');
const ort = require('onnxruntime-node');

function transpileFolder(sourceDir, targetDir) {
  fs.mkdirSync(targetDir, { recursive: true });
  for (const file of fs.readdirSync(sourceDir)) {
    if (!file.endsWith('.ts')) continue;
    const source = fs.readFileSync(path.join(sourceDir, file), 'utf8');
    const out = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
    fs.writeFileSync(path.join(targetDir, file.replace(/\.ts$/, '.js')), out.outputText);
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'raptor-kernel-bench-'));
fs.writeFileSync(path.join(work, 'package.json'), '{"type":"commonjs"}');
transpileFolder(path.join(repo, 'packages/spatial-dialect/src/interpreter/kernels'), path.join(work, 'kernels'));
transpileFolder(path.join(repo, 'packages/spatial-dialect/test/kernels/support'), path.join(work, 'support'));
const kernels = require(path.join(work, 'kernels/index.js'));
const { buildSingleNodeModel } = require(path.join(work, 'support/onnx-model-builder.js'));

const args = process.argv.slice(2);
const iterations = Number(args[args.indexOf('--iterations') + 1]) || 10;

function random(shape, seed) {
  const size = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(size);
  let s = seed >>> 0;
  for (let i = 0; i < size; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = s / 4294967296 - 0.5;
  }
  return { shape, data };
}

function median(values) {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Median milliseconds per run of `ours` and `theirs`, measured alternately (one run each per
 * round) so that load from other processes on a shared machine hits both sides alike.
 */
async function timeInterleaved(ours, theirs, runs) {
  for (let i = 0; i < 2; i++) {
    await ours(); // warm-up (JIT, onnxruntime arena)
    await theirs();
  }
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    let start = process.hrtime.bigint();
    await ours();
    a.push(Number(process.hrtime.bigint() - start) / 1e6);
    start = process.hrtime.bigint();
    await theirs();
    b.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return [median(a), median(b)];
}

const layers = [
  { name: '3x3 conv 1x32x56x56 -> 64, pad 1', x: [1, 32, 56, 56], w: [64, 32, 3, 3], pads: [1, 1, 1, 1], strides: [1, 1], group: 1 },
  { name: '1x1 conv 1x64x56x56 -> 64', x: [1, 64, 56, 56], w: [64, 64, 1, 1], pads: [0, 0, 0, 0], strides: [1, 1], group: 1 },
  { name: '3x3 depthwise 1x64x56x56, stride 2', x: [1, 64, 56, 56], w: [64, 1, 3, 3], pads: [1, 1, 1, 1], strides: [2, 2], group: 64 },
];

console.log(`conv2d vs onnxruntime-node ${ort.env.versions.common} (1 thread), median of ${iterations} interleaved runs, node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`);
const only = process.env.BENCH_LAYER;
for (const layer of layers.filter((l, i) => only === undefined || String(i) === only)) {
  const x = random(layer.x, 1);
  const w = random(layer.w, 2);
  const b = random([layer.w[0]], 3);
  const attrs = { pads: layer.pads, strides: layer.strides, dilations: [1, 1], group: layer.group };
  const result = kernels.conv2d(x, w, b, attrs);
  if (!result.ok) throw new Error(result.message);
  const model = buildSingleNodeModel({
    opType: 'Conv',
    nodeInputs: ['x', 'w', 'b'],
    inputs: [
      { name: 'x', shape: layer.x },
      { name: 'w', shape: layer.w },
      { name: 'b', shape: [layer.w[0]] },
    ],
    outputs: [{ name: 'y', shape: result.value.shape }],
    attributes: { pads: { ints: layer.pads }, strides: { ints: layer.strides }, group: { int: layer.group }, kernel_shape: { ints: layer.w.slice(2) } },
  });
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'disabled' });
  const feeds = {
    x: new ort.Tensor('float32', x.data, layer.x),
    w: new ort.Tensor('float32', w.data, layer.w),
    b: new ort.Tensor('float32', b.data, [layer.w[0]]),
  };
  const [ours, theirs] = await timeInterleaved(() => kernels.conv2d(x, w, b, attrs), () => session.run(feeds), iterations);
  const macs = (result.value.data.length * layer.w[1] * layer.w[2] * layer.w[3]) / 1e6;
  console.log(
    `${layer.name.padEnd(40)} ours ${ours.toFixed(2).padStart(8)} ms  onnxruntime ${theirs.toFixed(2).padStart(7)} ms  ratio ${(ours / theirs).toFixed(1).padStart(5)}x  (${macs.toFixed(1)} M MACs)`,
  );
  await session.release();
}
fs.rmSync(work, { recursive: true, force: true });
