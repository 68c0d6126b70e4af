/**
 * The typed, validated in-memory ONNX model the frontend works on: what `readOnnxModel`
 * returns and what the Spatial lowering will consume.
 */
import type { OnnxDataTypeCode, OnnxTensorData } from './dtypes';

/** A dimension of a declared shape: a size, a symbolic name (`dim_param`), or unknown (`null`). */
export type OnnxDim = number | string | null;

/** A tensor with its elements in a typed array (C order). */
export interface OnnxTensor {
  readonly name: string;
  readonly dataType: OnnxDataTypeCode;
  readonly dims: readonly number[];
  readonly data: OnnxTensorData;
}

/** A graph input, output or value_info entry: a name with a tensor type. */
export interface OnnxValueInfo {
  readonly name: string;
  readonly elemType: OnnxDataTypeCode;
  /** The declared shape, or undefined when the file declares no shape (unknown rank). */
  readonly shape: readonly OnnxDim[] | undefined;
}

/** The value of each attribute kind. */
export interface OnnxAttributeValues {
  float: number;
  int: number;
  string: string;
  tensor: OnnxTensor;
  graph: OnnxGraph;
  floats: readonly number[];
  ints: readonly number[];
  strings: readonly string[];
  tensors: readonly OnnxTensor[];
  graphs: readonly OnnxGraph[];
}

/** The kinds of {@link OnnxAttribute}. */
export type OnnxAttributeKind = keyof OnnxAttributeValues;

/** A node attribute, typed by kind (`{ kind: 'ints', value: [1, 1] }`). */
export type OnnxAttribute = { [K in OnnxAttributeKind]: { readonly kind: K; readonly value: OnnxAttributeValues[K] } }[OnnxAttributeKind];

/** One node. Empty strings in `inputs` mark omitted optional inputs, as in ONNX. */
export interface OnnxNode {
  /** The node's name (possibly empty in the file). */
  readonly name: string;
  /** Index in the graph's node list as stored in the file. */
  readonly index: number;
  readonly opType: string;
  /** The operator domain; `''` for ai.onnx. */
  readonly domain: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attributes: ReadonlyMap<string, OnnxAttribute>;
}

/** A graph: nodes in topological order, initializers, and true (non-initializer) inputs. */
export interface OnnxGraph {
  readonly name: string;
  /** Nodes in a topological order (stable: file order when the file is already sorted). */
  readonly nodes: readonly OnnxNode[];
  readonly initializers: ReadonlyMap<string, OnnxTensor>;
  /** Graph inputs that are not initializers (the model's runtime inputs). */
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  /** Declared types of intermediate values (`value_info`), by name. */
  readonly valueInfo: ReadonlyMap<string, OnnxValueInfo>;
}

/** A whole model. */
export interface OnnxModel {
  /** The file name the model was read from (for diagnostics). */
  readonly file: string;
  readonly irVersion: number;
  /** Imported opset versions by domain; ai.onnx is stored under `''`. */
  readonly opsets: ReadonlyMap<string, number>;
  readonly producerName: string;
  readonly producerVersion: string;
  readonly modelVersion: number;
  readonly docString: string;
  readonly metadata: ReadonlyMap<string, string>;
  readonly graph: OnnxGraph;
}

/** Returns an attribute if present with the given kind, else undefined. */
export function getAttribute<K extends OnnxAttributeKind>(node: OnnxNode, name: string, kind: K): OnnxAttributeValues[K] | undefined {
  const a = node.attributes.get(name);
  if (!a || a.kind !== kind) return undefined;
  return a.value as OnnxAttributeValues[K];
}
