/**
 * The ONNX protobuf schema (package `onnx`, proto2) as plain data, in the JSON descriptor form
 * of protobufjs (so tests can encode models with protobufjs from it; the package itself
 * decodes with its own reader, `proto-reader.ts`, and checks the wire format against this
 * table, `wire-check.ts`).
 *
 * Written for Raptor-TS from the field numbers of the official `onnx.proto`; names are
 * camelCase, as protobufjs spells them. Enum-typed fields are declared as `int32` (same wire
 * format) so that unknown enum values reach our validators instead of being dropped.
 */

type FieldRule = 'repeated' | undefined;

/** One field of the descriptor: number, type name (scalar or message) and repetition. */
export interface OnnxSchemaField {
  readonly type: string;
  readonly id: number;
  readonly rule?: 'repeated';
  readonly options?: { readonly packed: boolean };
}
type FieldJson = OnnxSchemaField;

/** One message of the descriptor: its fields by name, its nested messages, its oneofs. */
export interface OnnxSchemaMessage {
  readonly fields: Readonly<Record<string, OnnxSchemaField>>;
  readonly nested?: Readonly<Record<string, OnnxSchemaMessage>>;
  readonly oneofs?: Readonly<Record<string, { readonly oneof: readonly string[] }>>;
}

const f = (id: number, type: string, rule?: FieldRule): FieldJson => (rule ? { id, type, rule } : { id, type });
const packed = (id: number, type: string): FieldJson => ({ id, type, rule: 'repeated', options: { packed: true } });
const R: FieldRule = 'repeated';

