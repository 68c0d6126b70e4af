/**
 * ONNX tensor element types (`TensorProto.DataType`): names, byte sizes, and which ones the
 * frontend supports.
 */

/** The `TensorProto.DataType` codes. */
export const OnnxDataType = {
  UNDEFINED: 0,
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  UINT16: 4,
  INT16: 5,
  INT32: 6,
  INT64: 7,
  STRING: 8,
  BOOL: 9,
  FLOAT16: 10,
  DOUBLE: 11,
  UINT32: 12,
  UINT64: 13,
  COMPLEX64: 14,
  COMPLEX128: 15,
  BFLOAT16: 16,
  FLOAT8E4M3FN: 17,
  FLOAT8E4M3FNUZ: 18,
  FLOAT8E5M2: 19,
  FLOAT8E5M2FNUZ: 20,
  UINT4: 21,
  INT4: 22,
  FLOAT4E2M1: 23,
} as const;

/** A `TensorProto.DataType` code (a number; unknown codes are possible in files). */
export type OnnxDataTypeCode = number;

const NAMES: Record<number, string> = Object.fromEntries(Object.entries(OnnxDataType).map(([k, v]) => [v, k.toLowerCase()]));

/** The lower-case ONNX name of a data type (`float`, `int64`, ...), or `dtype(<code>)`. */
export function dataTypeName(code: number): string {
  return NAMES[code] ?? `dtype(${code})`;
}

/** Byte size of one element of each supported type. */
const SIZES: Record<number, number> = {
  [OnnxDataType.FLOAT]: 4,
  [OnnxDataType.UINT8]: 1,
  [OnnxDataType.INT8]: 1,
  [OnnxDataType.UINT16]: 2,
  [OnnxDataType.INT16]: 2,
  [OnnxDataType.INT32]: 4,
  [OnnxDataType.INT64]: 8,
  [OnnxDataType.BOOL]: 1,
  [OnnxDataType.FLOAT16]: 2,
  [OnnxDataType.DOUBLE]: 8,
  [OnnxDataType.UINT32]: 4,
  [OnnxDataType.UINT64]: 8,
  [OnnxDataType.BFLOAT16]: 2,
};

/** True for the element types the frontend reads (numeric types that appear in CNNs). */
export function isSupportedDataType(code: number): boolean {
  return SIZES[code] !== undefined;
}

/** Byte size of one element of a supported type (throws for unsupported ones: check first). */
export function dataTypeSize(code: number): number {
  const s = SIZES[code];
  if (s === undefined) throw new Error(`internal: dataTypeSize of unsupported ${dataTypeName(code)}`);
  return s;
}

/** The typed array holding a tensor's elements. float16/bfloat16 keep their raw bits in Uint16Array. */
export type OnnxTensorData =
  | Float32Array
  | Float64Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array;

/**
 * Hands out aligned slices of a few large ArrayBuffers, so that reading a model with hundreds
 * of initializers makes a handful of allocations instead of one per tensor (each ArrayBuffer
 * is external memory that drives the garbage collector).
 */
export class DataArena {
  private buffer: ArrayBuffer | undefined;
  private offset = 0;

  /** @param chunkBytes size of each shared chunk (larger requests get their own buffer) */
  constructor(private readonly chunkBytes: number) {}

  /** Returns a zeroed region of `bytes` bytes aligned to 8, as (buffer, byteOffset). */
  take(bytes: number): { buffer: ArrayBuffer; byteOffset: number } {
    if (bytes > this.chunkBytes / 4) return { buffer: new ArrayBuffer(bytes), byteOffset: 0 };
    if (!this.buffer || this.offset + bytes > this.buffer.byteLength) {
      this.buffer = new ArrayBuffer(this.chunkBytes);
      this.offset = 0;
    }
    const byteOffset = this.offset;
    this.offset += Math.ceil(bytes / 8) * 8;
    return { buffer: this.buffer, byteOffset };
  }
}

/** Allocates zeroed storage for `count` elements of a supported type (from `arena` if given). */
export function allocateData(code: number, count: number, arena?: DataArena): OnnxTensorData {
  if (arena && count > 0) {
    const { buffer, byteOffset } = arena.take(count * dataTypeSize(code));
    return viewData(code, buffer, byteOffset, count);
  }
  switch (code) {
    case OnnxDataType.FLOAT: return new Float32Array(count);
    case OnnxDataType.DOUBLE: return new Float64Array(count);
    case OnnxDataType.INT8: return new Int8Array(count);
    case OnnxDataType.UINT8:
    case OnnxDataType.BOOL: return new Uint8Array(count);
    case OnnxDataType.INT16: return new Int16Array(count);
    case OnnxDataType.UINT16:
    case OnnxDataType.FLOAT16:
    case OnnxDataType.BFLOAT16: return new Uint16Array(count);
    case OnnxDataType.INT32: return new Int32Array(count);
    case OnnxDataType.UINT32: return new Uint32Array(count);
    case OnnxDataType.INT64: return new BigInt64Array(count);
    case OnnxDataType.UINT64: return new BigUint64Array(count);
    default: throw new Error(`internal: allocateData of unsupported ${dataTypeName(code)}`);
  }
}

function viewData(code: number, buffer: ArrayBuffer, byteOffset: number, count: number): OnnxTensorData {
  switch (code) {
    case OnnxDataType.FLOAT: return new Float32Array(buffer, byteOffset, count);
    case OnnxDataType.DOUBLE: return new Float64Array(buffer, byteOffset, count);
    case OnnxDataType.INT8: return new Int8Array(buffer, byteOffset, count);
    case OnnxDataType.UINT8:
    case OnnxDataType.BOOL: return new Uint8Array(buffer, byteOffset, count);
    case OnnxDataType.INT16: return new Int16Array(buffer, byteOffset, count);
    case OnnxDataType.UINT16:
    case OnnxDataType.FLOAT16:
    case OnnxDataType.BFLOAT16: return new Uint16Array(buffer, byteOffset, count);
    case OnnxDataType.INT32: return new Int32Array(buffer, byteOffset, count);
    case OnnxDataType.UINT32: return new Uint32Array(buffer, byteOffset, count);
    case OnnxDataType.INT64: return new BigInt64Array(buffer, byteOffset, count);
    case OnnxDataType.UINT64: return new BigUint64Array(buffer, byteOffset, count);
    default: throw new Error(`internal: viewData of unsupported ${dataTypeName(code)}`);
  }
}

/** Views little-endian bytes (copied to an aligned buffer, from `arena` if given) as the typed array of `code`. */
export function dataFromBytes(code: number, bytes: Uint8Array, arena?: DataArena): OnnxTensorData {
  const size = dataTypeSize(code);
  const data = allocateData(code, bytes.length / size, arena);
  new Uint8Array(data.buffer, data.byteOffset, data.byteLength).set(bytes);
  return data;
}

/** Converts a float16 bit pattern to a number. */
export function float16ToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Converts a bfloat16 bit pattern to a number. */
export function bfloat16ToNumber(bits: number): number {
  const f = new Float32Array(new Uint32Array([bits << 16]).buffer);
  return f[0]!;
}
