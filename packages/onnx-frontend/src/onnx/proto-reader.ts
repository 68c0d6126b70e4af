/**
 * A hand-written reader of the ONNX protobuf messages the frontend uses (protobuf wire format:
 * varints, fixed32/fixed64, length-delimited fields), into the views of `proto-types.ts`.
 *
 * It runs after `checkWireFormat` accepted the bytes (tags, wire types, lengths, UTF-8 and
 * nesting are valid), so it reads without re-checking. It is lazy: fields the importer never
 * reads (doc strings, metadata of values and nodes, quantization annotations, overloads) are
 * skipped, training information and functions are only counted (kept as byte views), and
 * `raw_data`, `bytes` attributes and `string_data` are zero-copy views into the input.
 * Semantics follow protobuf (and protobufjs, which the tests decode with for comparison): the
 * last value of a non-repeated field wins, repeated numeric fields are read packed or not,
 * int64 values are numbers when exact (else {@link Int64Bits}).
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

/**
 * Node's native UTF-8 decoder of a byte range (`Buffer.prototype.utf8Slice`, which also reads a
 * plain Uint8Array), when the engine has it: one call per string, without the view that
 * `TextDecoder.decode` needs. A model has thousands of short names, and a short `raptor import`
 * runs this code cold, where a JavaScript loop per character costs about three times as much.
 */
const nativeUtf8Slice = (globalThis as { Buffer?: { prototype: { utf8Slice?: (this: Uint8Array, start: number, end: number) => string } } }).Buffer?.prototype.utf8Slice;

/** A cursor over the bytes of one message tree. */
class Reader {
  pos = 0;
  /** High 32 bits of the last varint read by {@link varint64}. */
  private hi = 0;
  private readonly view: DataView;

  constructor(readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** A varint's low 32 bits, unsigned (tags, lengths, uint32; longer varints are consumed whole). */
  uint32(): number {
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
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  double(): number {
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** A length-delimited field's bytes as a view (no copy). */
  bytes(): Uint8Array {
    const len = this.uint32();
    if (len === 0) return EMPTY_BYTES;
    const start = this.pos;
    this.pos = start + len;
    return this.buf.subarray(start, start + len);
  }

  /** A string field (the checker has validated its UTF-8). */
  string(): string {
    const len = this.uint32();
    const start = this.pos;
    const end = start + len;
    this.pos = end;
    if (len === 0) return '';
    const buf = this.buf;
    // TextDecoder drops a leading byte order mark (EF BB BF): such strings keep taking it.
    if (nativeUtf8Slice !== undefined && buf[start] !== 0xef) return nativeUtf8Slice.call(buf, start, end);
    if (len <= 64) {
      let s = '';
      for (let i = start; i < end; i++) {
        const c = buf[i]!;
        if (c >= 0x80) return utf8.decode(buf.subarray(start, end));
        s += String.fromCharCode(c);
      }
      return s;
    }
    return utf8.decode(buf.subarray(start, end));
  }

  /** The end offset of a length-delimited field whose length comes next. */
  end(): number {
    const len = this.uint32();
    return this.pos + len;
  }

  /** Skips a field value of wire type `wt` (field `id`, for groups). */
  skip(wt: number, id: number): void {
    switch (wt) {
      case 0:
        while (this.buf[this.pos++]! >= 0x80);
        return;
      case 1:
        this.pos += 8;
        return;
      case 2:
        this.pos = this.end();
        return;
      case 5:
        this.pos += 4;
        return;
      case 3:
        for (;;) {
          const tag = this.uint32();
          const w = tag & 7;
          if (w === 4) {
            if (tag >>> 3 === id) return;
            throw new Error('internal: unbalanced group after the wire check');
          }
          this.skip(w, tag >>> 3);
        }
      default:
        throw new Error(`internal: wire type ${wt} after the wire check`);
    }
  }

  /** Elements of a repeated numeric field: one (unpacked, `wt` its element type) or packed. */
  repeated<T>(out: T[], wt: number, read: (r: Reader) => T): void {
    if (wt !== 2) {
      out.push(read(this));
      return;
    }
    const end = this.end();
    while (this.pos < end) out.push(read(this));
  }
}

const readFloat = (r: Reader): number => r.float();
const readDouble = (r: Reader): number => r.double();
const readInt32 = (r: Reader): number => r.int32();
const readInt64 = (r: Reader): Int64 => r.int64();
const readUint64 = (r: Reader): Int64 => r.uint64();

function readStringEntry(r: Reader, end: number): StringStringEntryMsg {
  const m: StringStringEntryMsg = { key: '', value: '' };
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case 0x0a: m.key = r.string(); break;
      case 0x12: m.value = r.string(); break;
      default: r.skip(tag & 7, tag >>> 3);
    }
  }
  return m;
}

function readSegment(r: Reader, end: number): SegmentMsg {
  const m: SegmentMsg = { begin: 0, end: 0 };
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case 0x08: m.begin = r.int64(); break;
      case 0x10: m.end = r.int64(); break;
      default: r.skip(tag & 7, tag >>> 3);
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
    const tag = r.uint32();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1: r.repeated(m.dims, wt, readInt64); break;
      case 2: m.dataType = r.int32(); break;
      case 3: m.segment = readSegment(r, r.end()); break;
      case 4: r.repeated(m.floatData, wt, readFloat); break;
      case 5: r.repeated(m.int32Data, wt, readInt32); break;
      case 6: m.stringData.push(r.bytes()); break;
      case 7: r.repeated(m.int64Data, wt, readInt64); break;
      case 8: m.name = r.string(); break;
      case 9: m.rawData = r.bytes(); break;
      case 10: r.repeated(m.doubleData, wt, readDouble); break;
      case 11: r.repeated(m.uint64Data, wt, readUint64); break;
      case 13: m.externalData.push(readStringEntry(r, r.end())); break;
      case 14: m.dataLocation = r.int32(); break;
      default: r.skip(wt, tag >>> 3);
    }
  }
  return m;
}

