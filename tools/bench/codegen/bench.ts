// See bench.mjs.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { emitBundle } from '@raptor-pim/codegen';
import { compile, formatCompileDiagnostic } from '@raptor-pim/compiler';
import { readOnnxFile } from '@raptor-pim/onnx-frontend';
import { readNpy, simulateBundle } from '@raptor-pim/pim-sim';
import { defaultTarget, saveTarget, validateBundle, writeBundle } from '@raptor-pim/pim-target';

const args = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const root = path.resolve(__dirname, '../../..');
const models = path.resolve(root, '../shared/models');
const MODELS = (value('models') ?? 'mlp,mlp_batch4,lenet5,mnist-8,resnet_mini,mobilenet_block,yolo_block').split(',');
const PIMSIM_NN = value('pimsim-nn');
const out = value('out') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'codegen-bench-'));
const UP_TO_BUFFERIZATION =
  'builtin.module(func.func(canonicalize,cse),func.func(spat-plan-layouts,spat-verify-layouts),func.func(spat-lower-plans),spat-schedule,spat-verify-communication,spat-to-pim,pim-bufferize,pim-plan-memory,pim-verify-memory)';

const target = defaultTarget();
target.config.raptor_config.allow_vsoftmax = args.includes('--softmax');
const arch = path.join(out, 'arch', 'arch.json');
saveTarget(target, arch);

function tolerance(got: ArrayLike<number>, want: ArrayLike<number>): number {
  let maxRef = 0;
  for (let i = 0; i < want.length; i++) maxRef = Math.max(maxRef, Math.abs(want[i]!));
  let worst = 0;
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!) / (1e-5 * maxRef + 1e-3 * Math.abs(want[i]!)));
  return worst;
}

console.log(`target: default (64 cores, 64 crossbars of 128x128 per core), vsoftmax ${target.config.raptor_config.allow_vsoftmax ? 'allowed' : 'disallowed'}; bundles in ${out}`);
console.log('model | cores | instructions | crossbars | emit ms | pim-sim ns | pim-sim pJ | vs ORT (<= 1 passes) | pimsim-nn compatible | pimsim-nn ns | pimsim-nn pJ');
for (const name of MODELS) {
  const { model } = readOnnxFile(path.join(models, name, 'model.onnx'));
  if (!model) {
    console.log(`${name} | not readable`);
    continue;
  }
  const c = compile(model, { pipeline: UP_TO_BUFFERIZATION, target });
  if (!c.ok) {
    const first = c.diagnostics.find((d) => d.severity === 'error');
    console.log(`${name} | not compiled: ${first ? formatCompileDiagnostic(first).split('\n')[0] : 'error'}`);
    continue;
  }
  const t0 = performance.now();
  const r = emitBundle(c.module!, target);
  const emitMs = performance.now() - t0;
  if (!r.ok) {
    console.log(`${name} | emission refused: ${r.diagnostics[0]?.message}`);
    continue;
  }
  const dir = path.join(out, name);
  writeBundle(dir, r.bundle);
  const compatible = validateBundle(r.bundle).pimsimCompatible;
  const input = readNpy(fs.readFileSync(path.join(models, name, 'input_0.npy')));
  const reference = readNpy(fs.readFileSync(path.join(models, name, 'output_0.npy')));
  if (!input.ok || !reference.ok) {
    console.log(`${name} | reference data not readable`);
    continue;
  }
  const s = simulateBundle(r.bundle, { inputs: { [r.bundle.inputs[0]!.name]: input.array }, mode: 'latency', target });
  if (!s.ok) {
    console.log(`${name} | pim-sim failed: ${s.error?.message}`);
    continue;
  }
  const ratio = tolerance(s.outputs[0]!.array.data as ArrayLike<number>, reference.array.data as ArrayLike<number>);
  let nn = '- | -';
  if (PIMSIM_NN && compatible) {
    const report = execFileSync(PIMSIM_NN, [dir, arch, '--instruction-mode=directory'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(/- latency:\s+([0-9.e+-]+) ms/.exec(report)?.[1]);
    const pj = Number(/- average energy:\s+([0-9.e+-]+) pJ/.exec(report)?.[1]);
    nn = `${Math.round(ms * 1e6)} | ${pj.toFixed(2)}`;
  }
  const st = r.statistics;
  console.log(
    `${name} | ${st.activeCores} | ${st.instructions} | ${st.crossbars} | ${emitMs.toFixed(0)} | ${s.timing!.latencyNs} | ${s.timing!.energyPj.toFixed(2)} | ${ratio.toFixed(4)} | ${compatible} | ${nn}`,
  );
}
