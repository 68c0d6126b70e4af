/**
 * Convolution, pooling and matrix-product lowerings against onnxruntime-node: random
 * (fast-check, fixed seeds) Conv 1-D/2-D/3-D, MaxPool, AveragePool, global pools, Gemm and
 * MatMul models are imported, interpreted and compared with onnxruntime on the same inputs
 * (rtol 1e-3, atol 1e-5 * max|ref|); the shape of the generated IR is checked for the
 * decompositions (docs/lowering.md); every refusal reports its diagnostic.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import fc from 'fast-check';
import { formatDiagnostic, importOnnxModel, readOnnxModel, runImportedModule, type ImportOnnxOptions, type ImportedModule } from '@raptor-pim/onnx-frontend';
import { type ModelSpec, encodeModel, floatTensor, node, valueInfo } from './build-model';
import { count, randomValues } from './helpers';

jest.setTimeout(120_000);

/** Deterministic pseudo-random values in [-1, 1). */
const random = (n: number, seed: number): number[] => randomValues(n, seed);

const weights = (name: string, dims: number[], seed: number) => floatTensor(name, dims, random(count(dims), seed));

/** One model compared with onnxruntime: runtime inputs by name (graph-input order). */
interface Case {
  readonly name: string;
  readonly spec: ModelSpec;
  readonly inputs: readonly { readonly name: string; readonly dims: readonly number[] }[];
  readonly options?: ImportOnnxOptions;
}

function importCase(c: Pick<Case, 'spec' | 'options'>): ImportedModule {
  const { model, diagnostics } = readOnnxModel(encodeModel(c.spec), { file: 'case.onnx' });
  if (!model) throw new Error(diagnostics.map(formatDiagnostic).join('\n'));
  return importOnnxModel(model, c.options ?? {});
}

const feedsOf = (c: Case) => c.inputs.map((inp, i) => ({ ...inp, data: random(count(inp.dims), 17 + 31 * i) }));

type OrtReply = { outputs?: Record<string, { dims: number[]; data: number[] }>; error?: string };

/** Runs every case in onnxruntime in one child process. */
function runOrt(cases: readonly Case[]): OrtReply[] {
  const request = cases.map((c) => ({ model: Buffer.from(encodeModel(c.spec)).toString('base64'), feeds: Object.fromEntries(feedsOf(c).map((f) => [f.name, { dims: f.dims, data: f.data }])) }));
  const out = execFileSync(process.execPath, [path.join(__dirname, 'support/ort-run-batch.cjs')], { input: JSON.stringify(request), maxBuffer: 1 << 28 });
  return JSON.parse(out.toString()) as OrtReply[];
}

/** Imports and interprets `c` and compares its output with onnxruntime's `reply`. */
function check(c: Case, reply: OrtReply): void {
  if (!reply.outputs) throw new Error(`${c.name}: onnxruntime: ${reply.error}`);
  const imported = importCase(c);
  const errors = imported.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
  expect({ name: c.name, errors }).toEqual({ name: c.name, errors: [] });
  const ours = runImportedModule(imported, feedsOf(c).map((f) => ({ shape: f.dims, data: Float32Array.from(f.data) })));
  if (!ours.ok) throw new Error(`${c.name}: ${ours.diagnostics.map(formatDiagnostic).join('\n')}`);
  const want = reply.outputs['y']!;
  expect({ name: c.name, shape: ours.outputs[0]!.shape }).toEqual({ name: c.name, shape: want.dims });
  const got = ours.outputs[0]!.data;
  const maxRef = want.data.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  for (let i = 0; i < want.data.length; i++) {
    const tol = 1e-5 * maxRef + 1e-3 * Math.abs(want.data[i]!) + 1e-7;
    if (!(Math.abs(got[i]! - want.data[i]!) <= tol)) throw new Error(`${c.name}: y[${i}] = ${got[i]}, onnxruntime ${want.data[i]}`);
  }
}

// ---------------------------------------------------------------- random case generators

/** The values an arbitrary generates. */
type Params<A> = A extends fc.Arbitrary<infer T> ? T : never;

