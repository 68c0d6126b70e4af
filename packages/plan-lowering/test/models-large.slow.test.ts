/**
 * SLOW: the differential model test of models.test.ts on superres-224 and ultraface-slim-320
 * (and its ortfolded variant), whose lowered forms run hundreds of thousands of lanes in the
 * interpreter. `npm test` runs the bounded form (the default pipeline, planning on, compared
 * with onnxruntime, on superres-224 and ultraface-slim-320); `RAPTOR_SLOW_TESTS=1` runs every
 * pipeline on all three, also against the imported module (about 45 minutes on a loaded
 * 2-core machine).
 */
import { sharedModels } from './helpers';
import { LARGE_MODELS, PIPELINES, RUN_SLOW_TESTS, describeModelDifferential } from './model-differential';

jest.setTimeout(1_800_000);

const MODELS = sharedModels().filter((m) => LARGE_MODELS.has(m));

it('finds the large shared models', () => {
  expect(MODELS.length).toBe(LARGE_MODELS.size);
});

if (RUN_SLOW_TESTS) describeModelDifferential(MODELS);
else {
  describeModelDifferential(
    MODELS.filter((m) => m !== 'ultraface-slim-320-ortfolded'),
    { pipelines: PIPELINES.filter(([label]) => label === 'planning on'), compareWithImported: false },
  );
}
