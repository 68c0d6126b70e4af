/**
 * @packageDocumentation
 * The PIM dialect: the 24 `pim` ops (core streams, copies, transfers, synchronization and
 * vector arithmetic on tensors and memrefs) with custom assembly, verifiers and interpreter rules.
 */
export { PimDialect, PIM_OPS, registerPimDialect } from './ir/dialect';
export { PimMessages } from './diagnostics';
export { PimChannelResource, PimEventRegisterResource, destinationAt, destinationBufferEffects, getPimDestination } from './ir/interfaces';
export { TensorOrMemRef } from './ir/asm';
export * from './ir/ops/core';
export * from './ir/ops/transfer';
export * from './ir/ops/vector';
// Interpreter
export { PIM_INTERPRETER_RULES, registerPimInterpreterRules, registerAllPimInterpreterRules } from './interpreter/rules';
export { PIM_DATA_RULES } from './interpreter/data-rules';
export { coreGroupRule } from './interpreter/machine';
