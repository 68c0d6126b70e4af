import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '@raptor-pim/cli';
import { TargetKey, createRaptorPassRegistry } from '@raptor-pim/compiler';
import { createPass } from '@raptor-pim/ir-core';
import { OnnxDataType, readNpy, writeNpy } from '@raptor-pim/onnx-frontend';
import { defaultTarget, loadTarget, saveTarget, type Target } from '@raptor-pim/pim-target';
import { parseOptArgs, runOpt } from '../src/commands/opt';
import { captureIo } from './support/capture-io';
import { temporaryDirectories } from './support/temp-dirs';

jest.setTimeout(60_000);

const SHARED = process.env['RAPTOR_SHARED'] ?? path.resolve(__dirname, '../../../../shared');
const MLP = path.join(SHARED, 'models/mlp');
const ARCH = path.join(SHARED, 'spec/pimsim-nn-example/arch/latency_config.json');
const io = captureIo;
const tmp = temporaryDirectories('raptor-opt-run-');

/** Three cores each compute (x - sigmoid(x)) * sigmoid(x) on one row, on tensors (before bufferization). */
const PIM_STREAMS = `func.func @main(%arg0: memref<3x4xf32>) -> memref<3x4xf32> {
  %alloc = memref.alloc() : memref<3x4xf32>
  pim.core_batch %lane = 0 to 3 [] = [] () = () coreIds [2 to 4] : [] () -> () {
    %c16 = arith.constant 16 : index
    %c0 = arith.constant 0 : index
    %0 = arith.muli %lane, %c16 : index
    %1 = tensor.empty() : tensor<1x4xf32>
    %2 = pim.memcp_hd[%c0, %0](%1, %arg0) {size = 16 : i32} : tensor<1x4xf32>, memref<3x4xf32> -> tensor<1x4xf32>
    %3 = tensor.empty() : tensor<1x4xf32>
    %4 = pim.vsigm(%2, %3) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %5 = tensor.empty() : tensor<1x4xf32>
    %6 = pim.vvsub(%2, %4, %5) : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %7 = tensor.empty() : tensor<1x4xf32>
    %8 = pim.vvmul(%6, %4, %7) : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %9 = arith.muli %lane, %c16 : index
    %10 = pim.memcp_dh[%9, %c0](%alloc, %8) {size = 16 : i32} : memref<3x4xf32>, tensor<1x4xf32> -> memref<3x4xf32>
    pim.halt
  }
  return %alloc : memref<3x4xf32>
}
`;

/** The mlp model imported to a Spatial module file (once). */
let spatialFile = '';
beforeAll(async () => {
  spatialFile = path.join(tmp(), 'mlp.mlir');
  const s = io();
  expect(await runCli(['import', path.join(MLP, 'model.onnx'), '-o', spatialFile], s)).toBe(0);
});

