/**
 * The registry of every Raptor pass and named pipeline: what `compile()` and `raptor opt`
 * resolve textual pipelines with.
 */
import { PassRegistry, registerCorePasses } from '@raptor-pim/ir-core';
import { RAPTOR_STAGES, type CompilerStage, type StageRegistrationOptions } from './stages';

/** Name of the pipeline that cleans up an imported module (the frontend stage's elements). */
export const RAPTOR_FRONTEND_PIPELINE = 'raptor-frontend';

/** Name of the whole pipeline (every stage's elements, in order). */
export const RAPTOR_COMPILE_PIPELINE = 'raptor-compile';

/** The stage name of ir-core's generic passes (`canonicalize`, `cse`) outside a stage's elements. */
export const CORE_STAGE = 'core';

/** Options of {@link createRaptorPassRegistry}. */
export interface RaptorPassRegistryOptions extends StageRegistrationOptions {
  /** The stages (default {@link RAPTOR_STAGES}). */
  readonly stages?: readonly CompilerStage[];
}

/** A {@link PassRegistry} that also knows which stage registered each pass. */
export class RaptorPassRegistry extends PassRegistry {
  private readonly stageByPass = new Map<string, string>();

  constructor(
    /** The stages whose passes and pipelines this registry holds, in pipeline order. */
    readonly stages: readonly CompilerStage[],
  ) {
    super();
  }

  /** The stage that registered the pass `argument` (`core` for ir-core's passes). */
  stageOf(argument: string): string | undefined {
    return this.stageByPass.get(argument);
  }

  /** @internal Runs `register` and records that the passes it added belong to `stage`. */
  registerFor(stage: string, register: (registry: PassRegistry) => void): void {
    const before = new Set(this.registeredPasses.map((p) => p.argument));
    register(this);
    for (const p of this.registeredPasses) if (!before.has(p.argument)) this.stageByPass.set(p.argument, stage);
  }
}

/**
 * The elements of `raptor-compile`: every stage's pipeline elements in order, anchored on
 * `builtin.module` (without the anchor).
 */
export function raptorCompileElements(stages: readonly CompilerStage[] = RAPTOR_STAGES): string {
  return stages
    .map((s) => s.pipeline)
    .filter((p) => p !== '')
    .join(',');
}

/**
 * Registers every Raptor pass in `registry`: ir-core's core passes, each stage's
 * `register...Passes`, and the named pipelines `raptor-frontend` and `raptor-compile`.
 */
export function registerRaptorPasses(registry: PassRegistry, options: RaptorPassRegistryOptions = {}): void {
  const stages = options.stages ?? RAPTOR_STAGES;
  const record = registry instanceof RaptorPassRegistry ? registry.registerFor.bind(registry) : (_: string, r: (x: PassRegistry) => void) => r(registry);
  record(CORE_STAGE, registerCorePasses);
  for (const stage of stages) if (stage.register) record(stage.name, (r) => stage.register!(r, options));
  const frontend = stages.find((s) => s.name === 'frontend');
  registry.registerPipeline(RAPTOR_FRONTEND_PIPELINE, frontend?.pipeline ?? '', 'the clean-up of a module imported from ONNX (the frontend stage)');
  registry.registerPipeline(RAPTOR_COMPILE_PIPELINE, raptorCompileElements(stages), 'the whole Raptor pipeline, stage by stage');
}

/**
 * Creates the registry of every Raptor pass (see {@link registerRaptorPasses}); with a
 * `scheduler`, `spat-schedule` runs it unless the pipeline names a strategy.
 *
 * @example
 * ```ts
 * const registry = createRaptorPassRegistry();
 * registry.registeredPasses.map((p) => p.argument); // ['canonicalize', 'cse', 'pim-bufferize', ...]
 * registry.stageOf('spat-schedule'); // 'scheduler'
 * ```
 */
export function createRaptorPassRegistry(options: RaptorPassRegistryOptions = {}): RaptorPassRegistry {
  const registry = new RaptorPassRegistry(options.stages ?? RAPTOR_STAGES);
  registerRaptorPasses(registry, options);
  return registry;
}
