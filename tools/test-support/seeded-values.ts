/**
 * Seeded test data shared by the packages' tests: a linear congruential generator (Numerical
 * Recipes' constants), so a failing case reproduces from its seed.
 */

/** `n` seeded f32 values in [-1, 1). */
export function seededValues(n: number, seed: number): Float32Array {
  let s = seed >>> 0 || 1;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 31 - 1;
  }
  return out;
}

/** `xs` as an MLIR hex dense literal (`"0x..."`, little-endian f32). */
export function hexDenseLiteral(xs: Float32Array): string {
  return `"0x${Buffer.from(xs.buffer, xs.byteOffset, xs.byteLength).toString('hex').toUpperCase()}"`;
}
