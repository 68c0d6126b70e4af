/**
 * A hand-written reader of the ONNX protobuf messages the frontend uses (protobuf wire format:
 * varints, fixed32/fixed64, length-delimited fields), into the views of `proto-types.ts`.
 *
 * It checks the bytes as it reads them, with the conditions of `checkWireFormat` (tags, wire
 * types per the schema, lengths, UTF-8, nesting), so a model is walked once: the fields it
 * decodes are checked inline, every other field (and the messages it keeps as bytes) by the
 * schema walk of `wire-check.ts`. On the first problem it stops with {@link MalformedWire};
 * the caller then asks `checkWireFormat` which problem it is and where (the message and byte
 * offset of a diagnostic come from one place).
 *
 * It is lazy: fields the importer never reads (doc strings, metadata of values and nodes,
 * quantization annotations, overloads) are skipped, training information and functions are
 * only counted (kept as byte views), and `raw_data`, `bytes` attributes and `string_data` are
 * zero-copy views into the input. Semantics follow protobuf (and protobufjs, which the tests
 * decode with for comparison): the last value of a non-repeated field wins, repeated numeric
 * fields are read packed or not, int64 values are numbers when exact (else {@link Int64Bits}).
 */
import type {
  AttributeMsg,
  DimensionMsg,
  GraphMsg,
  Int64,
  ModelMsg,
  NodeMsg,
  OperatorSetIdMsg,
  SegmentMsg,
  StringStringEntryMsg,
  TensorMsg,
  TensorShapeMsg,
  TypeMsg,
  ValueInfoMsg,
} from './proto-types';
import { MAX_DEPTH, type TypeInfo, WireWalk, topLevel } from './wire-check';

const TWO_32 = 4294967296;

/**
 * An int64/uint64 value that is not exactly representable as a number: its two 32-bit halves
 * (as protobufjs' `Long`), with an exact decimal `toString`.
 */
export class Int64Bits {
  constructor(
    /** Low 32 bits (signed int32 view). */
    readonly low: number,
    /** High 32 bits (signed int32 view). */
    readonly high: number,
    /** Whether the value is read as unsigned (uint64). */
    readonly unsigned: boolean,
  ) {}

  /** The nearest number (exact up to 2^53). */
  toNumber(): number {
    return (this.unsigned ? this.high >>> 0 : this.high) * TWO_32 + (this.low >>> 0);
  }

  /** The exact decimal value. */
  toString(): string {
    const big = (BigInt(this.high >>> 0) << 32n) | BigInt(this.low >>> 0);
    return String(this.unsigned ? big : BigInt.asIntN(64, big));
  }
}

const EMPTY_BYTES = new Uint8Array(0);
const utf8 = new TextDecoder('utf-8');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Node's native UTF-8 decoder of a byte range (`Buffer.prototype.utf8Slice`, which also reads a
 * plain Uint8Array), when the engine has it: one call per string, without the view that
 * `TextDecoder.decode` needs. A model has thousands of short names, and a short `raptor import`
 * runs this code cold, where a JavaScript loop per character costs about three times as much.
 */
const nativeUtf8Slice = (globalThis as { Buffer?: { prototype: { utf8Slice?: (this: Uint8Array, start: number, end: number) => string } } }).Buffer?.prototype.utf8Slice;

/**
 * Thrown by the reader at the first malformed byte (never out of this package's decoding):
 * `checkWireFormat` then names the problem and its offset.
 */
export class MalformedWire extends Error {
  constructor() {
    super('malformed protobuf bytes');
  }
}

