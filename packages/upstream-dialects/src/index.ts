/**
 * @packageDocumentation
 * The MLIR dialects Raptor uses beyond builtin/func/arith: affine.apply, tensor, scf, memref, with MLIR's syntax, verifiers and interpreter rules.
 */
export {};
export * from './memref';
export * from './affine';
export * from './tensor';
export * from './scf';
export { registerUpstreamDialects } from './tensor/register-upstream-dialects';
export * from './interpreter/tensor-scf-affine';
export { AFFINE_INTERPRETER_RULES } from './interpreter/affine-rules';
export { TENSOR_INTERPRETER_RULES, publicationStack } from './interpreter/tensor-rules';
export type { ParallelPublication, PublicationCollector } from './interpreter/tensor-rules';
export { SCF_INTERPRETER_RULES, applyPublications, setForallLaneOrder } from './interpreter/scf-rules';
export type { LaneOrder } from './interpreter/scf-rules';
export { checkRuntimeSlice, extractSlice, insertSlice, forEachSliceElement } from './interpreter/tensor-slicing';
export type { SliceSpec } from './interpreter/tensor-slicing';
