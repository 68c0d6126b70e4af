/**
 * The lowering operator by operator: small models run through importOnnxModel + the
 * interpreter and through onnxruntime-node on the same random input must agree; fused and
 * tiled forms are checked in the generated IR; unsupported forms report diagnostics.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { formatDiagnostic, importOnnxModel, readOnnxModel, runImportedModule, type ImportOnnxOptions } from '@raptor-pim/onnx-frontend';
import { type ModelSpec, encodeModel, floatTensor, int64Tensor, node, valueInfo } from './build-model';
import { count, randomValues } from './helpers';

jest.setTimeout(120_000);

/** Deterministic pseudo-random values in [-1, 1). */
const random = (n: number, seed: number): number[] => randomValues(n, seed);

const weights = (name: string, dims: number[], seed: number) => floatTensor(name, dims, random(count(dims), seed));

function importSpec(spec: ModelSpec, options: ImportOnnxOptions = {}) {
  const { model, diagnostics } = readOnnxModel(encodeModel(spec), { file: 'case.onnx' });
  expect(diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  return importOnnxModel(model!, options);
}

/** Runs the model in onnxruntime-node (in a child process) on input `x`; returns output `y`. */
function runOrt(model: Uint8Array, dims: number[], x: Float32Array): { dims: number[]; data: number[] } {
  const request = JSON.stringify({ model: Buffer.from(model).toString('base64'), feeds: { x: { dims, data: Array.from(x) } } });
  const reply = JSON.parse(execFileSync(process.execPath, [path.join(__dirname, 'support/ort-run.cjs')], { input: request }).toString()) as { outputs?: Record<string, { dims: number[]; data: number[] }>; error?: string };
  if (!reply.outputs) throw new Error(`onnxruntime: ${reply.error}`);
  return reply.outputs['y']!;
}

/** Imports, interprets and compares with onnxruntime; returns the generated text. */
async function differential(spec: ModelSpec, inputShape: number[], options: ImportOnnxOptions = {}): Promise<string> {
  const imported = importSpec(spec, options);
  expect(imported.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  const x = Float32Array.from(random(count(inputShape), 7));
  const ours = runImportedModule(imported, [{ shape: inputShape, data: x }]);
  if (!ours.ok) throw new Error(ours.diagnostics.map(formatDiagnostic).join('\n'));
  const y = runOrt(encodeModel(spec), inputShape, x);
  expect(ours.outputs[0]!.shape).toEqual([...y.dims]);
  const want = y.data;
  const got = ours.outputs[0]!.data;
  const maxRef = want.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThanOrEqual(1e-5 * maxRef + 1e-4 * Math.abs(want[i]!) + 1e-6);
  return imported.text;
}

const single = (n: ReturnType<typeof node>, inputShape: number[], initializers: ModelSpec['initializers'] = [], opset = 13): ModelSpec => ({
  nodes: [n],
  inputs: [valueInfo('x', inputShape)],
  outputs: [valueInfo('y', undefined)],
  initializers,
  opset,
});

const occurrences = (text: string, what: string) => text.split(what).length - 1;

const RESIZE_LINEAR = "case.onnx: node 'rs' (#0): error: cannot lower Resize (node 'rs'): mode 'linear' is not supported (only mode 'nearest' is lowered; linear and cubic interpolation are not)";

describe('operators match onnxruntime', () => {
  it.each([
    ['pads, strides, bias', { pads: [1, 0, 2, 1], strides: [2, 1] }, 1, [6, 4, 3, 3]],
    ['groups and dilations', { group: 2, dilations: [2, 1], pads: [1, 1, 1, 1] }, 2, [6, 2, 3, 2]],
    ['auto_pad SAME_UPPER, stride 2', { auto_pad: 'SAME_UPPER', strides: [2, 2] }, 1, [6, 4, 3, 3]],
    ['auto_pad SAME_LOWER', { auto_pad: 'SAME_LOWER' }, 1, [6, 4, 2, 2]],
  ])('Conv: %s', async (_name, attrs, _group, wDims) => {
    const spec = single(node('Conv', ['x', 'w', 'b'], ['y'], attrs, 'conv'), [1, 4, 7, 8], [weights('w', wDims, 1), weights('b', [6], 2)]);
    const text = await differential(spec, [1, 4, 7, 8]);
    expect(text).toContain('"spat.conv2d_plan"');
    expect(text).toContain('loc("conv")');
  });

  it('Conv + BatchNormalization + Add(bias) + Relu: BN and the bias add fold into one conv2d_plan', async () => {
    const spec: ModelSpec = {
      nodes: [
        node('Conv', ['x', 'w'], ['c'], { pads: [1, 1, 1, 1] }, 'conv'),
        node('BatchNormalization', ['c', 'g', 'be', 'm', 'v'], ['bn'], { epsilon: 1e-3 }, 'bn'),
        node('Add', ['bn', 'bias'], ['a'], {}, 'add'),
        node('Relu', ['a'], ['y'], {}, 'relu'),
      ],
      inputs: [valueInfo('x', [1, 3, 6, 6])],
      outputs: [valueInfo('y', undefined)],
      initializers: [
        weights('w', [5, 3, 3, 3], 3),
        weights('g', [5], 4),
        weights('be', [5], 5),
        weights('m', [5], 6),
        floatTensor('v', [5], random(5, 8).map((v) => v + 1.5)),
        weights('bias', [5, 1, 1], 9),
      ],
    };
    const text = await differential(spec, [1, 3, 6, 6]);
    expect(occurrences(text, '"spat.conv2d_plan"')).toBe(1);
    expect(text).not.toContain('bias_add_plan');
    expect(text).not.toContain('add_plan');
  });

  it('standalone BatchNormalization lowers to a depthwise 1x1 conv2d_plan', async () => {
    const spec = single(node('BatchNormalization', ['x', 'g', 'be', 'm', 'v'], ['y'], {}, 'bn'), [1, 3, 4, 4], [
      weights('g', [3], 4), weights('be', [3], 5), weights('m', [3], 6), floatTensor('v', [3], [1, 2, 3]),
    ]);
    expect(await differential(spec, [1, 3, 4, 4])).toContain('group = 3 : i64');
  });

  it.each([
    ['3x3 stride 2 pads 1', { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] }],
    ['2x2 ceil_mode', { kernel_shape: [2, 2], strides: [2, 2], ceil_mode: 1 }],
    ['auto_pad SAME_UPPER', { kernel_shape: [3, 3], auto_pad: 'SAME_UPPER' }],
  ])('MaxPool: %s', async (_name, attrs) => {
    expect(await differential(single(node('MaxPool', ['x'], ['y'], attrs), [1, 2, 7, 9]), [1, 2, 7, 9])).toContain('spat.max_pool2d_plan');
  });

  it('GlobalAveragePool', async () => {
    expect(await differential(single(node('GlobalAveragePool', ['x'], ['y']), [1, 3, 5, 4]), [1, 3, 5, 4])).toContain('spat.global_average_pool_plan');
  });

  it('Resize nearest asymmetric floor (scales input)', async () => {
    const spec = single(node('Resize', ['x', '', 's'], ['y'], { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' }), [1, 2, 3, 4], [floatTensor('s', [4], [1, 1, 2, 3])], 13);
    expect(await differential(spec, [1, 2, 3, 4])).toContain('spat.resize_nearest_plan');
  });

  it('Upsample nearest (opset 9)', async () => {
    const spec = single(node('Upsample', ['x', 's'], ['y'], { mode: 'nearest' }), [1, 2, 3, 4], [floatTensor('s', [4], [1, 1, 2, 2])], 9);
    expect(await differential(spec, [1, 2, 3, 4])).toContain('spat.resize_nearest_plan');
  });

  it('Mul(x, Sigmoid(x)) becomes spat.silu_plan; Sigmoid alone a graph_compute with spat.sigmoid', async () => {
    const silu: ModelSpec = {
      nodes: [node('Sigmoid', ['x'], ['s'], {}, 'sig'), node('Mul', ['x', 's'], ['y'], {}, 'mul')],
      inputs: [valueInfo('x', [1, 2, 3, 3])],
      outputs: [valueInfo('y', undefined)],
    };
    const text = await differential(silu, [1, 2, 3, 3]);
    expect(text).toContain('"spat.silu_plan"');
    expect(text).toContain('loc("mul")');
    expect(await differential(single(node('Sigmoid', ['x'], ['y']), [1, 5]), [1, 5])).toContain('spat.sigmoid');
  });

  it('Add: runtime + runtime (add_plan), per-channel constant (bias_add_plan), rank 2 (graph_compute + spat.vadd)', async () => {
    const twoInputs: ModelSpec = {
      nodes: [node('Relu', ['x'], ['r']), node('Add', ['x', 'r'], ['y'])],
      inputs: [valueInfo('x', [1, 2, 3, 3])],
      outputs: [valueInfo('y', undefined)],
    };
    expect(await differential(twoInputs, [1, 2, 3, 3])).toContain('"spat.add_plan"');
    expect(await differential(single(node('Add', ['x', 'c'], ['y']), [1, 3, 2, 2], [weights('c', [1, 3, 1, 1], 3)]), [1, 3, 2, 2])).toContain('"spat.bias_add_plan"');
    expect(await differential(single(node('Add', ['c', 'x'], ['y']), [2, 3], [weights('c', [3], 3)]), [2, 3])).toContain('spat.vadd');
  });

  it('Concat: channel axis as concat_plan, other axes as spat.concat', async () => {
    const spec = (axis: number): ModelSpec => ({
      nodes: [node('Relu', ['x'], ['r']), node('Concat', ['x', 'r', 'c'], ['y'], { axis })],
      inputs: [valueInfo('x', [1, 2, 3, 3])],
      outputs: [valueInfo('y', undefined)],
      initializers: [weights('c', [1, 2, 3, 3], 5)],
    });
    expect(await differential(spec(1), [1, 2, 3, 3])).toContain('"spat.concat_plan"');
    expect(await differential(spec(-1), [1, 2, 3, 3])).toContain('spat.concat axis 3');
  });

  it('Clip (opset 13 inputs, opset 6 attributes), HardSigmoid and a runtime broadcast Mul [1,C,1,1] x [1,C,H,W]', async () => {
    const clip13 = single(node('Clip', ['x', 'lo', 'hi'], ['y']), [1, 2, 3, 3], [floatTensor('lo', [], [-0.25]), floatTensor('hi', [], [0.5])]);
    expect(await differential(clip13, [1, 2, 3, 3])).toContain('spat.vmax');
    const clip6 = single(node('Clip', ['x'], ['y'], { min: -0.125, max: 0.5 }), [2, 5], [], 6);
    expect(await differential(clip6, [2, 5])).toContain('spat.vmax');
    expect(await differential(single(node('HardSigmoid', ['x'], ['y'], { alpha: 0.375, beta: 0.25 }), [1, 6]), [1, 6])).toContain('spat.vmul');
    const se: ModelSpec = {
      nodes: [node('GlobalAveragePool', ['x'], ['g']), node('Mul', ['x', 'g'], ['y'], {}, 'scale')],
      inputs: [valueInfo('x', [1, 3, 2, 4])],
      outputs: [valueInfo('y', undefined)],
    };
    const text = await differential(se, [1, 3, 2, 4]);
    expect(text).toContain('spat.concat axis 2');
    expect(text).toContain('spat.concat axis 3');
  });

  it('Split along channels: one graph_compute with a static extract_slice per output', async () => {
    const spec: ModelSpec = {
      nodes: [node('Split', ['x', 's'], ['a', 'b'], { axis: 1 }, 'split'), node('Concat', ['b', 'a'], ['y'], { axis: 1 })],
      inputs: [valueInfo('x', [1, 5, 2, 3])],
      outputs: [valueInfo('y', undefined)],
      initializers: [int64Tensor('s', [2, 3])],
    };
    const text = await differential(spec, [1, 5, 2, 3]);
    expect(text).toMatch(/tensor\.extract_slice %\w+\[0, 0, 0, 0\] \[1, 2, 2, 3\]/);
    expect(text).toContain('[0, 2, 0, 0] [1, 3, 2, 3]');
  });

  it('Flatten and flatten-like Reshape become spat.flatten_plan', async () => {
    expect(await differential(single(node('Flatten', ['x'], ['y'], { axis: 2 }), [1, 2, 3, 4]), [1, 2, 3, 4])).toContain('axis = 2 : i64');
    expect(await differential(single(node('Reshape', ['x', 't'], ['y']), [1, 2, 3, 4], [int64Tensor('t', [1, -1])]), [1, 2, 3, 4])).toContain('"spat.flatten_plan"');
  });

  it('Gemm with transB, alpha, beta and C: weights tiled to the crossbar size (K=20, N=12 on 8x8 -> 3x2 tiles)', async () => {
    const spec = single(node('Gemm', ['x', 'w', 'c'], ['y'], { transB: 1, alpha: 0.5, beta: 1.5 }, 'fc'), [1, 20], [weights('w', [12, 20], 3), weights('c', [12], 4)]);
    const text = await differential(spec, [1, 20], { crossbarSize: 8 });
    expect(occurrences(text, 'spat.wvmm')).toBe(6);
    expect(text).toContain('crossbarWeights 6');
    expect(text).toContain('spat.concat axis 1');
    expect(text).toContain('loc("fc")');
  });

  it('Gemm + BatchNormalization: BN folded into the weight tiles and the bias', async () => {
    const spec: ModelSpec = {
      nodes: [node('Gemm', ['x', 'w', 'c'], ['g'], {}, 'fc'), node('BatchNormalization', ['g', 's', 'b', 'm', 'v'], ['y'], {}, 'bn')],
      inputs: [valueInfo('x', [2, 6])],
      outputs: [valueInfo('y', undefined)],
      initializers: [weights('w', [6, 4], 3), weights('c', [4], 4), weights('s', [4], 5), weights('b', [4], 6), weights('m', [4], 7), floatTensor('v', [4], [0.5, 1, 2, 4])],
    };
    const text = await differential(spec, [2, 6]);
    expect(text).not.toContain('conv2d_plan');
    expect(occurrences(text, 'spat.graph_compute_batch')).toBe(1);
  });

  it('MatMul + Add with 3 rows: graph_compute_batch with one lane per row and a blueprint', async () => {
    const spec: ModelSpec = {
      nodes: [node('MatMul', ['x', 'w'], ['m']), node('Add', ['m', 'b'], ['y'])],
      inputs: [valueInfo('x', [3, 10])],
      outputs: [valueInfo('y', undefined)],
      initializers: [weights('w', [10, 4], 3), weights('b', [4], 4)],
    };
    const text = await differential(spec, [3, 10], { crossbarSize: 4 });
    expect(text).toContain('spat.graph_compute_batch');
    expect(text).toContain('spat.blueprint');
    expect(occurrences(text, 'spat.wvmm')).toBe(3);
  });

  it('Softmax over rows (few rows: one graph_compute; many rows: a batch with one lane per row) and Identity/Dropout dropped', async () => {
    const spec = (rows: number): ModelSpec => ({
      nodes: [node('Identity', ['x'], ['i']), node('Dropout', ['i'], ['d']), node('Softmax', ['d'], ['y'], { axis: 1 })],
      inputs: [valueInfo('x', [rows, 6])],
      outputs: [valueInfo('y', undefined)],
    });
    expect(await differential(spec(1), [1, 6])).toContain('spat.softmax');
    const two = await differential(spec(2), [2, 6]);
    expect(occurrences(two, 'spat.softmax(')).toBe(2);
    expect(two).not.toContain('spat.graph_compute_batch');
    expect(await differential(spec(20), [20, 6])).toContain('spat.graph_compute_batch');
  });
});

describe('diagnostics', () => {
  it('an unsupported form of a lowered operator names the node and the reason', () => {
    const r = importSpec(single(node('Resize', ['x', '', 's'], ['y'], { mode: 'linear' }, 'rs'), [1, 1, 2, 2], [floatTensor('s', [4], [1, 1, 2, 2])]));
    expect(r.module).toBeUndefined();
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([RESIZE_LINEAR]);
  });

  it('an operator outside the supported list names the node, the opset and the supported operators', () => {
    const r = importSpec(single(node('Erf', ['x'], ['y'], {}, 'e0'), [1, 4]));
    expect(r.module).toBeUndefined();
    expect(r.diagnostics.map(formatDiagnostic).join('\n')).toContain("unsupported operator 'Erf' (node 'e0', opset 13); supported: Add, AveragePool, BatchNormalization");
  });

  it('a Conv weight that is a runtime value is refused (crossbar weights are compile-time constants)', () => {
    const conv = importSpec({ nodes: [node('Conv', ['x', 'w'], ['y'], {}, 'c0')], inputs: [valueInfo('x', [1, 1, 3, 3]), valueInfo('w', [1, 1, 2, 2])], outputs: [valueInfo('y', undefined)] });
    expect(conv.diagnostics.map(formatDiagnostic).join()).toContain("cannot lower Conv (node 'c0'): the weight is not a constant");
  });

  it('output is deterministic', () => {
    const spec = single(node('Gemm', ['x', 'w'], ['y']), [1, 20], [weights('w', [20, 12], 3)]);
    expect(importSpec(spec).text).toBe(importSpec(spec).text);
  });
});