/** Schema messages of the fields the reader does not decode itself (checked by the walk). */
const MODEL_INFO = topLevel('ModelProto');
const TENSOR_INFO = topLevel('TensorProto');
const GRAPH_INFO = MODEL_INFO.fields.get(7)!.message!;
const OPSET_INFO = MODEL_INFO.fields.get(8)!.message!;
const ENTRY_INFO = MODEL_INFO.fields.get(14)!.message!;
const NODE_INFO = GRAPH_INFO.fields.get(1)!.message!;
const SPARSE_INFO = GRAPH_INFO.fields.get(15)!.message!;
const VALUE_INFO_INFO = GRAPH_INFO.fields.get(11)!.message!;
const ATTRIBUTE_INFO = NODE_INFO.fields.get(5)!.message!;
const SEGMENT_INFO = TENSOR_INFO.fields.get(3)!.message!;
const TYPE_INFO = VALUE_INFO_INFO.fields.get(2)!.message!;
const TENSOR_TYPE_INFO = TYPE_INFO.fields.get(1)!.message!;
const SHAPE_INFO = TENSOR_TYPE_INFO.fields.get(2)!.message!;
const DIMENSION_INFO = SHAPE_INFO.fields.get(1)!.message!;

/** A checking cursor over the bytes of one message tree. */
class Reader {
  pos = 0;
  /** End of the innermost message being read: no read goes past it. */
  limit: number;
  /** Nesting depth of that message (the top-level message is at 0). */
  depth = 0;
  /** High 32 bits of the last varint read by {@link varint64}. */
  private hi = 0;
  private readonly view: DataView;
  private walker: WireWalk | undefined;

  constructor(readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.limit = buf.length;
  }

  /** Stops reading: the bytes are malformed. */
  fail(): never {
    throw new MalformedWire();
  }

  /** Checks that a varint (at most 10 bytes) starts here and ends before the limit. */
  private checkVarint(): void {
    const buf = this.buf;
    const stop = Math.min(this.limit, this.pos + 10);
    for (let p = this.pos; p < stop; p++) if (buf[p]! < 0x80) return;
    this.fail();
  }

  /** A checked varint as a number (inexact above 2^53, as the wire check reads it). */
  private varintNumber(): number {
    const buf = this.buf;
    const limit = this.limit;
    let pos = this.pos;
    if (pos >= limit) this.fail();
    let b = buf[pos++]!;
    if (b < 0x80) {
      this.pos = pos;
      return b;
    }
    let value = b & 0x7f;
    let mul = 128;
    for (let i = 1; i < 10; i++) {
      if (pos >= limit) this.fail();
      b = buf[pos++]!;
      value += (b & 0x7f) * mul;
      if (b < 0x80) {
        this.pos = pos;
        return value;
      }
      mul *= 128;
    }
    return this.fail();
  }

  /**
   * A field tag, checked: a field number from 1 to 2^29 - 1 and a wire type the reader can
   * meet outside a group (not end-group, not 6 or 7).
   */
  tag(): number {
    const buf = this.buf;
    const pos = this.pos;
    // One- and two-byte tags (field numbers below 2048) are every tag of a usual model.
    if (pos + 1 < this.limit) {
      const b0 = buf[pos]!;
      if (b0 < 0x80) {
        this.pos = pos + 1;
        if (b0 < 8 || (b0 & 7) >= 6 || (b0 & 7) === 4) this.fail();
        return b0;
      }
      const b1 = buf[pos + 1]!;
      if (b1 < 0x80) {
        const tag = (b0 & 0x7f) | (b1 << 7);
        this.pos = pos + 2;
        if (tag < 8 || (tag & 7) >= 6 || (tag & 7) === 4) this.fail();
        return tag;
      }
    }
    const tag = this.varintNumber();
    if (tag < 8 || tag >= 4294967296 || (tag & 7) >= 6 || (tag & 7) === 4) this.fail();
    return tag;
  }

  /** A varint's low 32 bits, unsigned (longer varints are consumed whole). */
  uint32(): number {
    this.checkVarint();
    const buf = this.buf;
    let b = buf[this.pos++]!;
    if (b < 0x80) return b;
    let v = b & 0x7f;
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 7;
    if (b < 0x80) return v;
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 14;
    if (b < 0x80) return v;
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 21;
    if (b < 0x80) return v;
    b = buf[this.pos++]!;
    v |= (b & 0x0f) << 28;
    while (b >= 0x80) b = buf[this.pos++]!;
    return v >>> 0;
  }

  /** An int32 field (the varint's low 32 bits, signed, as protobuf reads it). */
  int32(): number {
    return this.uint32() | 0;
  }

