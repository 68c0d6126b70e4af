import fc from 'fast-check';
import { kernels } from '../../src';
import { compareWithReference, DIFFERENTIAL_TEST_TIMEOUT_MS, randomTensor, runOrtNode, stopOrt } from './support/ort-runner';
import { SEED, unwrap } from './support/unwrap';

jest.setTimeout(DIFFERENTIAL_TEST_TIMEOUT_MS);
afterAll(stopOrt);

const shapeArb = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 });
const seedArb = fc.integer({ min: 0, max: 1 << 30 });

describe('data-movement kernels vs onnxruntime (bit-exact)', () => {
  it('concat matches Concat on any axis with 1-3 inputs', async () => {
    await fc.assert(
      fc.asyncProperty(shapeArb, fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }), fc.integer({ min: -4, max: 3 }), seedArb, async (shape, axisSizes, rawAxis, seed) => {
        const axis = rawAxis % shape.length;
        const a = axis < 0 ? axis + shape.length : axis;
        const inputs = axisSizes.map((size, i) => randomTensor(shape.map((d, j) => (j === a ? size : d)), seed + i));
        const ours = unwrap(kernels.concat(inputs, axis));
        const ref = await runOrtNode({
          opType: 'Concat',
          nodeInputs: inputs.map((_, i) => `x${i}`),
          inputs: inputs.map((tensor, i) => ({ name: `x${i}`, tensor })),
          attributes: { axis: { int: axis } },
          outputShape: ours.shape,
        });
        expect(compareWithReference(ours, ref, 0, 0)).toBeUndefined();
        // split is concat's inverse.
        const parts = unwrap(kernels.split(ours, axis, axisSizes));
        parts.forEach((part, i) => expect(part).toEqual(inputs[i]));
      }),
      { numRuns: 100, seed: SEED },
    );
  });

  it('depthToSpace matches DepthToSpace in DCR and CRD modes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 })),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom('DCR', 'CRD'),
        seedArb,
        async ([n, c, h, w], bs, mode, seed) => {
          const x = randomTensor([n, c * bs * bs, h, w], seed);
          const ours = unwrap(kernels.depthToSpace(x, bs, mode));
          const ref = await runOrtNode({
            opType: 'DepthToSpace',
            nodeInputs: ['x'],
            inputs: [{ name: 'x', tensor: x }],
            attributes: { blocksize: { int: bs }, mode: { string: mode } },
            outputShape: ours.shape,
          });
          expect(compareWithReference(ours, ref, 0, 0)).toBeUndefined();
        },
      ),
      { numRuns: 80, seed: SEED },
    );
  });

  it('transpose matches Transpose for random permutations', async () => {
    await fc.assert(
      fc.asyncProperty(
        shapeArb.chain((shape) => fc.tuple(fc.constant(shape), fc.shuffledSubarray(shape.map((_, i) => i), { minLength: shape.length, maxLength: shape.length }))),
        seedArb,
        async ([shape, perm], seed) => {
          const x = randomTensor(shape, seed);
          const ours = unwrap(kernels.transpose(x, perm));
          const ref = await runOrtNode({ opType: 'Transpose', nodeInputs: ['x'], inputs: [{ name: 'x', tensor: x }], attributes: { perm: { ints: perm } }, outputShape: ours.shape });
          expect(compareWithReference(ours, ref, 0, 0)).toBeUndefined();
        },
      ),
      { numRuns: 80, seed: SEED },
    );
  });

  it('padConstant matches Pad (constant mode, opset 17) including negative pads', async () => {
    await fc.assert(
      fc.asyncProperty(shapeArb, fc.array(fc.integer({ min: -1, max: 2 }), { minLength: 8, maxLength: 8 }), fc.double({ min: -3, max: 3, noNaN: true }), seedArb, async (shape, rawPads, value, seed) => {
        const rank = shape.length;
        const pads = rawPads.slice(0, rank).concat(rawPads.slice(4, 4 + rank));
        if (shape.some((d, i) => d + pads[i]! + pads[i + rank]! < 1)) return;
        const x = randomTensor(shape, seed);
        const v = Math.fround(value);
        const ours = unwrap(kernels.padConstant(x, pads, v));
        const ref = await runOrtNode({
          opType: 'Pad',
          nodeInputs: ['x', 'pads', 'value'],
          inputs: [{ name: 'x', tensor: x }],
          initializers: [
            { name: 'pads', shape: [2 * rank], int64: pads },
            { name: 'value', shape: [], float: [v] },
          ],
          attributes: { mode: { string: 'constant' } },
          outputShape: ours.shape,
        });
        expect(compareWithReference(ours, ref, 0, 0)).toBeUndefined();
      }),
      { numRuns: 100, seed: SEED },
    );
  });

  it('flatten matches Flatten for every axis in [-rank, rank]', async () => {
    await fc.assert(
      fc.asyncProperty(shapeArb, fc.integer({ min: -4, max: 4 }), seedArb, async (shape, rawAxis, seed) => {
        const axis = Math.max(-shape.length, Math.min(shape.length, rawAxis));
        const x = randomTensor(shape, seed);
        const ours = unwrap(kernels.flatten(x, axis));
        const ref = await runOrtNode({ opType: 'Flatten', nodeInputs: ['x'], inputs: [{ name: 'x', tensor: x }], attributes: { axis: { int: axis } }, outputShape: ours.shape });
        expect(compareWithReference(ours, ref, 0, 0)).toBeUndefined();
      }),
      { numRuns: 50, seed: SEED },
    );
  });
});
