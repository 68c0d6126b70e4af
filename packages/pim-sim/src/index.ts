/**
 * @packageDocumentation
 * A functional, timing and energy simulator for crossbar PIM program bundles (PIMB v1 /
 * pimsim-nn directory mode): real values per the ISA document, pimsim-nn's timing and energy
 * model, checks pimsim-nn does not make, reports and Chrome traces.
 */
export { simulateBundle, simulateDirectory, simulateBundleFiles, MAX_SIMULATED_MEMORY } from './simulate';
export type { SimMode, SimulateOptions, SimulationResult, Compatibility } from './simulate';
export { SIM_MESSAGES } from './diagnostics';
export type { SimError, SimErrorKind } from './diagnostics';
export { runFunctional } from './functional/engine';
export type {
  ElementType,
  GroupWeights,
  FunctionalMachine,
  FunctionalInput,
  FunctionalResult,
} from './functional/engine';
export { Memory } from './functional/memory';
export { runTiming } from './timing/engine';
export type { TimingOptions } from './timing/engine';
export type { TimingResult, CoreStats, EnergyBreakdown, TraceEvent } from './timing/types';
export { compileProgram } from './program';
export type { CompiledProgram } from './program';
export { deriveParams, denseNetwork } from './params';
export type { SimParams, MemoryParams, DenseNetwork } from './params';
export { readNpy, writeNpy, npyElementSize } from './io/npy';
export type { NpyArray, NpyDtype, NpyData, NpyReadResult } from './io/npy';
export { jsonReport, textReport, chromeTrace, chromeTraceJsonChunks } from './report';
export type { JsonReport, JsonCoreReport } from './report';
