/**
 * Conversion of a decoded `TensorProto` into an {@link OnnxTensor}: element type and shape
 * checks, raw_data / typed-field / external data, all bounded by the bytes actually present.
 */
import * as path from 'node:path';
import { Messages, type OnnxDiagnostic, type OnnxLocation } from '../diagnostics';
import { type DataArena, OnnxDataType, allocateData, dataFromBytes, dataTypeName, dataTypeSize, isSupportedDataType } from './dtypes';
import type { OnnxTensor } from './model';
import { type Int64, type TensorMsg, int64ToNumber } from './proto-types';

/** Reads external tensor data files (relative to the model folder). */
export interface ExternalDataReader {
  /** Size in bytes of the file at `relPath`, or an error text. */
  size(relPath: string): number | string;
  /** Reads `length` bytes at `offset` of `relPath` (the range was checked against `size`). */
  read(relPath: string, offset: number, length: number): Uint8Array;
}

/** What tensor conversion needs from its caller. */
export interface TensorContext {
  readonly file: string;
  readonly diagnostics: OnnxDiagnostic[];
  /** Reader for external data, or undefined when the model has no folder (read from memory). */
  readonly external: ExternalDataReader | undefined;
  /** Where tensor storage comes from (one allocation per tensor when absent). */
  readonly arena?: DataArena;
}

/** Validates `dims` (non-negative integers) and returns the element count, or undefined. */
export function checkDims(dims: readonly Int64[], name: string, ctx: TensorContext, loc: OnnxLocation): number[] | undefined {
  const out: number[] = [];
  for (let i = 0; i < dims.length; i++) {
    const d = int64ToNumber(dims[i]);
    if (!Number.isSafeInteger(d) || d < 0) {
      ctx.diagnostics.push({ severity: 'error', location: loc, message: Messages.badDim(name, i, String(dims[i])) });
      return undefined;
    }
    out.push(d);
  }
  return out;
}

/** Product of dims as a float (no overflow to negative; may exceed 2^53 for absurd shapes). */
export function elementCount(dims: readonly number[]): number {
  let n = 1;
  for (const d of dims) n *= d;
  return n;
}

function typedSource(msg: TensorMsg): { field: string; length: number } | undefined {
  if (msg.floatData.length) return { field: 'float_data', length: msg.floatData.length };
  if (msg.int32Data.length) return { field: 'int32_data', length: msg.int32Data.length };
  if (msg.int64Data.length) return { field: 'int64_data', length: msg.int64Data.length };
  if (msg.doubleData.length) return { field: 'double_data', length: msg.doubleData.length };
  if (msg.uint64Data.length) return { field: 'uint64_data', length: msg.uint64Data.length };
  if (msg.stringData.length) return { field: 'string_data', length: msg.stringData.length };
  return undefined;
}

function expectedField(dtype: number): string {
  switch (dtype) {
    case OnnxDataType.FLOAT: return 'float_data';
    case OnnxDataType.INT64: return 'int64_data';
    case OnnxDataType.DOUBLE: return 'double_data';
    case OnnxDataType.UINT32:
    case OnnxDataType.UINT64: return 'uint64_data';
    default: return 'int32_data';
  }
}

function fillTyped(msg: TensorMsg, dtype: number, count: number, arena: DataArena | undefined): OnnxTensor['data'] {
  const data = allocateData(dtype, count, arena);
  switch (dtype) {
    case OnnxDataType.FLOAT:
    case OnnxDataType.DOUBLE: {
      const src = dtype === OnnxDataType.FLOAT ? msg.floatData : msg.doubleData;
      const dst = data as Float32Array | Float64Array;
      for (let i = 0; i < count; i++) dst[i] = src[i]!;
      break;
    }
    case OnnxDataType.INT64: {
      const dst = data as BigInt64Array;
      for (let i = 0; i < count; i++) dst[i] = int64ToBigInt(msg.int64Data[i]!, true);
      break;
    }
    case OnnxDataType.UINT64: {
      const dst = data as BigUint64Array;
      for (let i = 0; i < count; i++) dst[i] = int64ToBigInt(msg.uint64Data[i]!, false);
      break;
    }
    case OnnxDataType.UINT32: {
      const dst = data as Uint32Array;
      for (let i = 0; i < count; i++) dst[i] = int64ToNumber(msg.uint64Data[i]!);
      break;
    }
    default: {
      const dst = data as Int32Array;
      for (let i = 0; i < count; i++) dst[i] = msg.int32Data[i]!;
    }
  }
  return data;
}

