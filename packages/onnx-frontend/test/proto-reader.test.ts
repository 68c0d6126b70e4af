/**
 * The hand-written protobuf reader against protobufjs: random ModelProtos (and TensorProtos)
 * encoded by protobufjs, packed and unpacked, decode to the same values with both; malformed
 * bytes give the wire checker's diagnostics with their offsets.
 */
import fc from 'fast-check';
import protobuf from 'protobufjs';
import { Int64Bits, checkWireFormat, decodeModelProto, decodeTensorProto, formatDiagnostic, onnxSchemaJson } from '@raptor-pim/onnx-frontend';
import { onnxType } from './support/protobufjs-onnx';

type Obj = Record<string, unknown>;

/** The schema with every `packed` option dropped: protobufjs then writes repeated numbers unpacked. */
function unpackedType(name: string): protobuf.Type {
  const json = JSON.parse(JSON.stringify(onnxSchemaJson), (key, value) => (key === 'options' ? undefined : value)) as protobuf.INamespace;
  const root = protobuf.Root.fromJSON(json);
  root.resolveAll();
  return root.lookupType(`onnx.${name}`);
}

// ------------------------------------------------------------------ random messages

const name = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', 'x', 'conv.weight', 'ünï-ç✓de', '𝔸'));
const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
const smallInt64 = fc.integer({ min: -5, max: 1000 }).map(String);
const uint64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String);
const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const float32 = fc.float();
const bytes = fc.uint8Array({ maxLength: 24 });
const entry = fc.record({ key: name, value: name });
const few = <T>(a: fc.Arbitrary<T>, max = 3): fc.Arbitrary<T[]> => fc.array(a, { maxLength: max });

const tensor: fc.Arbitrary<Obj> = fc.record(
  {
    dims: few(fc.oneof(smallInt64, int64), 4),
    dataType: fc.oneof(fc.integer({ min: 0, max: 16 }), int32),
    segment: fc.record({ begin: smallInt64, end: int64 }),
    floatData: few(float32, 5),
    int32Data: few(int32, 5),
    stringData: few(bytes),
    int64Data: few(int64, 5),
    name,
    docString: name,
    rawData: bytes,
    externalData: few(entry),
    dataLocation: fc.integer({ min: 0, max: 2 }),
    doubleData: few(fc.double(), 4),
    uint64Data: few(uint64, 4),
  },
  { requiredKeys: [] },
);

const dimension = fc.oneof(fc.record({ dimValue: fc.oneof(smallInt64, int64) }), fc.record({ dimParam: name }), fc.record({ denotation: name }));
const tensorType = fc.record({ elemType: fc.integer({ min: 0, max: 16 }), shape: fc.record({ dim: few(dimension, 4) }) }, { requiredKeys: [] });
const typeProto: fc.Arbitrary<Obj> = fc.oneof(
  fc.record({ tensorType, denotation: name }, { requiredKeys: ['tensorType'] }),
  fc.record({ sequenceType: fc.record({ elemType: fc.record({ tensorType }) }) }),
  fc.record({ mapType: fc.record({ keyType: fc.integer({ min: 0, max: 16 }) }) }),
  fc.record({ optionalType: fc.record({}) }),
  fc.record({ sparseTensorType: fc.record({ elemType: fc.integer({ min: 0, max: 16 }) }) }),
  fc.record({}),
);
const valueInfo = fc.record({ name, type: typeProto, docString: name }, { requiredKeys: ['name'] });

const attribute = (graph: fc.Arbitrary<Obj> | undefined): fc.Arbitrary<Obj> =>
  fc.record(
    {
      name,
      refAttrName: name,
      docString: name,
      type: fc.integer({ min: 0, max: 14 }),
      f: float32,
      i: fc.oneof(smallInt64, int64),
      s: bytes,
      t: tensor,
      ...(graph ? { g: graph, graphs: few(graph, 1) } : {}),
      floats: few(float32, 4),
      ints: few(fc.oneof(smallInt64, int64), 4),
      strings: few(bytes),
      tensors: few(tensor, 2),
      sparseTensors: few(fc.record({ values: tensor, dims: few(smallInt64) }), 1),
    },
    { requiredKeys: [] },
  );

const node = (graph: fc.Arbitrary<Obj> | undefined): fc.Arbitrary<Obj> =>
  fc.record(
    { input: few(name, 4), output: few(name, 3), name, opType: name, domain: name, overload: name, attribute: few(attribute(graph), 3), docString: name },
    { requiredKeys: [] },
  );

