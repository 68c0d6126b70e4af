/**
 * Decoding of ONNX protobuf bytes: the package's own reader (`proto-reader.ts`) builds the
 * messages and checks the wire format as it goes (one walk over the bytes); when it rejects
 * them, the wire check (`wire-check.ts`) names the first problem and its byte offset, so that
 * malformed input becomes a diagnostic instead of an exception.
 */
import { Messages, type OnnxDiagnostic } from '../diagnostics';
import { MalformedWire, readModelProto, readTensorProtoMessage } from './proto-reader';
import type { ModelMsg, TensorMsg } from './proto-types';
import { type OnnxMessageName, checkWireFormat } from './wire-check';

/** The result of decoding: the message, or undefined with at least one error diagnostic. */
export interface DecodeResult<T> {
  readonly message: T | undefined;
  readonly diagnostics: OnnxDiagnostic[];
}

function decodeAs<T>(bytes: Uint8Array, type: OnnxMessageName, file: string, read: (bytes: Uint8Array) => T): DecodeResult<T> {
  const diagnostics: OnnxDiagnostic[] = [];
  if (bytes.length === 0) {
    diagnostics.push({ severity: 'error', location: { file, byteOffset: 0 }, message: Messages.emptyFile() });
    return { message: undefined, diagnostics };
  }
  try {
    return { message: read(bytes), diagnostics };
  } catch (e) {
    if (!(e instanceof MalformedWire)) throw e;
  }
  const problem = checkWireFormat(bytes, type);
  if (!problem) throw new Error(`internal: the protobuf reader rejected ${type} bytes that the wire check accepts`);
  diagnostics.push({ severity: 'error', location: { file, byteOffset: problem.offset }, message: problem.message });
  return { message: undefined, diagnostics };
}

/** Decodes a serialized `onnx.ModelProto`. Never throws on malformed bytes. */
export function decodeModelProto(bytes: Uint8Array, file = '<memory>'): DecodeResult<ModelMsg> {
  const result = decodeAs(bytes, 'ModelProto', file, readModelProto);
  const m = result.message;
  if (m && !m.graph) {
    return { message: undefined, diagnostics: [...result.diagnostics, { severity: 'error', location: { file }, message: Messages.notOnnx() }] };
  }
  return result;
}

/** Decodes a serialized `onnx.TensorProto` (e.g. `input_0.pb`). Never throws on malformed bytes. */
export function decodeTensorProto(bytes: Uint8Array, file = '<memory>'): DecodeResult<TensorMsg> {
  return decodeAs(bytes, 'TensorProto', file, readTensorProtoMessage);
}
