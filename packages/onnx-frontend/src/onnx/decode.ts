/**
 * Decoding of ONNX protobuf bytes: the wire format is checked first (`wire-check.ts`), so that
 * malformed input becomes a diagnostic with a byte offset instead of an exception, then the
 * package's own reader (`proto-reader.ts`) builds the messages.
 */
import { Messages, type OnnxDiagnostic } from '../diagnostics';
import { readModelProto, readTensorProtoMessage } from './proto-reader';
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
  const problem = checkWireFormat(bytes, type);
  if (problem) {
    diagnostics.push({ severity: 'error', location: { file, byteOffset: problem.offset }, message: problem.message });
    return { message: undefined, diagnostics };
  }
  return { message: read(bytes), diagnostics };
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
