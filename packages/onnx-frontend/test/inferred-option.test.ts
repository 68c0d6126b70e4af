/**
 * The `inferred` import option: values inferred once (by `loadOnnxModel`) are used as given,
 * shapes are not inferred again, and the module is the one importing without them gives.
 */
import { importOnnxModel, loadOnnxModel, readOnnxModel } from '@raptor-pim/onnx-frontend';
import { convReluSpec, encodeModel } from './build-model';

describe('importOnnxModel with inferred values', () => {
  const bytes = encodeModel(convReluSpec());

  it('gives the same module as inferring inside, without an inferShapes phase', () => {
    const inputShapes = { x: [2, 3, 8, 8] };
    const loaded = loadOnnxModel(bytes, { inputShapes });
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const once = importOnnxModel(loaded.model!, { inputShapes, inferred: loaded.values });
    const twice = importOnnxModel(readOnnxModel(bytes).model!, { inputShapes });
    expect(once.diagnostics).toEqual([]);
    expect(once.text).toBe(twice.text);
    expect(once.text).toContain('tensor<2x3x8x8xf32>');
    expect(Object.keys(once.timings)).not.toContain('inferShapes');
    expect(Object.keys(twice.timings)).toContain('inferShapes');
  });

  it('uses the given values instead of inferring (a batch bound only when they were inferred)', () => {
    const loaded = loadOnnxModel(bytes, { inputShapes: { x: [3, 3, 8, 8] } });
    // No inputShapes here: only the given values know that N = 3.
    const imported = importOnnxModel(loaded.model!, { inferred: loaded.values });
    expect(imported.diagnostics).toEqual([]);
    expect(imported.text).toContain('tensor<3x3x8x8xf32>');
  });
});
