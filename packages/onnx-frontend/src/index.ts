/**
 * @packageDocumentation
 * ONNX import: reads .onnx models (protobuf), validates and binds shapes, and produces Spatial plans in a func.func.
 */
export {};
