/**
 * `raptor compile` and `raptor run` end to end: mnist-8 (bundled in examples/) to a bundle
 * that pim-target's validator accepts, simulated by pim-sim against onnxruntime's outputs;
 * mlp with --json and a target file; and the refusals (a broken pipeline, an unknown
 * scheduler module, a bad target file), each exit 1 with a clear diagnostic and no bundle
 * directory left behind. The mnist-8 tests compile it (about 10 s each on a loaded machine).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultTarget, readBundle, saveTarget, validateBundle } from '@raptor-pim/pim-target';
import { readOnnxFile, type OnnxModel } from '@raptor-pim/onnx-frontend';
import { bindInputShapes, compileWithFlags, defaultCompileFlags } from '../src/compile/compile-model';
import { compileCommand } from '../src/commands/compile';
import { runCommand } from '../src/commands/run';
import { captureIo } from './support/capture-io';
import { temporaryDirectories } from './support/temp-dirs';

const EXAMPLE = path.resolve(__dirname, '../examples/mnist-8');
const SHARED = process.env.RAPTOR_SHARED ?? path.resolve(__dirname, '../../../../shared');
const MLP = path.join(SHARED, 'models/mlp');

/** A fresh temporary directory, removed after the file's tests. */
const tmp = temporaryDirectories('raptor-compile-');

/** Nothing but `keep` in `dir` (no bundle, no temporary `.NAME.partial-*` directory). */
function expectOnly(dir: string, keep: readonly string[]): void {
  expect(fs.readdirSync(dir).sort()).toEqual([...keep].sort());
}

/** A target file (in a directory of its own) like the defaults, with `vsoftmax` allowed (mlp ends in Softmax). */
function softmaxTarget(): string {
  const target = defaultTarget();
  target.config.raptor_config.allow_vsoftmax = true;
  const file = path.join(tmp(), 'config.json');
  saveTarget(target, file);
  return file;
}

