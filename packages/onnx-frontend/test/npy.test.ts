import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { OnnxDataType, type OnnxTensor, formatDiagnostic, readNpy, readTensorProtoFile, writeNpy } from '@raptor-pim/onnx-frontend';
import { MODELS_DIR, sharedModels } from './helpers';

// This machine is shared: allow for load (the whole file normally takes a few seconds).
jest.setTimeout(120_000);

const FIX = path.join(__dirname, 'fixtures', 'npy');
const read = (name: string) => readNpy(fs.readFileSync(path.join(FIX, name)), name);
const values = (t: OnnxTensor): unknown[] => Array.from(t.data as ArrayLike<unknown>);

describe('.npy reader', () => {
  it.each([
    ['f4_2x3.npy', OnnxDataType.FLOAT, [2, 3], [0, 0.25, 0.5, 0.75, 1, 1.25]],
    ['f8_3.npy', OnnxDataType.DOUBLE, [3], [1.5, -2.25, 3e100]],
    ['i8_2x2.npy', OnnxDataType.INT64, [2, 2], [1n, -2n, 2n ** 40n, -(2n ** 40n)]],
    ['i4_scalar.npy', OnnxDataType.INT32, [], [-7]],
    ['u1_4.npy', OnnxDataType.UINT8, [4], [0, 1, 254, 255]],
    ['b1_2x2.npy', OnnxDataType.BOOL, [2, 2], [1, 0, 0, 1]],
    ['f4_empty.npy', OnnxDataType.FLOAT, [0, 3], []],
    ['f4_v2.npy', OnnxDataType.FLOAT, [5], [0, 1, 2, 3, 4]],
  ])('%s (written by NumPy)', (name, dtype, dims, expected) => {
    const { tensor, diagnostics } = read(name);
    expect(diagnostics).toEqual([]);
    expect(tensor!.dataType).toBe(dtype);
    expect(tensor!.dims).toEqual(dims);
    expect(values(tensor!)).toEqual(expected);
  });

  it.each(['f4_2x3.npy', 'f8_3.npy', 'i8_2x2.npy', 'i4_scalar.npy', 'u1_4.npy', 'b1_2x2.npy', 'f4_empty.npy'])('%s: writeNpy gives the bytes NumPy wrote', (name) => {
    const bytes = fs.readFileSync(path.join(FIX, name));
    expect(Buffer.from(writeNpy(readNpy(bytes).tensor!))).toEqual(bytes);
  });

  it.each([
    ['f4_fortran.npy', 'f4_fortran.npy:@10: error: .npy data in Fortran order is not supported; save with C order'],
    ['c8.npy', "c8.npy:@10: error: unsupported .npy dtype '<c8'; supported: <f4, <f8, <i8, <i4, |u1, |b1"],
  ])('%s is rejected', (name, message) => {
    expect(read(name).diagnostics.map(formatDiagnostic)).toEqual([message]);
  });

  it('bad magic, truncated data and a bad header are diagnostics', () => {
    expect(readNpy(new Uint8Array([1, 2, 3]), 'x.npy').diagnostics[0]!.message).toBe('not a .npy file (missing \\x93NUMPY magic)');
    const bytes = fs.readFileSync(path.join(FIX, 'f4_2x3.npy'));
    expect(readNpy(bytes.subarray(0, bytes.length - 1), 'x.npy').diagnostics.map(formatDiagnostic)).toEqual(['x.npy:@128: error: .npy data has 23 bytes, expected 24']);
    expect(readNpy(bytes.subarray(0, 50), 'x.npy').diagnostics[0]!.message).toBe('malformed .npy header: header runs past the end of the file');
  });

  it('round-trips any float32/int64/uint8/bool tensor (property)', () => {
    const dims = fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 });
    fc.assert(
      fc.property(dims, fc.constantFrom(OnnxDataType.FLOAT, OnnxDataType.DOUBLE, OnnxDataType.INT64, OnnxDataType.INT32, OnnxDataType.UINT8, OnnxDataType.BOOL), fc.integer(), (d, dtype, seed) => {
        const n = d.reduce((a, b) => a * b, 1);
        const raw = new Uint8Array(n * (dtype === OnnxDataType.UINT8 || dtype === OnnxDataType.BOOL ? 1 : dtype === OnnxDataType.FLOAT || dtype === OnnxDataType.INT32 ? 4 : 8));
        for (let i = 0; i < raw.length; i++) raw[i] = (seed * 31 + i * 17) & (dtype === OnnxDataType.BOOL ? 1 : 255);
        const t = readNpy(writeNpy({ dataType: dtype, dims: d, data: raw })).tensor!;
        expect(t.dims).toEqual(d);
        expect(t.dataType).toBe(dtype);
        expect(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength)).toEqual(Buffer.from(raw));
      }),
      { numRuns: 200 },
    );
  });

  it.each(sharedModels())('%s: output_0.npy equals output_0.pb', (name) => {
    const npy = readNpy(fs.readFileSync(path.join(MODELS_DIR, name, 'output_0.npy'))).tensor!;
    const pb = readTensorProtoFile(path.join(MODELS_DIR, name, 'test_data_set_0', 'output_0.pb')).tensor!;
    expect(npy.dims).toEqual(pb.dims);
    expect(npy.dataType).toBe(pb.dataType);
    expect(Buffer.from(npy.data.buffer)).toEqual(Buffer.from(pb.data.buffer));
  });
});
