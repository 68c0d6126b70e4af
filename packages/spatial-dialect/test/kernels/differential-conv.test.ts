import fc from 'fast-check';
import { kernels } from '../../src';
import { SEED, unwrap } from './support/unwrap';
import { compareWithReference, DIFFERENTIAL_TEST_TIMEOUT_MS, randomTensor, runOrtNode, stopOrt } from './support/ort-runner';

jest.setTimeout(DIFFERENTIAL_TEST_TIMEOUT_MS);
afterAll(stopOrt);


describe('conv2d vs onnxruntime Conv', () => {
  it('matches on random groups, pads, strides, dilations and bias', async () => {
    const arb = fc
      .record({
        n: fc.integer({ min: 1, max: 2 }),
        group: fc.constantFrom(1, 2, 3),
        cinPerGroup: fc.integer({ min: 1, max: 3 }),
        // Up to 13 output channels per group exercises the 8-, 4- and 1-channel inner loops.
        coutPerGroup: fc.integer({ min: 1, max: 13 }),
        h: fc.integer({ min: 1, max: 9 }),
        w: fc.integer({ min: 1, max: 9 }),
        kh: fc.integer({ min: 1, max: 4 }),
        kw: fc.integer({ min: 1, max: 4 }),
        pads: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 4, maxLength: 4 }),
        strides: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 2 }),
        dilations: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 2, maxLength: 2 }),
        withBias: fc.boolean(),
        seed: fc.integer({ min: 0, max: 1 << 30 }),
      })
      .filter(
        (p) =>
          kernels.windowOutputSize(p.h, p.kh, p.pads[0]!, p.pads[2]!, p.strides[0]!, p.dilations[0]!) >= 1 &&
          kernels.windowOutputSize(p.w, p.kw, p.pads[1]!, p.pads[3]!, p.strides[1]!, p.dilations[1]!) >= 1,
      );
    await fc.assert(
      fc.asyncProperty(arb, async (p) => {
        const cin = p.group * p.cinPerGroup;
        const cout = p.group * p.coutPerGroup;
        const x = randomTensor([p.n, cin, p.h, p.w], p.seed);
        const w = randomTensor([cout, p.cinPerGroup, p.kh, p.kw], p.seed + 1);
        const b = p.withBias ? randomTensor([cout], p.seed + 2) : undefined;
        const attrs = { pads: p.pads, strides: p.strides, dilations: p.dilations, group: p.group };
        const ours = unwrap(kernels.conv2d(x, w, b, attrs));
        const ref = await runOrtNode({
          opType: 'Conv',
          nodeInputs: b ? ['x', 'w', 'b'] : ['x', 'w'],
          inputs: [
            { name: 'x', tensor: x },
            { name: 'w', tensor: w },
            ...(b ? [{ name: 'b', tensor: b }] : []),
          ],
          outputShape: ours.shape,
          attributes: {
            pads: { ints: p.pads },
            strides: { ints: p.strides },
            dilations: { ints: p.dilations },
            group: { int: p.group },
            kernel_shape: { ints: [p.kh, p.kw] },
          },
        });
        expect(compareWithReference(ours, ref)).toBeUndefined();
      }),
      { numRuns: 120, seed: SEED },
    );
  });

  it('matches with 13 output channels per group (8 + 4 + 1 channel blocks), strides and dilations', async () => {
    const x = randomTensor([2, 6, 9, 8], 11);
    const w = randomTensor([26, 3, 3, 2], 12);
    const b = randomTensor([26], 13);
    const attrs = { pads: [2, 1, 0, 1], strides: [2, 1], dilations: [1, 2], group: 2 };
    const ours = unwrap(kernels.conv2d(x, w, b, attrs));
    const ref = await runOrtNode({
      opType: 'Conv',
      nodeInputs: ['x', 'w', 'b'],
      inputs: [
        { name: 'x', tensor: x },
        { name: 'w', tensor: w },
        { name: 'b', tensor: b },
      ],
      outputShape: ours.shape,
      attributes: { pads: { ints: attrs.pads }, strides: { ints: attrs.strides }, dilations: { ints: attrs.dilations }, group: { int: 2 }, kernel_shape: { ints: [3, 2] } },
    });
    expect(compareWithReference(ours, ref)).toBeUndefined();
  });

  it('matches on a depthwise convolution with stride 2 and asymmetric pads', async () => {
    const x = randomTensor([1, 8, 11, 10], 7);
    const w = randomTensor([8, 1, 3, 3], 8);
    const b = randomTensor([8], 9);
    const attrs = { pads: [1, 0, 2, 1], strides: [2, 2], dilations: [1, 1], group: 8 };
    const ours = unwrap(kernels.conv2d(x, w, b, attrs));
    expect(ours.shape).toEqual([1, 8, 6, 5]);
    const ref = await runOrtNode({
      opType: 'Conv',
      nodeInputs: ['x', 'w', 'b'],
      inputs: [
        { name: 'x', tensor: x },
        { name: 'w', tensor: w },
        { name: 'b', tensor: b },
      ],
      outputShape: ours.shape,
      attributes: { pads: { ints: attrs.pads }, strides: { ints: attrs.strides }, group: { int: 8 }, kernel_shape: { ints: [3, 3] } },
    });
    expect(compareWithReference(ours, ref)).toBeUndefined();
  });
});