function int64ToBigInt(v: Int64, signed: boolean): bigint {
  if (typeof v === 'number') return BigInt(v);
  const big = (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
  return signed ? BigInt.asIntN(64, big) : big;
}

function readExternal(msg: TensorMsg, name: string, byteLength: number, ctx: TensorContext, loc: OnnxLocation): Uint8Array | undefined {
  const err = (message: string): undefined => {
    ctx.diagnostics.push({ severity: 'error', location: loc, message });
    return undefined;
  };
  let location: string | undefined;
  let offset = 0;
  let length: number | undefined;
  for (const { key, value } of msg.externalData) {
    if (key === 'location') location = value;
    else if (key === 'offset' || key === 'length') {
      const n = /^\d+$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n)) return err(Messages.externalBadKey(name, key, value));
      if (key === 'offset') offset = n;
      else length = n;
    }
  }
  if (location === undefined || location === '') return err(Messages.externalNoLocation(name));
  const normalized = path.posix.normalize(location.replace(/\\/g, '/'));
  if (path.posix.isAbsolute(normalized) || /^[A-Za-z]:/.test(normalized) || normalized === '..' || normalized.startsWith('../')) {
    return err(Messages.externalEscapes(name, location));
  }
  if (!ctx.external) return err(Messages.externalNoDir(name));
  const size = ctx.external.size(normalized);
  if (typeof size === 'string') return err(Messages.externalMissing(name, location, size));
  const len = length ?? byteLength;
  if (offset + len > size) return err(Messages.externalRange(name, location, offset, len, size));
  if (len !== byteLength) return err(Messages.rawDataLength(name, [], 'external data', len, byteLength));
  return ctx.external.read(normalized, offset, len);
}

/**
 * Converts a decoded TensorProto. Reports a diagnostic and returns undefined for unsupported
 * types, invalid dims, or data whose length does not match the shape. Allocates only after
 * the data's presence has been checked, so memory use is bounded by the input size.
 */
export function convertTensor(msg: TensorMsg, ctx: TensorContext, loc: OnnxLocation, fallbackName = ''): OnnxTensor | undefined {
  const name = msg.name || fallbackName;
  const dtype = msg.dataType;
  const dtypeName = dataTypeName(dtype);
  if (!isSupportedDataType(dtype)) {
    ctx.diagnostics.push({ severity: 'error', location: loc, message: Messages.unsupportedDtype(dtypeName, name) });
    return undefined;
  }
  if (msg.segment) ctx.diagnostics.push({ severity: 'warning', location: loc, message: Messages.segmentIgnored(name) });
  const dims = checkDims(msg.dims, name, ctx, loc);
  if (!dims) return undefined;
  const count = elementCount(dims);
  const size = dataTypeSize(dtype);
  const byteLength = count * size;
  if (msg.dataLocation === 1 || msg.externalData.length > 0) {
    const bytes = readExternal(msg, name, byteLength, ctx, loc);
    return bytes ? { name, dataType: dtype, dims, data: dataFromBytes(dtype, bytes, ctx.arena) } : undefined;
  }
  if (msg.rawData.length > 0 || (count === 0 && !typedSource(msg))) {
    if (msg.rawData.length !== byteLength) {
      ctx.diagnostics.push({ severity: 'error', location: loc, message: Messages.rawDataLength(name, dims, dtypeName, msg.rawData.length, byteLength) });
      return undefined;
    }
    return { name, dataType: dtype, dims, data: dataFromBytes(dtype, msg.rawData, ctx.arena) };
  }
  const src = typedSource(msg);
  const expected = expectedField(dtype);
  if (src && src.field !== expected) {
    ctx.diagnostics.push({ severity: 'error', location: loc, message: Messages.wrongTypedField(name, dtypeName, src.field) });
    return undefined;
  }
  const got = src?.length ?? 0;
  if (got !== count) {
    ctx.diagnostics.push({ severity: 'error', location: loc, message: Messages.typedDataLength(name, expected, got, count) });
    return undefined;
  }
  return { name, dataType: dtype, dims, data: fillTyped(msg, dtype, count, ctx.arena) };
}