/** The descriptor in protobufjs JSON form (exported for tests that encode models). */
export const onnxSchemaJson: { readonly nested: { readonly onnx: { readonly nested: Readonly<Record<string, OnnxSchemaMessage>> } } } = {
  nested: {
    onnx: {
      nested: {
        AttributeProto: {
          fields: {
            name: f(1, 'string'),
            refAttrName: f(21, 'string'),
            docString: f(13, 'string'),
            type: f(20, 'int32'),
            f: f(2, 'float'),
            i: f(3, 'int64'),
            s: f(4, 'bytes'),
            t: f(5, 'TensorProto'),
            g: f(6, 'GraphProto'),
            sparseTensor: f(22, 'SparseTensorProto'),
            tp: f(14, 'TypeProto'),
            floats: packed(7, 'float'),
            ints: packed(8, 'int64'),
            strings: f(9, 'bytes', R),
            tensors: f(10, 'TensorProto', R),
            graphs: f(11, 'GraphProto', R),
            sparseTensors: f(23, 'SparseTensorProto', R),
            typeProtos: f(15, 'TypeProto', R),
          },
        },
        ValueInfoProto: {
          fields: {
            name: f(1, 'string'),
            type: f(2, 'TypeProto'),
            docString: f(3, 'string'),
            metadataProps: f(4, 'StringStringEntryProto', R),
          },
        },
        NodeProto: {
          fields: {
            input: f(1, 'string', R),
            output: f(2, 'string', R),
            name: f(3, 'string'),
            opType: f(4, 'string'),
            domain: f(7, 'string'),
            overload: f(8, 'string'),
            attribute: f(5, 'AttributeProto', R),
            docString: f(6, 'string'),
            metadataProps: f(9, 'StringStringEntryProto', R),
          },
        },
        TrainingInfoProto: {
          fields: {
            initialization: f(1, 'GraphProto'),
            algorithm: f(2, 'GraphProto'),
            initializationBinding: f(3, 'StringStringEntryProto', R),
            updateBinding: f(4, 'StringStringEntryProto', R),
          },
        },
        ModelProto: {
          fields: {
            irVersion: f(1, 'int64'),
            opsetImport: f(8, 'OperatorSetIdProto', R),
            producerName: f(2, 'string'),
            producerVersion: f(3, 'string'),
            domain: f(4, 'string'),
            modelVersion: f(5, 'int64'),
            docString: f(6, 'string'),
            graph: f(7, 'GraphProto'),
            metadataProps: f(14, 'StringStringEntryProto', R),
            trainingInfo: f(20, 'TrainingInfoProto', R),
            functions: f(25, 'FunctionProto', R),
          },
        },
        StringStringEntryProto: {
          fields: { key: f(1, 'string'), value: f(2, 'string') },
        },
        TensorAnnotation: {
          fields: {
            tensorName: f(1, 'string'),
            quantParameterTensorNames: f(2, 'StringStringEntryProto', R),
          },
        },
        GraphProto: {
          fields: {
            node: f(1, 'NodeProto', R),
            name: f(2, 'string'),
            initializer: f(5, 'TensorProto', R),
            sparseInitializer: f(15, 'SparseTensorProto', R),
            docString: f(10, 'string'),
            input: f(11, 'ValueInfoProto', R),
            output: f(12, 'ValueInfoProto', R),
            valueInfo: f(13, 'ValueInfoProto', R),
            quantizationAnnotation: f(14, 'TensorAnnotation', R),
            metadataProps: f(16, 'StringStringEntryProto', R),
          },
        },
        TensorProto: {
          fields: {
            dims: packed(1, 'int64'),
            dataType: f(2, 'int32'),
            segment: f(3, 'Segment'),
            floatData: packed(4, 'float'),
            int32Data: packed(5, 'int32'),
            stringData: f(6, 'bytes', R),
            int64Data: packed(7, 'int64'),
            name: f(8, 'string'),
            docString: f(12, 'string'),
            rawData: f(9, 'bytes'),
            externalData: f(13, 'StringStringEntryProto', R),
            dataLocation: f(14, 'int32'),
            doubleData: packed(10, 'double'),
            uint64Data: packed(11, 'uint64'),
            metadataProps: f(16, 'StringStringEntryProto', R),
          },
          nested: {
            Segment: { fields: { begin: f(1, 'int64'), end: f(2, 'int64') } },
          },
        },
        SparseTensorProto: {
          fields: {
            values: f(1, 'TensorProto'),
            indices: f(2, 'TensorProto'),
            dims: packed(3, 'int64'),
          },
        },
        TensorShapeProto: {
          fields: { dim: f(1, 'Dimension', R) },
          nested: {
            Dimension: {
              oneofs: { value: { oneof: ['dimValue', 'dimParam'] } },
              fields: { dimValue: f(1, 'int64'), dimParam: f(2, 'string'), denotation: f(3, 'string') },
            },
          },
        },
        TypeProto: {
          oneofs: { value: { oneof: ['tensorType', 'sequenceType', 'mapType', 'optionalType', 'sparseTensorType'] } },
          fields: {
            tensorType: f(1, 'Tensor'),
            sequenceType: f(4, 'Sequence'),
            mapType: f(5, 'Map'),
            optionalType: f(9, 'Optional'),
            sparseTensorType: f(8, 'SparseTensor'),
            denotation: f(6, 'string'),
          },
          nested: {
            Tensor: { fields: { elemType: f(1, 'int32'), shape: f(2, 'TensorShapeProto') } },
            Sequence: { fields: { elemType: f(1, 'TypeProto') } },
            Map: { fields: { keyType: f(1, 'int32'), valueType: f(2, 'TypeProto') } },
            Optional: { fields: { elemType: f(1, 'TypeProto') } },
            SparseTensor: { fields: { elemType: f(1, 'int32'), shape: f(2, 'TensorShapeProto') } },
          },
        },
        OperatorSetIdProto: {
          fields: { domain: f(1, 'string'), version: f(2, 'int64') },
        },
        FunctionProto: {
          fields: {
            name: f(1, 'string'),
            input: f(4, 'string', R),
            output: f(5, 'string', R),
            attribute: f(6, 'string', R),
            attributeProto: f(11, 'AttributeProto', R),
            node: f(7, 'NodeProto', R),
            docString: f(8, 'string'),
            opsetImport: f(9, 'OperatorSetIdProto', R),
            domain: f(10, 'string'),
            overload: f(13, 'string'),
            valueInfo: f(12, 'ValueInfoProto', R),
            metadataProps: f(14, 'StringStringEntryProto', R),
          },
        },
      },
    },
  },
};