  /** A varint's low 32 bits (returned, signed view) and high 32 bits (in {@link hi}). */
  private varint64(): number {
    this.checkVarint();
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let b = 0;
    let i = 0;
    for (; i < 4; i++) {
      b = buf[this.pos++]!;
      lo |= (b & 0x7f) << (i * 7);
      if (b < 0x80) {
        this.hi = 0;
        return lo;
      }
    }
    b = buf[this.pos++]!;
    lo |= (b & 0x7f) << 28;
    hi = (b & 0x7f) >> 4;
    if (b >= 0x80) {
      for (i = 0; i < 5; i++) {
        b = buf[this.pos++]!;
        hi |= (b & 0x7f) << (i * 7 + 3);
        if (b < 0x80) break;
      }
    }
    this.hi = hi;
    return lo;
  }

  /** An int64 field: a number when exact, else {@link Int64Bits}. */
  int64(): Int64 {
    const lo = this.varint64();
    const hi = this.hi;
    const value = (hi | 0) * TWO_32 + (lo >>> 0);
    return Number.isSafeInteger(value) ? value : new Int64Bits(lo | 0, hi | 0, false);
  }

  /** A uint64 field: a number when exact, else {@link Int64Bits}. */
  uint64(): Int64 {
    const lo = this.varint64();
    const hi = this.hi;
    const value = (hi >>> 0) * TWO_32 + (lo >>> 0);
    return Number.isSafeInteger(value) ? value : new Int64Bits(lo | 0, hi | 0, true);
  }

  float(): number {
    if (this.pos + 4 > this.limit) this.fail();
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  double(): number {
    if (this.pos + 8 > this.limit) this.fail();
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** The end offset of a length-delimited field whose length comes next (checked to fit). */
  end(): number {
    const buf = this.buf;
    const pos = this.pos;
    let len: number;
    if (pos < this.limit && buf[pos]! < 0x80) {
      len = buf[pos]!;
      this.pos = pos + 1;
    } else len = this.varintNumber();
    if (len > this.limit - this.pos) this.fail();
    return this.pos + len;
  }

  /** A length-delimited field's bytes as a view (no copy). */
  bytes(): Uint8Array {
    const end = this.end();
    const start = this.pos;
    this.pos = end;
    if (end === start) return EMPTY_BYTES;
    return this.buf.subarray(start, end);
  }

  /** A string field, checked to be valid UTF-8. */
  string(): string {
    const end = this.end();
    const start = this.pos;
    this.pos = end;
    if (end === start) return '';
    const buf = this.buf;
    let s: string;
    // TextDecoder drops a leading byte order mark (EF BB BF): such strings keep taking it.
    if (nativeUtf8Slice !== undefined && buf[start] !== 0xef) s = nativeUtf8Slice.call(buf, start, end);
    else s = utf8.decode(buf.subarray(start, end));
    // Invalid UTF-8 decodes to U+FFFD; so does a valid encoded U+FFFD: only then look closer.
    if (s.indexOf('\ufffd') >= 0) {
      try {
        strictUtf8.decode(buf.subarray(start, end));
      } catch {
        this.fail();
      }
    }
    return s;
  }

  /**
   * Reads the message whose length comes next with `read`, within its bounds and one level
   * deeper.
   */
  message<T>(read: (r: Reader, end: number) => T): T {
    const end = this.end();
    if (this.depth >= MAX_DEPTH) this.fail();
    const limit = this.limit;
    this.limit = end;
    this.depth++;
    const m = read(this, end);
    this.depth--;
    this.limit = limit;
    return m;
  }

  /**
   * Checks and skips the value of a field the reader does not decode, after its tag `tag`, in
   * a message of schema type `info`: unknown fields, known fields with another wire type, and
   * fields the importer never reads (nested messages are checked whole).
   */
  skip(info: TypeInfo, tag: number): void {
    const walk = (this.walker ??= new WireWalk(this.buf));
    walk.pos = this.pos;
    if (!walk.field(info, this.pos, tag >>> 3, tag & 7, this.limit, this.depth)) this.fail();
    this.pos = walk.pos;
  }

  /** The bytes of a message field the reader keeps undecoded, checked as schema type `info` wants. */
  checkedBytes(info: TypeInfo, tag: number): Uint8Array {
    const at = this.pos;
    this.skip(info, tag);
    this.pos = at;
    return this.bytes();
  }

  /** Elements of a repeated numeric field, packed (`wt` 2) or one element. */
  repeated<T>(out: T[], wt: number, read: (r: Reader) => T): void {
    if (wt !== 2) {
      out.push(read(this));
      return;
    }
    const end = this.end();
    const limit = this.limit;
    this.limit = end;
    while (this.pos < end) out.push(read(this));
    this.limit = limit;
  }

  /** Elements of a packed repeated fixed-size field: the length must be a multiple of `size`. */
  packedFixed<T>(out: T[], size: number, read: (r: Reader) => T): void {
    const end = this.end();
    if ((end - this.pos) % size !== 0) this.fail();
    while (this.pos < end) out.push(read(this));
  }
}

const readFloat = (r: Reader): number => r.float();
const readDouble = (r: Reader): number => r.double();
const readInt32 = (r: Reader): number => r.int32();
const readInt64 = (r: Reader): Int64 => r.int64();
const readUint64 = (r: Reader): Int64 => r.uint64();

// Each reader below switches on whole tags (field number and wire type): a known field with
// another wire type, like every field it does not decode, goes to `r.skip`, which checks it
// against the schema (and fails on a wire type the schema does not allow).

function readStringEntry(r: Reader, end: number): StringStringEntryMsg {
  const m: StringStringEntryMsg = { key: '', value: '' };
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x0a: m.key = r.string(); break;
      case 0x12: m.value = r.string(); break;
      default: r.skip(ENTRY_INFO, tag);
    }
  }
  return m;
}

