import fc from 'fast-check';
import { kernels } from '../../src';
import { compareWithReference, DIFFERENTIAL_TEST_TIMEOUT_MS, randomTensor, runOrtNode, stopOrt } from './support/ort-runner';
import { SEED, unwrap } from './support/unwrap';

jest.setTimeout(DIFFERENTIAL_TEST_TIMEOUT_MS);
afterAll(stopOrt);

const windowArb = fc
  .record({
    n: fc.integer({ min: 1, max: 2 }),
    c: fc.integer({ min: 1, max: 3 }),
    h: fc.integer({ min: 1, max: 10 }),
    w: fc.integer({ min: 1, max: 10 }),
    kh: fc.integer({ min: 1, max: 4 }),
    kw: fc.integer({ min: 1, max: 4 }),
    padFractions: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
    strides: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 2 }),
    dilations: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 2, maxLength: 2 }),
    seed: fc.integer({ min: 0, max: 1 << 30 }),
  })
  .map((p) => ({
    ...p,
    // ONNX requires every pad to be smaller than its kernel extent.
    pads: [p.padFractions[0]! % p.kh, p.padFractions[1]! % p.kw, p.padFractions[2]! % p.kh, p.padFractions[3]! % p.kw],
  }))
  .filter(
    (p) =>
      kernels.windowOutputSize(p.h, p.kh, p.pads[0]!, p.pads[2]!, p.strides[0]!, p.dilations[0]!) >= 1 &&
      kernels.windowOutputSize(p.w, p.kw, p.pads[1]!, p.pads[3]!, p.strides[1]!, p.dilations[1]!) >= 1,
  );

describe('pooling vs onnxruntime', () => {
  it('maxPool2d matches MaxPool (kernel, strides, pads, dilations)', async () => {
    await fc.assert(
      fc.asyncProperty(windowArb, async (p) => {
        const x = randomTensor([p.n, p.c, p.h, p.w], p.seed);
        const attrs = { kernelShape: [p.kh, p.kw], pads: p.pads, strides: p.strides, dilations: p.dilations };
        const ours = unwrap(kernels.maxPool2d(x, attrs));
        const ref = await runOrtNode({
          opType: 'MaxPool',
          nodeInputs: ['x'],
          inputs: [{ name: 'x', tensor: x }],
          outputShape: ours.shape,
          attributes: { kernel_shape: { ints: attrs.kernelShape }, pads: { ints: p.pads }, strides: { ints: p.strides }, dilations: { ints: p.dilations } },
        });
        expect(compareWithReference(ours, ref)).toBeUndefined();
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('averagePool2d matches AveragePool with count_include_pad 0 and 1 (opset 17, no dilation)', async () => {
    await fc.assert(
      fc.asyncProperty(windowArb, fc.boolean(), async (p, includePad) => {
        const x = randomTensor([p.n, p.c, p.h, p.w], p.seed);
        const attrs = { kernelShape: [p.kh, p.kw], pads: p.pads, strides: p.strides, countIncludePad: includePad };
        const ours = unwrap(kernels.averagePool2d(x, attrs));
        const ref = await runOrtNode({
          opType: 'AveragePool',
          nodeInputs: ['x'],
          inputs: [{ name: 'x', tensor: x }],
          outputShape: ours.shape,
          attributes: {
            kernel_shape: { ints: attrs.kernelShape },
            pads: { ints: p.pads },
            strides: { ints: p.strides },
            count_include_pad: { int: includePad ? 1 : 0 },
          },
        });
        expect(compareWithReference(ours, ref)).toBeUndefined();
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('averagePool2d matches AveragePool with dilations (opset 19)', async () => {
    await fc.assert(
      fc.asyncProperty(windowArb, fc.boolean(), async (p, includePad) => {
        const x = randomTensor([p.n, p.c, p.h, p.w], p.seed);
        const attrs = { kernelShape: [p.kh, p.kw], pads: p.pads, strides: p.strides, dilations: p.dilations, countIncludePad: includePad };
        const ours = unwrap(kernels.averagePool2d(x, attrs));
        const ref = await runOrtNode({
          opType: 'AveragePool',
          nodeInputs: ['x'],
          inputs: [{ name: 'x', tensor: x }],
          outputShape: ours.shape,
          opset: 19,
          attributes: {
            kernel_shape: { ints: attrs.kernelShape },
            pads: { ints: p.pads },
            strides: { ints: p.strides },
            dilations: { ints: p.dilations },
            count_include_pad: { int: includePad ? 1 : 0 },
          },
        });
        expect(compareWithReference(ours, ref)).toBeUndefined();
      }),
      { numRuns: 150, seed: SEED },
    );
  });

  it('globalAveragePool and globalMaxPool match GlobalAveragePool / GlobalMaxPool', async () => {
    const shapeArb = fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }));
    await fc.assert(
      fc.asyncProperty(shapeArb, fc.integer({ min: 0, max: 1 << 30 }), async (shape, seed) => {
        const x = randomTensor(shape, seed, 4);
        for (const [op, kernel] of [
          ['GlobalAveragePool', kernels.globalAveragePool],
          ['GlobalMaxPool', kernels.globalMaxPool],
        ] as const) {
          const ours = unwrap(kernel(x));
          const ref = await runOrtNode({ opType: op, nodeInputs: ['x'], inputs: [{ name: 'x', tensor: x }], outputShape: ours.shape });
          expect(compareWithReference(ours, ref)).toBeUndefined();
        }
      }),
      { numRuns: 60, seed: SEED },
    );
  });
});
