/**
 * @packageDocumentation
 * The Raptor compiler: the registry of every Raptor pass, the named pipelines
 * (`raptor-frontend`, `raptor-compile`), `compile(model, options)` with its compile report, the
 * `Scheduler` slot, and the interpreter entry point that runs any IR level.
 */
export { compile } from './compile';
export type { CompileInput, CompileOptions, CompileResult } from './compile';
export { formatCompileDiagnostic, formatIrLocation } from './compile-diagnostic';
export type { CompileDiagnostic } from './compile-diagnostic';
export { countOperations, formatCompileReport } from './compile-report';
export type { CompileProgress, CompileReport, IrDump, PassTimingEntry, StageReport } from './compile-report';
export { TargetKey, TARGET_CONTEXT_KEY_NAME } from './context-keys';
export { CompilerMessages } from './diagnostics';
export { createRaptorContext } from './raptor-context';
export { createRaptorInterpreterRegistry, findEntryFunction, interpretFunction } from './interpret';
export type { EntryFunction, EntryFunctionResult, EntryValue, F32Tensor, InterpretResult } from './interpret';
export { anchorPipeline, parseRaptorPipeline, printPipeline } from './pipeline';
export {
  CORE_STAGE,
  RAPTOR_COMPILE_PIPELINE,
  RAPTOR_FRONTEND_PIPELINE,
  RaptorPassRegistry,
  createRaptorPassRegistry,
  raptorCompileElements,
  registerRaptorPasses,
} from './registry';
export type { RaptorPassRegistryOptions } from './registry';
export { RAPTOR_STAGES } from './stages';
export type { CompilerStage, StageRegistrationOptions } from './stages';
// The scheduler slot takes any value implementing @raptor-pim/scheduler's interface.
export type { ScheduleResult, Scheduler, SchedulerOptions, SchedulerRunReport } from '@raptor-pim/scheduler';
