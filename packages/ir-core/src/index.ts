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
// IR model (operations, blocks, regions, values, builder, traits, interfaces, symbols)
export * from './ir/value';
export { setRetainedName, getRetainedName } from './ir/value-names';
export * from './ir/operation';
export * from './ir/block';
export * from './ir/region';
export * from './ir/builder';
export * from './ir/ir-mapping';
export * from './ir/walk';
export * from './ir/traits';
export * from './ir/side-effects';
export * from './ir/interfaces';
export * from './ir/op-definition';
export * from './ir/symbol-table';
export { defineDialect, defineDialectInterface, getDialectInterface } from './ir/dialect';
export type { DialectSpec, DialectInterface } from './ir/dialect';
export * from './ir/constraints';
export { setDiagnosticFormatters, formatType, formatAttribute, formatOperation } from './ir/format-hooks';
export type { CloneOptions } from './ir/clone';
export * from './ir/core-interfaces';
export * from './ir/dominance';
export * from './ir/verifier';
export * from './syntax/op-asm';
export { Parser, parseSourceString, parseAttribute, parseType } from './syntax/parser';
export type { ParseOptions, ParsedSourceInfo } from './syntax/parser-state';
export { Printer, printOperation, printOperationPieces, printType, printAttribute, printOperationForDiagnostic, escapeString } from './syntax/printer';
export type { PrintOptions } from './syntax/printer';
export { formatFloat } from './syntax/float-format';
export { affineExprToString, affineMapToString, integerSetToString } from './syntax/affine-printer';
export { Lexer } from './syntax/lexer';
export { TokenKind } from './syntax/token';
export { SourceFile } from './syntax/source';
export { renderDiagnostic, renderDiagnostics } from './diagnostics/render';
export type { SourceLineLookup } from './diagnostics/render';
export { splitInputFile, joinSplitOutputs, SPLIT_MARKER } from './diagnostics/split-input';
export type { InputChunk } from './diagnostics/split-input';
export { DiagnosticVerifier, parseExpectedDiagnostics, verifyDiagnostics } from './diagnostics/verify';
export type { ExpectedDiagnostic } from './diagnostics/verify';
// Rewriting
export * from './rewrite/rewriter';
export * from './rewrite/pattern';
export * from './rewrite/folding';
export * from './rewrite/constant-folder';
export * from './rewrite/region-simplify';
export * from './rewrite/greedy-driver';
// func/arith/builtin dialects (registerBuiltinDialects)
export * from './dialects/index';
// Passes
export * from './pass/pass';
export * from './pass/pass-registry';
export * from './pass/pass-manager';
export * from './pass/instrumentation';
export * from './pass/pipeline-parser';
// Interpreter
export * from './interpreter/runtime-value';
export * from './interpreter/interpreter';
export * from './interpreter/concurrent-streams';
export { simplifyAffineExpr, simplifyAffineMap, simplifyIntegerSet, getAffineExprFromFlatForm } from './affine/affine-simplify';
export * from './pass/canonicalize';
export * from './pass/cse';
export * from './pass/core-passes';
export * from './pass/pass-context';
export * from './pass/analysis-manager';
// Dialect conversion
export * from './conversion/index';
// Analyses
export * from './analysis/liveness';
