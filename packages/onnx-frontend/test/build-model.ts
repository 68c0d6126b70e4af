/** Helpers that encode small ONNX models with the frontend's own schema (for tests). */
import { onnxType } from './support/protobufjs-onnx';

type Obj = Record<string, unknown>;

/** A float tensor initializer stored in raw_data (or with raw bytes given explicitly). */
export function floatTensor(name: string, dims: number[], values?: number[], raw?: Uint8Array): Obj {
  if (raw) return { name, dims, dataType: 1, rawData: raw };
  const count = dims.reduce((a, b) => a * b, 1);
  const data = new Float32Array(values ?? new Array<number>(count).fill(0.5));
  return { name, dims, dataType: 1, rawData: new Uint8Array(data.buffer) };
}

/** An int64 tensor in int64_data. */
export function int64Tensor(name: string, values: number[], dims = [values.length]): Obj {
  return { name, dims, dataType: 7, int64Data: values };
}

/** A float tensor value_info with the given dims (numbers or dim_param names). */
export function valueInfo(name: string, dims: (number | string)[] | undefined, elemType = 1): Obj {
  const shape = dims && { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) };
  return { name, type: { tensorType: shape ? { elemType, shape } : { elemType } } };
}

/** Marks a FLOATS attribute value for {@link node} (plain arrays encode as INTS). */
export class FloatList {
  constructor(readonly values: number[]) {}
}

/** A node; attributes as {name: value} with ints/floats/strings inferred. */
export function node(opType: string, inputs: string[], outputs: string[], attrs: Record<string, unknown> = {}, name = ''): Obj {
  const attribute = Object.entries(attrs).map(([k, v]) => {
    if (typeof v === 'number') return Number.isInteger(v) ? { name: k, type: 2, i: v } : { name: k, type: 1, f: v };
    if (typeof v === 'string') return { name: k, type: 3, s: new TextEncoder().encode(v) };
    if (Array.isArray(v)) return { name: k, type: 7, ints: v };
    if (v instanceof FloatList) return { name: k, type: 6, floats: v.values };
    return { name: k, type: 4, t: v };
  });
  return { opType, input: inputs, output: outputs, attribute, name: name || `${opType.toLowerCase()}_${outputs[0]}` };
}

/** Options of {@link encodeModel}. */
export interface ModelSpec {
  nodes: Obj[];
  inputs: Obj[];
  outputs: Obj[];
  initializers?: Obj[];
  valueInfo?: Obj[];
  opset?: number;
  irVersion?: number;
  opsets?: { domain: string; version: number }[];
}

/** The decoded-object form of a model (for tests that tweak fields before encoding). */
export function modelObject(spec: ModelSpec): Obj {
  return {
    irVersion: spec.irVersion ?? 8,
    producerName: 'raptor-test',
    opsetImport: spec.opsets ?? [{ domain: '', version: spec.opset ?? 13 }],
    graph: { name: 'g', node: spec.nodes, input: spec.inputs, output: spec.outputs, initializer: spec.initializers ?? [], valueInfo: spec.valueInfo ?? [] },
  };
}

/** Encodes a model object to ONNX bytes. */
export function encode(obj: Obj, typeName = 'ModelProto'): Uint8Array {
  const type = onnxType(typeName);
  return type.encode(type.fromObject(obj)).finish();
}

/** Encodes a model spec to ONNX bytes. */
export function encodeModel(spec: ModelSpec): Uint8Array {
  return encode(modelObject(spec));
}

/** A small valid model: Conv(x, w) -> Relu -> y with x: [N,3,8,8] (N symbolic). */
export function convReluSpec(): ModelSpec {
  return {
    nodes: [node('Conv', ['x', 'w'], ['c'], { pads: [1, 1, 1, 1] }, 'conv0'), node('Relu', ['c'], ['y'], {}, 'relu0')],
    inputs: [valueInfo('x', ['N', 3, 8, 8])],
    outputs: [valueInfo('y', undefined)],
    initializers: [floatTensor('w', [4, 3, 3, 3])],
  };
}
