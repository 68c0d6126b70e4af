/**
 * Property: flipping and truncating bytes of real models gives a model or error diagnostics,
 * never an exception, and each case finishes in bounded time. Mutated models that still read
 * also go through the Spatial lowering: a verified module or error diagnostics, never a throw.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { hasErrors, importOnnxModel, loadOnnxModel, readOnnxModel } from '@raptor-pim/onnx-frontend';
import { convReluSpec, encodeModel, int64Tensor, node, valueInfo } from './build-model';
import { MODELS_DIR } from './helpers';

// This machine is shared: allow for load (the whole file normally takes a few seconds).
jest.setTimeout(120_000);

/** A structure-dense model (no big weights): every byte is a tag, a length, a name or a shape. */
const SMALL = encodeModel({
  nodes: [
    ...convReluSpec().nodes,
    node('Shape', ['y'], ['s']),
    node('Gather', ['s', 'i0'], ['n'], { axis: 0 }),
    node('Unsqueeze', ['n', 'ax'], ['n1']),
    node('Concat', ['n1', 'minus1'], ['t'], { axis: 0 }),
    node('Reshape', ['y', 't'], ['r']),
    node('Slice', ['r', 'st', 'en'], ['z']),
    node('MaxPool', ['y'], ['p'], { kernel_shape: [2, 2], strides: [2, 2], ceil_mode: 1 }),
  ],
  inputs: [valueInfo('x', [1, 3, 8, 8])],
  outputs: [valueInfo('z', undefined), valueInfo('p', [1, 4, 4, 4])],
  initializers: [...convReluSpec().initializers!, int64Tensor('i0', [0], []), int64Tensor('ax', [0]), int64Tensor('minus1', [-1]), int64Tensor('st', [0, 1]), int64Tensor('en', [1, -1])],
});

const NAMES = ['mnist-8', 'lenet5', 'yolo_block', 'ultraface-slim-320', 'mobilenet_block', 'small'];
const MODELS = NAMES.map((n) => (n === 'small' ? SMALL : fs.readFileSync(path.join(MODELS_DIR, n, 'model.onnx'))));
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 300);
const CASE_LIMIT_MS = 2000;

const mutation = fc.record({
  model: fc.nat({ max: MODELS.length - 1 }),
  // Positions as fractions of the length, so they are valid for every model.
  flips: fc.array(fc.record({ at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), xor: fc.integer({ min: 1, max: 255 }) }), { maxLength: 8 }),
  truncateAt: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  // Bias some flips towards the structure at the start of the file (graph, nodes).
  headFlips: fc.array(fc.record({ at: fc.nat({ max: 4095 }), xor: fc.integer({ min: 1, max: 255 }) }), { maxLength: 4 }),
});

describe('fuzzing real models', () => {
  it('the unmutated models load', () => {
    for (const bytes of MODELS) expect(hasErrors(loadOnnxModel(bytes).diagnostics)).toBe(false);
  });

  it(`${RUNS} flipped/truncated models: model or diagnostics, never a throw`, () => {
    let rejected = 0;
    fc.assert(
      fc.property(mutation, ({ model, flips, truncateAt, headFlips }) => {
        const original = MODELS[model]!;
        const bytes = Uint8Array.from(original);
        for (const f of flips) bytes[Math.floor(f.at * bytes.length)]! ^= f.xor;
        for (const f of headFlips) if (f.at < bytes.length) bytes[f.at]! ^= f.xor;
        const input = truncateAt === undefined ? bytes : bytes.subarray(0, Math.floor(truncateAt * bytes.length));
        const start = performance.now();
        const r = loadOnnxModel(input, { file: NAMES[model]! });
        const ms = performance.now() - start;
        if (!r.model || !r.values) rejected++;
        // Either a usable result or at least one error explains why not.
        expect(r.model !== undefined && r.values !== undefined ? !hasErrors(r.diagnostics) : hasErrors(r.diagnostics)).toBe(true);
        expect(ms).toBeLessThan(CASE_LIMIT_MS);
      }),
      { numRuns: RUNS, seed: Number(process.env['FUZZ_SEED'] ?? 20261130) },
    );
    // Sanity: mutations do reach the validators (most mutated models are rejected).
    expect(rejected).toBeGreaterThan(RUNS / 4);
  });

  const IMPORT_RUNS = Number(process.env['FUZZ_IMPORT_RUNS'] ?? 300);
  it(`${IMPORT_RUNS} flipped/truncated models through importOnnxModel: a module or errors, never a throw`, () => {
    // ultraface is left out here only for time (about 0.1 s per import); it is fuzzed above.
    const small = NAMES.map((_name, i) => i).filter((i) => NAMES[i] !== 'ultraface-slim-320');
    let imported = 0;
    fc.assert(
      // Byte flips only (no truncation), so that many mutants still read and reach the lowering.
      fc.property(mutation, ({ model, flips, headFlips }) => {
        const index = small[model % small.length]!;
        const bytes = Uint8Array.from(MODELS[index]!);
        for (const f of flips) bytes[Math.floor(f.at * bytes.length)]! ^= f.xor;
        for (const f of headFlips) if (f.at < bytes.length) bytes[f.at]! ^= f.xor;
        const read = readOnnxModel(bytes, { file: NAMES[index]! });
        if (!read.model) return;
        const r = importOnnxModel(read.model);
        if (r.module) imported++;
        expect(r.module !== undefined ? !hasErrors(r.diagnostics) : hasErrors(r.diagnostics)).toBe(true);
      }),
      { numRuns: IMPORT_RUNS, seed: Number(process.env['FUZZ_SEED'] ?? 20261130) },
    );
    expect(imported).toBeGreaterThan(0);
  });
});
