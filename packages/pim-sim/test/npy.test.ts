import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { readNpy, writeNpy } from '@raptor-pim/pim-sim';
import type { NpyDtype } from '@raptor-pim/pim-sim';
import { SHARED } from './helpers';

describe('.npy reader and writer', () => {
  test('reads files written by NumPy (model inputs in shared/models)', () => {
    const file = path.join(SHARED, 'models/mlp/input_0.npy');
    const r = readNpy(fs.readFileSync(file));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.array.dtype).toBe('f32');
    expect(r.array.shape).toEqual([1, 784]);
    const data = r.array.data as Float32Array;
    expect(data[0]).toBeCloseTo(0.9766997694969177, 7);
    expect(Array.from(data).reduce((a, b) => a + b, 0)).toBeCloseTo(387.5474853515625, 2);
  });

  test('writes the bytes NumPy 2 writes', () => {
    // python3 -c "import numpy as np, io; b = io.BytesIO(); np.save(b, np.array([[1,2,3]], np.float32)); print(b.getvalue().hex())"
    const numpyHex =
      '934e554d5059010076007b276465736372273a20273c6634272c2027666f727472616e5f6f72646572273a2046616c73652c' +
      '20277368617065273a2028312c2033292c207d20202020202020202020202020202020202020202020202020202020202020' +
      '2020202020202020202020202020202020202020202020202020200a0000803f0000004000004040';
    const bytes = writeNpy({ dtype: 'f32', shape: [1, 3], data: Float32Array.from([1, 2, 3]) });
    expect(Buffer.from(bytes).toString('hex')).toBe(numpyHex);
  });

  test('round trips every dtype and shape (property)', () => {
    const dtypes: NpyDtype[] = ['f32', 'f64', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32'];
    fc.assert(
      fc.property(
        fc.constantFrom(...dtypes),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 0, maxLength: 4 }),
        fc.integer(),
        (dtype, shape, seed) => {
          const n = shape.reduce((a, b) => a * b, 1);
          const bytes = { f32: 4, f64: 8, i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4 }[dtype as 'f32'];
          const raw = new Uint8Array(n * bytes).map((_, i) => (seed * 31 + i * 17) & 0xff);
          const first = readNpy(writeNpy({ dtype, shape, data: new Uint8Array(0) as never }));
          expect(first.ok).toBe(n === 0);
          const r = readNpy(
            writeNpy({
              dtype,
              shape,
              data: dtype === 'f64' ? new Float64Array(raw.buffer) : dtype === 'f32' ? new Float32Array(raw.buffer) : dtype.startsWith('i') ? ({ i8: Int8Array, i16: Int16Array, i32: Int32Array } as const)[dtype as 'i8'].from(new ({ i8: Int8Array, i16: Int16Array, i32: Int32Array } as const)[dtype as 'i8'](raw.buffer)) : ({ u8: Uint8Array, u16: Uint16Array, u32: Uint32Array } as const)[dtype as 'u8'].from(new ({ u8: Uint8Array, u16: Uint16Array, u32: Uint32Array } as const)[dtype as 'u8'](raw.buffer)),
            }),
          );
          expect(r.ok).toBe(true);
          if (!r.ok) return;
          expect(r.array.dtype).toBe(dtype);
          expect(r.array.shape).toEqual(shape);
          expect(Array.from(new Uint8Array(r.array.data.buffer, r.array.data.byteOffset, r.array.data.byteLength))).toEqual(Array.from(raw));
        },
      ),
      { numRuns: 200 },
    );
  });

  test('rejects malformed files with a message, never throws (property)', () => {
    const good = writeNpy({ dtype: 'f32', shape: [2, 3], data: new Float32Array(6) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: good.length }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), (cut, flips) => {
        const bytes = good.slice(0, cut);
        for (const [at, v] of flips) if (bytes.length > 0) bytes[at % bytes.length] = v;
        const r = readNpy(bytes);
        if (!r.ok) expect(r.message).toMatch(/^invalid \.npy file: /);
      }),
      { numRuns: 500 },
    );
    expect(readNpy(good.slice(0, good.length - 1))).toEqual({ ok: false, message: 'invalid .npy file: data holds 23 bytes, the shape needs 24' });
  });
});
