/** Shared models of `../shared/models` (relative to the workspace root) and their reference data. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readNpy, readOnnxFile, tensorToNumbers, type OnnxModel } from '@raptor-pim/onnx-frontend';
import type { F32Tensor } from '@raptor-pim/compiler';

/** The shared folder (models, spec examples). */
export const SHARED = process.env['RAPTOR_SHARED'] ?? path.resolve(__dirname, '../../../../../shared');

/** `../shared/models/<name>`. */
export const modelDir = (name: string): string => path.join(SHARED, 'models', name);

/** Reads `../shared/models/<name>/model.onnx` (failing the test when it cannot be read). */
export function readModel(name: string): OnnxModel {
  const { model, diagnostics } = readOnnxFile(path.join(modelDir(name), 'model.onnx'));
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return model!;
}

/** Reads an .npy file as a float32 tensor. */
export function readNpyTensor(file: string): F32Tensor {
  const { tensor } = readNpy(fs.readFileSync(file), file);
  return { shape: [...tensor!.dims], data: Float32Array.from(tensorToNumbers(tensor!)) };
}

/** Max |a - b| over two equally long arrays (Infinity when the lengths differ). */
export function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