function readSegment(r: Reader, end: number): SegmentMsg {
  const m: SegmentMsg = { begin: 0, end: 0 };
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x08: m.begin = r.int64(); break;
      case 0x10: m.end = r.int64(); break;
      default: r.skip(SEGMENT_INFO, tag);
    }
  }
  return m;
}

function readTensor(r: Reader, end: number): TensorMsg {
  const m: TensorMsg = {
    dims: [],
    dataType: 0,
    segment: null,
    floatData: [],
    int32Data: [],
    stringData: [],
    int64Data: [],
    name: '',
    rawData: EMPTY_BYTES,
    externalData: [],
    dataLocation: 0,
    doubleData: [],
    uint64Data: [],
  };
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x08: case 0x0a: r.repeated(m.dims, tag & 7, readInt64); break;
      case 0x10: m.dataType = r.int32(); break;
      case 0x1a: m.segment = r.message(readSegment); break;
      case 0x25: m.floatData.push(r.float()); break;
      case 0x22: r.packedFixed(m.floatData, 4, readFloat); break;
      case 0x28: case 0x2a: r.repeated(m.int32Data, tag & 7, readInt32); break;
      case 0x32: m.stringData.push(r.bytes()); break;
      case 0x38: case 0x3a: r.repeated(m.int64Data, tag & 7, readInt64); break;
      case 0x42: m.name = r.string(); break;
      case 0x4a: m.rawData = r.bytes(); break;
      case 0x51: m.doubleData.push(r.double()); break;
      case 0x52: r.packedFixed(m.doubleData, 8, readDouble); break;
      case 0x58: case 0x5a: r.repeated(m.uint64Data, tag & 7, readUint64); break;
      case 0x6a: m.externalData.push(r.message(readStringEntry)); break;
      case 0x70: m.dataLocation = r.int32(); break;
      default: r.skip(TENSOR_INFO, tag);
    }
  }
  return m;
}

function readDimension(r: Reader, end: number): DimensionMsg {
  const m: DimensionMsg = {};
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x08:
        // Of two members of a oneof, the one set first most recently counts (as protobufjs).
        if (m.dimValue === undefined) m.value = 'dimValue';
        m.dimValue = r.int64();
        break;
      case 0x12:
        if (m.dimParam === undefined) m.value = 'dimParam';
        m.dimParam = r.string();
        break;
      default: r.skip(DIMENSION_INFO, tag);
    }
  }
  return m;
}