const axisArb = fc.record({ k: fc.integer({ min: 1, max: 3 }), s: fc.integer({ min: 1, max: 3 }), d: fc.integer({ min: 1, max: 2 }), pb: fc.integer({ min: 0, max: 2 }), pe: fc.integer({ min: 0, max: 2 }), extra: fc.integer({ min: 0, max: 4 }) });
type Axis = { k: number; s: number; d: number; pb: number; pe: number; extra: number };
const autoPadArb = fc.constantFrom('NOTSET', 'NOTSET', 'NOTSET', 'VALID', 'SAME_UPPER', 'SAME_LOWER');

/**
 * Window attributes and an input size per axis for which the window fits at least once.
 * SAME auto_pad keeps dilation 1: onnxruntime refuses dilated SAME convolutions and sizes
 * dilated SAME pools with the undilated kernel (not the ONNX formula); it also refuses SAME
 * windows whose stride exceeds the kernel (negative padding).
 */
function windowOf(axes0: readonly Axis[], autoPad: string, pool: boolean) {
  const axes = autoPad.startsWith('SAME') ? axes0.map((a) => ({ ...a, d: 1, s: Math.min(a.s, a.k) })) : axes0;
  const kernel = axes.map((a) => a.k);
  const strides = axes.map((a) => a.s);
  const dilations = axes.map((a) => a.d);
  const pb = axes.map((a) => (pool ? a.pb % a.k : a.pb));
  const pe = axes.map((a) => (pool ? a.pe % a.k : a.pe));
  const sizes = axes.map((a, i) => Math.max(1, (a.k - 1) * a.d + 1 - (autoPad === 'NOTSET' ? pb[i]! + pe[i]! : 0)) + (axes.length === 3 ? a.extra % 3 : a.extra));
  const attrs: Record<string, unknown> = { strides, dilations };
  if (autoPad === 'NOTSET') attrs['pads'] = [...pb, ...pe];
  else attrs['auto_pad'] = autoPad;
  return { kernel, sizes, attrs };
}

const convArb = fc.record({
  spatial: fc.integer({ min: 1, max: 3 }),
  n: fc.integer({ min: 1, max: 2 }),
  group: fc.integer({ min: 1, max: 3 }),
  cg: fc.integer({ min: 1, max: 2 }),
  cog: fc.integer({ min: 1, max: 2 }),
  axes: fc.array(axisArb, { minLength: 3, maxLength: 3 }),
  autoPad: autoPadArb,
  bias: fc.boolean(),
});

function convCase(p: Params<typeof convArb>, i: number): Case {
  const axes = p.axes.slice(0, p.spatial);
  const { kernel, sizes, attrs } = windowOf(axes, p.autoPad, false);
  const [cin, cout] = [p.group * p.cg, p.group * p.cog];
  const xDims = [p.n, cin, ...sizes];
  const inits = [weights('w', [cout, p.cg, ...kernel], 100 + i)];
  if (p.bias) inits.push(weights('bias', [cout], 200 + i));
  const spec: ModelSpec = { nodes: [node('Conv', ['x', 'w', ...(p.bias ? ['bias'] : [])], ['y'], { ...attrs, group: p.group }, 'conv')], inputs: [valueInfo('x', xDims)], outputs: [valueInfo('y', undefined)], initializers: inits, opset: 13 };
  return { name: `Conv ${JSON.stringify({ x: xDims, w: [cout, p.cg, ...kernel], group: p.group, ...attrs, bias: p.bias })}`, spec, inputs: [{ name: 'x', dims: xDims }] };
}

const poolArb = fc.record({
  op: fc.constantFrom('MaxPool', 'AveragePool'),
  spatial: fc.integer({ min: 1, max: 3 }),
  n: fc.integer({ min: 1, max: 2 }),
  c: fc.integer({ min: 1, max: 3 }),
  axes: fc.array(axisArb, { minLength: 3, maxLength: 3 }),
  autoPad: autoPadArb,
  ceil: fc.boolean(),
  includePad: fc.boolean(),
});

