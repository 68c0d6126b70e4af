/**
 * Every shared model imports to a verified Spatial module, and the interpreter's outputs match
 * onnxruntime's reference `output_<k>.npy` (rtol 1e-3, atol 1e-5 * max|ref|, as
 * models/README.md says). The list is read from the folder, so a new model is tested too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatDiagnostic, importOnnxModel, readNpy, readOnnxFile, runImportedModule, tensorToNumbers } from '@raptor-pim/onnx-frontend';
import { MODELS_DIR, sharedModels } from './helpers';

jest.setTimeout(120_000);

/** Worst |got - ref| / (atol + rtol |ref|) over all elements: <= 1 passes. */
function worstRatio(got: Float32Array, ref: readonly number[]): number {
  const maxRef = ref.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const atol = 1e-5 * maxRef;
  let worst = 0;
  for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(got[i]! - ref[i]!) / (atol + 1e-3 * Math.abs(ref[i]!)));
  return worst;
}

const npy = (file: string) => readNpy(fs.readFileSync(file), file).tensor!;

const MODELS = sharedModels();

it('finds the shared models', () => {
  expect(MODELS.length).toBeGreaterThanOrEqual(11);
});

describe.each(MODELS)('%s imports and runs like onnxruntime', (name) => {
  it('matches output_<k>.npy', () => {
    const dir = path.join(MODELS_DIR, name);
    const { model } = readOnnxFile(path.join(dir, 'model.onnx'));
    const imported = importOnnxModel(model!);
    expect(imported.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
    expect(imported.module).toBeDefined();
    // Importing leaves the model untouched (weights are shared with the module, folding copies
    // them): a second import of the same model object prints the same module.
    expect(importOnnxModel(model!).text).toBe(imported.text);
    const inputs = model!.graph.inputs.map((_, i) => {
      const t = npy(path.join(dir, `input_${i}.npy`));
      return { shape: t.dims, data: Float32Array.from(tensorToNumbers(t)) };
    });
    const r = runImportedModule(imported, inputs);
    if (!r.ok) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
    const report: string[] = [];
    r.outputs.forEach((o, k) => {
      const ref = npy(path.join(dir, `output_${k}.npy`));
      expect(o.shape).toEqual(ref.dims);
      const values = tensorToNumbers(ref);
      const ratio = worstRatio(o.data, values);
      const maxAbs = values.reduce((m, v, i) => Math.max(m, Math.abs(o.data[i]! - v)), 0);
      report.push(`${name} output ${k} [${o.shape.join('x')}]: max |diff| ${maxAbs.toExponential(2)}, worst diff/tolerance ${ratio.toFixed(3)}`);
      expect(ratio).toBeLessThanOrEqual(1);
    });
    console.log(report.join('\n'));
  });
});
