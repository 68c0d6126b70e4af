/**
 * A small reader and writer for NumPy's `.npy` format (versions 1.0-3.0, little-endian,
 * C order), enough for model inputs and outputs.
 */
import { SIM_MESSAGES } from '../diagnostics';

/** Element types an {@link NpyArray} can hold (the bundle's element types). */
export type NpyDtype = 'f32' | 'f64' | 'f16' | 'bf16' | 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64';

/** Typed-array storage of each dtype (f16/bf16 are kept as raw 16-bit words). */
export type NpyData =
  | Float32Array
  | Float64Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array;

/** An n-dimensional array read from or written to `.npy`. */
export interface NpyArray {
  /** Element type. */
  dtype: NpyDtype;
  /** Shape (C order). */
  shape: number[];
  /** Elements, row-major. */
  data: NpyData;
}

const DESCR: Record<NpyDtype, string> = {
  f32: '<f4',
  f64: '<f8',
  f16: '<f2',
  bf16: '<V2',
  i8: '|i1',
  u8: '|u1',
  i16: '<i2',
  u16: '<u2',
  i32: '<i4',
  u32: '<u4',
  i64: '<i8',
};

const BYTES: Record<NpyDtype, number> = { f32: 4, f64: 8, f16: 2, bf16: 2, i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, i64: 8 };

/** Bytes per element of a dtype. */
export function npyElementSize(dtype: NpyDtype): number {
  return BYTES[dtype];
}

/** Views `bytes` (copied, so alignment holds) as the typed array of `dtype`. */
export function typedFromBytes(dtype: NpyDtype, bytes: Uint8Array): NpyData {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  const b = copy.buffer;
  const n = bytes.length / BYTES[dtype];
  switch (dtype) {
    case 'f32':
      return new Float32Array(b, 0, n);
    case 'f64':
      return new Float64Array(b, 0, n);
    case 'i8':
      return new Int8Array(b, 0, n);
    case 'u8':
      return new Uint8Array(b, 0, n);
    case 'i16':
      return new Int16Array(b, 0, n);
    case 'f16':
    case 'bf16':
    case 'u16':
      return new Uint16Array(b, 0, n);
    case 'i32':
      return new Int32Array(b, 0, n);
    case 'u32':
      return new Uint32Array(b, 0, n);
    case 'i64':
      return new BigInt64Array(b, 0, n);
  }
}

/** The little-endian bytes of an array's data. */
export function bytesOfData(data: NpyData): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** The result of {@link readNpy}: the array or an error message. */
export type NpyReadResult = { ok: true; array: NpyArray } | { ok: false; message: string };

function fail(what: string): NpyReadResult {
  return { ok: false, message: SIM_MESSAGES.npyInvalid(what) };
}

/** Parses a `.npy` file. Never throws. */
export function readNpy(bytes: Uint8Array): NpyReadResult {
  if (bytes.length < 10 || bytes[0] !== 0x93 || String.fromCharCode(...bytes.subarray(1, 6)) !== 'NUMPY') {
    return fail('missing the \\x93NUMPY magic');
  }
  const major = bytes[6];
  let headerLen: number;
  let offset: number;
  if (major === 1) {
    headerLen = bytes[8] | (bytes[9] << 8);
    offset = 10;
  } else if (major === 2 || major === 3) {
    if (bytes.length < 12) return fail('truncated header');
    headerLen = (bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (bytes[11] << 24)) >>> 0;
    offset = 12;
  } else return fail(`unsupported version ${major}`);
  if (offset + headerLen > bytes.length) return fail('truncated header');
  const header = new TextDecoder().decode(bytes.subarray(offset, offset + headerLen));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) return fail('malformed header dictionary');
  if (fortran === 'True') return fail('Fortran-order arrays are not supported');
  const dtype = (Object.keys(DESCR) as NpyDtype[]).find((k) => DESCR[k] === descr || (descr === '<u1' && k === 'u8') || (descr === '<i1' && k === 'i8') || (descr === '|b1' && k === 'u8'));
  if (dtype === undefined) return fail(`unsupported dtype '${descr}'`);
  const shape: number[] = [];
  for (const part of shapeText.split(',')) {
    const t = part.trim();
    if (t === '') continue;
    const v = Number(t.replace(/L$/, ''));
    if (!Number.isSafeInteger(v) || v < 0) return fail(`bad dimension '${t}'`);
    shape.push(v);
  }
  const count = shape.reduce((a, b) => a * b, 1);
  const start = offset + headerLen;
  const need = count * BYTES[dtype];
  if (bytes.length - start < need) return fail(`data holds ${bytes.length - start} bytes, the shape needs ${need}`);
  return { ok: true, array: { dtype, shape, data: typedFromBytes(dtype, bytes.subarray(start, start + need)) } };
}

/**
 * Serialises an array as `.npy` version 1.0, byte-identical to NumPy 2's `np.save` (header
 * with growth space for the first axis, padded to 64 bytes).
 */
export function writeNpy(array: NpyArray): Uint8Array {
  const dims = array.shape;
  const shape = dims.length === 0 ? '()' : dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${DESCR[array.dtype]}', 'fortran_order': False, 'shape': ${shape}, }`;
  if (dims.length > 0) header += ' '.repeat(Math.max(0, 21 - String(dims[0]).length));
  const hlen = header.length + 1;
  const padlen = 64 - ((10 + hlen) % 64);
  header += ' '.repeat(padlen) + '\n';
  const data = bytesOfData(array.data);
  const out = new Uint8Array(10 + header.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(data, 10 + header.length);
  return out;
}