function readDimension(r: Reader, end: number): DimensionMsg {
  const m: DimensionMsg = {};
  while (r.pos < end) {
    const tag = r.uint32();
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
      default: r.skip(tag & 7, tag >>> 3);
    }
  }
  return m;
}

function readShape(r: Reader, end: number): TensorShapeMsg {
  const m: TensorShapeMsg = { dim: [] };
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === 0x0a) m.dim.push(readDimension(r, r.end()));
    else r.skip(tag & 7, tag >>> 3);
  }
  return m;
}

function readTensorType(r: Reader, end: number): NonNullable<TypeMsg['tensorType']> {
  const m: NonNullable<TypeMsg['tensorType']> = { elemType: 0, shape: null };
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case 0x08: m.elemType = r.int32(); break;
      case 0x12: m.shape = readShape(r, r.end()); break;
      default: r.skip(tag & 7, tag >>> 3);
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
    const tag = r.uint32();
    const id = tag >>> 3;
    const member = (tag & 7) === 2 ? TYPE_MEMBERS[id] : undefined;
    if (!member) {
      r.skip(tag & 7, id);
      continue;
    }
    if ((seen & (1 << id)) === 0) {
      seen |= 1 << id;
      m.value = member;
    }
    if (id === 1) m.tensorType = readTensorType(r, r.end());
    else r.skip(2, id);
  }
  return m;
}

function readValueInfo(r: Reader, end: number): ValueInfoMsg {
  const m: ValueInfoMsg = { name: '', type: null };
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case 0x0a: m.name = r.string(); break;
      case 0x12: m.type = readType(r, r.end()); break;
      default: r.skip(tag & 7, tag >>> 3);
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
    const tag = r.uint32();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1: m.name = r.string(); break;
      case 2: m.f = r.float(); break;
      case 3: m.i = r.int64(); break;
      case 4: m.s = r.bytes(); break;
      case 5: m.t = readTensor(r, r.end()); break;
      case 6: m.g = readGraph(r, r.end()); break;
      case 7: r.repeated(m.floats, wt, readFloat); break;
      case 8: r.repeated(m.ints, wt, readInt64); break;
      case 9: m.strings.push(r.bytes()); break;
      case 10: m.tensors.push(readTensor(r, r.end())); break;
      case 11: m.graphs.push(readGraph(r, r.end())); break;
      case 14: m.tp = r.bytes(); break;
      case 15: m.typeProtos.push(r.bytes()); break;
      case 20: m.type = r.int32(); break;
      case 21: m.refAttrName = r.string(); break;
      case 22: m.sparseTensor = r.bytes(); break;
      case 23: m.sparseTensors.push(r.bytes()); break;
      default: r.skip(wt, tag >>> 3);
    }
  }
  return m;
}

