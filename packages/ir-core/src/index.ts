/**
 * @packageDocumentation
 * An MLIR-compatible IR core: operations, regions, uniqued types and attributes, parser and
 * printer, verifier, rewriter, pass manager, diagnostics and an interpreter framework.
 */
export { MLIRContext } from './ir/context';
export type { Dialect } from './ir/dialect';
export { Attribute, Type, Location } from './ir/attribute';
export { Diagnostic, DiagnosticEngine } from './diagnostics/diagnostic';
export type { Severity, DiagnosticHandler } from './diagnostics/diagnostic';
export * from './ir/builtin-types';
export * from './ir/builtin-attributes';
export * from './ir/builtin-float-semantics';
export * from './ir/location';
export * from './affine/affine-expr';
export * from './affine/affine-map';
