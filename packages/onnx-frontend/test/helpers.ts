import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatDiagnostic, type OnnxDiagnostic } from '@raptor-pim/onnx-frontend';

/** The shared/ folder beside the repository checkout (override with RAPTOR_SHARED_DIR). */
export const SHARED_DIR = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(__dirname, '../../../../shared');
/** Root of the shared test models. */
export const MODELS_DIR = path.join(SHARED_DIR, 'models');
/** Debian libonnx-testdata conformance tests (override with ONNX_TESTDATA_DIR). */
export const ONNX_TESTDATA_DIR = process.env['ONNX_TESTDATA_DIR'] ?? '/usr/include/onnx/backend/test/data';

/** Model folder names under MODELS_DIR that contain a model.onnx. */
export function sharedModels(): string[] {
  if (!fs.existsSync(MODELS_DIR)) return [];
  return fs
    .readdirSync(MODELS_DIR)
    .filter((d) => fs.existsSync(path.join(MODELS_DIR, d, 'model.onnx')))
    .sort();
}

/** All diagnostics as text (for assertion messages). */
export function text(diagnostics: readonly OnnxDiagnostic[]): string {
  return diagnostics.map(formatDiagnostic).join('\n');
}

/** Deterministic pseudo-random values in [-scale, scale): a linear congruential sequence from `seed`. */
export function randomValues(n: number, seed: number, scale = 1): number[] {
  let s = seed >>> 0 || 1;
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 31 - 1) * scale;
  });
}

/** Number of elements of a shape. */
export const count = (dims: readonly number[]): number => dims.reduce((a, b) => a * b, 1);
