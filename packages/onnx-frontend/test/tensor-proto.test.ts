import { OnnxDataType, formatDiagnostic, readTensorProto } from '@raptor-pim/onnx-frontend';
import { encode } from './build-model';

const read = (obj: Record<string, unknown>) => readTensorProto(encode(obj, 'TensorProto'), 't.pb');
const values = (data: ArrayLike<unknown>): unknown[] => Array.from(data);

describe('TensorProto reading', () => {
  it.each([
    ['float_data', { dataType: OnnxDataType.FLOAT, dims: [2], floatData: [1.5, -2] }, Float32Array, [1.5, -2]],
    ['double_data', { dataType: OnnxDataType.DOUBLE, dims: [2], doubleData: [1e300, -2] }, Float64Array, [1e300, -2]],
    ['int64_data', { dataType: OnnxDataType.INT64, dims: [3], int64Data: [1, -1, 2 ** 40] }, BigInt64Array, [1n, -1n, 2n ** 40n]],
    ['int32_data (int8)', { dataType: OnnxDataType.INT8, dims: [2], int32Data: [-128, 127] }, Int8Array, [-128, 127]],
    ['int32_data (bool)', { dataType: OnnxDataType.BOOL, dims: [2], int32Data: [1, 0] }, Uint8Array, [1, 0]],
    ['int32_data (float16 bits)', { dataType: OnnxDataType.FLOAT16, dims: [1], int32Data: [0x3c00] }, Uint16Array, [0x3c00]],
    ['uint64_data (uint32)', { dataType: OnnxDataType.UINT32, dims: [1], uint64Data: [4000000000] }, Uint32Array, [4000000000]],
    ['uint64_data (uint64)', { dataType: OnnxDataType.UINT64, dims: [1], uint64Data: [5] }, BigUint64Array, [5n]],
    ['raw_data (int32)', { dataType: OnnxDataType.INT32, dims: [2], rawData: new Uint8Array([1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]) }, Int32Array, [1, -1]],
    ['raw_data (scalar)', { dataType: OnnxDataType.FLOAT, dims: [], rawData: new Uint8Array(new Float32Array([3]).buffer) }, Float32Array, [3]],
    ['empty', { dataType: OnnxDataType.FLOAT, dims: [0, 4] }, Float32Array, []],
  ])('%s', (_, obj, ctor, expected) => {
    const { tensor, diagnostics } = read({ name: 't', ...obj });
    expect(diagnostics).toEqual([]);
    expect(tensor!.data).toBeInstanceOf(ctor);
    expect(values(tensor!.data as ArrayLike<unknown>)).toEqual(expected);
  });

  it.each([
    [{ dataType: OnnxDataType.FLOAT, dims: [2], int64Data: [1, 2] }, "t.pb: value 't': error: tensor 't' of float stores its values in int64_data, which is not the field for that type"],
    [{ dataType: OnnxDataType.COMPLEX64, dims: [1], floatData: [1, 2] }, "t.pb: value 't': error: tensor 't' has unsupported data type complex64"],
    [{ dataType: OnnxDataType.FLOAT8E4M3FN, dims: [1], rawData: new Uint8Array(1) }, "t.pb: value 't': error: tensor 't' has unsupported data type float8e4m3fn"],
    [{ dataType: 99, dims: [1] }, "t.pb: value 't': error: tensor 't' has unsupported data type dtype(99)"],
    [{ dataType: OnnxDataType.FLOAT, dims: [-1], floatData: [1] }, "t.pb: value 't': error: tensor 't' has invalid dimension #0 = -1"],
  ])('rejects %o', (obj, message) => {
    const { tensor, diagnostics } = read({ name: 't', ...obj });
    expect(tensor).toBeUndefined();
    expect(diagnostics.map(formatDiagnostic)).toEqual([message]);
  });

  it('a truncated packed field is a diagnostic with its offset', () => {
    const bytes = encode({ name: 't', dataType: 1, dims: [4], floatData: [1, 2, 3, 4] }, 'TensorProto');
    const r = readTensorProto(bytes.subarray(0, bytes.length - 5), 't.pb');
    expect(r.tensor).toBeUndefined();
    expect(r.diagnostics.map(formatDiagnostic).join()).toMatch(/^t\.pb:@\d+: error: truncated protobuf: /);
  });
});
