/**
 * protobufjs over the package's ONNX schema, for tests only: encoding models (the package
 * decodes with its own reader) and the reference decoder the reader is compared with.
 */
import protobuf from 'protobufjs';
import { onnxSchemaJson } from '@raptor-pim/onnx-frontend';

let root: protobuf.Root | undefined;

/** The resolved protobufjs root of the ONNX schema (built once). */
export function onnxRoot(): protobuf.Root {
  if (!root) {
    root = protobuf.Root.fromJSON(onnxSchemaJson as unknown as protobuf.INamespace);
    root.resolveAll();
  }
  return root;
}

/** A message type of the schema, e.g. `onnxType('ModelProto')`. */
export function onnxType(name: string): protobuf.Type {
  return onnxRoot().lookupType(`onnx.${name}`);
}