function readNode(r: Reader, end: number): NodeMsg {
  const m: NodeMsg = { input: [], output: [], name: '', opType: '', domain: '', attribute: [] };
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case 0x0a: m.input.push(r.string()); break;
      case 0x12: m.output.push(r.string()); break;
      case 0x1a: m.name = r.string(); break;
      case 0x22: m.opType = r.string(); break;
      case 0x2a: m.attribute.push(readAttribute(r, r.end())); break;
      case 0x3a: m.domain = r.string(); break;
      default: r.skip(tag & 7, tag >>> 3);
    }
  }
  return m;
}

/** A SparseTensorProto: only its values tensor is read (sparse initializers are reported). */
function readSparseTensor(r: Reader, end: number): { values?: TensorMsg | null } {
  const m: { values?: TensorMsg | null } = { values: null };
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === 0x0a) m.values = readTensor(r, r.end());
    else r.skip(tag & 7, tag >>> 3);
  }
  return m;
}

function readGraph(r: Reader, end: number): GraphMsg {
  const m: GraphMsg = { node: [], name: '', initializer: [], sparseInitializer: [], input: [], output: [], valueInfo: [] };
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case 0x0a: m.node.push(readNode(r, r.end())); break;
      case 0x12: m.name = r.string(); break;
      case 0x2a: m.initializer.push(readTensor(r, r.end())); break;
      case 0x5a: m.input.push(readValueInfo(r, r.end())); break;
      case 0x62: m.output.push(readValueInfo(r, r.end())); break;
      case 0x6a: m.valueInfo.push(readValueInfo(r, r.end())); break;
      case 0x7a: m.sparseInitializer.push(readSparseTensor(r, r.end())); break;
      default: r.skip(tag & 7, tag >>> 3);
    }
  }
  return m;
}

function readOpset(r: Reader, end: number): OperatorSetIdMsg {
  const m: OperatorSetIdMsg = { domain: '', version: 0 };
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case 0x0a: m.domain = r.string(); break;
      case 0x10: m.version = r.int64(); break;
      default: r.skip(tag & 7, tag >>> 3);
    }
  }
  return m;
}

/** Reads a ModelProto whose wire format `checkWireFormat(bytes, 'ModelProto')` accepted. */
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
    const tag = r.uint32();
    switch (tag) {
      case 0x08: m.irVersion = r.int64(); break;
      case 0x12: m.producerName = r.string(); break;
      case 0x1a: m.producerVersion = r.string(); break;
      case 0x22: m.domain = r.string(); break;
      case 0x28: m.modelVersion = r.int64(); break;
      case 0x32: m.docString = r.string(); break;
      case 0x3a: m.graph = readGraph(r, r.end()); break;
      case 0x42: m.opsetImport.push(readOpset(r, r.end())); break;
      case 0x72: m.metadataProps.push(readStringEntry(r, r.end())); break;
      case 0xa2: // field 20, training_info (kept as bytes: only counted)
        m.trainingInfo.push(r.bytes());
        break;
      case 0xca: // field 25, functions (kept as bytes: only counted)
        m.functions.push(r.bytes());
        break;
      default: r.skip(tag & 7, tag >>> 3);
    }
  }
  return m;
}

/** Reads a TensorProto whose wire format `checkWireFormat(bytes, 'TensorProto')` accepted. */
export function readTensorProtoMessage(bytes: Uint8Array): TensorMsg {
  return readTensor(new Reader(bytes), bytes.length);
}