function poolCase(p: Params<typeof poolArb>): Case {
  const axes = p.axes.slice(0, p.spatial);
  const { kernel, sizes, attrs } = windowOf(axes, p.autoPad, true);
  const xDims = [p.n, p.c, ...sizes];
  const a: Record<string, unknown> = { ...attrs, kernel_shape: kernel, ceil_mode: p.ceil ? 1 : 0 };
  if (p.op === 'AveragePool') a['count_include_pad'] = p.includePad ? 1 : 0;
  const spec: ModelSpec = { nodes: [node(p.op, ['x'], ['y'], a, 'pool')], inputs: [valueInfo('x', xDims)], outputs: [valueInfo('y', undefined)], opset: 19 };
  return { name: `${p.op} ${JSON.stringify({ x: xDims, ...a })}`, spec, inputs: [{ name: 'x', dims: xDims }] };
}

const gemmArb = fc.record({
  m: fc.integer({ min: 1, max: 4 }),
  k: fc.integer({ min: 1, max: 7 }),
  n: fc.integer({ min: 1, max: 6 }),
  transA: fc.boolean(),
  transB: fc.boolean(),
  alpha: fc.constantFrom(undefined, 0.5, -1.25),
  beta: fc.constantFrom(undefined, 0.5, 2.5),
  c: fc.constantFrom('none', 'scalar', '[1]', '[N]', '[1,N]', '[M,1]', '[M,N]', 'runtime [M,N]', 'runtime [N]', 'runtime [M,1]', 'runtime scalar'),
  runtimeB: fc.boolean(),
  crossbar: fc.constantFrom(2, 3, 128),
});

function gemmCase(p: Params<typeof gemmArb>, i: number): Case {
  const aDims = p.transA ? [p.k, p.m] : [p.m, p.k];
  const bDims = p.transB ? [p.n, p.k] : [p.k, p.n];
  const cDims: Record<string, number[]> = { scalar: [], '[1]': [1], '[N]': [p.n], '[1,N]': [1, p.n], '[M,1]': [p.m, 1], '[M,N]': [p.m, p.n], 'runtime [M,N]': [p.m, p.n], 'runtime [N]': [p.n], 'runtime [M,1]': [p.m, 1], 'runtime scalar': [] };
  const runtimeC = p.c.startsWith('runtime');
  const beta = p.beta;
  const inputs = [{ name: 'x', dims: aDims }];
  const inits = [];
  if (p.runtimeB) inputs.push({ name: 'b', dims: bDims });
  else inits.push(weights('b', bDims, 300 + i));
  if (p.c !== 'none') {
    if (runtimeC) inputs.push({ name: 'c', dims: cDims[p.c]! });
    else inits.push(weights('c', cDims[p.c]!, 400 + i));
  }
  const attrs: Record<string, unknown> = { transA: p.transA ? 1 : 0, transB: p.transB ? 1 : 0 };
  if (p.alpha !== undefined) attrs['alpha'] = p.alpha;
  if (beta !== undefined) attrs['beta'] = beta;
  const spec: ModelSpec = {
    nodes: [node('Gemm', ['x', 'b', ...(p.c === 'none' ? [] : ['c'])], ['y'], attrs, 'gemm')],
    inputs: inputs.map((inp) => valueInfo(inp.name, inp.dims)),
    outputs: [valueInfo('y', undefined)],
    initializers: inits,
    opset: 13,
  };
  return { name: `Gemm ${JSON.stringify({ a: aDims, b: bDims, c: p.c, runtimeB: p.runtimeB, ...attrs, crossbar: p.crossbar })}`, spec, inputs, options: { crossbarSize: p.crossbar } };
}

const matmulArb = fc.record({
  m: fc.integer({ min: 1, max: 3 }),
  k: fc.integer({ min: 1, max: 5 }),
  n: fc.integer({ min: 1, max: 4 }),
  batch: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }),
  aForm: fc.constantFrom('1-D', 'matrix', 'batched', 'broadcast'),
  bForm: fc.constantFrom('1-D', 'matrix', 'batched', 'broadcast'),
  runtimeB: fc.boolean(),
  crossbar: fc.constantFrom(2, 128),
});

