/**
 * @packageDocumentation
 * ONNX import for Raptor-TS: reads .onnx models (protobuf), validates them, binds symbolic
 * input dimensions and infers static shapes (with constant folding of shape computations),
 * then lowers the model to a verified module of Spatial ops (`importOnnxModel`) that the
 * interpreter runs (`runImportedModule`).
 */
export { Messages, formatDiagnostic, formatLocation, hasErrors } from './diagnostics';
export type { OnnxDiagnostic, OnnxLocation, OnnxSeverity } from './diagnostics';
export { onnxSchemaJson } from './onnx/schema';
export type { OnnxSchemaField, OnnxSchemaMessage } from './onnx/schema';
export { checkWireFormat } from './onnx/wire-check';
export type { OnnxMessageName, WireProblem } from './onnx/wire-check';
export { Int64Bits } from './onnx/proto-reader';
export { decodeModelProto, decodeTensorProto } from './onnx/decode';
export type { DecodeResult } from './onnx/decode';
export { int64ToNumber } from './onnx/proto-types';
export type {
  AttributeMsg,
  DimensionMsg,
  GraphMsg,
  Int64,
  ModelMsg,
  NodeMsg,
  OperatorSetIdMsg,
  StringStringEntryMsg,
  TensorMsg,
  TensorShapeMsg,
  TypeMsg,
  ValueInfoMsg,
} from './onnx/proto-types';
export { OnnxDataType, dataTypeName, dataTypeSize, isSupportedDataType, float16ToNumber, bfloat16ToNumber } from './onnx/dtypes';
export type { OnnxDataTypeCode, OnnxTensorData } from './onnx/dtypes';
export { getAttribute } from './onnx/model';
export type {
  OnnxAttribute,
  OnnxAttributeKind,
  OnnxAttributeValues,
  OnnxDim,
  OnnxGraph,
  OnnxModel,
  OnnxNode,
  OnnxTensor,
  OnnxValueInfo,
} from './onnx/model';
export { readOnnxModel, DEFAULT_MAX_TENSOR_ELEMENTS } from './onnx/read-model';
export type { ReadOnnxOptions, ReadOnnxResult } from './onnx/read-model';
export type { ExternalDataReader } from './onnx/tensor';
export { sortNodes } from './onnx/topological-sort';
export type { SortResult } from './onnx/topological-sort';
export { inferShapes, parseInputShapeFlag } from './shapes/infer-shapes';
export type { InferShapesOptions, InferredValue, ShapeInferenceResult } from './shapes/infer-shapes';
export { tensorToNumbers, numbersToTensor } from './shapes/constant-eval';
export { SUPPORTED_OPERATORS, operatorSupport, supportedOperatorList } from './support/operators';
export type { OperatorSupport } from './support/operators';
export { MIN_OPSET, MAX_OPSET, KNOWN_DOMAINS } from './support/opsets';
export { readNpy, writeNpy, isNpyWritable } from './io/npy';
export { readTensorProto } from './io/tensor-proto-file';
export { readOnnxFile, readTensorProtoFile, nodeExternalDataReader } from './io/files';
export { loadOnnxModel, loadOnnxFile } from './import-model';
export type { LoadOnnxOptions, LoadedOnnxModel } from './import-model';
export { importOnnxModel, DEFAULT_CROSSBAR_SIZE, LOWERED_OPERATORS } from './lowering/lower-model';
export type { ImportOnnxOptions, ImportTimings, ImportedModule, ImportedValue } from './lowering/lower-model';
export { crossbarShapeOf, resolveCrossbarShape } from './lowering/crossbar';
export type { CrossbarShape, CrossbarTarget } from './lowering/crossbar';
export { runImportedModule } from './lowering/run-module';
export type { F32Array, RunImportedResult } from './lowering/run-module';
export { LoweringMessages } from './diagnostics';
