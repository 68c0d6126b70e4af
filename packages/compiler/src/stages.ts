/**
 * The stages of the Raptor pipeline, in order. Each stage names its package, the passes it
 * registers (known statically, so a registry can resolve a pass name without loading the
 * package), the function that registers them and the pipeline elements it contributes to
 * `raptor-compile`. A stage package is loaded only when one of its passes is looked up (see
 * `RaptorPassRegistry`): `raptor opt --print-generic` loads none of them. Adding a stage
 * package is one entry here: its pass names, its `register<Stage>Passes` and its elements.
 */
import type { PassRegistry } from '@raptor-pim/ir-core';
import type * as Bufferization from '@raptor-pim/bufferization';
import type * as Codegen from '@raptor-pim/codegen';
import type * as LayoutPlanner from '@raptor-pim/layout-planner';
import type * as PlanLowering from '@raptor-pim/plan-lowering';
import type * as SchedulerPackage from '@raptor-pim/scheduler';
import type { Scheduler, SchedulerOptions } from '@raptor-pim/scheduler';
import type * as SpatialToPim from '@raptor-pim/spatial-to-pim';

/**
 * Loads a stage package synchronously, on first use (pass lookup is synchronous). The CommonJS
 * build and the tests have `require`; the ES module build defines it with `createRequire`
 * (the rollup configuration's `requireInEsm`). The package names are literals at each call,
 * so bundlers and readers see every dependency.
 */
declare const require: (id: string) => unknown;

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
   * The pipeline names of the passes `register` adds (sorted), known without loading the
   * package; empty when the stage registers none. A test checks them against `register`.
   */
  readonly passes: readonly string[];
  /**
   * Registers the stage's passes, loading the package on first call; omitted when it has none.
   * It receives the values given to `compile()` as a second argument, so a `register...Passes`
   * with parameters of its own is wrapped: `(r) => registerCodegenPasses(r)`.
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
  const { SpatSchedulePass, SpatVerifyCommunicationPass, SplitInputChannelsPass, SplitLanesPass, SplitOversizedComputesPass, TileParallelComputesPass, registerSchedulerPasses } = require('@raptor-pim/scheduler') as typeof SchedulerPackage;
  const { scheduler, schedulerOptions = {} } = options;
  if (!scheduler) return registerSchedulerPasses(registry);
  registry.registerPass(() => {
    const pass = new SpatSchedulePass(scheduler);
    for (const [name, value] of Object.entries(schedulerOptions)) pass.setStrategyOption(name, optionText(value));
    return pass;
  });
  registry.registerPass(() => new SpatVerifyCommunicationPass());
  registry.registerPass(() => new SplitOversizedComputesPass());
  registry.registerPass(() => new TileParallelComputesPass());
  registry.registerPass(() => new SplitLanesPass());
  registry.registerPass(() => new SplitInputChannelsPass());
}

/**
 * Every stage, in pipeline order (ARCHITECTURE.md): onnx-frontend, layout-planner,
 * plan-lowering, scheduler, spatial-to-pim, bufferization, codegen.
 */
export const RAPTOR_STAGES: readonly CompilerStage[] = [
  // The importer is not a pass; after it, the module of plans is cleaned up.
  { name: 'frontend', packageName: '@raptor-pim/onnx-frontend', passes: [], pipeline: 'func.func(canonicalize,cse)' },
  {
    name: 'layout-planner',
    packageName: '@raptor-pim/layout-planner',
    passes: ['spat-plan-layouts', 'spat-verify-layouts'],
    register: (r) => (require('@raptor-pim/layout-planner') as typeof LayoutPlanner).registerLayoutPlannerPasses(r),
    pipeline: 'func.func(spat-plan-layouts,spat-verify-layouts)',
  },
  {
    name: 'plan-lowering',
    packageName: '@raptor-pim/plan-lowering',
    passes: ['spat-lower-plans'],
    register: (r) => (require('@raptor-pim/plan-lowering') as typeof PlanLowering).registerPlanLoweringPasses(r),
    pipeline: 'func.func(spat-lower-plans)',
  },
  {
    name: 'scheduler',
    packageName: '@raptor-pim/scheduler',
    passes: ['spat-schedule', 'spat-split-input-channels', 'spat-split-oversized-computes', 'spat-tile-parallel-computes', 'spat-split-lanes', 'spat-verify-communication'],
    register: registerSchedulerStage,
    pipeline: 'spat-schedule,spat-verify-communication',
  },
  {
    name: 'spatial-to-pim',
    packageName: '@raptor-pim/spatial-to-pim',
    passes: ['spat-to-pim'],
    register: (r) => (require('@raptor-pim/spatial-to-pim') as typeof SpatialToPim).registerSpatialToPimPasses(r),
    pipeline: 'spat-to-pim',
  },
  {
    name: 'bufferization',
    packageName: '@raptor-pim/bufferization',
    passes: ['pim-bufferize', 'pim-plan-memory', 'pim-verify-memory'],
    register: (r) => (require('@raptor-pim/bufferization') as typeof Bufferization).registerBufferizationPasses(r),
    pipeline: 'pim-bufferize,pim-plan-memory,pim-verify-memory',
  },
  {
    name: 'codegen',
    packageName: '@raptor-pim/codegen',
    passes: ['pim-allocate-array-groups', 'pim-emit', 'pim-verify-codegen'],
    register: (r) => (require('@raptor-pim/codegen') as typeof Codegen).registerCodegenPasses(r),
    pipeline: 'pim-verify-codegen,pim-allocate-array-groups,pim-emit',
  },
];
