/**
 * Differential property test: random single-operator models (windows, strides, pads, ceil
 * mode, slices, splits, resizes, ...) are run in onnxruntime-node, and our inferred output
 * shapes must equal the shapes of onnxruntime's outputs.
 */
import fc from 'fast-check';
import { formatDiagnostic, hasErrors, loadOnnxModel } from '@raptor-pim/onnx-frontend';
import { ortOutputShapes, stopOrtWorker } from './support/ort-shapes';
import { FloatList, type ModelSpec, encodeModel, floatTensor, int64Tensor, node, valueInfo } from './build-model';

interface Case {
  readonly spec: ModelSpec;
  readonly inputShape: number[];
}

async function check(c: Case): Promise<void> {
  const bytes = encodeModel(c.spec);
  const ours = loadOnnxModel(bytes, { file: 'case.onnx' });
  const ortShapes = await ortOutputShapes(bytes, [{ name: 'x', dims: c.inputShape }]);
  if (typeof ortShapes === 'string') {
    // onnxruntime rejects the model: we must reject it too (with a diagnostic, not a throw).
    if (process.env['ORT_DIFF_DEBUG']) console.log(ortShapes);
    expect({ ort: 'rejected', ours: hasErrors(ours.diagnostics) ? 'rejected' : 'accepted' }).toEqual({ ort: 'rejected', ours: 'rejected' });
    return;
  }
  expect(ours.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  const outputs = ours.model!.graph.outputs.map((o) => [...ours.values!.get(o.name)!.shape]);
  expect(outputs).toEqual(ortShapes);
}

const single = (n: ReturnType<typeof node>, inputShape: number[], initializers: ModelSpec['initializers'] = [], opset = 13, outputs = ['y'], outTypes: number[] = []): Case => ({
  spec: { nodes: [n], inputs: [valueInfo('x', inputShape)], outputs: outputs.map((o, i) => valueInfo(o, undefined, outTypes[i] ?? 1)), initializers, opset },
  inputShape,
});

const dim = fc.integer({ min: 1, max: 9 });

const poolCase = fc
  .record({
    op: fc.constantFrom('MaxPool', 'AveragePool'),
    h: fc.integer({ min: 3, max: 12 }),
    w: fc.integer({ min: 3, max: 12 }),
    k: fc.integer({ min: 1, max: 3 }),
    s: fc.integer({ min: 1, max: 3 }),
    p: fc.integer({ min: 0, max: 1 }),
    ceil: fc.integer({ min: 0, max: 1 }),
    autoPad: fc.constantFrom('NOTSET', 'NOTSET', 'SAME_UPPER', 'VALID'),
    countIncludePad: fc.integer({ min: 0, max: 1 }),
  })
  .map(({ op, h, w, k, s, p, ceil, autoPad, countIncludePad }) => {
    // onnxruntime rejects SAME_* pooling whose stride exceeds the kernel (negative padding);
    // the ONNX spec (and we) give ceil(in / stride) there. Test the common case only.
    const attrs: Record<string, unknown> = { kernel_shape: [k, k], strides: [autoPad.startsWith('SAME') ? Math.min(s, k) : s, autoPad.startsWith('SAME') ? Math.min(s, k) : s], ceil_mode: ceil };
    if (autoPad === 'NOTSET') attrs['pads'] = [p, p, p, p];
    else attrs['auto_pad'] = autoPad;
    if (op === 'AveragePool') attrs['count_include_pad'] = countIncludePad;
    return single(node(op, ['x'], ['y'], attrs), [1, 2, h, w], [], 13);
  });

const convCase = fc
  .record({ h: fc.integer({ min: 2, max: 10 }), k: fc.integer({ min: 1, max: 3 }), s: fc.integer({ min: 1, max: 3 }), d: fc.integer({ min: 1, max: 2 }), p: fc.integer({ min: 0, max: 2 }), group: fc.constantFrom(1, 2), autoPad: fc.constantFrom('NOTSET', 'SAME_LOWER', 'VALID') })
  .map(({ h, k, s, d, p, group, autoPad }) => {
    // onnxruntime does not implement dilations with SAME_* auto_pad (we do): test dilation 1 there.
    const attrs: Record<string, unknown> = { strides: [s, s], dilations: autoPad.startsWith('SAME') ? [1, 1] : [d, d], group };
    if (autoPad === 'NOTSET') attrs['pads'] = [p, 0, p, 0];
    else attrs['auto_pad'] = autoPad;
    return single(node('Conv', ['x', 'w'], ['y'], attrs), [1, 4, h, h + 1], [floatTensor('w', [6, 4 / group, k, k])]);
  });

const sliceCase = fc
  .record({ dims: fc.array(dim, { minLength: 1, maxLength: 3 }), seed: fc.array(fc.record({ start: fc.integer({ min: -12, max: 12 }), end: fc.integer({ min: -12, max: 12 }), step: fc.constantFrom(-3, -2, -1, 1, 2, 3) }), { minLength: 1, maxLength: 3 }) })
  .map(({ dims, seed }) => {
    const k = Math.min(dims.length, seed.length);
    const parts = seed.slice(0, k);
    const axes = parts.map((_, i) => (i % 2 ? i - dims.length : i));
    return single(node('Slice', ['x', 'st', 'en', 'ax', 'sp'], ['y']), dims, [
      int64Tensor('st', parts.map((p) => p.start)),
      int64Tensor('en', parts.map((p) => p.end)),
      int64Tensor('ax', axes),
      int64Tensor('sp', parts.map((p) => p.step)),
    ]);
  });

const padCase = fc
  .record({ dims: fc.array(dim, { minLength: 1, maxLength: 3 }), pads: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 6, maxLength: 6 }), mode: fc.constantFrom('constant', 'edge', 'reflect') })
  .map(({ dims, pads, mode }) => {
    const p = [...pads.slice(0, dims.length), ...pads.slice(3, 3 + dims.length)];
    // reflect needs pads smaller than the dimension
    const safe = mode === 'reflect' ? p.map((v, i) => Math.min(v, dims[i % dims.length]! - 1)) : p;
    return single(node('Pad', ['x', 'pads'], ['y'], { mode }), dims, [int64Tensor('pads', safe)]);
  });