const graphOf = (inner: fc.Arbitrary<Obj> | undefined): fc.Arbitrary<Obj> =>
  fc.record(
    {
      node: few(node(inner), 4),
      name,
      initializer: few(tensor, 3),
      sparseInitializer: few(fc.record({ values: tensor }), 1),
      docString: name,
      input: few(valueInfo, 3),
      output: few(valueInfo, 2),
      valueInfo: few(valueInfo, 2),
      quantizationAnnotation: few(fc.record({ tensorName: name }), 1),
      metadataProps: few(entry, 1),
    },
    { requiredKeys: [] },
  );
const graph = graphOf(graphOf(undefined));

const model: fc.Arbitrary<Obj> = fc.record(
  {
    irVersion: fc.oneof(smallInt64, int64),
    opsetImport: few(fc.record({ domain: name, version: smallInt64 }, { requiredKeys: [] })),
    producerName: name,
    producerVersion: name,
    domain: name,
    modelVersion: fc.oneof(smallInt64, int64),
    docString: name,
    graph,
    metadataProps: few(entry),
    trainingInfo: few(fc.record({ initialization: graphOf(undefined) }), 1),
    functions: few(fc.record({ name, input: few(name) }), 1),
  },
  { requiredKeys: ['graph'] },
);

// ------------------------------------------------------------------ projections compared

const own = (m: object, k: string): boolean => Object.prototype.hasOwnProperty.call(m, k);
const i64 = (v: unknown): string => (v === null || v === undefined ? '0' : String(v));
const arr = <T, U>(xs: readonly T[] | null | undefined, f: (x: T) => U): U[] => (xs ?? []).map(f);
const byteList = (b: Uint8Array | null | undefined): number[] => Array.from(b ?? []);

/** What the frontend reads of a decoded TensorProto (int64s as decimal strings, bytes as lists). */
function tensorView(t: Obj | null | undefined): unknown {
  if (!t) return null;
  return {
    dims: arr(t.dims as unknown[], i64),
    dataType: t.dataType ?? 0,
    segment: t.segment ? { begin: i64((t.segment as Obj).begin), end: i64((t.segment as Obj).end) } : null,
    floatData: arr(t.floatData as number[], (x) => x),
    int32Data: arr(t.int32Data as number[], (x) => x),
    stringData: arr(t.stringData as Uint8Array[], byteList),
    int64Data: arr(t.int64Data as unknown[], i64),
    name: t.name ?? '',
    rawData: byteList(t.rawData as Uint8Array),
    externalData: arr(t.externalData as Obj[], (e) => [e.key, e.value]),
    dataLocation: t.dataLocation ?? 0,
    doubleData: arr(t.doubleData as number[], (x) => x),
    uint64Data: arr(t.uint64Data as unknown[], i64),
  };
}

function typeView(t: Obj | null | undefined): unknown {
  if (!t) return null;
  const tt = t.tensorType as Obj | null | undefined;
  const shape = tt?.shape as Obj | null | undefined;
  return {
    value: t.value ?? null,
    tensorType: tt
      ? {
          elemType: tt.elemType ?? 0,
          shape: shape ? arr(shape.dim as Obj[], (d) => ({ value: d.value ?? null, dimValue: d.value === 'dimValue' ? i64(d.dimValue) : null, dimParam: d.value === 'dimParam' ? d.dimParam : null })) : null,
        }
      : null,
  };
}

function graphView(g: Obj | null | undefined): unknown {
  if (!g) return null;
  const vi = (v: Obj): unknown => ({ name: v.name ?? '', type: typeView(v.type as Obj) });
  return {
    name: g.name ?? '',
    node: arr(g.node as Obj[], (n) => ({
      input: n.input,
      output: n.output,
      name: n.name ?? '',
      opType: n.opType ?? '',
      domain: n.domain ?? '',
      attribute: arr(n.attribute as Obj[], (a) => ({
        name: a.name ?? '',
        refAttrName: a.refAttrName ?? '',
        type: a.type ?? 0,
        f: a.f ?? 0,
        hasF: own(a, 'f'),
        i: i64(a.i),
        hasI: own(a, 'i'),
        s: byteList(a.s as Uint8Array),
        t: tensorView(a.t as Obj),
        g: graphView(a.g as Obj),
        floats: a.floats,
        ints: arr(a.ints as unknown[], i64),
        strings: arr(a.strings as Uint8Array[], byteList),
        tensors: arr(a.tensors as Obj[], tensorView),
        graphs: arr(a.graphs as Obj[], graphView),
        sparseTensors: arr(a.sparseTensors as unknown[], () => 1).length,
      })),
    })),
    initializer: arr(g.initializer as Obj[], tensorView),
    sparseInitializer: arr(g.sparseInitializer as Obj[], (s) => tensorView(s.values as Obj)),
    input: arr(g.input as Obj[], vi),
    output: arr(g.output as Obj[], vi),
    valueInfo: arr(g.valueInfo as Obj[], vi),
  };
}

