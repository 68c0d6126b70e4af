/**
 * A byte-addressed memory with typed views for 1-, 2- and 4-byte elements (little-endian,
 * the platform order of typed arrays on every supported host).
 */
export class Memory {
  /** Raw bytes. */
  readonly bytes: Uint8Array;
  /** Signed 8-bit view. */
  readonly i8: Int8Array;
  /** Signed 16-bit view (index = address / 2). */
  readonly i16: Int16Array;
  /** Signed 32-bit view (index = address / 4). */
  readonly i32: Int32Array;
  /** 32-bit float view (index = address / 4). */
  readonly f32: Float32Array;
  /** Unaligned access. */
  readonly view: DataView;

  /** Allocates `size` zeroed bytes. */
  constructor(readonly size: number) {
    const buffer = new ArrayBuffer(Math.ceil(size / 4) * 4);
    this.bytes = new Uint8Array(buffer, 0, size);
    this.i8 = new Int8Array(buffer);
    this.i16 = new Int16Array(buffer);
    this.i32 = new Int32Array(buffer);
    this.f32 = new Float32Array(buffer);
    this.view = new DataView(buffer);
  }
}
