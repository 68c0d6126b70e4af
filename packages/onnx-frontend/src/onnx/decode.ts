/**
 * Decoding of ONNX protobuf bytes with protobufjs, wrapped so that malformed input becomes a
 * diagnostic with a byte offset instead of an exception.
 */
import { Messages, type OnnxDiagnostic } from '../diagnostics';
import type { ModelMsg, TensorMsg } from './proto-types';
import { onnxType } from './schema';
import { checkWireFormat } from './wire-check';

/** The result of decoding: the message, or undefined with at least one error diagnostic. */
export interface DecodeResult<T> {
  readonly message: T | undefined;
  readonly diagnostics: OnnxDiagnostic[];
}

function decodeAs<T>(bytes: Uint8Array, typeName: string, file: string): DecodeResult<T> {
  const diagnostics: OnnxDiagnostic[] = [];
  if (bytes.length === 0) {
    diagnostics.push({ severity: 'error', location: { file, byteOffset: 0 }, message: Messages.emptyFile() });
    return { message: undefined, diagnostics };
  }
  const type = onnxType(typeName);
  const problem = checkWireFormat(bytes, type);
  if (problem) {
    diagnostics.push({ severity: 'error', location: { file, byteOffset: problem.offset }, message: problem.message });
    return { message: undefined, diagnostics };
  }
  try {
    return { message: type.decode(bytes) as unknown as T, diagnostics };
  } catch (e) {
    const err = e as { message?: string; offset?: number };
    const offset = typeof err.offset === 'number' ? err.offset : undefined;
    diagnostics.push({
      severity: 'error',
      location: offset === undefined ? { file } : { file, byteOffset: offset },
      message: Messages.protobufError(String(err.message ?? e)),
    });
    return { message: undefined, diagnostics };
  }
}

/** Decodes a serialized `onnx.ModelProto`. Never throws on malformed bytes. */
export function decodeModelProto(bytes: Uint8Array, file = '<memory>'): DecodeResult<ModelMsg> {
  const result = decodeAs<ModelMsg>(bytes, 'ModelProto', file);
  const m = result.message;
  if (m && !m.graph) {
    return { message: undefined, diagnostics: [...result.diagnostics, { severity: 'error', location: { file }, message: Messages.notOnnx() }] };
  }
  return result;
}

/** Decodes a serialized `onnx.TensorProto` (e.g. `input_0.pb`). Never throws on malformed bytes. */
export function decodeTensorProto(bytes: Uint8Array, file = '<memory>'): DecodeResult<TensorMsg> {
  return decodeAs<TensorMsg>(bytes, 'TensorProto', file);
}
