/**
 * Test support: a tiny hand-written protobuf encoder that emits one-node ONNX models
 * (ModelProto, ir_version 8, default-domain opset 17 unless told otherwise) for feeding
 * onnxruntime-node in differential tests. Field numbers follow onnx.proto.
 */

/** Protobuf wire types. */
const VARINT = 0;
const FIXED32 = 5;
const LENGTH_DELIMITED = 2;

/** Growable byte buffer with protobuf primitive writers. */
class ProtoWriter {
  private bytes: number[] = [];

  tag(field: number, wireType: number): this {
    return this.varint(field * 8 + wireType);
  }

  /** Writes a non-negative integer (< 2^53) or a negative int64 as a 10-byte two's complement varint. */
  varint(value: number): this {
    if (value < 0) {
      let v = BigInt.asUintN(64, BigInt(value));
      while (v >= 0x80n) {
        this.bytes.push(Number(v & 0x7fn) | 0x80);
        v >>= 7n;
      }
      this.bytes.push(Number(v));
      return this;
    }
    let v = value;
    while (v >= 0x80) {
      this.bytes.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.bytes.push(v);
    return this;
  }

  intField(field: number, value: number): this {
    return this.tag(field, VARINT).varint(value);
  }

  floatField(field: number, value: number): this {
    this.tag(field, FIXED32);
    const buf = new DataView(new ArrayBuffer(4));
    buf.setFloat32(0, value, true);
    for (let i = 0; i < 4; i++) this.bytes.push(buf.getUint8(i));
    return this;
  }

  bytesField(field: number, data: Uint8Array): this {
    this.tag(field, LENGTH_DELIMITED).varint(data.length);
    for (let i = 0; i < data.length; i++) this.bytes.push(data[i]!);
    return this;
  }

  stringField(field: number, value: string): this {
    return this.bytesField(field, new TextEncoder().encode(value));
  }

  messageField(field: number, message: ProtoWriter): this {
    return this.bytesField(field, message.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** An attribute value: number -> INT (when integral and `float` is not requested), etc. */
export type OnnxAttributeValue =
  | { readonly int: number }
  | { readonly float: number }
  | { readonly ints: readonly number[] }
  | { readonly floats: readonly number[] }
  | { readonly string: string };

/** A graph input or output: a float tensor of static shape. */
export interface OnnxValueInfo {
  readonly name: string;
  readonly shape: readonly number[];
}

/** A constant initializer: float (f32) or int64 data. */
export interface OnnxInitializer {
  readonly name: string;
  readonly shape: readonly number[];
  readonly float?: readonly number[] | Float32Array;
  readonly int64?: readonly number[];
}

/** A one-node model description. */
export interface OnnxSingleNodeModel {
  readonly opType: string;
  /** Node input names in order; "" marks an omitted optional input. */
  readonly nodeInputs: readonly string[];
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  readonly attributes?: Readonly<Record<string, OnnxAttributeValue>>;
  readonly initializers?: readonly OnnxInitializer[];
  /** Default-domain opset version (default 17). */
  readonly opset?: number;
}

// onnx.proto enums.
const ATTR_FLOAT = 1;
const ATTR_INT = 2;
const ATTR_STRING = 3;
const ATTR_FLOATS = 6;
const ATTR_INTS = 7;
const TENSOR_FLOAT = 1;
const TENSOR_INT64 = 7;

function attributeProto(name: string, value: OnnxAttributeValue): ProtoWriter {
  const w = new ProtoWriter().stringField(1, name); // AttributeProto.name = 1
  if ('int' in value) w.intField(3, value.int).intField(20, ATTR_INT); // i = 3, type = 20
  else if ('float' in value) w.floatField(2, value.float).intField(20, ATTR_FLOAT); // f = 2
  else if ('ints' in value) {
    for (const v of value.ints) w.intField(8, v); // ints = 8
    w.intField(20, ATTR_INTS);
  } else if ('floats' in value) {
    for (const v of value.floats) w.floatField(7, v); // floats = 7
    w.intField(20, ATTR_FLOATS);
  } else w.stringField(4, value.string).intField(20, ATTR_STRING); // s = 4
  return w;
}

function valueInfoProto(info: OnnxValueInfo): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of info.shape) shape.messageField(1, new ProtoWriter().intField(1, d)); // dim = 1 { dim_value = 1 }
  const tensorType = new ProtoWriter().intField(1, TENSOR_FLOAT).messageField(2, shape); // elem_type = 1, shape = 2
  const type = new ProtoWriter().messageField(1, tensorType); // TypeProto.tensor_type = 1
  return new ProtoWriter().stringField(1, info.name).messageField(2, type); // name = 1, type = 2
}

function tensorProto(init: OnnxInitializer): ProtoWriter {
  const w = new ProtoWriter();
  for (const d of init.shape) w.intField(1, d); // dims = 1
  let raw: Uint8Array;
  if (init.int64 !== undefined) {
    w.intField(2, TENSOR_INT64); // data_type = 2
    const view = new DataView(new ArrayBuffer(8 * init.int64.length));
    init.int64.forEach((v, i) => view.setBigInt64(8 * i, BigInt(v), true));
    raw = new Uint8Array(view.buffer);
  } else {
    w.intField(2, TENSOR_FLOAT);
    const values = Float32Array.from(init.float ?? []);
    const view = new DataView(new ArrayBuffer(4 * values.length));
    values.forEach((v, i) => view.setFloat32(4 * i, v, true));
    raw = new Uint8Array(view.buffer);
  }
  w.stringField(8, init.name); // name = 8
  w.bytesField(9, raw); // raw_data = 9
  return w;
}

/**
 * Encodes a one-node ONNX model as protobuf bytes, ready for
 * `ort.InferenceSession.create(bytes)`.
 */
export function buildSingleNodeModel(model: OnnxSingleNodeModel): Uint8Array {
  const node = new ProtoWriter();
  for (const name of model.nodeInputs) node.stringField(1, name); // input = 1
  for (const out of model.outputs) node.stringField(2, out.name); // output = 2
  node.stringField(3, `${model.opType.toLowerCase()}_0`); // name = 3
  node.stringField(4, model.opType); // op_type = 4
  for (const [name, value] of Object.entries(model.attributes ?? {})) node.messageField(5, attributeProto(name, value)); // attribute = 5

  const graph = new ProtoWriter().messageField(1, node).stringField(2, 'kernel_test'); // node = 1, name = 2
  for (const init of model.initializers ?? []) graph.messageField(5, tensorProto(init)); // initializer = 5
  for (const input of model.inputs) graph.messageField(11, valueInfoProto(input)); // input = 11
  for (const output of model.outputs) graph.messageField(12, valueInfoProto(output)); // output = 12

  const opset = new ProtoWriter().stringField(1, '').intField(2, model.opset ?? 17); // domain = 1, version = 2
  return new ProtoWriter()
    .intField(1, 8) // ir_version = 1
    .stringField(2, 'raptor-ts-kernel-tests') // producer_name = 2
    .messageField(7, graph) // graph = 7
    .messageField(8, opset) // opset_import = 8
    .finish();
}
