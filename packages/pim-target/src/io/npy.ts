/**
 * NumPy's `.npy` format (numpy/lib/format.py): the one reader and writer of the toolchain.
 * Reads format versions 1.0, 2.0 and 3.0 (C order, little-endian or byte-order-free dtypes);
 * writes the bytes `np.save` writes (version 1.0 unless the header needs 2.0, the header
 * dictionary with its growth space for the first axis, padded with spaces and a newline to a
 * multiple of 64 bytes). The importer (model inputs and reference outputs) and the simulator
 * (bundle inputs and outputs) both use it.
 */
import { Messages, type Message } from '../diagnostics';

/** Element types of `.npy` arrays the toolchain reads and writes. */
export type NpyDtype = 'f32' | 'f64' | 'f16' | 'bf16' | 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'bool';

/** Typed-array storage of each dtype (f16/bf16 are raw 16-bit words, bool one byte per element). */
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

/** The parsed header of a `.npy` file: where the data is and how to read it. */
export interface NpyHeader {
  /** Format major version (1, 2 or 3). */
  readonly version: 1 | 2 | 3;
  /** The dtype descriptor as written (`'<f4'`, `'|b1'`, ...). */
  readonly descr: string;
  /** The element type. */
  readonly dtype: NpyDtype;
  /** Shape (C order). */
  readonly shape: number[];
  /** Byte offset of the first element. */
  readonly dataOffset: number;
  /** Byte length of the data the shape needs (elements x element size). */
  readonly dataBytes: number;
}

/** Why a `.npy` file could not be read: a catalogued message and the byte where it applies. */
export interface NpyError extends Message {
  /** Byte offset in the file the problem is at. */
  readonly byteOffset: number;
  /** The dtype descriptor, for `npy-unsupported-dtype`. */
  readonly descr?: string;
  /** The header text, for `npy-malformed-header`. */
  readonly header?: string;
  /** Bytes present and needed, for `npy-short-data`. */
  readonly have?: number;
  /** Bytes the shape needs, for `npy-short-data`. */
  readonly need?: number;
  /** The major version found, for `npy-bad-version`. */
  readonly version?: number;
  /** The dimension text, for `npy-bad-dimension`. */
  readonly dimension?: string;
}

/** The result of {@link readNpyHeader}. */
export type NpyHeaderResult = { readonly ok: true; readonly header: NpyHeader } | { readonly ok: false; readonly error: NpyError };

/** The result of {@link decodeNpy}. */
export type NpyDecodeResult =
  | { readonly ok: true; readonly array: NpyArray; readonly header: NpyHeader }
  | { readonly ok: false; readonly error: NpyError };

const DESCR: Readonly<Record<NpyDtype, string>> = {
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
  bool: '|b1',
};

/** Descriptors read, including the spellings NumPy accepts for one-byte types. */
const DTYPE_OF_DESCR: ReadonlyMap<string, NpyDtype> = new Map<string, NpyDtype>([
  ...(Object.entries(DESCR) as [NpyDtype, string][]).map(([k, v]) => [v, k] as [string, NpyDtype]),
  ['<i1', 'i8'],
  ['<u1', 'u8'],
  ['<b1', 'bool'],
]);

const BYTES: Readonly<Record<NpyDtype, number>> = { f32: 4, f64: 8, f16: 2, bf16: 2, i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, i64: 8, bool: 1 };

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
/** NumPy's ARRAY_ALIGN: the header ends on a multiple of this many bytes. */
const ARRAY_ALIGN = 64;
/** NumPy's GROWTH_AXIS_MAX_DIGITS: room left for the first axis to grow in place. */
const GROWTH_AXIS_MAX_DIGITS = 21;

/** Bytes per element of a dtype. */
export function npyElementSize(dtype: NpyDtype): number {
  return BYTES[dtype];
}

/** The descriptor `np.save` writes for a dtype (`'<f4'` for `f32`). */
export function npyDescr(dtype: NpyDtype): string {
  return DESCR[dtype];
}