function readShape(r: Reader, end: number): TensorShapeMsg {
  const m: TensorShapeMsg = { dim: [] };
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === 0x0a) m.dim.push(r.message(readDimension));
    else r.skip(SHAPE_INFO, tag);
  }
  return m;
}

function readTensorType(r: Reader, end: number): NonNullable<TypeMsg['tensorType']> {
  const m: NonNullable<TypeMsg['tensorType']> = { elemType: 0, shape: null };
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x08: m.elemType = r.int32(); break;
      case 0x12: m.shape = r.message(readShape); break;
      default: r.skip(TENSOR_TYPE_INFO, tag);
    }
  }
  return m;
}

/** The oneof members of TypeProto by field number (the non-tensor ones are only named). */
const TYPE_MEMBERS: Readonly<Record<number, NonNullable<TypeMsg['value']>>> = { 1: 'tensorType', 4: 'sequenceType', 5: 'mapType', 8: 'sparseTensorType', 9: 'optionalType' };

function readType(r: Reader, end: number): TypeMsg {
  const m: TypeMsg = {};
  let seen = 0;
  while (r.pos < end) {
    const tag = r.tag();
    const id = tag >>> 3;
    const member = (tag & 7) === 2 ? TYPE_MEMBERS[id] : undefined;
    if (!member) {
      r.skip(TYPE_INFO, tag);
      continue;
    }
    if ((seen & (1 << id)) === 0) {
      seen |= 1 << id;
      m.value = member;
    }
    if (id === 1) m.tensorType = r.message(readTensorType);
    else r.skip(TYPE_INFO, tag);
  }
  return m;
}

function readValueInfo(r: Reader, end: number): ValueInfoMsg {
  const m: ValueInfoMsg = { name: '', type: null };
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x0a: m.name = r.string(); break;
      case 0x12: m.type = r.message(readType); break;
      default: r.skip(VALUE_INFO_INFO, tag);
    }
  }
  return m;
}

/**
 * Defaults of an attribute's scalars. `i` and `f` become own properties only when the bytes
 * set them (as protobufjs keeps defaults on the prototype): IR version 1 files have no `type`,
 * and which field is present says what the attribute is.
 */
const ATTRIBUTE_DEFAULTS = { name: '', refAttrName: '', type: 0, f: 0, i: 0, s: EMPTY_BYTES, t: null, g: null };

function readAttribute(r: Reader, end: number): AttributeMsg {
  const m = Object.create(ATTRIBUTE_DEFAULTS) as AttributeMsg;
  m.floats = [];
  m.ints = [];
  m.strings = [];
  m.tensors = [];
  m.graphs = [];
  m.sparseTensors = [];
  m.typeProtos = [];
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x0a: m.name = r.string(); break;
      case 0x15: m.f = r.float(); break;
      case 0x18: m.i = r.int64(); break;
      case 0x22: m.s = r.bytes(); break;
      case 0x2a: m.t = r.message(readTensor); break;
      case 0x32: m.g = r.message(readGraph); break;
      case 0x3d: m.floats.push(r.float()); break;
      case 0x3a: r.packedFixed(m.floats, 4, readFloat); break;
      case 0x40: case 0x42: r.repeated(m.ints, tag & 7, readInt64); break;
      case 0x4a: m.strings.push(r.bytes()); break;
      case 0x52: m.tensors.push(r.message(readTensor)); break;
      case 0x5a: m.graphs.push(r.message(readGraph)); break;
      case 0x72: m.tp = r.checkedBytes(ATTRIBUTE_INFO, tag); break;
      case 0x7a: m.typeProtos.push(r.checkedBytes(ATTRIBUTE_INFO, tag)); break;
      case 0xa0: m.type = r.int32(); break;
      case 0xaa: m.refAttrName = r.string(); break;
      case 0xb2: m.sparseTensor = r.checkedBytes(ATTRIBUTE_INFO, tag); break;
      case 0xba: m.sparseTensors.push(r.checkedBytes(ATTRIBUTE_INFO, tag)); break;
      default: r.skip(ATTRIBUTE_INFO, tag);
    }
  }
  return m;
}

