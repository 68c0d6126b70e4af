import * as fs from 'node:fs';
import * as path from 'node:path';
import { FloatType, ShapedValue, type RuntimeValue } from '@raptor-pim/ir-core';
import { importOnnxModel, readNpy, readOnnxFile, type ImportedModule } from '@raptor-pim/onnx-frontend';

/** The shared/ folder beside the repository checkout (override with RAPTOR_SHARED_DIR). */
export const SHARED_DIR = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(__dirname, '../../../../shared');
/** Root of the shared test models. */
export const MODELS_DIR = path.join(SHARED_DIR, 'models');

/** Imports a shared model (undefined when the folder is missing). */
export function importShared(name: string): ImportedModule | undefined {
  const file = path.join(MODELS_DIR, name, 'model.onnx');
  if (!fs.existsSync(file)) return undefined;
  const { model } = readOnnxFile(file);
  return model ? importOnnxModel(model) : undefined;
}

/** The model's first input (input_0.npy) as a runtime value. */
export function sharedInput(imported: ImportedModule, name: string): RuntimeValue[] {
  const f32 = FloatType.f32(imported.context);
  return imported.inputs.map((inp, i) => {
    const file = path.join(MODELS_DIR, name, `input_${i}.npy`);
    const { tensor } = readNpy(fs.readFileSync(file), file);
    const v = ShapedValue.allocate('tensor', f32, inp.shape)!;
    const data = tensor!.data as unknown as ArrayLike<number>;
    (v.data as Float32Array).set(Float32Array.from(data));
    return v;
  });
}

