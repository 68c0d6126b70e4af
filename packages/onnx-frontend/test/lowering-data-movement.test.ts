/**
 * The data-movement lowerings (Reshape/Flatten/Squeeze/Unsqueeze, Transpose, Slice, Pad,
 * DepthToSpace, Split, Concat, Gather, Cast, Dropout, Resize/Upsample nearest) against
 * onnxruntime-node: random shapes and attributes (fast-check) imported, interpreted and
 * compared element by element (data movement is exact: the values must be identical); the
 * generated forms (plans, slice counts) are checked in the text; every refusal has a test.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { formatDiagnostic, importOnnxModel, readNpy, readOnnxFile, readOnnxModel, runImportedModule, tensorToNumbers, type ImportOnnxOptions } from '@raptor-pim/onnx-frontend';
import { FloatList, type ModelSpec, encodeModel, floatTensor, int64Tensor, node, valueInfo } from './build-model';
import { MODELS_DIR, count, randomValues } from './helpers';
import { ortRun, stopOrtValuesWorker } from './support/ort-values';

jest.setTimeout(120_000);
afterAll(() => stopOrtValuesWorker());


/** Deterministic pseudo-random values in [-1, 1). */
const random = (n: number, seed: number): Float32Array => Float32Array.from(randomValues(n, seed));