function modelView(m: Obj): unknown {
  return {
    irVersion: i64(m.irVersion),
    opsetImport: arr(m.opsetImport as Obj[], (o) => [o.domain ?? '', i64(o.version)]),
    producerName: m.producerName ?? '',
    producerVersion: m.producerVersion ?? '',
    domain: m.domain ?? '',
    modelVersion: i64(m.modelVersion),
    docString: m.docString ?? '',
    graph: graphView(m.graph as Obj),
    metadataProps: arr(m.metadataProps as Obj[], (e) => [e.key, e.value]),
    trainingInfo: arr(m.trainingInfo as unknown[], () => 1).length,
    functions: arr(m.functions as unknown[], () => 1).length,
  };
}

const RUNS = 100;

describe('the protobuf reader against protobufjs', () => {
  const packedModel = onnxType('ModelProto');
  const unpackedModel = unpackedType('ModelProto');

  it(`${RUNS} random ModelProtos (packed and unpacked) decode to the same values`, () => {
    fc.assert(
      fc.property(model, fc.boolean(), (obj, packed) => {
        const type = packed ? packedModel : unpackedModel;
        const bytes = type.encode(type.fromObject(obj)).finish();
        const ours = decodeModelProto(bytes, 'm.onnx');
        expect(ours.diagnostics.map(formatDiagnostic)).toEqual([]);
        const reference = type.decode(bytes) as unknown as Obj;
        expect(modelView(ours.message as unknown as Obj)).toEqual(modelView(reference));
      }),
      { numRuns: RUNS, seed: 15 },
    );
  });

  it(`${3 * RUNS} random TensorProtos decode to the same values`, () => {
    const packedTensor = onnxType('TensorProto');
    const unpackedTensor = unpackedType('TensorProto');
    fc.assert(
      fc.property(tensor, fc.boolean(), (obj, packed) => {
        const type = packed ? packedTensor : unpackedTensor;
        const bytes = type.encode(type.fromObject(obj)).finish();
        if (bytes.length === 0) return;
        const ours = decodeTensorProto(bytes, 't.pb');
        expect(ours.diagnostics).toEqual([]);
        expect(tensorView(ours.message as unknown as Obj)).toEqual(tensorView(type.decode(bytes) as unknown as Obj));
      }),
      { numRuns: 3 * RUNS, seed: 15 },
    );
  });

  it('raw_data is a view into the input bytes (no copy)', () => {
    const type = onnxType('TensorProto');
    const bytes = type.encode(type.fromObject({ name: 'w', dataType: 1, dims: [2], rawData: new Uint8Array(8).fill(7) })).finish();
    const t = decodeTensorProto(bytes).message!;
    expect(t.rawData.buffer).toBe(bytes.buffer);
    expect(Array.from(t.rawData)).toEqual([7, 7, 7, 7, 7, 7, 7, 7]);
  });

  it('int64 values beyond 2^53 keep their exact decimal value', () => {
    const type = onnxType('TensorProto');
    const bytes = type.encode(type.fromObject({ dims: ['-9223372036854775808', '9007199254740993', '-1'], int64Data: ['123'] })).finish();
    const t = decodeTensorProto(bytes).message!;
    expect(t.dims[0]).toBeInstanceOf(Int64Bits);
    expect(t.dims.map(String)).toEqual(['-9223372036854775808', '9007199254740993', '-1']);
    expect(t.dims[2]).toBe(-1);
  });
});

