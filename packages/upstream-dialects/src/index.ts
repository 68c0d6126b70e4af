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
