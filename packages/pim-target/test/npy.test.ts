import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { decodeNpy, encodeNpy, npyElementSize, readNpyHeader, type NpyDtype } from '@raptor-pim/pim-target';
import { SHARED_DIR } from './helpers';

const FIX = path.join(__dirname, 'fixtures', 'npy');
const MODELS = path.join(SHARED_DIR, 'models');

/** Every `.npy` written by NumPy's `np.save`: the fixtures and the shared models' inputs and outputs. */
function numpyFiles(): string[] {
  const out = fs.readdirSync(FIX).filter((f) => f.endsWith('.npy') && !['f4_fortran.npy', 'c8.npy', 'f4_v2.npy'].includes(f)).map((f) => path.join(FIX, f));
  if (fs.existsSync(MODELS)) {
    for (const m of fs.readdirSync(MODELS).sort()) {
      const dir = path.join(MODELS, m);
      if (!fs.statSync(dir).isDirectory()) continue;
      for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.npy')) out.push(path.join(dir, f));
    }
  }
  return out;
}

describe('.npy codec', () => {
  it.each(numpyFiles().map((f) => [path.relative(path.dirname(path.dirname(f)), f), f]))('%s: decode then encode gives the bytes np.save wrote', (_name, file) => {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const r = decodeNpy(bytes);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Buffer.from(encodeNpy(r.array)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('reads versions 2.0 and 3.0 (4-byte header length; utf-8 header in 3.0)', () => {
    const v2 = decodeNpy(new Uint8Array(fs.readFileSync(path.join(FIX, 'f4_v2.npy'))));
    expect(v2.ok && v2.header.version).toBe(2);
    expect(v2.ok && Array.from(v2.array.data as Float32Array)).toEqual([0, 1, 2, 3, 4]);
    const v1 = encodeNpy({ dtype: 'i32', shape: [2], data: Int32Array.from([7, -8]) });
    const headerLen = v1[8]! | (v1[9]! << 8);
    const v3 = new Uint8Array(v1.length + 2);
    v3.set(v1.subarray(0, 8));
    v3[6] = 3;
    v3[8] = headerLen;
    v3.set(v1.subarray(10), 12);
    const r = decodeNpy(v3);
    expect(r.ok && r.header.version).toBe(3);
    expect(r.ok && Array.from(r.array.data as Int32Array)).toEqual([7, -8]);
  });

  it('pads an already aligned header with a full 64 bytes, as numpy/lib/format.py _wrap_header does', () => {
    // 10-byte prefix + dict + newline = 128 exactly for this shape, so NumPy adds 64 spaces.
    const shape = [0, 1e4, 1e14, 1e14];
    const dict = `{'descr': '|u1', 'fortran_order': False, 'shape': (${shape.join(', ')}), }` + ' '.repeat(20);
    expect((10 + dict.length + 1) % 64).toBe(0);
    const bytes = encodeNpy({ dtype: 'u8', shape, data: new Uint8Array(0) });
    expect(bytes[8]! | (bytes[9]! << 8)).toBe(dict.length + 1 + 64);
    expect(bytes.length).toBe(10 + dict.length + 1 + 64);
    expect(bytes[bytes.length - 1]).toBe(0x0a);
  });

  it('writes version 2.0 when the header exceeds 65535 bytes', () => {
    const shape = new Array<number>(30000).fill(1);
    const bytes = encodeNpy({ dtype: 'f32', shape, data: Float32Array.from([5]) });
    expect(bytes[6]).toBe(2);
    expect((12 + (bytes[8]! | (bytes[9]! << 8) | (bytes[10]! << 16))) % 64).toBe(0);
    const r = decodeNpy(bytes);
    expect(r.ok && r.array.shape.length).toBe(30000);
  });

  it('round-trips every dtype and shape (property)', () => {
    const dtypes: NpyDtype[] = ['f32', 'f64', 'f16', 'bf16', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'bool'];
    fc.assert(
      fc.property(fc.constantFrom(...dtypes), fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }), fc.integer(), (dtype, shape, seed) => {
        const n = shape.reduce((a, b) => a * b, 1);
        const raw = new Uint8Array(n * npyElementSize(dtype)).map((_, i) => (seed * 31 + i * 17) & (dtype === 'bool' ? 1 : 0xff));
        const r = decodeNpy(encodeNpy({ dtype, shape, data: raw }));
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.array.dtype).toBe(dtype);
        expect(r.array.shape).toEqual(shape);
        expect(Buffer.from(r.array.data.buffer, r.array.data.byteOffset, r.array.data.byteLength)).toEqual(Buffer.from(raw));
      }),
      { numRuns: 200 },
    );
  });

  it('malformed files are errors with a code, a message and a byte offset, never exceptions', () => {
    expect(readNpyHeader(new Uint8Array([1, 2, 3]))).toEqual({ ok: false, error: { code: 'npy-bad-magic', message: 'missing the \\x93NUMPY magic', byteOffset: 0 } });
    const good = encodeNpy({ dtype: 'f32', shape: [2, 3], data: new Float32Array(6) });
    expect(readNpyHeader(good.slice(0, good.length - 1))).toEqual({
      ok: false,
      error: { code: 'npy-short-data', message: 'data holds 23 bytes, the shape needs 24', byteOffset: 128, have: 23, need: 24 },
    });
    const fortran = readNpyHeader(new Uint8Array(fs.readFileSync(path.join(FIX, 'f4_fortran.npy'))));
    expect(!fortran.ok && [fortran.error.code, fortran.error.byteOffset]).toEqual(['npy-fortran-order', 10]);
    const c8 = readNpyHeader(new Uint8Array(fs.readFileSync(path.join(FIX, 'c8.npy'))));
    expect(!c8.ok && c8.error.message).toBe("unsupported dtype '<c8'");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: good.length }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), (cut, flips) => {
        const bytes = good.slice(0, cut);
        for (const [at, v] of flips) if (bytes.length > 0) bytes[at % bytes.length] = v;
        const r = decodeNpy(bytes);
        if (!r.ok) expect(r.error.code).toMatch(/^npy-/);
      }),
      { numRuns: 300 },
    );
  });
});