function matmulCase(p: Params<typeof matmulArb>, i: number): Case {
  const dims = (form: string, rows: number, cols: number, vector: number) =>
    form === '1-D' ? [vector] : form === 'matrix' ? [rows, cols] : form === 'batched' ? [...p.batch, rows, cols] : [...p.batch.map((d, j) => (j % 2 === 0 ? 1 : d)), rows, cols];
  const aDims = dims(p.aForm, p.m, p.k, p.k);
  const bDims = dims(p.bForm, p.k, p.n, p.k);
  const inputs = [{ name: 'x', dims: aDims }];
  const inits = [];
  if (p.runtimeB) inputs.push({ name: 'b', dims: bDims });
  else inits.push(weights('b', bDims, 500 + i));
  const spec: ModelSpec = { nodes: [node('MatMul', ['x', 'b'], ['y'], {}, 'mm')], inputs: inputs.map((inp) => valueInfo(inp.name, inp.dims)), outputs: [valueInfo('y', undefined)], initializers: inits, opset: 13 };
  return { name: `MatMul ${JSON.stringify({ a: aDims, b: bDims, runtimeB: p.runtimeB, crossbar: p.crossbar })}`, spec, inputs, options: { crossbarSize: p.crossbar } };
}

const globalArb = fc.record({ op: fc.constantFrom('GlobalAveragePool', 'GlobalMaxPool'), n: fc.integer({ min: 1, max: 3 }), c: fc.integer({ min: 1, max: 3 }), spatial: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }) });

function globalCase(p: Params<typeof globalArb>): Case {
  const xDims = [p.n, p.c, ...p.spatial];
  const spec: ModelSpec = { nodes: [node(p.op, ['x'], ['y'], {}, 'gp')], inputs: [valueInfo('x', xDims)], outputs: [valueInfo('y', undefined)], opset: 13 };
  return { name: `${p.op} ${JSON.stringify(xDims)}`, spec, inputs: [{ name: 'x', dims: xDims }] };
}

const sample = <T,>(arb: fc.Arbitrary<T>, seed: number, runs: number): T[] => fc.sample(arb, { seed, numRuns: runs });

/** A pooling node on x with the given attributes (opset 19: AveragePool dilations). */
function poolFixed(op: string, xDims: number[], attrs: Record<string, unknown>): Case {
  const spec: ModelSpec = { nodes: [node(op, ['x'], ['y'], attrs, 'pool')], inputs: [valueInfo('x', xDims)], outputs: [valueInfo('y', undefined)], opset: 19 };
  return { name: `${op} ${JSON.stringify({ x: xDims, ...attrs })}`, spec, inputs: [{ name: 'x', dims: xDims }] };
}

/** Edge cases named explicitly: ceil_mode overhangs with count_include_pad, dilated and 3-D windows. */
const EDGE_CASES: Case[] = [
  poolFixed('AveragePool', [1, 2, 6, 7], { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1], ceil_mode: 1, count_include_pad: 1 }),
  poolFixed('AveragePool', [1, 2, 6, 7], { kernel_shape: [3, 2], strides: [2, 3], pads: [0, 1, 1, 0], ceil_mode: 1, count_include_pad: 0 }),
  poolFixed('AveragePool', [2, 1, 7, 7], { kernel_shape: [2, 3], dilations: [2, 2], pads: [1, 1, 1, 1] }),
  poolFixed('AveragePool', [1, 2, 5, 4, 6], { kernel_shape: [2, 2, 3], strides: [2, 1, 2], pads: [1, 0, 1, 1, 1, 0], ceil_mode: 1 }),
  poolFixed('MaxPool', [1, 2, 6, 5, 5], { kernel_shape: [3, 2, 2], strides: [2, 2, 1], dilations: [2, 1, 2], pads: [2, 1, 0, 1, 0, 1], ceil_mode: 1 }),
  poolFixed('MaxPool', [2, 3, 9], { kernel_shape: [3], strides: [2], dilations: [2], pads: [2, 1], ceil_mode: 1 }),
  // A dilated window without any input tap averages to 0.
  poolFixed('AveragePool', [1, 2, 2], { kernel_shape: [2], dilations: [3], pads: [1, 1] }),
  // Dilated ceil_mode overhangs as large as the kernel: explicit lowest-f32 padding.
  poolFixed('MaxPool', [1, 1, 5], { kernel_shape: [2], dilations: [3], strides: [3], ceil_mode: 1 }),
  poolFixed('MaxPool', [1, 2, 5, 8], { kernel_shape: [2, 2], dilations: [3, 2], strides: [3, 3], pads: [1, 0, 0, 1], ceil_mode: 1 }),
];