/** Views `bytes` (copied, so alignment holds) as the typed array of `dtype`. */
export function npyTypedArray(dtype: NpyDtype, bytes: Uint8Array): NpyData {
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
    case 'bool':
      return copy;
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

/** The little-endian bytes of a typed array (a view, not a copy). */
export function npyBytes(data: ArrayBufferView): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function error(message: Message, byteOffset: number, extra: Partial<NpyError> = {}): { ok: false; error: NpyError } {
  return { ok: false, error: { ...message, byteOffset, ...extra } };
}

/**
 * Parses the magic, version and header dictionary of a `.npy` file. Never throws; checks that
 * the data the shape needs is present (trailing bytes are allowed, as `np.load` allows them).
 */
export function readNpyHeader(bytes: Uint8Array): NpyHeaderResult {
  if (bytes.length < 10) return error(Messages.npyBadMagic(), 0);
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC[i]) return error(Messages.npyBadMagic(), 0);
  const major = bytes[6]!;
  if (major < 1 || major > 3) return error(Messages.npyBadVersion(major), 6, { version: major });
  let headerLen: number;
  let start: number;
  if (major === 1) {
    headerLen = bytes[8]! | (bytes[9]! << 8);
    start = 10;
  } else {
    if (bytes.length < 12) return error(Messages.npyTruncatedHeaderLength(), 8);
    headerLen = (bytes[8]! | (bytes[9]! << 8) | (bytes[10]! << 16) | (bytes[11]! << 24)) >>> 0;
    start = 12;
  }
  if (start + headerLen > bytes.length) return error(Messages.npyTruncatedHeader(), 8);
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(start, start + headerLen));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) return error(Messages.npyMalformedHeader(), start, { header });
  if (fortran === 'True') return error(Messages.npyFortranOrder(), start);
  const dtype = DTYPE_OF_DESCR.get(descr);
  if (dtype === undefined) return error(Messages.npyUnsupportedDtype(descr), start, { descr });
  const shape: number[] = [];
  let count = 1;
  for (const part of shapeText.split(',')) {
    const t = part.trim();
    if (t === '') continue;
    const digits = t.endsWith('L') ? t.slice(0, -1) : t; // Python 2 long literals
    const v = Number(digits);
    if (!/^\d+$/.test(digits) || !Number.isSafeInteger(v)) return error(Messages.npyBadDimension(t), start, { dimension: t });
    shape.push(v);
    count *= v;
  }
  const dataOffset = start + headerLen;
  const need = count * BYTES[dtype];
  const have = bytes.length - dataOffset;
  if (have < need) return error(Messages.npyShortData(have, need), dataOffset, { have, need });
  return { ok: true, header: { version: major as 1 | 2 | 3, descr, dtype, shape, dataOffset, dataBytes: need } };
}

/**
 * Parses a `.npy` file into an array (its data copied into a fresh typed array). Never throws.
 *
 * @example
 * const r = decodeNpy(fs.readFileSync('input_0.npy'));
 * if (r.ok) console.log(r.array.dtype, r.array.shape);
 */
export function decodeNpy(bytes: Uint8Array): NpyDecodeResult {
  const r = readNpyHeader(bytes);
  if (!r.ok) return r;
  const { dtype, shape, dataOffset, dataBytes } = r.header;
  return { ok: true, header: r.header, array: { dtype, shape, data: npyTypedArray(dtype, bytes.subarray(dataOffset, dataOffset + dataBytes)) } };
}

/**
 * Serialises an array as `np.save` does (NumPy 1.x and 2.x write the same bytes): the header
 * dictionary `{'descr': ..., 'fortran_order': False, 'shape': ..., }`, spaces for the first axis
 * to grow to 21 digits, padding to a multiple of 64 bytes (a full 64 spaces when it is already
 * aligned, as NumPy does) and a newline; version 1.0 unless the header exceeds 65535 bytes.
 * The data bytes are written as they are (little-endian, C order).
 */
export function encodeNpy(array: { readonly dtype: NpyDtype; readonly shape: readonly number[]; readonly data: ArrayBufferView }): Uint8Array {
  const dims = array.shape;
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let dict = `{'descr': '${DESCR[array.dtype]}', 'fortran_order': False, 'shape': ${shape}, }`;
  if (dims.length > 0) dict += ' '.repeat(Math.max(0, GROWTH_AXIS_MAX_DIGITS - String(dims[0]).length));
  const hlen = dict.length + 1;
  let prefix = 10;
  let padlen = ARRAY_ALIGN - ((prefix + hlen) % ARRAY_ALIGN);
  let version = 1;
  if (hlen + padlen > 0xffff) {
    version = 2;
    prefix = 12;
    padlen = ARRAY_ALIGN - ((prefix + hlen) % ARRAY_ALIGN);
  }
  const headerLen = hlen + padlen;
  const body = npyBytes(array.data);
  const out = new Uint8Array(prefix + headerLen + body.length);
  out.set(MAGIC, 0);
  out[6] = version;
  out[7] = 0;
  if (version === 1) {
    out[8] = headerLen & 0xff;
    out[9] = headerLen >>> 8;
  } else {
    out[8] = headerLen & 0xff;
    out[9] = (headerLen >>> 8) & 0xff;
    out[10] = (headerLen >>> 16) & 0xff;
    out[11] = headerLen >>> 24;
  }
  for (let i = 0; i < dict.length; i++) out[prefix + i] = dict.charCodeAt(i);
  out.fill(0x20, prefix + dict.length, prefix + headerLen - 1);
  out[prefix + headerLen - 1] = 0x0a;
  out.set(body, prefix + headerLen);
  return out;
}
