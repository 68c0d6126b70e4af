import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '@raptor-pim/cli';
import { createRaptorContext } from '@raptor-pim/compiler';
import { parseSourceString, verify } from '@raptor-pim/ir-core';
import { OnnxDataType, readNpy, readTensorProtoFile, tensorToNumbers, writeNpy } from '@raptor-pim/onnx-frontend';
import { captureIo } from './support/capture-io';
import { temporaryDirectories } from './support/temp-dirs';

jest.setTimeout(120_000);

const MODELS = path.resolve(__dirname, '../../../../shared/models');

const NODE_TESTS = process.env['ONNX_TESTDATA_DIR'] ? path.join(process.env['ONNX_TESTDATA_DIR'], 'node') : '/usr/include/onnx/backend/test/data/node';

const io = captureIo;

/** Converts test_data_set_0/<name>.pb of an ONNX node test to <dir>/<name>.npy. */
function pbToNpy(test: string, name: string, dir: string): string {
  const t = readTensorProtoFile(path.join(NODE_TESTS, test, 'test_data_set_0', `${name}.pb`)).tensor!;
  const file = path.join(dir, `${name}.npy`);
  fs.writeFileSync(file, writeNpy({ dataType: OnnxDataType.FLOAT, dims: t.dims, data: Float32Array.from(tensorToNumbers(t)) }));
  return file;
}

const tmp = temporaryDirectories('raptor-import-');

describe('raptor import', () => {
  it('prints a module of Spatial ops that parses and verifies again; -o writes the same text', async () => {
    const a = io();
    expect(await runCli(['import', path.join(MODELS, 'lenet5/model.onnx')], a)).toBe(0);
    expect(a.err).toBe('');
    expect(a.out).toMatch(/^module \{\n  func\.func @main\(%arg0: tensor<1x1x28x28xf32>\)/);
    expect(a.out).toContain('"spat.conv2d_plan"');
    expect(a.out).toContain('spat.graph_compute');
    const ctx = createRaptorContext();
    const { result } = ctx.diagnostics.capture(() => {
      const m = parseSourceString(ctx, a.out);
      return m !== undefined && verify(m);
    });
    expect(result).toBe(true);
    const file = path.join(tmp(), 'out.mlir');
    const b = io();
    expect(await runCli(['import', path.join(MODELS, 'lenet5/model.onnx'), '-o', file], b)).toBe(0);
    expect(b.out).toBe('');
    expect(fs.readFileSync(file, 'utf8')).toBe(a.out);
    // `-o -` is standard output (no file named '-').
    const c = io();
    const cwd = process.cwd();
    process.chdir(tmp());
    try {
      expect(await runCli(['import', path.join(MODELS, 'lenet5/model.onnx'), '-o', '-'], c)).toBe(0);
      expect(fs.existsSync('-')).toBe(false);
    } finally {
      process.chdir(cwd);
    }
    expect(c.out).toBe(a.out);
  });

  it('--run writes output_<k>.npy and compares with --reference-dir (mlp_batch4, inputs by order and by name)', async () => {
    const dir = path.join(MODELS, 'mlp_batch4');
    for (const input of [path.join(dir, 'input_0.npy'), `input=${path.join(dir, 'input_0.npy')}`]) {
      const out = tmp();
      const a = io();
      const code = await runCli(['import', path.join(dir, 'model.onnx'), '--run', '--input', input, '--output-dir', out, '--reference-dir', dir], a);
      expect(a.err).toBe('');
      expect(code).toBe(0);
      expect(a.out).toMatch(/output 0 '.*' \[4x10\] -> .*output_0\.npy\noutput 0: max \|diff\| vs reference = [0-9.e+-]+ \(rtol 1e-3, atol 1e-5\*max\|ref\|\): ok\n$/);
      const { tensor } = readNpy(fs.readFileSync(path.join(out, 'output_0.npy')));
      expect(tensor!.dataType).toBe(OnnxDataType.FLOAT);
      expect(tensor!.dims).toEqual([4, 10]);
    }
  });

  it('exits 1 on a reference mismatch, an unknown input name, a missing input and an unsupported operator', async () => {
    const dir = path.join(MODELS, 'mlp');
    const refDir = tmp();
    const ref = readNpy(fs.readFileSync(path.join(dir, 'output_0.npy'))).tensor!;
    const wrong = Float32Array.from(ref.data as Float32Array, (v, i) => (i === 3 ? v + 1 : v));
    fs.writeFileSync(path.join(refDir, 'output_0.npy'), writeNpy({ dataType: OnnxDataType.FLOAT, dims: ref.dims, data: wrong }));
    const a = io();
    expect(await runCli(['import', path.join(dir, 'model.onnx'), '--run', '--input', path.join(dir, 'input_0.npy'), '--output-dir', tmp(), '--reference-dir', refDir], a)).toBe(1);
    expect(a.out).toContain('MISMATCH');
    const b = io();
    expect(await runCli(['import', path.join(dir, 'model.onnx'), '--run', '--input', `nope=${path.join(dir, 'input_0.npy')}`], b)).toBe(1);
    expect(b.err).toContain("raptor import: --input 'nope' matches no graph input; the inputs are: ");
    const c = io();
    expect(await runCli(['import', path.join(dir, 'model.onnx'), '--run'], c)).toBe(1);
    expect(c.err).toContain('raptor import: no --input given for graph input');
    if (fs.existsSync(path.join(NODE_TESTS, 'test_erf/model.onnx'))) {
      const d = io();
      expect(await runCli(['import', path.join(NODE_TESTS, 'test_erf/model.onnx')], d)).toBe(1);
      expect(d.err).toMatch(/unsupported operator 'Erf' \(node '.*', opset \d+\); supported: Add, AveragePool/);
    }
    const e = io();
    expect(await runCli(['import', path.join(dir, 'model.onnx'), '--crossbar-size', '0'], e)).toBe(1);
    expect(e.err).toContain("--crossbar-size expects a positive integer, got '0'");
  });

  const convTest = path.join(NODE_TESTS, 'test_basic_conv_with_padding');
  (fs.existsSync(convTest) ? it : it.skip)('--const-input binds a weight fed as a graph input (ONNX node test basic_conv_with_padding)', async () => {
    const dir = tmp();
    const x = pbToNpy('test_basic_conv_with_padding', 'input_0', dir);
    const w = pbToNpy('test_basic_conv_with_padding', 'input_1', dir);
    const refDir = tmp();
    fs.renameSync(pbToNpy('test_basic_conv_with_padding', 'output_0', dir), path.join(refDir, 'output_0.npy'));
    const model = path.join(convTest, 'model.onnx');
    // Without binding, the weight is a runtime value: refused with the reason.
    const a = io();
    expect(await runCli(['import', model], a)).toBe(1);
    expect(a.err).toContain('the weight is not a constant');
    const b = io();
    const code = await runCli(['import', model, '--const-input', `W=${w}`, '--run', '--input', x, '--output-dir', tmp(), '--reference-dir', refDir], b);
    expect(b.err).toBe('');
    expect(code).toBe(0);
    expect(b.out).toMatch(/output 0: max \|diff\| vs reference = [0-9.e+-]+ .*: ok\n$/);
    const c = io();
    expect(await runCli(['import', model, '--const-input', 'W'], c)).toBe(1);
    expect(c.err).toContain("--const-input expects NAME=FILE.npy, got 'W'");
    const d = io();
    expect(await runCli(['import', model, '--const-input', `nope=${w}`], d)).toBe(1);
    expect(d.err).toContain("--input 'nope' matches no graph input; the inputs are: x, W");
  });
});