describe('malformed bytes: diagnostics with offsets', () => {
  const check = (bytes: number[]): string[] => decodeModelProto(new Uint8Array(bytes), 'bad.onnx').diagnostics.map(formatDiagnostic);

  it('a truncated varint', () => {
    // ir_version (field 1, varint) whose value never ends.
    expect(check([0x08, 0x80, 0x80])).toEqual(['bad.onnx:@1: error: truncated protobuf: ModelProto.irVersion runs past the end of the buffer']);
  });

  it('an invalid wire type', () => {
    expect(check([0x08, 0x08, 0x0f])).toEqual(['bad.onnx:@2: error: invalid protobuf wire type 7']);
  });

  it('a length past the end', () => {
    // graph (field 7) claims 100 bytes, 2 follow.
    expect(check([0x3a, 100, 0x0a, 0x00])).toEqual(['bad.onnx:@1: error: truncated protobuf: ModelProto.graph runs past the end of the buffer']);
  });

  it('a wrong wire type for a known field', () => {
    expect(check([0x08, 0x08, 0x38, 0x01])).toEqual(['bad.onnx:@2: error: wrong protobuf field type for ModelProto.graph (field 7): wire type varint, expected length-delimited']);
  });

  it('invalid UTF-8 in a string', () => {
    expect(check([0x12, 0x02, 0xc3, 0x28])).toEqual(['bad.onnx:@2: error: invalid UTF-8 in string field ModelProto.producerName']);
  });

  it('invalid UTF-8 in a string the reader skips (a node doc string)', () => {
    // graph { node { doc_string (field 6) = C3 28 } }
    expect(check([0x3a, 0x06, 0x0a, 0x04, 0x32, 0x02, 0xc3, 0x28])).toEqual(['bad.onnx:@6: error: invalid UTF-8 in string field NodeProto.docString']);
  });

  it('a valid U+FFFD in a string is read', () => {
    // producer_name = EF BF BD (U+FFFD, valid UTF-8), graph {}
    const r = decodeModelProto(new Uint8Array([0x12, 0x03, 0xef, 0xbf, 0xbd, 0x3a, 0x00]), 'ok.onnx');
    expect(r.diagnostics).toEqual([]);
    expect(r.message!.producerName).toBe('\ufffd');
  });

  it('a malformed message the reader keeps as bytes (training_info) is reported', () => {
    // graph {}, training_info (field 20) { initialization (field 1, GraphProto) as a varint }
    expect(check([0x3a, 0x00, 0xa2, 0x01, 0x02, 0x08, 0x01])).toEqual([
      'bad.onnx:@5: error: wrong protobuf field type for TrainingInfoProto.initialization (field 1): wire type varint, expected length-delimited',
    ]);
  });
});

/** Length-delimited field `id` holding `body`. */
function lengthDelimited(id: number, body: number[]): number[] {
  const out = [(id << 3) | 2];
  for (let n = body.length; ; n >>>= 7) {
    if (n < 0x80) {
      out.push(n);
      break;
    }
    out.push((n & 0x7f) | 0x80);
  }
  return [...out, ...body];
}

describe('the reader checks what the wire check checks', () => {
  const packedModel = onnxType('ModelProto');
  const unpackedModel = unpackedType('ModelProto');
  /** The wire check's verdict and the reader's, as diagnostics text (the reader only names a problem through the check). */
  const verdicts = (bytes: Uint8Array): { check: string[]; reader: string[] } => {
    const problem = checkWireFormat(bytes, 'ModelProto');
    const reader = decodeModelProto(bytes, 'm.onnx').diagnostics.filter((d) => d.location.byteOffset !== undefined);
    return {
      check: problem ? [`@${problem.offset}: ${problem.message}`] : [],
      reader: reader.map((d) => `@${d.location.byteOffset}: ${d.message}`),
    };
  };

  it(`${2 * RUNS} random ModelProtos with flipped, inserted and cut bytes: the reader rejects exactly what the check rejects`, () => {
    const edit = fc.record({
      at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      kind: fc.constantFrom('flip', 'insert', 'delete'),
      value: fc.integer({ min: 1, max: 255 }),
    });
    let rejected = 0;
    fc.assert(
      fc.property(model, fc.boolean(), fc.array(edit, { minLength: 1, maxLength: 4 }), fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }), (obj, packed, edits, cut) => {
        const type = packed ? packedModel : unpackedModel;
        const bytes = Array.from(type.encode(type.fromObject(obj)).finish());
        if (bytes.length === 0) return;
        for (const e of edits) {
          const at = Math.floor(e.at * bytes.length);
          if (e.kind === 'flip') bytes[at]! ^= e.value;
          else if (e.kind === 'insert') bytes.splice(at, 0, e.value);
          else bytes.splice(at, 1);
        }
        const input = Uint8Array.from(cut === undefined ? bytes : bytes.slice(0, Math.floor(cut * bytes.length)));
        if (input.length === 0) return;
        const v = verdicts(input);
        if (v.check.length) rejected++;
        expect(v.reader).toEqual(v.check);
      }),
      { numRuns: 2 * RUNS, seed: 15 },
    );
    expect(rejected).toBeGreaterThan(RUNS / 4);
  });

  it('nesting at the depth limit is read, one level deeper is reported', () => {
    // Graphs nested through attributes: graph { node { attribute { g: graph { ... } } } }: 3 levels per graph.
    const nested = (levels: number): number[] => {
      let body: number[] = [];
      for (let i = 0; i < levels; i++) body = lengthDelimited(1, lengthDelimited(5, lengthDelimited(6, body)));
      return lengthDelimited(7, body);
    };
    for (const levels of [32, 33, 34]) {
      const v = verdicts(Uint8Array.from(nested(levels)));
      expect(v.reader).toEqual(v.check);
    }
    expect(verdicts(Uint8Array.from(nested(33))).check).toEqual([]);
    expect(verdicts(Uint8Array.from(nested(34))).check).not.toEqual([]);
  });
});
