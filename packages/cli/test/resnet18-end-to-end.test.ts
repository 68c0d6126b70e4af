/**
 * resnet18 (the scale model, 11.7 M parameters) end to end with one strategy, bounded:
 * `raptor compile --scheduler throughput` (the default; on resnet18 no pipeline fits the cores'
 * local memory and it takes the replicated layer-sequential plan, with the stem's replicas
 * interleaved as it streams on chip; the other strategies and the throughput-mode simulation are
 * measured by `tools/bench/compile`), then
 * `raptor sim` in latency mode, each in a Node process of its own run from the sources
 * (support/run-cli-from-sources.ts: no build needed, the heap `raptor compile` gives itself),
 * and the logits against onnxruntime's `output_0.npy`: about 2.3 minutes and 6.5 GB of resident
 * memory on the shared 2-core machine, most of it the fully unrolled module (3.6 M
 * instructions; 17.5 M and about 7 minutes before the lane budgets of efeb1df). In jest's own
 * worker the compile took 2.7 times as long. Skipped when the shared models are not beside the
 * repository.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeNpy } from '@raptor-pim/pim-target';
import { runCliFromSources } from './support/run-cli-from-sources';
import { temporaryDirectories } from './support/temp-dirs';

const SHARED = process.env.RAPTOR_SHARED ?? path.resolve(__dirname, '../../../../shared');
const RESNET18 = path.join(SHARED, 'models/resnet18');
const available = fs.existsSync(path.join(RESNET18, 'model.onnx'));

const tmp = temporaryDirectories('raptor-resnet18-');

(available ? describe : describe.skip)('resnet18 end to end (throughput, the default strategy)', () => {
  test('raptor compile, then raptor sim: pim-sim gives onnxruntime\'s logits; every core within its local memory', () => {
    const dir = tmp();
    const bundle = path.join(dir, 'bundle');
    const compile = runCliFromSources(['compile', path.join(RESNET18, 'model.onnx'), '-o', bundle, '--scheduler', 'throughput', '--report', path.join(dir, 'report.json')]);
    expect(compile.stderr).toBe('');
    expect(compile.status).toBe(0);
    expect(compile.stdout).toMatch(/^bundle: 64 cores \(64 active\), \d+ array groups, \d+ crossbars$/m);
    // The compile report: every stage ran; the memory plan kept every core within its 64 KiB.
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'));
    expect(report.stages.map((s: { stage: string }) => s.stage)).toEqual(['frontend', 'layout-planner', 'plan-lowering', 'scheduler', 'spatial-to-pim', 'bufferization', 'codegen']);
    expect(compile.stdout).toMatch(/^pim-plan-memory: streams 64, max-peak-bytes (\d+), max-lower-bound-bytes \1,/m);

    // Latency mode (the values); the throughput run and the other strategies are benchmarks.
    const out = path.join(dir, 'out');
    const sim = runCliFromSources(['sim', bundle, '--input', `input_0=${path.join(RESNET18, 'input_0.npy')}`, '--output-dir', out], 4096);
    expect(sim.stderr).toBe('');
    expect(sim.status).toBe(0);
    // The class the model picks, and every logit close to onnxruntime's (logits reach ~180).
    const logits = readFloat32Npy(path.join(out, 'output_0.npy'));
    const reference = readFloat32Npy(path.join(RESNET18, 'output_0.npy'));
    expect(logits.length).toBe(1000);
    expect(argmax(logits)).toBe(argmax(reference));
    let worst = 0;
    for (let i = 0; i < logits.length; i++) worst = Math.max(worst, Math.abs(logits[i]! - reference[i]!));
    expect(worst).toBeLessThan(1e-3);
  }, 1_800_000);
});

/** The float32 data of a `.npy` file. */
function readFloat32Npy(file: string): Float32Array {
  const r = decodeNpy(fs.readFileSync(file));
  if (!r.ok || !(r.array.data instanceof Float32Array)) throw new Error(`${file}: not a float32 .npy file`);
  return r.array.data;
}

function argmax(a: Float32Array): number {
  let best = 0;
  for (let i = 1; i < a.length; i++) if (a[i]! > a[best]!) best = i;
  return best;
}