describe('raptor compile', () => {
  test('mnist-8 to a bundle the validator accepts, with the compile report', async () => {
    const dir = tmp();
    const out = path.join(dir, 'mnist.bundle');
    const report = path.join(dir, 'report.json');
    const s = captureIo();
    const code = await compileCommand.run([path.join(EXAMPLE, 'model.onnx'), '-o', out, '--report', report], s);
    expect(s.err).toBe('');
    expect(code).toBe(0);
    const read = readBundle(out);
    expect(read.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const validation = validateBundle(read.value!);
    expect(validation.diagnostics).toEqual([]);
    expect(validation.pimsimCompatible).toBe(true);
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    expect(r.stages.map((st: { stage: string }) => st.stage)).toEqual(['frontend', 'layout-planner', 'plan-lowering', 'scheduler', 'spatial-to-pim', 'bufferization', 'codegen']);
    expect(r.emit.cores).toBe(read.value!.coreCount);
    expect(r.schedule.functions[0].bounds.latencyMinNs).toBeGreaterThan(0);
    expect(s.out).toContain(`bundle (${read.value!.coreCount} cores) -> ${out}`);
    expectOnly(dir, ['mnist.bundle', 'report.json']);
  }, 120_000);

  test('a broken pipeline: the parser diagnostic, exit 1, no bundle directory', async () => {
    const dir = tmp();
    const s = captureIo();
    const code = await compileCommand.run([path.join(EXAMPLE, 'model.onnx'), '-o', path.join(dir, 'b'), '--pass-pipeline', 'builtin.module(spat-to-pim,'], s);
    expect(code).toBe(1);
    expect(s.err).toContain("invalid pipeline 'builtin.module(spat-to-pim,'");
    expect(s.err).toContain('raptor compile: compilation failed');
    expectOnly(dir, []);
  });

  test('a bad target file: the loader diagnostic, exit 1, no bundle directory', async () => {
    const dir = tmp();
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{ "chip_config": ');
    const s = captureIo();
    const code = await compileCommand.run([path.join(EXAMPLE, 'model.onnx'), '-o', path.join(dir, 'b'), '--target', bad], s);
    expect(code).toBe(1);
    expect(s.err).toContain('bad.json');
    expect(s.err).toContain(`cannot use the target configuration '${bad}'`);
    expectOnly(dir, ['bad.json']);
  });

  test('an unknown scheduler module: the scheduler diagnostic, exit 1, no bundle directory', async () => {
    const dir = tmp();
    const s = captureIo();
    const code = await compileCommand.run([path.join(MLP, 'model.onnx'), '-o', path.join(dir, 'b'), '--target', softmaxTarget(), '--scheduler', './no-such-scheduler.mjs'], s);
    expect(code).toBe(1);
    expect(s.err).toContain('no-such-scheduler.mjs');
    expect(s.err).toContain('spat-schedule');
    expectOnly(dir, []);
  });

  test('an unknown built-in strategy names the strategies', async () => {
    const dir = tmp();
    const s = captureIo();
    const code = await compileCommand.run([path.join(MLP, 'model.onnx'), '-o', path.join(dir, 'b'), '--target', softmaxTarget(), '--scheduler', 'fastest'], s);
    expect(code).toBe(1);
    expect(s.err).toContain("spat-schedule: unknown strategy 'fastest'");
    expectOnly(dir, []);
  });

  test('refuses to replace a directory that is not a bundle', async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    const s = captureIo();
    const code = await compileCommand.run([path.join(MLP, 'model.onnx'), '-o', dir, '--target', softmaxTarget()], s);
    expect(code).toBe(1);
    expect(s.err).toContain('is not a bundle directory');
    expect(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  test('usage errors', async () => {
    const s = captureIo();
    expect(await compileCommand.run([path.join(MLP, 'model.onnx')], s)).toBe(1);
    expect(s.err).toContain('-o DIR (the bundle directory) is required');
  });
});

describe('input shapes from the --input files', () => {
  /** mlp with its batch made symbolic (`N x 784`). */
  function symbolicMlp(): OnnxModel {
    const model = readOnnxFile(path.join(MLP, 'model.onnx')).model!;
    const inputs = model.graph.inputs.map((i) => ({ ...i, shape: ['N', ...(i.shape ?? []).slice(1)] }));
    return { ...model, graph: { ...model.graph, inputs } };
  }

  test('a symbolic batch takes the .npy shape; --input-shape wins; static inputs are left alone', () => {
    const model = symbolicMlp();
    expect(bindInputShapes(model, {}, [[1, 784]])).toEqual({ shapes: { input: [1, 784] }, inferred: [{ name: 'input', shape: [1, 784] }] });
    expect(bindInputShapes(model, { input: [2, 784] }, [[1, 784]])).toEqual({ shapes: { input: [2, 784] }, inferred: [] });
    expect(bindInputShapes(model, {}, [])).toEqual({ shapes: {}, inferred: [] });
    const fixed = readOnnxFile(path.join(MLP, 'model.onnx')).model!;
    expect(bindInputShapes(fixed, {}, [[1, 784]])).toEqual({ shapes: {}, inferred: [] });
  });

  test('the symbolic mlp compiles with the inferred binding (and is refused without one)', () => {
    const model = symbolicMlp();
    const flags = { ...defaultCompileFlags(), target: softmaxTarget() };
    const without = captureIo();
    expect(compileWithFlags('run', model, flags, {}, without)).toBeUndefined();
    expect(without.err).toContain('input');
    const s = captureIo();
    const compiled = compileWithFlags('run', model, flags, bindInputShapes(model, {}, [[1, 784]]).shapes, s);
    expect(s.err).toBe('');
    expect(compiled?.bundle.inputs.map((i) => i.shape)).toEqual([[1, 784]]);
  }, 60_000);
});

describe('raptor run', () => {
  test('mnist-8: pim-sim matches onnxruntime; latency, throughput, energy and their bounds', async () => {
    const dir = tmp();
    const s = captureIo();
    const code = await runCommand.run(
      [path.join(EXAMPLE, 'model.onnx'), '--input', path.join(EXAMPLE, 'input_0.npy'), '--output-dir', dir, '--reference-dir', EXAMPLE],
      s,
    );
    expect(s.err).toBe('');
    expect(code).toBe(0);
    expect(s.out).toMatch(/^output 0: max \|diff\| vs reference = .*: ok$/m);
    expect(s.out).toMatch(/^latency: +[\d.]+ (ns|us|ms) \([\d.]+x the bound latency_min/m);
    const throughput = /^throughput: +([\d.]+) inferences\/s \(bound throughput_max [\d.]+\/s is [\d.]+x\)$/m.exec(s.out);
    expect(Number(throughput?.[1])).toBeGreaterThan(0);
    expect(s.out).toMatch(/^energy: +[\d.]+ uJ per inference$/m);
    expect(fs.existsSync(path.join(dir, 'output_0.npy'))).toBe(true);
  }, 120_000);

  test('mlp --json: one object with the comparison and the figures; a wrong reference exits 1', async () => {
    const dir = tmp();
    const s = captureIo();
    const args = [path.join(MLP, 'model.onnx'), '--input', path.join(MLP, 'input_0.npy'), '--output-dir', path.join(dir, 'out'), '--target', softmaxTarget(), '--json'];
    const code = await runCommand.run([...args, '--reference-dir', MLP], s);
    expect(s.err).toBe('');
    expect(code).toBe(0);
    const lines = s.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const r = JSON.parse(lines[0]!);
    expect(r.ok).toBe(true);
    expect(r.outputs).toHaveLength(1);
    expect(r.outputs[0].matches).toBe(true);
    expect(r.latencyNs).toBeGreaterThan(0);
    expect(r.energyPj).toBeGreaterThan(0);
    expect(r.throughputPerS).toBeGreaterThan(0);
    expect(r.latencyOverBound).toBeCloseTo(r.latencyNs / r.bounds.latencyMinNs, 9);

    // Another model's reference: the comparison fails, exit 1.
    const wrong = captureIo();
    expect(await runCommand.run([...args, '--reference-dir', EXAMPLE], wrong)).toBe(1);
    expect(JSON.parse(wrong.out).outputs[0].matches).toBe(false);
  }, 60_000);

  test('needs --input', async () => {
    const s = captureIo();
    expect(await runCommand.run([path.join(MLP, 'model.onnx')], s)).toBe(1);
    expect(s.err).toContain('--input FILE.npy is required');
  });
});