const splitCase = fc
  .record({ len: fc.integer({ min: 1, max: 12 }), parts: fc.integer({ min: 1, max: 4 }), opset: fc.constantFrom(11, 13, 18) })
  .map(({ len, parts, opset }) => {
    const outs = Array.from({ length: parts }, (_, i) => `y${i}`);
    const attrs: Record<string, unknown> = { axis: 1 };
    if (opset === 18) attrs['num_outputs'] = parts;
    return single(node('Split', ['x'], outs, attrs), [2, len], [], opset, outs);
  });

const resizeCase = fc
  .record({ h: dim, w: dim, sh: fc.constantFrom(0.5, 1, 1.5, 2, 3), sw: fc.constantFrom(0.5, 1, 2, 2.5), useSizes: fc.boolean(), mode: fc.constantFrom('nearest', 'linear') })
  .map(({ h, w, sh, sw, useSizes, mode }) =>
    useSizes
      ? single(node('Resize', ['x', '', '', 'sizes'], ['y'], { mode }), [1, 1, h, w], [int64Tensor('sizes', [1, 1, Math.max(1, Math.round(h * sh)), Math.max(1, Math.round(w * sw))])])
      : single(node('Resize', ['x', '', 'scales'], ['y'], { mode }), [1, 1, h, w], [{ name: 'scales', dims: [4], dataType: 1, floatData: [1, 1, sh, sw] }]),
  );

const reshapeCase = fc
  .record({ dims: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }), keep: fc.integer({ min: 0, max: 3 }) })
  .map(({ dims, keep }) => {
    const k = Math.min(keep, dims.length - 1);
    const target = [...new Array<number>(k).fill(0), -1];
    return single(node('Reshape', ['x', 't'], ['y']), dims, [int64Tensor('t', target)]);
  });

const transposeGatherCase = fc
  .record({ dims: fc.array(dim, { minLength: 2, maxLength: 4 }), axis: fc.integer({ min: -2, max: 1 }), indices: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 3 }) })
  .map(({ dims, axis, indices }) => {
    const n = dims[axis < 0 ? axis + dims.length : axis]!;
    return single(node('Gather', ['x', 'i'], ['y'], { axis }), dims, [int64Tensor('i', indices.map((i) => (i % n) - (i % 2 ? n : 0)), [indices.length])]);
  });