function readNode(r: Reader, end: number): NodeMsg {
  const m: NodeMsg = { input: [], output: [], name: '', opType: '', domain: '', attribute: [] };
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x0a: m.input.push(r.string()); break;
      case 0x12: m.output.push(r.string()); break;
      case 0x1a: m.name = r.string(); break;
      case 0x22: m.opType = r.string(); break;
      case 0x2a: m.attribute.push(r.message(readAttribute)); break;
      case 0x3a: m.domain = r.string(); break;
      default: r.skip(NODE_INFO, tag);
    }
  }
  return m;
}

/** A SparseTensorProto: only its values tensor is read (sparse initializers are reported). */
function readSparseTensor(r: Reader, end: number): { values?: TensorMsg | null } {
  const m: { values?: TensorMsg | null } = { values: null };
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === 0x0a) m.values = r.message(readTensor);
    else r.skip(SPARSE_INFO, tag);
  }
  return m;
}

function readGraph(r: Reader, end: number): GraphMsg {
  const m: GraphMsg = { node: [], name: '', initializer: [], sparseInitializer: [], input: [], output: [], valueInfo: [] };
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x0a: m.node.push(r.message(readNode)); break;
      case 0x12: m.name = r.string(); break;
      case 0x2a: m.initializer.push(r.message(readTensor)); break;
      case 0x5a: m.input.push(r.message(readValueInfo)); break;
      case 0x62: m.output.push(r.message(readValueInfo)); break;
      case 0x6a: m.valueInfo.push(r.message(readValueInfo)); break;
      case 0x7a: m.sparseInitializer.push(r.message(readSparseTensor)); break;
      default: r.skip(GRAPH_INFO, tag);
    }
  }
  return m;
}

function readOpset(r: Reader, end: number): OperatorSetIdMsg {
  const m: OperatorSetIdMsg = { domain: '', version: 0 };
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x0a: m.domain = r.string(); break;
      case 0x10: m.version = r.int64(); break;
      default: r.skip(OPSET_INFO, tag);
    }
  }
  return m;
}

/**
 * Reads and checks a ModelProto; throws {@link MalformedWire} at the first problem (then
 * `checkWireFormat(bytes, 'ModelProto')` names it).
 */
export function readModelProto(bytes: Uint8Array): ModelMsg {
  const r = new Reader(bytes);
  const m: ModelMsg = {
    irVersion: 0,
    opsetImport: [],
    producerName: '',
    producerVersion: '',
    domain: '',
    modelVersion: 0,
    docString: '',
    graph: null,
    metadataProps: [],
    trainingInfo: [],
    functions: [],
  };
  const end = bytes.length;
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case 0x08: m.irVersion = r.int64(); break;
      case 0x12: m.producerName = r.string(); break;
      case 0x1a: m.producerVersion = r.string(); break;
      case 0x22: m.domain = r.string(); break;
      case 0x28: m.modelVersion = r.int64(); break;
      case 0x32: m.docString = r.string(); break;
      case 0x3a: m.graph = r.message(readGraph); break;
      case 0x42: m.opsetImport.push(r.message(readOpset)); break;
      case 0x72: m.metadataProps.push(r.message(readStringEntry)); break;
      case 0xa2: // field 20, training_info (kept as bytes: only counted)
        m.trainingInfo.push(r.checkedBytes(MODEL_INFO, tag));
        break;
      case 0xca: // field 25, functions (kept as bytes: only counted)
        m.functions.push(r.checkedBytes(MODEL_INFO, tag));
        break;
      default: r.skip(MODEL_INFO, tag);
    }
  }
  return m;
}

/**
 * Reads and checks a TensorProto; throws {@link MalformedWire} at the first problem (then
 * `checkWireFormat(bytes, 'TensorProto')` names it).
 */
export function readTensorProtoMessage(bytes: Uint8Array): TensorMsg {
  return readTensor(new Reader(bytes), bytes.length);
}
