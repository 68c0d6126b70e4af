/**
 * The stages of the Raptor pipeline, in order. Each stage names the function that registers
 * its passes and the pipeline elements it contributes to `raptor-compile`. Adding a stage
 * package is one line here: its `register<Stage>Passes` and its elements.
 */
import { registerCorePasses, type PassRegistry } from '@raptor-pim/ir-core';
import { RaptorSchedulePass } from './transforms/raptor-schedule';

/** One stage of the pipeline. */
export interface CompilerStage {
  /** The stage's name in reports and diagnostics (`frontend`, `layout-planner`, ...). */
  readonly name: string;
  /** The package that provides it. */
  readonly packageName: string;
  /** Registers the stage's passes (`registerLayoutPlannerPasses`); omitted when it has none. */
  readonly register?: (registry: PassRegistry) => void;
  /**
   * The pipeline elements the stage contributes to `raptor-compile`, anchored on
   * `builtin.module` (`func.func(canonicalize,cse)`, `spat-plan-layouts`); empty when none.
   */
  readonly pipeline: string;
}

/** Registers the compiler's own passes (the `raptor-schedule` slot). */
export function registerCompilerPasses(registry: PassRegistry): void {
  registry.registerPass(() => new RaptorSchedulePass());
}

/**
 * ir-core's generic passes (`canonicalize`, `cse`): registered first, part of no stage's own
 * pipeline unless a stage lists them.
 */
export const CORE_PASSES: CompilerStage = {
  name: 'core',
  packageName: '@raptor-pim/ir-core',
  register: registerCorePasses,
  pipeline: '',
};

/**
 * Every stage, in pipeline order (ARCHITECTURE.md): onnx-frontend, layout-planner,
 * plan-lowering, scheduler, spatial-to-pim, bufferization, codegen. A stage package that
 * exists but exports no `register...Passes` yet is not listed.
 */
export const RAPTOR_STAGES: readonly CompilerStage[] = [
  // The importer is not a pass; after it, the module of plans is cleaned up.
  { name: 'frontend', packageName: '@raptor-pim/onnx-frontend', pipeline: 'func.func(canonicalize,cse)' },
  // Graph computes -> scheduled computes, through the Scheduler given to compile().
  { name: 'scheduler', packageName: '@raptor-pim/compiler', register: registerCompilerPasses, pipeline: 'raptor-schedule' },
];
