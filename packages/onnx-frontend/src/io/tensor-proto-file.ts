/**
 * Reading serialized TensorProto messages (`input_0.pb` / `output_0.pb` of the ONNX backend
 * test layout).
 */
import type { OnnxDiagnostic } from '../diagnostics';
import { decodeTensorProto } from '../onnx/decode';
import type { OnnxTensor } from '../onnx/model';
import { convertTensor } from '../onnx/tensor';

/** Decodes a TensorProto from bytes. Never throws on malformed input. */
export function readTensorProto(bytes: Uint8Array, file = '<memory>'): { tensor: OnnxTensor | undefined; diagnostics: OnnxDiagnostic[] } {
  const { message, diagnostics } = decodeTensorProto(bytes, file);
  if (!message) return { tensor: undefined, diagnostics };
  const tensor = convertTensor(message, { file, diagnostics, external: undefined }, { file, value: message.name });
  return { tensor, diagnostics };
}
