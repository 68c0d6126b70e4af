/**
 * Runtime data of the memref interpreter: byte buffers (one per allocation) and strided
 * descriptors (MLIR's memref descriptor: buffer, offset, sizes, strides, in elements).
 */
import { FloatType, IndexType, IntegerType, type Type } from '@raptor-pim/ir-core';

/** How a buffer came to be (only `alloc`/`realloc` buffers may be deallocated). */
export type BufferOrigin = 'alloc' | 'alloca' | 'global' | 'external';

/** A byte buffer: the storage of one allocation. */
export class MemRefBuffer {
  private static nextId = 1;
  /** A small id used in messages. */
  readonly id = MemRefBuffer.nextId++;
  /** The bytes. */
  readonly bytes: Uint8Array;
  /** Little-endian view of {@link bytes}. */
  readonly view: DataView;
  /** True after `memref.dealloc` (or the end of its allocation scope). */
  freed = false;
  /** True for a constant global (writes are rejected). */
  readOnly = false;
  /** The memref its allocation returned (`memref.dealloc` must be given this one, not a view). */
  allocation: MemRefDescriptor | undefined = undefined;

  /** A zero-filled buffer of `byteLength` bytes, or a buffer over existing `bytes`. */
  constructor(
    byteLengthOrBytes: number | Uint8Array,
    readonly origin: BufferOrigin,
  ) {
    this.bytes = typeof byteLengthOrBytes === 'number' ? new Uint8Array(byteLengthOrBytes) : byteLengthOrBytes;
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }

  /** Size in bytes. */
  get byteLength(): number {
    return this.bytes.length;
  }
}

/** Element codec: byte size and little-endian read/write of one scalar. */
export interface ElementCodec {
  readonly bytes: number;
  read(view: DataView, byteOffset: number): number;
  write(view: DataView, byteOffset: number, value: number | bigint): void;
  /** Exact read: 64-bit integers as bigint (ir-core's scalar convention), others as number. */
  readExact(view: DataView, byteOffset: number): number | bigint;
}

const codecs = new Map<string, ElementCodec>();
function intCodec(width: number, unsigned: boolean): ElementCodec {
  const bytes = Math.max(1, Math.ceil(width / 8));
  const num = (x: number | bigint) => (typeof x === 'bigint' ? Number(BigInt.asIntN(64, x)) : x);
  let c: Omit<ElementCodec, 'readExact'>;
  switch (bytes) {
    case 1:
      c = {
        bytes,
        read: (v, o) => (width === 1 ? v.getUint8(o) & 1 : unsigned ? v.getUint8(o) : v.getInt8(o)),
        write: (v, o, x) => v.setInt8(o, width === 1 ? num(x) & 1 : num(x)),
      };
      break;
    case 2:
      c = { bytes, read: (v, o) => (unsigned ? v.getUint16(o, true) : v.getInt16(o, true)), write: (v, o, x) => v.setInt16(o, num(x), true) };
      break;
    case 4:
      c = { bytes, read: (v, o) => (unsigned ? v.getUint32(o, true) : v.getInt32(o, true)), write: (v, o, x) => v.setInt32(o, num(x) | 0, true) };
      break;
    default:
      return {
        bytes: 8,
        read: (v, o) => Number(unsigned ? v.getBigUint64(o, true) : v.getBigInt64(o, true)),
        readExact: (v, o) => (unsigned ? v.getBigUint64(o, true) : v.getBigInt64(o, true)),
        write: (v, o, x) => v.setBigInt64(o, typeof x === 'bigint' ? BigInt.asIntN(64, x) : BigInt(Math.trunc(x)), true),
      };
  }
  return { ...c, readExact: c.read };
}

/**
 * The codec of an element type (integers of 1-64 bits, index as 64 bits, f32/f64), or
 * undefined when the interpreter does not support the type.
 */
export function elementCodec(type: Type): ElementCodec | undefined {
  let key: string;
  // `index` elements are f64, as in ir-core's buffers (exact up to 2^53).
  if (type instanceof IndexType) key = 'f64';
  else if (type instanceof IntegerType && type.width <= 64) key = (type.isUnsigned ? 'u' : 'i') + type.width;
  else if (type instanceof FloatType && (type.kind === 'f32' || type.kind === 'f64')) key = type.kind;
  else return undefined;
  let c = codecs.get(key);
  if (!c) {
    if (key === 'f32') {
      const read = (v: DataView, o: number) => v.getFloat32(o, true);
      c = { bytes: 4, read, readExact: read, write: (v, o, x) => v.setFloat32(o, Number(x), true) };
    } else if (key === 'f64') {
      const read = (v: DataView, o: number) => v.getFloat64(o, true);
      c = { bytes: 8, read, readExact: read, write: (v, o, x) => v.setFloat64(o, Number(x), true) };
    } else c = intCodec(Number(key.substring(1)), key.startsWith('u'));
    codecs.set(key, c);
  }
  return c;
}

/**
 * A memref value: a strided view of a buffer. `offset`, `sizes` and `strides` are in elements
 * of `elementType`; `byteShift` is the extra byte offset introduced by `memref.view`.
 */
export class MemRefDescriptor {
  constructor(
    readonly buffer: MemRefBuffer,
    readonly elementType: Type,
    readonly codec: ElementCodec,
    readonly offset: number,
    readonly sizes: readonly number[],
    readonly strides: readonly number[],
    readonly byteShift = 0,
  ) {}

  /** The rank. */
  get rank(): number {
    return this.sizes.length;
  }

  /** The number of elements of the view. */
  get numElements(): number {
    let n = 1;
    for (const s of this.sizes) n *= s;
    return n;
  }

  /** The buffer element (relative to {@link byteShift}) addressed by `indices` (no checks). */
  linearIndex(indices: readonly number[]): number {
    let e = this.offset;
    for (let i = 0; i < indices.length; i++) e += indices[i]! * this.strides[i]!;
    return e;
  }

  /** The byte offset in the buffer of element `linear`. */
  byteOffsetOf(linear: number): number {
    return this.byteShift + linear * this.codec.bytes;
  }

  /** Elements the buffer holds for this descriptor's element type. */
  get bufferElements(): number {
    return Math.floor((this.buffer.byteLength - this.byteShift) / this.codec.bytes);
  }

  /** True when `other` views the same elements with the same metadata. */
  sameView(other: MemRefDescriptor): boolean {
    return (
      this.buffer === other.buffer &&
      this.elementType === other.elementType &&
      this.offset === other.offset &&
      this.byteShift === other.byteShift &&
      this.sizes.length === other.sizes.length &&
      this.sizes.every((s, i) => s === other.sizes[i] && this.strides[i] === other.strides[i])
    );
  }

  /** A copy with other metadata over the same buffer. */
  with(offset: number, sizes: readonly number[], strides: readonly number[]): MemRefDescriptor {
    return new MemRefDescriptor(this.buffer, this.elementType, this.codec, offset, sizes, strides, this.byteShift);
  }
}

/** Calls `fn` with every index tuple of `sizes` in row-major order. */
export function forEachIndex(sizes: readonly number[], fn: (idx: readonly number[]) => void): void {
  const rank = sizes.length;
  for (const s of sizes) if (s === 0) return;
  const idx = new Array<number>(rank).fill(0);
  for (;;) {
    fn(idx);
    let d = rank - 1;
    while (d >= 0) {
      idx[d]!++;
      if (idx[d]! < sizes[d]!) break;
      idx[d] = 0;
      d--;
    }
    if (d < 0) return;
  }
}
