/**
 * SLOW (about 10 minutes on a loaded 2-core machine): the differential model test of
 * models.test.ts on superres-224 and ultraface-slim-320 (and its ortfolded variant), whose
 * lowered forms run hundreds of thousands of lanes in the interpreter.
 */
import { sharedModels } from './helpers';
import { LARGE_MODELS, describeModelDifferential } from './model-differential';

jest.setTimeout(1_800_000);

const MODELS = sharedModels().filter((m) => LARGE_MODELS.has(m));

it('finds the large shared models', () => {
  expect(MODELS.length).toBe(LARGE_MODELS.size);
});

describeModelDifferential(MODELS);
