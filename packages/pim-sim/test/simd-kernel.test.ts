/**
 * The WebAssembly SIMD mvmul kernel against a float64 matrix-vector product: every column
 * block path (32 and 4 columns), odd row counts, a weight block reused (cached copy) and a
 * second block placed after it.
 */
import fc from 'fast-check';
import { createSimdKernel, simdKernelModuleBytes } from '../src/functional/simd-kernel';

function seeded(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 4294967296 - 0.5;
  }
  return out;
}

function reference(w: Float32Array, rows: number, cols: number, x: Float32Array): Float64Array {
  const y = new Float64Array(cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) y[j] += x[i] * w[i * cols + j];
  return y;
}

describe('SIMD mvmul kernel', () => {
  const kernel = createSimdKernel();

  test('the module validates and Node runs it', () => {
    const wasm = (globalThis as { WebAssembly?: { validate(bytes: Uint8Array): boolean } }).WebAssembly;
    expect(wasm?.validate(simdKernelModuleBytes())).toBe(true);
    expect(kernel).toBeDefined();
  });

  test('matches a float64 product within 1e-5 on random shapes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 160 }), fc.integer({ min: 1, max: 40 }), fc.integer(), (rows, quads, seed) => {
        const cols = quads * 4;
        const w = seeded(rows * cols, seed);
        const x = seeded(rows, seed ^ 0x5bd1e995);
        const y = new Float32Array(cols);
        kernel!.mvm(w, rows, cols, x, 0, y, 0);
        const want = reference(w, rows, cols, x);
        for (let j = 0; j < cols; j++) if (Math.abs(y[j] - want[j]) > 1e-5) return false;
        return true;
      }),
      { numRuns: 60 },
    );
  });

  test('a cached block and a second block give their own products', () => {
    const a = seeded(128 * 512, 1);
    const b = seeded(64 * 36, 2);
    const xa = seeded(128, 3);
    const xb = seeded(64, 4);
    const ya = new Float32Array(512);
    const yb = new Float32Array(36);
    for (let round = 0; round < 2; round++) {
      kernel!.mvm(a, 128, 512, xa, 0, ya, 0);
      kernel!.mvm(b, 64, 36, xb, 0, yb, 0);
      const wa = reference(a, 128, 512, xa);
      const wb = reference(b, 64, 36, xb);
      expect(Math.max(...Array.from(ya, (v, j) => Math.abs(v - wa[j])))).toBeLessThanOrEqual(1e-5);
      expect(Math.max(...Array.from(yb, (v, j) => Math.abs(v - wb[j])))).toBeLessThanOrEqual(1e-5);
    }
  });
});
