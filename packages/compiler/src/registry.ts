/**
 * The registry of every Raptor pass and named pipeline: what `compile()` and `raptor opt`
 * resolve textual pipelines with.
 */
import { PassRegistry } from '@raptor-pim/ir-core';
import { CORE_PASSES, RAPTOR_STAGES, type CompilerStage } from './stages';

/** Name of the pipeline that cleans up an imported module (the frontend stage's elements). */
export const RAPTOR_FRONTEND_PIPELINE = 'raptor-frontend';

/** Name of the whole pipeline (every stage's elements, in order). */
export const RAPTOR_COMPILE_PIPELINE = 'raptor-compile';

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

  /** @internal Records that the passes registered by `register` belong to `stage`. */
  registerStage(stage: CompilerStage): void {
    if (!stage.register) return;
    const before = new Set(this.registeredPasses.map((p) => p.argument));
    stage.register(this);
    for (const p of this.registeredPasses) if (!before.has(p.argument)) this.stageByPass.set(p.argument, stage.name);
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
 * Creates the registry of every Raptor pass: ir-core's core passes, each stage package's
 * `register...Passes`, and the named pipelines `raptor-frontend` and `raptor-compile`.
 *
 * @example
 * ```ts
 * const registry = createRaptorPassRegistry();
 * registry.registeredPasses.map((p) => p.argument); // ['canonicalize', 'cse', 'raptor-schedule', ...]
 * ```
 */
export function createRaptorPassRegistry(stages: readonly CompilerStage[] = RAPTOR_STAGES): RaptorPassRegistry {
  const registry = new RaptorPassRegistry(stages);
  registry.registerStage(CORE_PASSES);
  for (const stage of stages) registry.registerStage(stage);
  const frontend = stages.find((s) => s.name === 'frontend');
  registry.registerPipeline(
    RAPTOR_FRONTEND_PIPELINE,
    frontend?.pipeline ?? '',
    'the clean-up of a module imported from ONNX (the frontend stage)',
  );
  registry.registerPipeline(RAPTOR_COMPILE_PIPELINE, raptorCompileElements(stages), 'the whole Raptor pipeline, stage by stage');
  return registry;
}
