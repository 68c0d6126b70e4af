/**
 * @packageDocumentation
 * PIM code generation: verification of a bufferized PIM module, static evaluation of its
 * streams, array-group and register allocation, instruction selection to pim-target's typed
 * instructions, and emission of a program bundle that runs on pim-sim and pimsim-nn.
 */
export { registerCodegenPasses } from './passes';
export { VerifyCodegenPass } from './transforms/pim-verify-codegen';
export { AllocateArrayGroupsPass } from './transforms/pim-allocate-array-groups';
export { EmitPass, BundleSinkKey } from './transforms/pim-emit';
export type { BundleSink } from './transforms/pim-emit';
export { emitBundle, generateBundle, generateBundleFrom, analyzeModule, PRODUCER } from './emit/emit-bundle';
export { CodegenAnalysis } from './analysis/codegen-analysis';
export type { CodegenEvaluation } from './analysis/codegen-analysis';
export type { EmitBundleOptions, EmitBundleResult, EmitStatistics, GeneratedBundle } from './emit/emit-bundle';
export { buildStaticProgram, findEntryFunction, LOCAL_MEMORY_SIZE_ATTR, MAX_FIELD, MAX_UNROLL } from './analysis/static-program';
export type { StaticOp, StaticStream, StaticProgram, ResidentWeight, VectorMnemonic } from './analysis/static-program';
export { StaticScope } from './analysis/static-eval';
export { HostLayout, ADDRESS_ATTR, HOST_ADDRESS_ATTR, HOST_ARG_ADDRESSES_ATTR, NAME_ATTR } from './analysis/host-layout';
export type { HostBuffer } from './analysis/host-layout';
export { resolveBuffer, isContiguous, viewBytes, viewElements } from './analysis/buffers';
export type { BufferView, BufferEnvironment, MemorySpace, Resolution } from './analysis/buffers';
export {
  allocateArrayGroups,
  recordArrayGroups,
  crossbarsFor,
  mvmulWeightBits,
  ARRAY_GROUP_ATTR,
  ARRAY_GROUP_CROSSBARS_ATTR,
} from './analysis/array-groups';
export type { ArrayGroup, ArrayGroupPlan, AllocateArrayGroupsOptions } from './analysis/array-groups';
export { checkCommunication } from './analysis/communication';
export { Reporter } from './analysis/reporter';
export { selectInstructions, ELEMENT_BITS } from './isel/select';
export type { SelectionStatistics } from './isel/select';
export { RegisterAllocator } from './isel/registers';
export { resolveCodegenTarget, passTarget, toTarget, TARGET_CONTEXT_KEY, TargetContextKey } from './target';
export type { TargetLike } from './target';
export { CodegenMessages } from './diagnostics';