const GROUPS: Record<string, Case[]> = {
  'edge cases': EDGE_CASES,
  Conv: sample(convArb, 101, 80).map((p, i) => convCase(p, i)),
  'MaxPool and AveragePool': sample(poolArb, 202, 120).map((p) => poolCase(p)),
  'GlobalAveragePool and GlobalMaxPool': sample(globalArb, 303, 20).map((p) => globalCase(p)),
  Gemm: sample(gemmArb, 404, 100).map((p, i) => gemmCase(p, i)),
  MatMul: sample(matmulArb, 505, 60).map((p, i) => matmulCase(p, i)),
};

describe('random models match onnxruntime (fast-check samples, fixed seeds)', () => {
  const all = Object.values(GROUPS).flat();
  let replies: OrtReply[] = [];
  beforeAll(() => {
    replies = runOrt(all);
  });
  it.each(Object.keys(GROUPS))('%s', (group) => {
    const offset = all.indexOf(GROUPS[group]![0]!);
    for (const [i, c] of GROUPS[group]!.entries()) check(c, replies[offset + i]!);
  });
});

// ---------------------------------------------------------------- decompositions and refusals

const occurrences = (text: string, what: string) => text.split(what).length - 1;
const oneNode = (n: ReturnType<typeof node>, xDims: number[], inits: ModelSpec['initializers'] = [], opset = 13, extraInputs: [string, number[]][] = []): ModelSpec => ({
  nodes: [n],
  inputs: [valueInfo('x', xDims), ...extraInputs.map(([name, dims]) => valueInfo(name, dims))],
  outputs: [valueInfo('y', undefined)],
  initializers: inits,
  opset,
});

/** The generated module text of `spec` (which must import without errors). */
function lowered(spec: ModelSpec, options: ImportOnnxOptions = {}): string {
  const imported = importCase({ spec, options });
  expect(imported.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  // Every op (and region end) carries a location; the node's ops carry its name.
  const ops = imported.text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && l !== '{' && !l.endsWith('{') && l !== 'module {');
  expect(ops.filter((l) => !/ loc\([^()]*\)$/.test(l))).toEqual([]);
  return imported.text;
}

/** The error messages of importing `spec`. */
function refusal(spec: ModelSpec): string {
  const imported = importCase({ spec });
  expect(imported.module).toBeUndefined();
  return imported.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).join('\n');
}

