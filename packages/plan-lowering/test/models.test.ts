/**
 * Differential test on every shared model (the list is read from the folder): the spatial
 * interpreter gives the same outputs (onnx-frontend's tolerance: rtol 1e-3, atol 1e-5 *
 * max|ref|) on the imported module and after lowering, for three pipelines: `spat-lower-plans`
 * alone, `spat-plan-layouts` (planning on) + lowering, and planning off
 * (`disable-spatial-planning`) + lowering; all equal to onnxruntime's `output_<k>.npy`. Every
 * plan and materialization is gone after lowering, and the number of distinct crossbar tiles
 * of every convolution equals X = ceil(K/R) * ceil(Cout/C) (checked in conv-tiles.test.ts).
 *
 * The two largest activations (superres-224: 224 x 224 convolutions, ultraface-slim-320:
 * 240 x 320 with depthwise convolutions) take minutes to interpret after lowering: they run in
 * models-large.slow.test.ts; resnet18 (ImageNet size) is in
 * resnet18.slow.test.ts.
 */
import { sharedModels } from './helpers';
import { LARGE_MODELS, describeModelDifferential } from './model-differential';

jest.setTimeout(600_000);

const MODELS = sharedModels().filter((m) => m !== 'resnet18' && !LARGE_MODELS.has(m));

it('finds the shared models', () => {
  expect(MODELS.length).toBeGreaterThanOrEqual(8);
});

describeModelDifferential(MODELS);
