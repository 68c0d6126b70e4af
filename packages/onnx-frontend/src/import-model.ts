/**
 * The front half of ONNX import in one call: read, validate and infer shapes.
 */
import type { OnnxDiagnostic } from './diagnostics';
import { readOnnxFile } from './io/files';
import type { OnnxModel } from './onnx/model';
import { type ReadOnnxOptions, readOnnxModel } from './onnx/read-model';
import { type InferShapesOptions, type InferredValue, inferShapes } from './shapes/infer-shapes';

/** Options of {@link loadOnnxModel} and {@link loadOnnxFile}. */
export interface LoadOnnxOptions extends ReadOnnxOptions, InferShapesOptions {}

/** A model with the inferred value of every name, or diagnostics explaining why not. */
export interface LoadedOnnxModel {
  /** The validated model (undefined if reading failed). */
  readonly model: OnnxModel | undefined;
  /** Inferred type, shape and folded constant of every value (undefined on any error). */
  readonly values: ReadonlyMap<string, InferredValue> | undefined;
  readonly diagnostics: OnnxDiagnostic[];
}

/**
 * Reads, validates and infers shapes of a model given as bytes. Never throws on bad input.
 *
 * @example
 * const { values, diagnostics } = loadOnnxModel(bytes, { file: 'm.onnx', inputShapes: { x: [1, 3, 224, 224] } });
 */
export function loadOnnxModel(bytes: Uint8Array, options: LoadOnnxOptions = {}): LoadedOnnxModel {
  const read = readOnnxModel(bytes, options);
  if (!read.model) return { model: undefined, values: undefined, diagnostics: read.diagnostics };
  const inferred = inferShapes(read.model, options);
  return { model: read.model, values: inferred.values, diagnostics: [...read.diagnostics, ...inferred.diagnostics] };
}

/** Like {@link loadOnnxModel} for a file path; external data is read from the model's folder. */
export function loadOnnxFile(file: string, options: Omit<LoadOnnxOptions, 'file'> = {}): LoadedOnnxModel {
  const read = readOnnxFile(file, options);
  if (!read.model) return { model: undefined, values: undefined, diagnostics: read.diagnostics };
  const inferred = inferShapes(read.model, options);
  return { model: read.model, values: inferred.values, diagnostics: [...read.diagnostics, ...inferred.diagnostics] };
}