describe('raptor opt --run', () => {
  it('interprets the Spatial module after raptor-frontend like raptor import --run, matching onnxruntime', async () => {
    const optDir = tmp();
    const a = io();
    const code = await runCli(
      ['opt', spatialFile, '--pass-pipeline=builtin.module(raptor-frontend)', '--run', '--input', path.join(MLP, 'input_0.npy'), '--output-dir', optDir, '--reference-dir', MLP],
      a,
    );
    expect(a.err).toBe('');
    expect(code).toBe(0);
    expect(a.out).toMatch(/^output 0 'result0' \[1x10\] -> .*output_0\.npy\noutput 0: max \|diff\| vs reference = [0-9.e+-]+ \(rtol 1e-3, atol 1e-5\*max\|ref\|\): ok\n$/);
    // Byte-identical to what `raptor import --run` writes for the model.
    const importDir = tmp();
    const b = io();
    expect(await runCli(['import', path.join(MLP, 'model.onnx'), '--run', '--input', `input=${path.join(MLP, 'input_0.npy')}`, '--output-dir', importDir], b)).toBe(0);
    expect(fs.readFileSync(path.join(optDir, 'output_0.npy'))).toEqual(fs.readFileSync(path.join(importDir, 'output_0.npy')));
    // Inputs by argument name (arg<k> when the file carries no loc("name")); -o still writes the module.
    const c = io();
    const out = path.join(tmp(), 'after.mlir');
    expect(await runCli(['opt', spatialFile, '--run', '--input', `arg0=${path.join(MLP, 'input_0.npy')}`, '--output-dir', tmp(), '-o', out], c)).toBe(0);
    expect(c.out).toMatch(/^output 0 'result0' \[1x10\]/);
    expect(fs.readFileSync(out, 'utf8')).toMatch(/^module \{\n  func\.func @main/);
  });

  it('runs a PIM-level module before and after bufferization (pim.core_batch on tensors, then planned memrefs)', async () => {
    const file = path.join(tmp(), 'pim.mlir');
    fs.writeFileSync(file, PIM_STREAMS);
    const x = Float32Array.from({ length: 12 }, (_, i) => (i - 6) / 3);
    const input = path.join(tmp(), 'x.npy');
    fs.writeFileSync(input, writeNpy({ dataType: OnnxDataType.FLOAT, dims: [3, 4], data: x }));
    const outputs: Float32Array[] = [];
    for (const pipeline of [[], ['--pass-pipeline=builtin.module(pim-bufferize,pim-plan-memory,pim-verify-memory)']]) {
      const dir = tmp();
      const s = io();
      expect(await runCli(['opt', file, ...pipeline, '--run', '--input', input, '--output-dir', dir], s)).toBe(0);
      expect(s.err).toBe('');
      expect(s.out).toMatch(/^output 0 'result0' \[3x4\] -> /);
      outputs.push(readNpy(fs.readFileSync(path.join(dir, 'output_0.npy'))).tensor!.data as Float32Array);
    }
    const sig = (v: number) => 1 / (1 + Math.exp(-v));
    for (let i = 0; i < 12; i++) expect(outputs[0]![i]).toBeCloseTo((x[i]! - sig(x[i]!)) * sig(x[i]!), 5);
    expect(outputs[1]).toEqual(outputs[0]);
  });

  it('compiles the imported mlp with raptor-compile to a bundle that raptor sim runs to onnxruntime\'s outputs', async () => {
    const dir = tmp();
    const target = defaultTarget();
    target.config.raptor_config.allow_vsoftmax = true; // mlp ends in Softmax
    saveTarget(target, path.join(dir, 'arch', 'target.json'));
    const bundle = path.join(dir, 'bundle');
    const a = io();
    const pipeline = `--pass-pipeline=builtin.module(raptor-compile,pim-emit{bundle-dir=${bundle}})`;
    expect(await runCli(['opt', spatialFile, '--target', path.join(dir, 'arch', 'target.json'), pipeline, '-o', path.join(dir, 'final.mlir')], a)).toBe(0);
    expect(a.err).toBe('');
    expect(fs.readFileSync(path.join(dir, 'final.mlir'), 'utf8')).toContain('pim.core');
    const b = io();
    expect(await runCli(['sim', bundle, '--input', `input_0=${path.join(MLP, 'input_0.npy')}`, '--output-dir', path.join(dir, 'sim')], b)).toBe(0);
    const got = readNpy(fs.readFileSync(path.join(dir, 'sim', 'output_0.npy'))).tensor!.data as Float32Array;
    const want = readNpy(fs.readFileSync(path.join(MLP, 'output_0.npy'))).tensor!.data as Float32Array;
    expect(got.length).toBe(want.length);
    for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThan(1e-5);
  });

  it('chooses @main or the only public function, or says which to choose with --entry', async () => {
    const two = 'func.func @a(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\nfunc.func @b(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %y = arith.addf %x, %x : tensor<2xf32>\n  return %y : tensor<2xf32>\n}\n';
    const a = io(two);
    expect(await runCli(['opt', '-', '--run'], a)).toBe(1);
    expect(a.err).toContain('the module has no @main and 2 public functions (@a, @b); choose one with --entry NAME');
    const b = io(two);
    expect(await runCli(['opt', '-', '--run', '--entry', 'c'], b)).toBe(1);
    expect(b.err).toContain('no function @c in the module; the functions are: @a, @b');
    const c = io(two);
    expect(await runCli(['opt', '-', '--run', '--entry', 'b'], c)).toBe(1);
    expect(c.err).toContain("raptor opt: no --input given for @b argument 'arg0'");
    const d = io(two);
    expect(await runCli(['opt', '-', '--run', '--entry', 'b', '--input', path.join(MLP, 'input_0.npy')], d)).toBe(1);
    expect(d.err).toContain("input #0 'arg0' has shape [1x784], the function expects [2]");
    const e = io(two.replace('%x: tensor<2xf32>)', '%x: tensor<2xf32> loc("x"))'));
    expect(await runCli(['opt', '-', '--run', '--input', `nope=${path.join(MLP, 'input_0.npy')}`, '--entry', 'a'], e)).toBe(1);
    expect(e.err).toContain("raptor opt: --input 'nope' matches no @a argument; the inputs are: x");
  });

  it('rejects run flags without --run, --run with --split-input-file, and bad targets (exit 1)', async () => {
    const a = io();
    expect(await runCli(['opt', spatialFile, '--input', 'x.npy'], a)).toBe(1);
    expect(a.err).toContain('raptor opt: --input needs --run');
    const b = io();
    expect(await runCli(['opt', spatialFile, '--run', '--split-input-file'], b)).toBe(1);
    expect(b.err).toContain('--run cannot be combined with --split-input-file');
    const c = io();
    expect(await runCli(['opt', spatialFile, '--target', path.join(tmp(), 'missing.json')], c)).toBe(1);
    expect(c.err).toContain("raptor opt: cannot use the target configuration '");
    const d = io();
    expect(await runCli(['opt', spatialFile, '--pass-pipeline=builtin.module(canonicalize{max-iterations=-x})'], d)).toBe(1);
    expect(d.err).toContain("invalid value '-x' for option 'max-iterations' of pass 'canonicalize'");
    // Every stage's passes are known to raptor opt (here the scheduler's, refusing an unknown strategy).
    const e = io();
    expect(await runCli(['opt', spatialFile, '--pass-pipeline=builtin.module(spat-schedule{strategy=no-such})'], e)).toBe(1);
    expect(e.err).toContain("'no-such'");
  });

  it("--target FILE is what the passes read under 'raptor.target' (default: the built-in target)", async () => {
    const seen: (Target | undefined)[] = [];
    const registry = createRaptorPassRegistry();
    registry.registerPass(() => createPass({ argument: 'test-read-target', description: 'records the target', run: (_op, pass) => void seen.push(pass.getContext(TargetKey)) }));
    for (const extra of [['--target', ARCH], []]) {
      const s = io('func.func @f() {\n  return\n}\n');
      const args = parseOptArgs(['-', '--pass-pipeline=builtin.module(test-read-target)', ...extra], s);
      expect(await runOpt(args as Exclude<typeof args, number>, s, registry)).toBe(0);
    }
    expect(seen[0]).toEqual(loadTarget(ARCH).value);
    expect(seen[1]).toEqual(defaultTarget());
    expect(seen[0]).not.toEqual(seen[1]);
  });

  it('--print-ir-after=cse dumps after cse only; --dump-pass-pipeline prints raptor-frontend expanded', async () => {
    const s = io();
    expect(await runCli(['opt', spatialFile, '--pass-pipeline=builtin.module(raptor-frontend)', '--print-ir-after=cse', '--dump-pass-pipeline', '-o', path.join(tmp(), 'o.mlir')], s)).toBe(0);
    const lines = s.err.split('\n');
    expect(lines[0]).toMatch(/^builtin\.module\(func\.func\(canonicalize\{.*\},cse\)\)$/);
    expect(s.err).toContain('// -----// IR Dump After');
    expect(s.err).toContain('(cse)');
    expect(s.err).not.toContain('(canonicalize)');
  });
});