function importSpec(spec: ModelSpec, options: ImportOnnxOptions = {}) {
  const { model, diagnostics } = readOnnxModel(encodeModel(spec), { file: 'case.onnx' });
  expect(diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  return importOnnxModel(model!, options);
}

/**
 * Imports `spec` (graph input `x` of shape `shape`), runs it in the interpreter and in
 * onnxruntime on the same random input; every output must be identical. Returns the MLIR text.
 */
async function differential(spec: ModelSpec, shape: number[], seed = 7): Promise<string> {
  const imported = importSpec(spec);
  expect(imported.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  const x = random(count(shape), seed);
  const ours = runImportedModule(imported, [{ shape, data: x }]);
  if (!ours.ok) throw new Error(ours.diagnostics.map(formatDiagnostic).join('\n'));
  const ref = await ortRun(encodeModel(spec), [{ name: 'x', dims: shape, data: x }]);
  if (typeof ref === 'string') throw new Error(`onnxruntime: ${ref}`);
  expect(ours.outputs.length).toBe(ref.length);
  ref.forEach((r, k) => {
    expect(ours.outputs[k]!.shape).toEqual(r.dims);
    expect(Array.from(ours.outputs[k]!.data)).toEqual(Array.from(r.data));
  });
  return imported.text;
}

const single = (n: ReturnType<typeof node>, shape: number[], initializers: ModelSpec['initializers'] = [], opset = 13, outputs = ['y']): ModelSpec => ({
  nodes: [n],
  inputs: [valueInfo('x', shape)],
  outputs: outputs.map((o) => valueInfo(o, undefined)),
  initializers,
  opset,
});

const occurrences = (text: string, what: string) => text.split(what).length - 1;
const dims = (min: number, max: number, dim = fc.integer({ min: 1, max: 5 })) => fc.array(dim, { minLength: min, maxLength: max });
const runs = { numRuns: 20 };

describe('reshapes', () => {
  it('Reshape to rank 2 is a flatten_plan; to other ranks a collapse_shape + expand_shape region; 0 and -1 copy and infer', async () => {
    expect(await differential(single(node('Reshape', ['x', 't'], ['y'], {}, 'rs'), [2, 3, 4], [int64Tensor('t', [0, -1])]), [2, 3, 4])).toContain('"spat.flatten_plan"');
    const text = await differential(single(node('Reshape', ['x', 't'], ['y'], {}, 'rs'), [2, 3, 4], [int64Tensor('t', [4, 0, -1, 1])]), [2, 3, 4]);
    expect(text).toContain('tensor.collapse_shape');
    expect(text).toContain('tensor.expand_shape');
    expect(text).toContain('loc("rs")');
  });

  it('random Reshape targets (with 0 and -1) and Squeeze/Unsqueeze of random axes match onnxruntime', async () => {
    const reshapeCase = dims(1, 4, fc.integer({ min: 1, max: 4 })).chain((shape) =>
      fc.record({ shape: fc.constant(shape), cuts: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 3 }), copy: fc.boolean(), infer: fc.integer({ min: -1, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(reshapeCase, async ({ shape, cuts, copy, infer }) => {
        // A target: the dims regrouped at random cut points, some copied (0) or inferred (-1).
        const flat = shape.flatMap((d) => (d === 4 ? [2, 2] : [d]));
        const target: number[] = [];
        let acc = 1;
        flat.forEach((d, i) => {
          acc *= d;
          if (i === flat.length - 1 || cuts.includes(i)) {
            target.push(acc);
            acc = 1;
          }
        });
        if (copy && target[0] === shape[0]) target[0] = 0;
        if (infer >= 0 && infer < target.length) target[infer] = -1;
        await differential(single(node('Reshape', ['x', 't'], ['y']), shape, [int64Tensor('t', target)]), shape);
        const withUnit = [...shape.slice(0, 1), 1, ...shape.slice(1)];
        await differential(single(node('Squeeze', ['x', 'a'], ['y']), withUnit, [int64Tensor('a', [1])]), withUnit);
        await differential(single(node('Unsqueeze', ['x', 'a'], ['y']), shape, [int64Tensor('a', infer < 0 ? [0, -1] : [shape.length + 1, 1])]), shape);
      }),
      runs,
    );
  });

  it('Reshape with allowzero (opset 14) and zero-size tensors imports', async () => {
    const spec = single(node('Reshape', ['x', 't'], ['y'], { allowzero: 1 }), [0, 3, 4], [int64Tensor('t', [3, 4, 0])], 14);
    const imported = importSpec(spec);
    expect(imported.diagnostics.map(formatDiagnostic)).toEqual([]);
    const r = runImportedModule(imported, [{ shape: [0, 3, 4], data: new Float32Array(0) }]);
    expect(r.ok && r.outputs[0]!.shape).toEqual([3, 4, 0]);
  });

  it('Flatten at every axis of ranks 1-4, Squeeze and Unsqueeze (attributes at opset 11, inputs at 13)', async () => {
    for (const shape of [[5], [2, 3], [2, 1, 3], [1, 2, 3, 2]]) {
      for (let axis = -shape.length; axis <= shape.length; axis++) await differential(single(node('Flatten', ['x'], ['y'], { axis }), shape), shape);
    }
    await differential(single(node('Squeeze', ['x'], ['y'], { axes: [0, -2] }), [1, 3, 1, 2], [], 11), [1, 3, 1, 2]);
    await differential(single(node('Squeeze', ['x', 'a'], ['y']), [1, 3, 1, 2], [int64Tensor('a', [2])]), [1, 3, 1, 2]);
    await differential(single(node('Squeeze', ['x'], ['y']), [1, 3, 1, 2]), [1, 3, 1, 2]);
    await differential(single(node('Unsqueeze', ['x'], ['y'], { axes: [0, 3] }), [3, 2], [], 11), [3, 2]);
    await differential(single(node('Unsqueeze', ['x', 'a'], ['y']), [3, 2], [int64Tensor('a', [-1, 1, 0])]), [3, 2]);
  });
});

describe('Transpose', () => {
  it('random permutations of ranks 1-5 (and the default reversal) match onnxruntime', async () => {
    const perm = dims(1, 5).chain((shape) => fc.tuple(fc.constant(shape), fc.shuffledSubarray(shape.map((_, i) => i), { minLength: shape.length, maxLength: shape.length }), fc.boolean()));
    await fc.assert(
      fc.asyncProperty(perm, async ([shape, p, useDefault]) => {
        await differential(single(node('Transpose', ['x'], ['y'], useDefault ? {} : { perm: p }), shape), shape);
      }),
      runs,
    );
  });

  it('NCHW -> NHWC moves one slice per channel', async () => {
    const text = await differential(single(node('Transpose', ['x'], ['y'], { perm: [0, 2, 3, 1] }), [1, 3, 4, 5]), [1, 3, 4, 5]);
    expect(occurrences(text, 'tensor.insert_slice')).toBe(3);
  });
});

describe('Slice', () => {
  const part = fc.record({ start: fc.integer({ min: -8, max: 8 }), end: fc.integer({ min: -8, max: 8 }), step: fc.constantFrom(-3, -2, -1, 1, 1, 2, 3), big: fc.constantFrom(0, 0, 0, 1, -1) });
  it('random starts/ends/axes/steps (negative, clamped, out of bounds) match onnxruntime', async () => {
    const sliceCase = fc.record({ shape: dims(1, 4, fc.integer({ min: 1, max: 6 })), parts: fc.array(part, { minLength: 1, maxLength: 4 }), negAxes: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(sliceCase, async ({ shape, parts, negAxes }) => {
        const k = Math.min(shape.length, parts.length);
        const ps = parts.slice(0, k);
        const axes = ps.map((_, i) => (negAxes ? i - shape.length : i));
        const big = (p: (typeof ps)[number]) => (p.big === 0 ? p.end : p.big * 2 ** 62);
        await differential(
          single(node('Slice', ['x', 'st', 'en', 'ax', 'sp'], ['y']), shape, [
            int64Tensor('st', ps.map((p) => p.start)),
            int64Tensor('en', ps.map(big)),
            int64Tensor('ax', axes),
            int64Tensor('sp', ps.map((p) => p.step)),
          ]),
          shape,
        );
      }),
      runs,
    );
  });

  it('a negative step reverses with one slice per element of that axis only', async () => {
    const spec = single(node('Slice', ['x', 'st', 'en', 'ax', 'sp'], ['y']), [2, 6, 7], [int64Tensor('st', [-1]), int64Tensor('en', [-100]), int64Tensor('ax', [1]), int64Tensor('sp', [-1])]);
    const text = await differential(spec, [2, 6, 7]);
    expect(occurrences(text, 'tensor.extract_slice')).toBe(6);
    expect(text).toContain('spat.concat axis 1');
  });

  it('the attribute form (opset 9) and default axes/steps', async () => {
    await differential(single(node('Slice', ['x'], ['y'], { starts: [1, 0], ends: [1000, -1], axes: [2, 0] }), [3, 2, 5], [], 9), [3, 2, 5]);
    await differential(single(node('Slice', ['x', 'st', 'en'], ['y']), [4, 5], [int64Tensor('st', [1, 2]), int64Tensor('en', [3, 5])]), [4, 5]);
  });
});

describe('Pad', () => {
  it('random constant pads (negative = crop), values and opset-18 axes match onnxruntime', async () => {
    const padCase = fc.record({ shape: dims(1, 4), pads: fc.array(fc.integer({ min: -2, max: 3 }), { minLength: 8, maxLength: 8 }), value: fc.constantFrom(0, 1.5, -2.25), withAxes: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(padCase, async ({ shape, pads, value, withAxes }) => {
        const rank = shape.length;
        const axes = withAxes ? shape.map((_, i) => i).filter((i) => i % 2 === 0) : shape.map((_, i) => i);
        const before = pads.slice(0, axes.length);
        // Keep at least one element per axis: before + after >= 1 - size.
        const after = pads.slice(4, 4 + axes.length).map((v, i) => Math.max(v, 1 - shape[axes[i]!]! - before[i]!));
        const p = [...before, ...after];
        const inputs = withAxes ? ['x', 'p', 'v', 'a'] : ['x', 'p', 'v'];
        const inits = [int64Tensor('p', p), floatTensor('v', [], [value]), ...(withAxes ? [int64Tensor('a', axes.map((a) => a - rank))] : [])];
        await differential(single(node('Pad', inputs, ['y'], { mode: 'constant' }), shape, inits, 18), shape);
      }),
      runs,
    );
  });

  it('the attribute form (Pad-2, opset 10) and the default value; the form is a splat + insert_slice', async () => {
    const text = await differential(single(node('Pad', ['x'], ['y'], { pads: [0, 0, 1, 2, 0, 0, 3, 0], value: 0.5 }), [1, 2, 3, 3], [], 10), [1, 2, 3, 3]);
    expect(text).toMatch(/arith\.constant dense<(5\.000000e-01|0x3F000000)> : tensor<1x2x7x5xf32>/);
    expect(text).toContain('tensor.insert_slice');
    await differential(single(node('Pad', ['x', 'p'], ['y']), [2, 3], [int64Tensor('p', [1, 0, 0, 2])], 13), [2, 3]);
  });

  it('random reflect / edge / wrap pads (negative = crop) match onnxruntime', async () => {
    const padCase = fc.record({ shape: dims(1, 3), pads: fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 6, maxLength: 6 }), mode: fc.constantFrom('reflect', 'edge', 'wrap') });
    await fc.assert(
      fc.asyncProperty(padCase, async ({ shape, pads, mode }) => {
        const rank = shape.length;
        // onnxruntime: reflect pads must be smaller than the axis, wrap pads at most the axis; keep one element.
        const limit = (i: number) => (mode === 'reflect' ? shape[i]! - 1 : mode === 'wrap' ? shape[i]! : 3);
        const before = shape.map((d, i) => Math.max(Math.min(pads[i]!, limit(i)), 1 - d));
        const after = shape.map((d, i) => Math.max(Math.min(pads[3 + i]!, limit(i)), 1 - d - before[i]!));
        // onnxruntime crops first, then pads the cropped axis: it refuses to pad an empty one,
        // and reflect needs pads smaller than the cropped length.
        const kept = shape.map((d, i) => d + Math.min(0, before[i]!) + Math.min(0, after[i]!));
        if (kept.some((k) => k < 1)) return;
        if (mode === 'reflect' && kept.some((k, i) => Math.max(before[i]!, after[i]!) > k - 1)) return;
        if (mode === 'wrap' && kept.some((k, i) => Math.max(before[i]!, after[i]!) > k)) return;
        await differential(single(node('Pad', ['x', 'p'], ['y'], { mode }), shape, [int64Tensor('p', [...before.slice(0, rank), ...after.slice(0, rank)])], 18), shape);
      }),
      { numRuns: 100 },
    );
  });

  it('reflect, edge and wrap are static gathers per padded axis (no per-element ops)', async () => {
    for (const mode of ['reflect', 'edge', 'wrap']) {
      const text = await differential(single(node('Pad', ['x', 'p'], ['y'], { mode }), [1, 2, 8, 8], [int64Tensor('p', [0, 0, 2, 2, 0, 0, 2, 2])], 18), [1, 2, 8, 8]);
      expect(text).toContain('spat.graph_compute');
      expect(text.split('tensor.extract_slice').length - 1).toBeLessThanOrEqual(12);
    }
  });
});

describe('DepthToSpace', () => {
  it('DCR and CRD with random block sizes and shapes match onnxruntime', async () => {
    const d2s = fc.record({ b: fc.integer({ min: 1, max: 3 }), c: fc.integer({ min: 1, max: 3 }), h: fc.integer({ min: 1, max: 4 }), w: fc.integer({ min: 1, max: 4 }), n: fc.integer({ min: 1, max: 2 }), mode: fc.constantFrom('DCR', 'CRD') });
    await fc.assert(
      fc.asyncProperty(d2s, async ({ b, c, h, w, n, mode }) => {
        const shape = [n, c * b * b, h, w];
        await differential(single(node('DepthToSpace', ['x'], ['y'], { blocksize: b, mode }), shape, [], 13), shape);
      }),
      runs,
    );
  });

  it('a block size s moves s² slices', async () => {
    const text = await differential(single(node('DepthToSpace', ['x'], ['y'], { blocksize: 3 }, 'd2s'), [1, 9, 4, 5], [], 11), [1, 9, 4, 5]);
    expect(occurrences(text, 'tensor.insert_slice')).toBe(9);
    expect(text).toContain('loc("d2s")');
  });
});

describe('Split, Concat, Gather, Cast, Dropout', () => {
  it('Split: variable parts (attribute at 11, input at 13), zero-size parts, num_outputs at 18', async () => {
    await differential(single(node('Split', ['x'], ['a', 'b', 'c'], { axis: 1, split: [1, 3, 2] }), [2, 6], [], 11, ['a', 'b', 'c']), [2, 6]);
    await differential(single(node('Split', ['x', 's'], ['a', 'b', 'c']), [6, 2], [int64Tensor('s', [2, 0, 4])], 13, ['a', 'b', 'c']), [6, 2]);
    await differential(single(node('Split', ['x'], ['a', 'b', 'c'], { axis: -1, num_outputs: 3 }), [2, 7], [], 18, ['a', 'b', 'c']), [2, 7]);
  });

  it('random Split sizes and Concat of the parts in another order match onnxruntime', async () => {
    const splitCase = dims(1, 3, fc.integer({ min: 1, max: 6 })).chain((shape) =>
      fc.record({ shape: fc.constant(shape), axis: fc.integer({ min: -shape.length, max: shape.length - 1 }), cuts: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }), catAxis: fc.integer({ min: 0, max: shape.length - 1 }) }),
    );
    await fc.assert(
      fc.asyncProperty(splitCase, async ({ shape, axis, cuts, catAxis }) => {
        const size = shape[axis < 0 ? axis + shape.length : axis]!;
        const points = [0, ...cuts.map((c) => Math.min(c, size)).sort((a, b) => a - b), size];
        const sizes = points.slice(1).map((p, i) => p - points[i]!);
        const parts = sizes.map((_, i) => `p${i}`);
        const spec: ModelSpec = {
          nodes: [node('Split', ['x', 's'], parts, { axis }), node('Concat', [...parts].reverse(), ['y'], { axis: catAxis === (axis < 0 ? axis + shape.length : axis) ? catAxis : axis })],
          inputs: [valueInfo('x', shape)],
          outputs: [valueInfo('y', undefined), valueInfo('p0', undefined)],
          initializers: [int64Tensor('s', sizes)],
        };
        await differential(spec, shape);
      }),
      runs,
    );
  });

  it('Concat along any axis, with a zero-size input', async () => {
    const spec = (axis: number, shape: number[], zero: number[]): ModelSpec => ({
      nodes: [node('Relu', ['x'], ['r']), node('Concat', ['x', 'z', 'r'], ['y'], { axis })],
      inputs: [valueInfo('x', shape)],
      outputs: [valueInfo('y', undefined)],
      initializers: [floatTensor('z', zero, [])],
    });
    await differential(spec(0, [2, 3], [0, 3]), [2, 3]);
    await differential(spec(-1, [2, 3, 2], [2, 3, 0]), [2, 3, 2]);
  });

  it('Gather with random constant indices (negative, scalar, 2-D) along random axes matches onnxruntime', async () => {
    const gatherCase = dims(1, 3).chain((shape) =>
      fc.record({
        shape: fc.constant(shape),
        axis: fc.integer({ min: -shape.length, max: shape.length - 1 }),
        idxShape: fc.constantFrom<number[]>([], [1], [3], [2, 2]),
        seed: fc.integer({ min: 1, max: 1000 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(gatherCase, async ({ shape, axis, idxShape, seed }) => {
        const size = shape[axis < 0 ? axis + shape.length : axis]!;
        const idx = Array.from(random(count(idxShape), seed), (v) => Math.floor(((v + 1) / 2) * 2 * size) - size);
        await differential(single(node('Gather', ['x', 'i'], ['y'], { axis }), shape, [int64Tensor('i', idx, idxShape)]), shape);
      }),
      runs,
    );
  });

  it('Cast float -> float is the input; Dropout with training_mode false or ratio 0 is the input', async () => {
    expect(await differential(single(node('Cast', ['x'], ['y'], { to: 1 }), [2, 3]), [2, 3])).not.toContain('graph_compute');
    await differential(single(node('Dropout', ['x', 'r', 't'], ['y']), [2, 3], [floatTensor('r', [], [0.3]), { name: 't', dims: [], dataType: 9, int32Data: [0] }], 13), [2, 3]);
  });
});

describe('Resize and Upsample (nearest)', () => {
  const modes = ['half_pixel', 'asymmetric', 'pytorch_half_pixel', 'align_corners', 'tf_half_pixel_for_nn'];
  const nearest = ['round_prefer_floor', 'round_prefer_ceil', 'floor', 'ceil'];
  it('random coordinate/nearest modes, scales and sizes (up and down) match onnxruntime', async () => {
    const resizeCase = fc.record({
      h: fc.integer({ min: 1, max: 6 }),
      w: fc.integer({ min: 1, max: 6 }),
      ctm: fc.constantFrom(...modes),
      nm: fc.constantFrom(...nearest),
      scaleH: fc.constantFrom(0.5, 0.6, 1, 1.5, 2, 2.5, 3),
      scaleW: fc.constantFrom(0.34, 0.75, 1, 1.25, 2, 3),
      useSizes: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(resizeCase, async ({ h, w, ctm, nm, scaleH, scaleW, useSizes }) => {
        const shape = [1, 2, h, w];
        const sizes = [1, 2, Math.max(1, Math.floor(h * scaleH)), Math.max(1, Math.floor(w * scaleW))];
        const inputs = useSizes ? ['x', '', '', 's'] : ['x', '', 's'];
        const init = useSizes ? int64Tensor('s', sizes) : floatTensor('s', [4], [1, 1, scaleH, scaleW]);
        if (!useSizes && (Math.floor(h * scaleH) === 0 || Math.floor(w * scaleW) === 0)) return;
        await differential(single(node('Resize', inputs, ['y'], { mode: 'nearest', coordinate_transformation_mode: ctm, nearest_mode: nm }), shape, [init], 13), shape);
      }),
      { numRuns: 30 },
    );
  });

  it('integer upsampling with asymmetric/floor is a resize_nearest_plan; other maps a few strided slices', async () => {
    const spec = (ctm: string, nm: string) => single(node('Resize', ['x', '', 's'], ['y'], { mode: 'nearest', coordinate_transformation_mode: ctm, nearest_mode: nm }), [1, 2, 8, 8], [floatTensor('s', [4], [1, 1, 2, 2])]);
    expect(await differential(spec('asymmetric', 'floor'), [1, 2, 8, 8])).toContain('"spat.resize_nearest_plan"');
    // round_prefer_floor + asymmetric also equals floor on integer scales.
    expect(await differential(spec('asymmetric', 'round_prefer_floor'), [1, 2, 8, 8])).toContain('"spat.resize_nearest_plan"');
    const text = await differential(spec('align_corners', 'floor'), [1, 2, 8, 8]);
    expect(text).not.toContain('resize_nearest_plan');
    expect(occurrences(text, 'tensor.insert_slice')).toBeLessThanOrEqual(6);
  });

  it('Upsample (opset 7 attribute, opset 9 input) and Resize-10 downsampling (onnxruntime rounding)', async () => {
    await differential(single(node('Upsample', ['x'], ['y'], { mode: 'nearest', scales: new FloatList([1, 1, 2, 3]) }), [1, 1, 2, 3], [], 7), [1, 1, 2, 3]);
    await differential(single(node('Upsample', ['x', 's'], ['y'], { mode: 'nearest' }), [1, 2, 3, 2], [floatTensor('s', [4], [1, 1, 1.5, 2.5])], 9), [1, 2, 3, 2]);
    await differential(single(node('Resize', ['x', 's'], ['y'], { mode: 'nearest' }), [1, 1, 5, 7], [floatTensor('s', [4], [1, 1, 0.6, 0.5])], 10), [1, 1, 5, 7]);
  });

  it('Resize opset 18: axes and keep_aspect_ratio_policy', async () => {
    for (const policy of ['stretch', 'not_larger', 'not_smaller']) {
      const spec = single(node('Resize', ['x', '', '', 's'], ['y'], { mode: 'nearest', axes: [3, 2], keep_aspect_ratio_policy: policy }), [1, 2, 4, 5], [int64Tensor('s', [7, 3])], 18);
      await differential(spec, [1, 2, 4, 5]);
    }
    await differential(single(node('Resize', ['x', '', 's'], ['y'], { mode: 'nearest', axes: [-1] }), [2, 3, 4], [floatTensor('s', [1], [1.5])], 18), [2, 3, 4]);
  });

  it('Resize of a rank-3 tensor resizing the channel axis (no plan)', async () => {
    await differential(single(node('Resize', ['x', '', 's'], ['y'], { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' }), [3, 4, 2], [floatTensor('s', [3], [2, 0.5, 1])]), [3, 4, 2]);
  });
});

describe('refusals name the node and the reason', () => {
  const messages = (spec: ModelSpec) => importSpec(spec).diagnostics.map(formatDiagnostic).join('\n');

  it('Pad edge/reflect/wrap of an empty axis to a non-empty one', () => {
    const text = messages(single(node('Pad', ['x', 'p'], ['y'], { mode: 'edge' }, 'pad0'), [2, 0], [int64Tensor('p', [0, 1, 0, 1])], 19));
    expect(text).toContain("cannot lower Pad (node 'pad0'): mode 'edge' cannot pad an axis of size 0 (there is no element to repeat)");
  });

  it.each(['linear', 'cubic'])('Resize mode %s', (mode) => {
    const text = messages(single(node('Resize', ['x', '', 's'], ['y'], { mode }, 'rz'), [1, 1, 2, 2], [floatTensor('s', [4], [1, 1, 2, 2])]));
    expect(text).toContain(`cannot lower Resize (node 'rz'): mode '${mode}' is not supported`);
  });

  it('Resize tf_crop_and_resize', () => {
    const text = messages(single(node('Resize', ['x', 'roi', 's'], ['y'], { mode: 'nearest', coordinate_transformation_mode: 'tf_crop_and_resize' }, 'rz'), [1, 1, 4, 4], [floatTensor('roi', [8], [0, 0, 0, 0, 1, 1, 1, 1]), floatTensor('s', [4], [1, 1, 2, 2])]));
    expect(text).toContain("cannot lower Resize (node 'rz'): coordinate_transformation_mode 'tf_crop_and_resize' is not supported");
  });

  it('Resize from an empty axis to a non-empty one', () => {
    const text = messages(single(node('Resize', ['x', '', '', 's'], ['y'], { mode: 'nearest' }, 'rz'), [1, 0, 2], [int64Tensor('s', [1, 3, 4])]));
    expect(text).toContain("cannot lower Resize (node 'rz'): axis 1 of the input is empty but the output size is 3");
  });

  it('Resize with an unknown nearest_mode', () => {
    const text = messages(single(node('Resize', ['x', '', 's'], ['y'], { mode: 'nearest', nearest_mode: 'nearest_up' }, 'rz'), [1, 1, 2, 2], [floatTensor('s', [4], [1, 1, 2, 2])]));
    expect(text).toContain("cannot lower Resize (node 'rz'): nearest_mode 'nearest_up' is not supported");
  });

  it('Gather with runtime indices', () => {
    const spec: ModelSpec = { nodes: [node('Gather', ['x', 'i'], ['y'], {}, 'g')], inputs: [valueInfo('x', [3, 2]), valueInfo('i', [2], 7)], outputs: [valueInfo('y', undefined)] };
    expect(messages(spec)).toContain("cannot lower Gather (node 'g'): the indices are not a compile-time constant");
  });

  it('Cast of a runtime float32 to int64', () => {
    const spec: ModelSpec = { nodes: [node('Cast', ['x'], ['c'], { to: 7 }, 'cast'), node('Cast', ['c'], ['y'], { to: 1 }, 'back')], inputs: [valueInfo('x', [3])], outputs: [valueInfo('y', undefined)] };
    expect(messages(spec)).toContain("cannot lower Cast (node 'cast'): Cast of a runtime float32 value to int64");
  });

  it('Cast of a runtime int64 value', () => {
    const spec: ModelSpec = { nodes: [node('Cast', ['i'], ['y'], { to: 1 }, 'cast')], inputs: [valueInfo('i', [3], 7)], outputs: [valueInfo('y', undefined)] };
    expect(messages(spec)).toContain("cannot lower Cast (node 'cast'): Cast of a runtime int64 value");
  });

  it('Dropout with a runtime training_mode (refused before lowering: shapes need it constant)', () => {
    const spec: ModelSpec = { nodes: [node('Dropout', ['x', '', 't'], ['y'], {}, 'drop')], inputs: [valueInfo('x', [3]), valueInfo('t', [], 9)], outputs: [valueInfo('y', undefined)] };
    expect(messages(spec)).toContain("node 'drop' (#0): error: Dropout: input #2 't' must be a constant");
  });

  it('Dropout with a used mask, and in training mode', () => {
    const mask: ModelSpec = { nodes: [node('Dropout', ['x'], ['y', 'm'], {}, 'drop')], inputs: [valueInfo('x', [3])], outputs: [valueInfo('y', undefined), valueInfo('m', undefined, 9)] };
    expect(messages(mask)).toContain("cannot lower Dropout (node 'drop'): the mask output is used");
    const training = single(node('Dropout', ['x', 'r', 't'], ['y'], {}, 'drop'), [3], [floatTensor('r', [], [0.5]), { name: 't', dims: [], dataType: 9, int32Data: [1] }]);
    expect(messages(training)).toContain("node 'drop' (#0): error: Dropout in training mode");
  });
});

describe('superres-224 (DepthToSpace model)', () => {
  const dir = path.join(MODELS_DIR, 'superres-224');
  (fs.existsSync(dir) ? it : it.skip)('imports and matches its onnxruntime reference', () => {
    const { model } = readOnnxFile(path.join(dir, 'model.onnx'));
    const imported = importOnnxModel(model!);
    expect(imported.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
    const npy = (f: string) => readNpy(fs.readFileSync(path.join(dir, f)), f).tensor!;
    const x = npy('input_0.npy');
    const r = runImportedModule(imported, [{ shape: x.dims, data: Float32Array.from(tensorToNumbers(x)) }]);
    if (!r.ok) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
    const ref = tensorToNumbers(npy('output_0.npy'));
    const got = r.outputs[0]!.data;
    expect(r.outputs[0]!.shape).toEqual([1, 1, 672, 672]);
    const maxRef = ref.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    let worst = 0;
    for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(got[i]! - ref[i]!) / (1e-5 * maxRef + 1e-3 * Math.abs(ref[i]!)));
    expect(worst).toBeLessThanOrEqual(1);
  });
});
