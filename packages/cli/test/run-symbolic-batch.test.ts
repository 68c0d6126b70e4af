/**
 * `raptor run` on a model with a symbolic batch (`x: [N, 4]`, Gemm + Relu): the binding comes
 * from the `--input` file (batch 2 here), is reported on stderr, and the simulated outputs
 * match the reference computed here; `--input-shape` that disagrees with the file is refused
 * before anything is simulated; `--report` writes the compile report beside the outputs.
 * `raptor compile` (no input file) asks for `--input-shape`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeNpy } from '@raptor-pim/pim-sim';
import { encodeModel, floatTensor, node, valueInfo } from '../../onnx-frontend/test/build-model';
import { compileCommand } from '../src/commands/compile';
import { runCommand } from '../src/commands/run';
import { captureIo } from './support/capture-io';
import { temporaryDirectories } from './support/temp-dirs';

jest.setTimeout(60_000);

const tmp = temporaryDirectories('raptor-run-batch-');

const W = [0.5, -1, 0.25, 1, 2, -0.5, -0.75, 0.5, 1.5, 0.1, -0.2, 0.3]; // 4 x 3, row-major
const B = [0.1, -0.2, 0.3];
const X = [1, 2, 3, 4, -1, 0.5, 2, -3]; // 2 x 4

/** relu(X W + B) for the batch of 2. */
function expected(): Float32Array {
  const y = new Float32Array(6);
  for (let n = 0; n < 2; n++)
    for (let j = 0; j < 3; j++) {
      let s = B[j]!;
      for (let k = 0; k < 4; k++) s += X[n * 4 + k]! * W[k * 3 + j]!;
      y[n * 3 + j] = Math.max(0, Math.fround(s));
    }
  return y;
}

/** Writes the model, the batch-2 input and the reference output into a fresh directory. */
function fixture(): { dir: string; model: string; input: string } {
  const dir = tmp();
  const model = path.join(dir, 'model.onnx');
  fs.writeFileSync(
    model,
    encodeModel({
      nodes: [node('Gemm', ['x', 'w', 'b'], ['g'], {}, 'fc'), node('Relu', ['g'], ['y'], {}, 'relu')],
      inputs: [valueInfo('x', ['N', 4])],
      outputs: [valueInfo('y', ['N', 3])],
      initializers: [floatTensor('w', [4, 3], W), floatTensor('b', [3], B)],
    }),
  );
  const input = path.join(dir, 'input_0.npy');
  fs.writeFileSync(input, writeNpy({ dtype: 'f32', shape: [2, 4], data: Float32Array.from(X) }));
  fs.writeFileSync(path.join(dir, 'output_0.npy'), writeNpy({ dtype: 'f32', shape: [2, 3], data: expected() }));
  return { dir, model, input };
}

test('the batch is taken from the --input file; the outputs match; --report is written', async () => {
  const { dir, model, input } = fixture();
  const out = tmp();
  const report = path.join(out, 'report.json');
  const s = captureIo();
  const code = await runCommand.run([model, '--input', input, '--output-dir', out, '--reference-dir', dir, '--report', report], s);
  expect(s.err).toBe("input 'x': shape 2x4 taken from its --input file\n");
  expect(code).toBe(0);
  expect(s.out).toMatch(/^output 0 'y' \[2x3\] -> .*output_0\.npy$/m);
  expect(s.out).toMatch(/^output 0: max \|diff\| vs reference = .*: ok$/m);
  expect(s.out).toMatch(/^latency: /m);
  const r = JSON.parse(fs.readFileSync(report, 'utf8')) as { stages: { stage: string }[]; emit: { cores: number } };
  expect(r.stages.map((st) => st.stage)).toContain('codegen');
  expect(r.emit.cores).toBeGreaterThan(0);
  expect(fs.readdirSync(out).sort()).toEqual(['output_0.npy', 'report.json']);
});

test('--json: the inferred binding is not printed, the object says ok', async () => {
  const { dir, model, input } = fixture();
  const s = captureIo();
  expect(await runCommand.run([model, '--input', `x=${input}`, '--output-dir', tmp(), '--reference-dir', dir, '--json'], s)).toBe(0);
  expect(s.err).toBe('');
  const r = JSON.parse(s.out) as { ok: boolean; outputs: { shape: number[]; matches: boolean }[] };
  expect(r.ok).toBe(true);
  expect(r.outputs).toEqual([expect.objectContaining({ shape: [2, 3], matches: true })]);
});

test('an --input-shape that disagrees with the file is refused; raptor compile needs --input-shape', async () => {
  const { model, input } = fixture();
  const out = tmp();
  const s = captureIo();
  expect(await runCommand.run([model, '--input', input, '--input-shape', 'x=3x4', '--output-dir', out], s)).toBe(1);
  expect(s.err).toBe(`raptor run: --input-shape x=3x4 disagrees with its --input file '${input}' (shape 2x4); drop --input-shape to take the file's shape\n`);
  expect(fs.readdirSync(out)).toEqual([]);

  const c = captureIo();
  const bundle = path.join(tmp(), 'b');
  expect(await compileCommand.run([model, '-o', bundle], c)).toBe(1);
  expect(c.err).toContain("input 'x' has a dynamic shape [Nx4]; bind it with --input-shape x=1x4");
  expect(fs.existsSync(bundle)).toBe(false);
  // With the binding it compiles.
  const ok = captureIo();
  expect(await compileCommand.run([model, '-o', bundle, '--input-shape', 'x=2x4'], ok)).toBe(0);
  expect(fs.existsSync(path.join(bundle, 'manifest.json'))).toBe(true);
});

test('on a terminal, a progress bar per stage on stderr: each finished stage keeps a full line', async () => {
  const { model } = fixture();
  const s = captureIo();
  expect(await compileCommand.run([model, '-o', path.join(tmp(), 'b'), '--input-shape', 'x=2x4'], { ...s, stderr: (t) => s.stderr(t), isTty: true })).toBe(0);
  // The lines that stay: one per stage, in pipeline order, with a full bar and the stage's time.
  const kept = s.err.split('\n').map((l) => l.split('\r\x1b[K').pop()!).filter((l) => l !== '');
  expect(kept.map((l) => l.split(/\s+/)[0])).toEqual(['frontend', 'layout-planner', 'plan-lowering', 'scheduler', 'spatial-to-pim', 'bufferization', 'codegen']);
  for (const l of kept) expect(l).toMatch(/^[a-z-]+ +\[#{20}\] (\d+)\/\1 \d+ ms$/);
  // In between, the bar of the running stage is redrawn before each step.
  expect(s.err).toContain('\r\x1b[Kscheduler       [....................] 1/2 spat-schedule (step ');
  expect(s.err).toMatch(/\r\x1b\[Kcodegen +\[#+\.+\] 3\/3 pim-emit \(step (\d+) of \1\)/);
});
