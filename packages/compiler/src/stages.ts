/**
 * The stages of the Raptor pipeline, in order. Each stage names the function that registers
 * its passes and the pipeline elements it contributes to `raptor-compile`. Adding a stage
 * package is one line here: its `register<Stage>Passes` and its elements.
 */
import type { PassRegistry } from '@raptor-pim/ir-core';
import { registerBufferizationPasses } from '@raptor-pim/bufferization';
import { registerCodegenPasses } from '@raptor-pim/codegen';
import { registerLayoutPlannerPasses } from '@raptor-pim/layout-planner';
import { registerPlanLoweringPasses } from '@raptor-pim/plan-lowering';
import { SpatSchedulePass, SpatVerifyCommunicationPass, registerSchedulerPasses, type Scheduler, type SchedulerOptions } from '@raptor-pim/scheduler';
import { registerSpatialToPimPasses } from '@raptor-pim/spatial-to-pim';

/** What a stage's registration may depend on (the values given to `compile()`). */
export interface StageRegistrationOptions {
  /** The scheduler `spat-schedule` runs when the pipeline names no strategy. */
  readonly scheduler?: Scheduler;
  /** Options of that scheduler (typed by its `optionsSchema`; the pipeline's own options win). */
  readonly schedulerOptions?: SchedulerOptions;
}

/** One stage of the pipeline. */
export interface CompilerStage {
  /** The stage's name in reports and diagnostics (`frontend`, `layout-planner`, ...). */
  readonly name: string;
  /** The package that provides it. */
  readonly packageName: string;
  /**
   * Registers the stage's passes; omitted when it has none. It receives the values given to
   * `compile()` as a second argument, so a `register...Passes` with parameters of its own is
   * wrapped: `(r) => registerCodegenPasses(r)`.
   */
  readonly register?: (registry: PassRegistry, options: StageRegistrationOptions) => void;
  /**
   * The pipeline elements the stage contributes to `raptor-compile`, anchored on
   * `builtin.module` (`func.func(canonicalize,cse)`, `spat-schedule`); empty when none.
   */
  readonly pipeline: string;
}

/** A pass option value as pipeline text (`1,2,3` for lists). */
function optionText(value: SchedulerOptions[string]): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * The scheduler stage: `registerSchedulerPasses`, except that a {@link Scheduler} given to
 * `compile()` becomes the one `spat-schedule` runs (with its options).
 */
function registerSchedulerStage(registry: PassRegistry, options: StageRegistrationOptions): void {
  const { scheduler, schedulerOptions = {} } = options;
  if (!scheduler) return registerSchedulerPasses(registry);
  registry.registerPass(() => {
    const pass = new SpatSchedulePass(scheduler);
    for (const [name, value] of Object.entries(schedulerOptions)) pass.setStrategyOption(name, optionText(value));
    return pass;
  });
  registry.registerPass(() => new SpatVerifyCommunicationPass());
}

/**
 * Every stage, in pipeline order (ARCHITECTURE.md): onnx-frontend, layout-planner,
 * plan-lowering, scheduler, spatial-to-pim, bufferization, codegen.
 */
export const RAPTOR_STAGES: readonly CompilerStage[] = [
  // The importer is not a pass; after it, the module of plans is cleaned up.
  { name: 'frontend', packageName: '@raptor-pim/onnx-frontend', pipeline: 'func.func(canonicalize,cse)' },
  { name: 'layout-planner', packageName: '@raptor-pim/layout-planner', register: (r) => registerLayoutPlannerPasses(r), pipeline: 'func.func(spat-plan-layouts,spat-verify-layouts)' },
  { name: 'plan-lowering', packageName: '@raptor-pim/plan-lowering', register: (r) => registerPlanLoweringPasses(r), pipeline: 'func.func(spat-lower-plans)' },
  { name: 'scheduler', packageName: '@raptor-pim/scheduler', register: registerSchedulerStage, pipeline: 'spat-schedule,spat-verify-communication' },
  { name: 'spatial-to-pim', packageName: '@raptor-pim/spatial-to-pim', register: (r) => registerSpatialToPimPasses(r), pipeline: 'spat-to-pim' },
  { name: 'bufferization', packageName: '@raptor-pim/bufferization', register: (r) => registerBufferizationPasses(r), pipeline: 'pim-bufferize,pim-plan-memory,pim-verify-memory' },
  { name: 'codegen', packageName: '@raptor-pim/codegen', register: (r) => registerCodegenPasses(r), pipeline: 'pim-verify-codegen,pim-allocate-array-groups,pim-emit' },
];
