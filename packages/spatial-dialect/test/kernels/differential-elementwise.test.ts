import fc from 'fast-check';
import { kernels } from '../../src';
import { compareWithReference, DIFFERENTIAL_TEST_TIMEOUT_MS, randomTensor, runOrtNode, stopOrt } from './support/ort-runner';
import { SEED, unwrap } from './support/unwrap';

jest.setTimeout(DIFFERENTIAL_TEST_TIMEOUT_MS);
afterAll(stopOrt);

/** Two numpy-broadcastable shapes derived from one full shape (dropped leading axes, size-1 axes). */
const broadcastPairArb = fc
  .record({
    full: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 0, maxLength: 4 }),
    dropL: fc.integer({ min: 0, max: 4 }),
    dropR: fc.integer({ min: 0, max: 4 }),
    onesL: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    onesR: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    seed: fc.integer({ min: 0, max: 1 << 30 }),
  })
  .map((p) => {
    const derive = (drop: number, ones: boolean[]): number[] =>
      p.full.slice(Math.min(drop, p.full.length)).map((d, i) => (ones[i] ? 1 : d));
    return { lhs: derive(p.dropL, p.onesL), rhs: derive(p.dropR, p.onesR), seed: p.seed };
  });

describe('element-wise kernels vs onnxruntime', () => {
  it('add/sub/mul/div/max/min broadcast like Add/Sub/Mul/Div/Max/Min', async () => {
    const ops = [
      ['Add', 'add'],
      ['Sub', 'sub'],
      ['Mul', 'mul'],
      ['Div', 'div'],
      ['Max', 'max'],
      ['Min', 'min'],
    ] as const;
    await fc.assert(
      fc.asyncProperty(broadcastPairArb, fc.constantFrom(...ops), async (p, [onnxOp, kind]) => {
        const a = randomTensor(p.lhs, p.seed);
        const b = randomTensor(p.rhs, p.seed + 1);
        if (kind === 'div') for (let i = 0; i < b.data.length; i++) b.data[i] = b.data[i]! + (b.data[i]! < 0 ? -0.5 : 0.5);
        const ours = unwrap(kernels.elementwiseBinary(kind, a, b));
        expect(ours.shape).toEqual(kernels.broadcastShapes(p.lhs, p.rhs));
        const ref = await runOrtNode({
          opType: onnxOp,
          nodeInputs: ['a', 'b'],
          inputs: [
            { name: 'a', tensor: a },
            { name: 'b', tensor: b },
          ],
          outputShape: ours.shape,
        });
        // add/sub/mul/div/max/min are single IEEE f32 operations: bit-exact.
        expect(compareWithReference(ours, ref, 0, 0)).toBeUndefined();
      }),
      { numRuns: 150, seed: SEED },
    );
  });

  it('unary kernels match Relu, LeakyRelu, Sigmoid, Tanh, HardSigmoid, Clip, Neg, Exp', async () => {
    const shapeArb = fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(
        shapeArb,
        fc.integer({ min: 0, max: 1 << 30 }),
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: -2, max: 2, noNaN: true }),
        async (shape, seed, u, v) => {
          const x = randomTensor(shape, seed, 6);
          const alpha = Math.fround(u);
          const beta = Math.fround(v);
          const lo = Math.fround(Math.min(u, v));
          const hi = Math.fround(Math.max(u, v));
          const cases: [string, kernels.KernelResult<kernels.F32Tensor>, Record<string, { float: number }>, { name: string; shape: number[]; float: number[] }[]][] = [
            ['Relu', kernels.relu(x), {}, []],
            ['LeakyRelu', kernels.leakyRelu(x, alpha), { alpha: { float: alpha } }, []],
            ['Sigmoid', kernels.sigmoid(x), {}, []],
            ['Tanh', kernels.tanh(x), {}, []],
            ['HardSigmoid', kernels.hardSigmoid(x, alpha, beta), { alpha: { float: alpha }, beta: { float: beta } }, []],
            ['Clip', kernels.clip(x, lo, hi), {}, [
              { name: 'lo', shape: [], float: [lo] },
              { name: 'hi', shape: [], float: [hi] },
            ]],
            ['Neg', kernels.neg(x), {}, []],
            ['Exp', kernels.exp(x), {}, []],
          ];
          for (const [op, result, attributes, initializers] of cases) {
            const ours = unwrap(result);
            const ref = await runOrtNode({
              opType: op,
              nodeInputs: op === 'Clip' ? ['x', 'lo', 'hi'] : ['x'],
              inputs: [{ name: 'x', tensor: x }],
              initializers,
              attributes,
              outputShape: ours.shape,
            });
            const mismatch = compareWithReference(ours, ref);
            if (mismatch !== undefined) throw new Error(`${op}: ${mismatch}`);
          }
        },
      ),
      { numRuns: 40, seed: SEED },
    );
  });

  it('silu equals x * Sigmoid(x) from onnxruntime', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 1 << 30 }), async (shape, seed) => {
        const x = randomTensor(shape, seed, 8);
        const sig = await runOrtNode({ opType: 'Sigmoid', nodeInputs: ['x'], inputs: [{ name: 'x', tensor: x }], outputShape: shape });
        const ref = unwrap(kernels.mul(x, sig));
        expect(compareWithReference(unwrap(kernels.silu(x)), ref)).toBeUndefined();
      }),
      { numRuns: 30, seed: SEED },
    );
  });

  it('biasAdd with every allowed bias shape equals Add with a [1, C, 1, 1] bias', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 })),
        fc.constantFrom('scalar', 'c', '1c', '1c11'),
        fc.integer({ min: 0, max: 1 << 30 }),
        async (shape, form, seed) => {
          const c = shape[1];
          const x = randomTensor(shape, seed);
          const values = randomTensor(form === 'scalar' ? [] : [c], seed + 1).data;
          const biasShape = form === 'scalar' ? [] : form === 'c' ? [c] : form === '1c' ? [1, c] : [1, c, 1, 1];
          const bias = kernels.createTensor(biasShape, values);
          const ours = unwrap(kernels.biasAdd(x, bias));
          const onnxBias = kernels.createTensor(form === 'scalar' ? [] : [1, c, 1, 1], values);
          const ref = await runOrtNode({
            opType: 'Add',
            nodeInputs: ['x', 'b'],
            inputs: [
              { name: 'x', tensor: x },
              { name: 'b', tensor: onnxBias },
            ],
            outputShape: shape,
          });
          expect(compareWithReference(ours, ref, 0, 0)).toBeUndefined();
        },
      ),
      { numRuns: 40, seed: SEED },
    );
  });
});

