/**
 * Differential property test: random single-operator models (windows, strides, pads, ceil
 * mode, slices, splits, resizes, ...) are run in onnxruntime-node, and our inferred output
 * shapes must equal the shapes of onnxruntime's outputs.
 */
import fc from 'fast-check';
import { formatDiagnostic, hasErrors, loadOnnxModel } from '@raptor-pim/onnx-frontend';
import { ortOutputShapes, stopOrtWorker } from './support/ort-shapes';
import { type ModelSpec, encodeModel, floatTensor, int64Tensor, node, valueInfo } from './build-model';

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

const single = (n: ReturnType<typeof node>, inputShape: number[], initializers: ModelSpec['initializers'] = [], opset = 13, outputs = ['y']): Case => ({
  spec: { nodes: [n], inputs: [valueInfo('x', inputShape)], outputs: outputs.map((o) => valueInfo(o, undefined)), initializers, opset },
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

describe('inferred shapes equal onnxruntime output shapes', () => {
  afterAll(stopOrtWorker);

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