const RUNS = Number(process.env['ORT_DIFF_RUNS'] ?? 25);

afterAll(stopOrtWorker);

describe('inferred shapes equal onnxruntime output shapes', () => {
  it.each([
    ['MaxPool/AveragePool', poolCase],
    ['Conv', convCase],
    ['Slice', sliceCase],
    ['Pad', padCase],
    ['Split', splitCase],
    ['Resize', resizeCase],
    ['Reshape', reshapeCase],
    ['Gather', transposeGatherCase],
  ] as const)('%s', async (_, arb) => {
    await fc.assert(fc.asyncProperty(arb as fc.Arbitrary<Case>, check), { numRuns: RUNS, seed: Number(process.env['ORT_DIFF_SEED'] ?? 7) });
  }, 60_000);
});

const f32 = (name: string, dims: number[], values: number[]) => ({ name, dims, dataType: 1, floatData: values });

/** Operator forms that changed across opsets, each checked against onnxruntime. */
const FORMS: [string, Case][] = [
  ['Squeeze axes attribute (opset 11)', single(node('Squeeze', ['x'], ['y'], { axes: [1, -1] }), [2, 1, 3, 1], [], 11)],
  ['Squeeze axes input (opset 13)', single(node('Squeeze', ['x', 'a'], ['y']), [2, 1, 3, 1], [int64Tensor('a', [-1])], 13)],
  ['Squeeze without axes', single(node('Squeeze', ['x'], ['y']), [1, 2, 1, 3], [], 13)],
  ['Unsqueeze axes attribute (opset 11)', single(node('Unsqueeze', ['x'], ['y'], { axes: [0, -1] }), [2, 3], [], 11)],
  ['Unsqueeze axes input (opset 13)', single(node('Unsqueeze', ['x', 'a'], ['y']), [2, 3], [int64Tensor('a', [1, 3])], 13)],
  ['Slice attributes (opset 9)', single(node('Slice', ['x'], ['y'], { starts: [1, -3], ends: [1000, -1], axes: [0, 1] }), [4, 5], [], 9)],
  ['Slice inputs without axes/steps (opset 10)', single(node('Slice', ['x', 's', 'e'], ['y']), [4, 5], [int64Tensor('s', [-100, 2]), int64Tensor('e', [2, 100])], 10)],
  ['Split attribute (opset 11)', single(node('Split', ['x'], ['a', 'b'], { axis: 1, split: [1, 4] }), [2, 5], [], 11, ['a', 'b'])],
  ['Split input (opset 13)', single(node('Split', ['x', 's'], ['a', 'b', 'c'], { axis: -1 }), [2, 6], [int64Tensor('s', [1, 2, 3])], 13, ['a', 'b', 'c'])],
  ['Split num_outputs uneven (opset 18)', single(node('Split', ['x'], ['a', 'b', 'c'], { axis: 1, num_outputs: 3 }), [1, 8], [], 18, ['a', 'b', 'c'])],
  ['Pad attribute (opset 10)', single(node('Pad', ['x'], ['y'], { pads: [0, 1, 2, 0, 3, 4] }), [1, 2, 3], [], 10)],
  ['Pad axes input (opset 18)', single(node('Pad', ['x', 'p', '', 'a'], ['y']), [1, 2, 3], [int64Tensor('p', [1, 2, 3, 4]), int64Tensor('a', [-1, 1])], 18)],
  ['Upsample scales attribute (opset 7)', single(node('Upsample', ['x'], ['y'], { scales: new FloatList([1, 1, 2, 3]) }), [1, 1, 2, 3], [], 7)],
  ['Upsample scales input (opset 9)', single(node('Upsample', ['x', 's'], ['y']), [1, 1, 2, 3], [f32('s', [4], [1, 1, 2, 3])], 9)],
  ['Resize scales as input #1 (opset 10)', single(node('Resize', ['x', 's'], ['y']), [1, 1, 3, 3], [f32('s', [4], [1, 1, 2, 0.5])], 10)],
  ['Resize sizes with not_larger (opset 18)', single(node('Resize', ['x', '', '', 'z'], ['y'], { keep_aspect_ratio_policy: 'not_larger', axes: [2, 3] }), [1, 1, 4, 6], [int64Tensor('z', [8, 8])], 18)],
  ['Clip attributes (opset 7)', single(node('Clip', ['x'], ['y'], { min: 0.5, max: 6.5 }), [2, 3], [], 7)],
  ['Clip inputs (opset 13)', single(node('Clip', ['x', 'lo', 'hi'], ['y']), [2, 3], [f32('lo', [], [0]), f32('hi', [], [6])], 13)],
  ['Softmax default axis (opset 11)', single(node('Softmax', ['x'], ['y']), [2, 3, 4], [], 11)],
  ['Flatten negative axis', single(node('Flatten', ['x'], ['y'], { axis: -2 }), [2, 3, 4, 5], [], 13)],
  ['Flatten axis 0', single(node('Flatten', ['x'], ['y'], { axis: 0 }), [2, 3, 4], [], 13)],
  ['MatMul with 1-D operand', single(node('MatMul', ['x', 'w'], ['y']), [2, 3, 4], [floatTensor('w', [4])], 13)],
  ['MatMul batch broadcast', single(node('MatMul', ['x', 'w'], ['y']), [2, 1, 3, 4], [floatTensor('w', [5, 4, 6])], 13)],
  ['Gemm transA/transB + C row', single(node('Gemm', ['x', 'w', 'c'], ['y'], { transA: 1, transB: 1 }), [4, 3], [floatTensor('w', [5, 4]), floatTensor('c', [5])], 13)],
  ['DepthToSpace CRD', single(node('DepthToSpace', ['x'], ['y'], { blocksize: 2, mode: 'CRD' }), [1, 8, 2, 3], [], 13)],
  ['Transpose default perm', single(node('Transpose', ['x'], ['y']), [2, 3, 4], [], 13)],
  ['Concat with a constant (negative axis)', single(node('Concat', ['x', 'c'], ['y'], { axis: -1 }), [2, 3], [floatTensor('c', [2, 2])], 13)],
  ['MaxPool with Indices and dilations', single(node('MaxPool', ['x'], ['y', 'i'], { kernel_shape: [2, 2], dilations: [2, 2], pads: [1, 1, 1, 1] }), [1, 1, 7, 7], [], 12, ['y', 'i'], [1, 7])],
  ['AveragePool 1-D ceil_mode', single(node('AveragePool', ['x'], ['y'], { kernel_shape: [3], strides: [2], ceil_mode: 1 }), [1, 2, 8], [], 13)],
  ['GlobalMaxPool 3-D', single(node('GlobalMaxPool', ['x'], ['y']), [1, 2, 3, 4, 5], [], 13)],
  ['BatchNormalization (opset 9)', single(node('BatchNormalization', ['x', 's', 'b', 'm', 'v'], ['y']), [1, 2, 3], ['s', 'b', 'm', 'v'].map((n) => floatTensor(n, [2])), 9)],
  ['Dropout with mask (opset 12)', single(node('Dropout', ['x'], ['y', 'm']), [2, 3], [], 12, ['y', 'm'], [1, 9])],
  ['a declared output type that differs is rejected like onnxruntime does', single(node('Shape', ['x'], ['y']), [2, 3], [], 13)],
  ['Add broadcasting', single(node('Add', ['x', 'b'], ['y']), [2, 1, 4], [floatTensor('b', [3, 1])], 13)],
  ['Shape start/end (opset 15) + Cast', {
    spec: {
      nodes: [node('Shape', ['x'], ['s'], { start: 1, end: -1 }), node('Cast', ['s'], ['c'], { to: 1 }), node('Reshape', ['x', 't'], ['y'])],
      inputs: [valueInfo('x', [2, 3, 4])],
      outputs: [valueInfo('c', undefined), valueInfo('y', undefined)],
      initializers: [int64Tensor('t', [0, -1])],
      opset: 15,
    },
    inputShape: [2, 3, 4],
  }],
  ['Constant value_floats and value_ints', {
    spec: {
      nodes: [node('Constant', [], ['k'], { value_ints: [3, 4] }), node('Reshape', ['x', 'k'], ['y'])],
      inputs: [valueInfo('x', [2, 6])],
      outputs: [valueInfo('y', undefined)],
      opset: 13,
    },
    inputShape: [2, 6],
  }],
];

describe('operator forms across opsets equal onnxruntime', () => {
  it.each(FORMS)('%s', async (_, c) => {
    await check(c);
  }, 30_000);
});