describe('decompositions', () => {
  it('Conv 1-D is a conv2d_plan over [N, C, 1, L] with a [1, k] kernel and pads [0, begin, 0, end]', () => {
    const text = lowered(oneNode(node('Conv', ['x', 'w'], ['y'], { pads: [2, 1], strides: [2] }, 'c1'), [1, 2, 9], [weights('w', [3, 2, 3], 1)]));
    expect(occurrences(text, '"spat.conv2d_plan"')).toBe(1);
    expect(text).toContain('tensor<3x2x1x3xf32>');
    expect(text).toContain('pads = array<i64: 0, 2, 0, 1>, strides = array<i64: 1, 2>');
    expect(text).toContain('-> tensor<1x3x5xf32>');
    expect(text).not.toMatch(/loc\("(?!c1|x|y|case\.onnx|g|main)/);
  });

  it('Conv 3-D is one conv2d_plan per kernel-depth tap that reads the input, summed with spat.vadd', () => {
    // Kernel depth 3, depth padding 2 on a depth-2 input: 4 output depths, each tap covers 2 of
    // them, so the three partial results are added into a zero accumulator.
    const text = lowered(oneNode(node('Conv', ['x', 'w', 'b'], ['y'], { pads: [2, 1, 0, 2, 1, 0] }, 'c3'), [1, 2, 2, 4, 4], [weights('w', [3, 2, 3, 3, 3], 2), weights('b', [3], 3)]));
    expect(occurrences(text, '"spat.conv2d_plan"')).toBe(3);
    expect(occurrences(text, 'spat.vadd')).toBe(3);
    // Stride 2 with depth padding 1: the middle tap covers every output depth (it starts the sum), the others one less.
    const strided = lowered(oneNode(node('Conv', ['x', 'w'], ['y'], { pads: [1, 0, 0, 1, 0, 0], strides: [2, 1, 1] }, 'c3'), [1, 1, 5, 3, 3], [weights('w', [2, 1, 3, 1, 1], 4)]));
    expect(occurrences(strided, '"spat.conv2d_plan"')).toBe(3);
    expect(strided).toContain('tensor.insert_slice');
  });

  it('MaxPool 3-D is one max_pool2d_plan over the depth planes and spat.vmax over the kernel depth', () => {
    const text = lowered(oneNode(node('MaxPool', ['x'], ['y'], { kernel_shape: [3, 2, 2], strides: [1, 2, 2] }, 'mp'), [1, 2, 5, 4, 4]));
    expect(occurrences(text, '"spat.max_pool2d_plan"')).toBe(1);
    expect(text).toContain('-> tensor<1x10x2x2xf32>');
    expect(occurrences(text, 'spat.vmax')).toBe(2);
  });

  it('MaxPool with a dilated ceil_mode overhang as large as the kernel pads the input explicitly with the lowest f32', () => {
    const text = lowered(oneNode(node('MaxPool', ['x'], ['y'], { kernel_shape: [2], dilations: [3], strides: [3], ceil_mode: 1 }, 'mp'), [1, 1, 5]));
    expect(text).toContain('arith.constant dense<-3.40282347E+38> : tensor<1x1x7xf32>');
    expect(text).toContain('pads = array<i64: 0, 0, 0, 0>');
  });

  it('AveragePool is a depthwise conv2d_plan with weights 1/|kernel|, times a reciprocal-count map only when divisors vary', () => {
    const uniform = lowered(oneNode(node('AveragePool', ['x'], ['y'], { kernel_shape: [3, 3], pads: [1, 1, 1, 1], count_include_pad: 1 }, 'ap'), [1, 3, 5, 5]));
    expect(uniform).toContain('group = 3 : i64');
    expect(uniform).not.toContain('spat.vmul');
    const varying = lowered(oneNode(node('AveragePool', ['x'], ['y'], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, 'ap'), [1, 3, 5, 5]));
    expect(occurrences(varying, 'spat.vmul')).toBe(1);
    const ceil = lowered(oneNode(node('AveragePool', ['x'], ['y'], { kernel_shape: [2, 2], strides: [2, 2], ceil_mode: 1 }, 'ap'), [1, 1, 5, 5]));
    expect(ceil).toContain('pads = array<i64: 0, 0, 1, 1>');
    expect(ceil).toContain('spat.vmul');
  });

  it('GlobalAveragePool with batch 2 averages a [1, N*C, H, W] image; GlobalMaxPool is a max pool with the whole plane as window', () => {
    expect(lowered(oneNode(node('GlobalAveragePool', ['x'], ['y'], {}, 'g'), [2, 3, 4, 5]))).toContain('"spat.global_average_pool_plan"(%0) <{logicalLayout = #spat<logical_layout nchw>}> : (tensor<1x6x4x5xf32>) -> tensor<1x6x1x1xf32>');
    expect(lowered(oneNode(node('GlobalMaxPool', ['x'], ['y'], {}, 'g'), [2, 3, 4, 5]))).toContain('kernelShape = array<i64: 4, 5>');
    expect(lowered(oneNode(node('GlobalMaxPool', ['x'], ['y'], {}, 'g'), [1, 3, 4, 5, 2]))).toContain('kernelShape = array<i64: 40, 1>');
  });

  it('Gemm with a per-row C selects the lane row of the bias matrix; transA transposes A in a graph_compute', () => {
    const text = lowered(oneNode(node('Gemm', ['x', 'w', 'c'], ['y'], { transA: 1 }, 'gm'), [4, 3], [weights('w', [4, 2], 5), weights('c', [3, 1], 6)]));
    expect(text).toMatch(/tensor\.extract_slice %\w+\[%lane, 0\] \[1, 2\] \[1, 1\] : tensor<3x2xf32> to tensor<1x2xf32>/);
    expect(occurrences(text, 'spat.graph_compute_batch')).toBe(1);
  });

  it('MatMul of two runtime operands uses spat.vvdmul dot products and no crossbar weight', () => {
    const text = lowered(oneNode(node('MatMul', ['x', 'b'], ['y'], {}, 'mm'), [3, 4], [], 13, [['b', [4, 2]]]));
    expect(occurrences(text, 'spat.vvdmul')).toBe(2);
    expect(text).not.toContain('spat.wvmm');
    expect(text).toContain('crossbarWeights 0');
  });

  it('MatMul [2, 3, K] x constant [K, N] is one GEMM over 6 rows', () => {
    const text = lowered(oneNode(node('MatMul', ['x', 'w'], ['y'], {}, 'mm'), [2, 3, 4], [weights('w', [4, 5], 7)]));
    expect(occurrences(text, 'spat.graph_compute_batch')).toBe(1);
    expect(text).toContain('%lane = 0 to 6');
  });
});

describe('refusals name the node and the unsupported form', () => {
  it('Conv: weight or bias not constant, 4 spatial dimensions', () => {
    expect(refusal(oneNode(node('Conv', ['x', 'w'], ['y'], {}, 'cv'), [1, 2, 4, 4], [], 13, [['w', [3, 2, 3, 3]]]))).toContain("cannot lower Conv (node 'cv'): the weight is not a constant");
    expect(refusal(oneNode(node('Conv', ['x', 'w', 'b'], ['y'], {}, 'cv'), [1, 2, 4, 4], [weights('w', [3, 2, 3, 3], 1)], 13, [['b', [3]]]))).toContain("cannot lower Conv (node 'cv'): the bias is not a constant");
    expect(refusal(oneNode(node('Conv', ['x', 'w'], ['y'], {}, 'cv'), [1, 1, 2, 2, 2, 2], [weights('w', [1, 1, 1, 1, 1, 1], 1)]))).toContain('4 spatial dimension(s) (1-D, 2-D and 3-D convolutions are lowered)');
  });

  it('MaxPool: Indices output used, 4 spatial dimensions', () => {
    const withIndices: ModelSpec = { ...oneNode(node('MaxPool', ['x'], ['y', 'i'], { kernel_shape: [2, 2] }, 'mp'), [1, 1, 4, 4]), outputs: [valueInfo('y', undefined), valueInfo('i', undefined, 7)] };
    expect(refusal(withIndices)).toContain("cannot lower MaxPool (node 'mp'): the Indices output is used");
    expect(refusal(oneNode(node('MaxPool', ['x'], ['y'], { kernel_shape: [1, 1, 1, 1] }, 'mp'), [1, 1, 2, 2, 2, 2]))).toContain('4 spatial dimension(s)');
  });

  it('AveragePool: 4 spatial dimensions', () => {
    expect(refusal(oneNode(node('AveragePool', ['x'], ['y'], { kernel_shape: [1, 1, 1, 1] }, 'ap'), [1, 1, 2, 2, 2, 2]))).toContain('4 spatial dimension(s)');
  });
});
