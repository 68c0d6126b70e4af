import { FloatType, IndexType, IntegerType, RankedTensorType, VectorType, getNumElements } from '../ir/builtin-types';
import { DenseElementsAttr, createDenseStorage, type DenseElementType, type DenseStorage } from '../ir/builtin-attributes';
import { bf16ToBits, bitsToBf16, bitsToF16, f16ToBits } from '../ir/builtin-float-semantics';

const HEX = '0123456789ABCDEF';
const BYTE_HEX: string[] = [];
for (let b = 0; b < 256; b++) BYTE_HEX.push(HEX[b >> 4] + HEX[b & 15]);

/** Bytes per element in MLIR's raw dense storage (`i1` is bit-packed, others byte-aligned). */
export function denseElementByteWidth(type: DenseElementType): number {
  if (type instanceof IndexType) return 8;
  if (type instanceof FloatType) return type.kind === 'f64' ? 8 : type.kind === 'f32' ? 4 : 2;
  return Math.ceil(type.width / 8);
}

function isBool(type: DenseElementType): boolean {
  return type instanceof IntegerType && type.width === 1;
}

/** MLIR's raw little-endian bytes of the attribute's storage (splats store one element). */
export function denseRawBytes(attr: DenseElementsAttr): Uint8Array {
  const view = denseRawBytesView(attr);
  return view.buffer === attr.data.buffer ? view.slice() : view;
}

/** As {@link denseRawBytes}, but a view of the storage itself when it already is MLIR's bytes (read it, do not write). */
function denseRawBytesView(attr: DenseElementsAttr): Uint8Array {
  const et = attr.elementType;
  const data = attr.data;
  const count = data.length;
  if (isBool(et)) {
    if (attr.isSplat) return Uint8Array.of(data[0] ? 0xff : 0);
    const bytes = new Uint8Array(Math.ceil(count / 8));
    for (let i = 0; i < count; i++) if (data[i]) bytes[i >> 3] |= 1 << (i & 7);
    return bytes;
  }
  const width = denseElementByteWidth(et);
  if (et instanceof FloatType && (et.kind === 'f16' || et.kind === 'bf16')) {
    const bytes = new Uint8Array(count * width);
    const f = data as Float32Array;
    for (let i = 0; i < count; i++) {
      const b = et.kind === 'f16' ? f16ToBits(f[i]) : bf16ToBits(f[i]);
      bytes[2 * i] = b & 0xff;
      bytes[2 * i + 1] = b >> 8;
    }
    return bytes;
  }
  const src = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const storageWidth = data.BYTES_PER_ELEMENT;
  if (storageWidth === width && littleEndian) return src;
  // A copy only when the storage is not MLIR's bytes already (the usual f32/i64 data is).
  const bytes = new Uint8Array(count * width);
  for (let i = 0; i < count; i++) for (let k = 0; k < width; k++) bytes[i * width + k] = src[i * storageWidth + k];
  return bytes;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The part of Node's `Buffer` the hex encoder uses. */
interface NodeBufferLike {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'hex'): string };
}

/** The uppercase hex digits (without `0x`) of the attribute's raw data, as MLIR prints large constants. */
export function encodeDenseHex(attr: DenseElementsAttr): string {
  const bytes = denseRawBytesView(attr);
  // In Node: the native hex encoder on a view of the bytes (no copy), then uppercase. A table
  // loop in JavaScript is faster once optimized, but a short `raptor import` runs it cold:
  // about 2.5x the CPU of the native path on a model's 1 MB of weights.
  const NodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase();
  // Chunked conversion through a 256-entry table keeps memory and time linear for large weights.
  const parts: string[] = [];
  const CHUNK = 65536;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(bytes.length, start + CHUNK);
    const chars = new Array<string>(end - start);
    for (let i = start; i < end; i++) chars[i - start] = BYTE_HEX[bytes[i]];
    parts.push(chars.join(''));
  }
  return parts.join('');
}

/**
 * Builds a dense attribute from MLIR's hex form: the bytes must hold every element, or exactly
 * one element (a splat); `i1` data is bit-packed (one byte `0x00`/`0xFF` is a splat).
 * Returns undefined when the size does not fit the type.
 */
export function decodeDenseHex(type: RankedTensorType | VectorType, bytes: Uint8Array): DenseElementsAttr | undefined {
  const et = type.elementType as DenseElementType;
  const n = getNumElements(type.shape);
  if (n === undefined) return undefined;
  if (isBool(et)) {
    if (bytes.length === 1 && (bytes[0] === 0 || bytes[0] === 0xff)) {
      const s = createDenseStorage(et, 1);
      s[0] = bytes[0] ? 1 : 0;
      return DenseElementsAttr.get(type, s);
    }
    if (bytes.length !== Math.ceil(n / 8)) return undefined;
    const s = createDenseStorage(et, n) as Uint8Array;
    for (let i = 0; i < n; i++) s[i] = (bytes[i >> 3] >> (i & 7)) & 1;
    return DenseElementsAttr.get(type, s);
  }
  const width = denseElementByteWidth(et);
  let count: number;
  if (bytes.length === width * n) count = n;
  else if (bytes.length === width) count = 1;
  else return undefined;
  const storage: DenseStorage = createDenseStorage(et, count);
  if (et instanceof FloatType && (et.kind === 'f16' || et.kind === 'bf16')) {
    const f = storage as Float32Array;
    for (let i = 0; i < count; i++) {
      const b = bytes[2 * i] | (bytes[2 * i + 1] << 8);
      f[i] = et.kind === 'f16' ? bitsToF16(b) : bitsToBf16(b);
    }
    return DenseElementsAttr.get(type, storage);
  }
  const dst = new Uint8Array(storage.buffer, storage.byteOffset, storage.byteLength);
  const storageWidth = storage.BYTES_PER_ELEMENT;
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < width; k++) dst[i * storageWidth + k] = bytes[i * width + k];
    // Sign-extend partial widths (e.g. i24 in a 4-byte slot) for signed storage.
    if (storageWidth > width && !(et instanceof IntegerType && et.isUnsigned)) {
      const negative = (bytes[i * width + width - 1] & 0x80) !== 0;
      if (negative) for (let k = width; k < storageWidth; k++) dst[i * storageWidth + k] = 0xff;
    }
  }
  return DenseElementsAttr.get(type, storage);
}
