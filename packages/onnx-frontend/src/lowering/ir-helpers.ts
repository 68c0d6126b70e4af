/**
 * Small helpers that spell MLIR textual syntax for the ONNX lowering: tensor types, dense
 * f32 constants in the hex form (exact, compact), name locations and integer arrays.
 */

/** `tensor<1x3xf32>` (`tensor<f32>` for rank 0). */
export function tensorType(shape: readonly number[]): string {
  return shape.length === 0 ? 'tensor<f32>' : `tensor<${shape.join('x')}xf32>`;
}

const HEX = '0123456789ABCDEF';

/** `dense<"0x...">`: little-endian f32 bytes, as MLIR prints dense constants over 100 elements. */
export function denseF32(data: Float32Array): string {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Array<string>(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    out[i] = HEX[b >> 4]! + HEX[b & 15]!;
  }
  return `dense<"0x${out.join('')}">`;
}

/** An MLIR string literal (quotes and backslashes escaped). */
export function mlirString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20 || c === 0x7f) out += `\\${c.toString(16).padStart(2, '0').toUpperCase()}`;
    else out += ch;
  }
  return `${out}"`;
}

/** `loc("node_name")`: the name location carrying an ONNX node name. */
export function nameLoc(name: string): string {
  return `loc(${mlirString(name)})`;
}

/** `array<i64: 1, 2>`. */
export function i64Array(values: readonly number[]): string {
  return values.length === 0 ? 'array<i64>' : `array<i64: ${values.join(', ')}>`;
}

/** Number of elements of a shape. */
export function elementCount(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}
