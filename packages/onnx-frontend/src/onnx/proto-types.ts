/**
 * TypeScript views of the ONNX messages as `proto-reader.ts` decodes them (field names of
 * `schema.ts`). Only the fields the frontend reads are listed. int64 fields decode to numbers
 * when exact, otherwise to an object with the two 32-bit halves: {@link Int64} covers both
 * (and protobufjs' `Long`, which tests decode with).
 */

/** An int64 value: a number, or an object with its 32-bit halves (exact). */
export type Int64 = number | { readonly low: number; readonly high: number; readonly unsigned: boolean; toNumber(): number };

/** Converts an int64 value to a number (exact up to 2^53). */
export function int64ToNumber(v: Int64 | null | undefined): number {
  if (v === null || v === undefined) return 0;
  return typeof v === 'number' ? v : v.toNumber();
}

/** A decoded `StringStringEntryProto` (metadata and external-data keys). */
export interface StringStringEntryMsg {
  key: string;
  value: string;
}
/** A decoded `OperatorSetIdProto`. */
export interface OperatorSetIdMsg {
  domain: string;
  version: Int64;
}
/** A decoded `TensorProto.Segment`. */
export interface SegmentMsg {
  begin: Int64;
  end: Int64;
}
/** A decoded `TensorProto`. */
export interface TensorMsg {
  dims: Int64[];
  dataType: number;
  segment?: SegmentMsg | null;
  floatData: number[];
  int32Data: number[];
  stringData: Uint8Array[];
  int64Data: Int64[];
  name: string;
  rawData: Uint8Array;
  externalData: StringStringEntryMsg[];
  dataLocation: number;
  doubleData: number[];
  uint64Data: Int64[];
}
/** A decoded `TensorShapeProto.Dimension`; `value` names the oneof member that is set. */
export interface DimensionMsg {
  dimValue?: Int64;
  dimParam?: string;
  value?: 'dimValue' | 'dimParam';
}
/** A decoded `TensorShapeProto`. */
export interface TensorShapeMsg {
  dim: DimensionMsg[];
}
/** A decoded `TypeProto`; `value` names the oneof member that is set. */
export interface TypeMsg {
  tensorType?: { elemType: number; shape?: TensorShapeMsg | null } | null;
  value?: 'tensorType' | 'sequenceType' | 'mapType' | 'optionalType' | 'sparseTensorType';
}
/** A decoded `ValueInfoProto`. */
export interface ValueInfoMsg {
  name: string;
  type?: TypeMsg | null;
}
/**
 * A decoded `AttributeProto`. `f` and `i` are own properties only when the bytes set them
 * (their defaults live on the prototype), which is how an IR version 1 attribute without
 * `type` is told apart.
 */
export interface AttributeMsg {
  name: string;
  refAttrName: string;
  type: number;
  f: number;
  i: Int64;
  s: Uint8Array;
  t?: TensorMsg | null;
  g?: GraphMsg | null;
  sparseTensor?: unknown;
  tp?: unknown;
  floats: number[];
  ints: Int64[];
  strings: Uint8Array[];
  tensors: TensorMsg[];
  graphs: GraphMsg[];
  sparseTensors: unknown[];
  typeProtos: unknown[];
}
/** A decoded `NodeProto`. */
export interface NodeMsg {
  input: string[];
  output: string[];
  name: string;
  opType: string;
  domain: string;
  attribute: AttributeMsg[];
}
/** A decoded `GraphProto`. */
export interface GraphMsg {
  node: NodeMsg[];
  name: string;
  initializer: TensorMsg[];
  sparseInitializer: { values?: TensorMsg | null }[];
  input: ValueInfoMsg[];
  output: ValueInfoMsg[];
  valueInfo: ValueInfoMsg[];
}
/** A decoded `ModelProto`. */
export interface ModelMsg {
  irVersion: Int64;
  opsetImport: OperatorSetIdMsg[];
  producerName: string;
  producerVersion: string;
  domain: string;
  modelVersion: Int64;
  docString: string;
  graph?: GraphMsg | null;
  metadataProps: StringStringEntryMsg[];
  /** Training information (only counted: the importer ignores it). */
  trainingInfo: unknown[];
  /** Model-local functions (only counted: not supported). */
  functions: unknown[];
}