describe('softmax and reductions vs onnxruntime', () => {
  const shapeArb = fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 });

  it('softmax matches Softmax (opset 17) along every axis, including large magnitudes', async () => {
    await fc.assert(
      fc.asyncProperty(shapeArb, fc.integer({ min: 0, max: 1 << 30 }), fc.integer({ min: -4, max: 3 }), fc.constantFrom(1, 30, 200), async (shape, seed, rawAxis, scale) => {
        const axis = rawAxis % shape.length;
        const x = randomTensor(shape, seed, scale);
        const ours = unwrap(kernels.softmax(x, axis));
        const ref = await runOrtNode({
          opType: 'Softmax',
          nodeInputs: ['x'],
          inputs: [{ name: 'x', tensor: x }],
          attributes: { axis: { int: axis } },
          outputShape: shape,
        });
        expect(compareWithReference(ours, ref)).toBeUndefined();
      }),
      { numRuns: 120, seed: SEED },
    );
  });

  it('softmaxAll equals Softmax of the flattened tensor', async () => {
    await fc.assert(
      fc.asyncProperty(shapeArb, fc.integer({ min: 0, max: 1 << 30 }), async (shape, seed) => {
        const x = randomTensor(shape, seed, 10);
        const flat = kernels.createTensor([1, x.data.length], x.data);
        const ref = await runOrtNode({ opType: 'Softmax', nodeInputs: ['x'], inputs: [{ name: 'x', tensor: flat }], outputShape: flat.shape });
        const ours = unwrap(kernels.softmaxAll(x));
        expect(ours.shape).toEqual(shape);
        expect(compareWithReference(kernels.createTensor(flat.shape, ours.data), ref)).toBeUndefined();
      }),
      { numRuns: 30, seed: SEED },
    );
  });

  it('reduce sum/mean/max/min match ReduceSum/ReduceMean/ReduceMax/ReduceMin (opset 17)', async () => {
    await fc.assert(
      fc.asyncProperty(
        shapeArb,
        fc.integer({ min: 0, max: 1 << 30 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        fc.constantFrom('sum', 'mean', 'max', 'min'),
        async (shape, seed, pick, keepDims, kind) => {
          const axes = shape.map((_, i) => i).filter((i) => pick[i]);
          const x = randomTensor(shape, seed, 3);
          const ours = unwrap(kernels.reduce(kind, x, axes, keepDims));
          const op = { sum: 'ReduceSum', mean: 'ReduceMean', max: 'ReduceMax', min: 'ReduceMin' }[kind];
          // Opset 17: ReduceSum takes axes as an input, the others as an attribute.
          const useInput = kind === 'sum';
          const ref = await runOrtNode({
            opType: op,
            nodeInputs: useInput && axes.length > 0 ? ['x', 'axes'] : ['x'],
            inputs: [{ name: 'x', tensor: x }],
            initializers: useInput && axes.length > 0 ? [{ name: 'axes', shape: [axes.length], int64: axes }] : [],
            attributes: {
              keepdims: { int: keepDims ? 1 : 0 },
              ...(!useInput && axes.length > 0 ? { axes: { ints: axes } } : {}),
            },
            outputShape: ours.shape,
          });
          expect(compareWithReference(ours, ref)).toBeUndefined();
        },
      ),
      { numRuns: 120, seed: SEED },
    );
  });
});
