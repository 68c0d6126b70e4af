import fc from 'fast-check';
import { kernels } from '../../src';
import { compareWithReference, DIFFERENTIAL_TEST_TIMEOUT_MS, randomTensor, runOrtNode, stopOrt } from './support/ort-runner';
import { SEED, unwrap } from './support/unwrap';

jest.setTimeout(DIFFERENTIAL_TEST_TIMEOUT_MS);
afterAll(stopOrt);

const seedArb = fc.integer({ min: 0, max: 1 << 30 });

describe('matrix kernels vs onnxruntime', () => {
  it('gemm matches Gemm with transposes, alpha, beta and every C broadcast form', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          m: fc.integer({ min: 1, max: 9 }),
          k: fc.integer({ min: 1, max: 40 }),
          n: fc.integer({ min: 1, max: 9 }),
          transA: fc.boolean(),
          transB: fc.boolean(),
          alpha: fc.constantFrom(1, 0.5, -2, 1.25),
          beta: fc.constantFrom(1, 0, 0.75, -1),
          cForm: fc.constantFrom('none', 'scalar', 'n', '1n', 'm1', 'mn'),
          seed: seedArb,
        }),
        async (p) => {
          const a = randomTensor(p.transA ? [p.k, p.m] : [p.m, p.k], p.seed);
          const b = randomTensor(p.transB ? [p.n, p.k] : [p.k, p.n], p.seed + 1);
          const cShape = { none: undefined, scalar: [], n: [p.n], '1n': [1, p.n], m1: [p.m, 1], mn: [p.m, p.n] }[p.cForm];
          const c = cShape === undefined ? undefined : randomTensor(cShape, p.seed + 2);
          const attrs = { alpha: p.alpha, beta: p.beta, transA: p.transA, transB: p.transB };
          const ours = unwrap(kernels.gemm(a, b, c, attrs));
          const ref = await runOrtNode({
            opType: 'Gemm',
            nodeInputs: c ? ['a', 'b', 'c'] : ['a', 'b'],
            inputs: [
              { name: 'a', tensor: a },
              { name: 'b', tensor: b },
              ...(c ? [{ name: 'c', tensor: c }] : []),
            ],
            attributes: { alpha: { float: p.alpha }, beta: { float: p.beta }, transA: { int: p.transA ? 1 : 0 }, transB: { int: p.transB ? 1 : 0 } },
            outputShape: ours.shape,
          });
          expect(compareWithReference(ours, ref)).toBeUndefined();
        },
      ),
      { numRuns: 150, seed: SEED },
    );
  });

  it('matmul matches MatMul with batch broadcasting and rank-1 operands', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          batch: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 0, maxLength: 2 }),
          onesA: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
          onesB: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
          dropA: fc.integer({ min: 0, max: 2 }),
          dropB: fc.integer({ min: 0, max: 2 }),
          vectorA: fc.boolean(),
          vectorB: fc.boolean(),
          m: fc.integer({ min: 1, max: 6 }),
          k: fc.integer({ min: 1, max: 30 }),
          n: fc.integer({ min: 1, max: 6 }),
          seed: seedArb,
        }),
        async (p) => {
          const batchOf = (drop: number, ones: boolean[]): number[] => p.batch.slice(Math.min(drop, p.batch.length)).map((d, i) => (ones[i] ? 1 : d));
          const aShape = p.vectorA ? [p.k] : [...batchOf(p.dropA, p.onesA), p.m, p.k];
          const bShape = p.vectorB ? [p.k] : [...batchOf(p.dropB, p.onesB), p.k, p.n];
          const a = randomTensor(aShape, p.seed);
          const b = randomTensor(bShape, p.seed + 1);
          const ours = unwrap(kernels.matmul(a, b));
          const ref = await runOrtNode({
            opType: 'MatMul',
            nodeInputs: ['a', 'b'],
            inputs: [
              { name: 'a', tensor: a },
              { name: 'b', tensor: b },
            ],
            outputShape: ours.shape,
          });
          expect(compareWithReference(ours, ref)).toBeUndefined();
        },
      ),
      { numRuns: 150, seed: SEED },
    );
  });

  it('wvmm and tiledMatmul match MatMul on crossbar-sized problems', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 32 }),
        fc.integer({ min: 1, max: 32 }),
        seedArb,
        async (rows, n, m, tileRows, tileCols, seed) => {
          const x = randomTensor([rows, n], seed);
          const w = randomTensor([n, m], seed + 1);
          const ref = await runOrtNode({
            opType: 'MatMul',
            nodeInputs: ['x', 'w'],
            inputs: [
              { name: 'x', tensor: x },
              { name: 'w', tensor: w },
            ],
            outputShape: [rows, m],
          });
          expect(compareWithReference(unwrap(kernels.tiledMatmul(x, w, { tileRows, tileCols })), ref)).toBeUndefined();
          const row0 = kernels.createTensor([1, n], x.data.subarray(0, n));
          const refRow0 = kernels.createTensor([1, m], ref.data.subarray(0, m));
          expect(compareWithReference(unwrap(kernels.wvmm(w, row0)), refRow0)).toBeUndefined();
        },
      ),
      { numRuns: 80, seed: SEED },
    );
  });
});
