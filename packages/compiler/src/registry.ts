/**
 * The registry of every Raptor pass and named pipeline: what `compile()` and `raptor opt`
 * resolve textual pipelines with.
 */
import { PassRegistry, registerCorePasses, type PassRegistration } from '@raptor-pim/ir-core';
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

/**
 * A {@link PassRegistry} that also knows which stage registered each pass, and loads a stage's
 * package only when one of its passes is looked up (by its static {@link CompilerStage.passes}):
 * parsing a pipeline of ir-core passes, or none, loads no stage package.
 */
export class RaptorPassRegistry extends PassRegistry {
  private readonly stageByPass = new Map<string, string>();
  /** Stages whose passes are announced but whose package is not loaded yet, by pass name. */
  private readonly pending = new Map<string, { readonly stage: CompilerStage; readonly options: StageRegistrationOptions }>();
  private readonly loaded: string[] = [];

  constructor(
    /** The stages whose passes and pipelines this registry holds, in pipeline order. */
    readonly stages: readonly CompilerStage[],
  ) {
    super();
  }

  /** The stage that registered (or will register) the pass `argument` (`core` for ir-core's passes). */
  stageOf(argument: string): string | undefined {
    return this.stageByPass.get(argument) ?? this.pending.get(argument)?.stage.name;
  }

  /** The names of the stages whose packages were loaded into this registry, in load order. */
  get loadedStages(): readonly string[] {
    return this.loaded;
  }

  /** The pass registered as `argument`, loading its stage's package first if needed. */
  override lookupPass(argument: string): PassRegistration | undefined {
    const pending = this.pending.get(argument);
    if (pending) this.loadStage(pending.stage, pending.options);
    return super.lookupPass(argument);
  }

  /** All registered passes, sorted by argument (loads every pending stage). */
  override get registeredPasses(): PassRegistration[] {
    for (const { stage, options } of [...new Set(this.pending.values())]) if (this.pending.has(stage.passes[0]!)) this.loadStage(stage, options);
    return super.registeredPasses;
  }

  /** @internal Runs `register` and records that the passes it added belong to `stage`. */
  registerFor(stage: string, register: (registry: PassRegistry) => void): string[] {
    const before = new Set(super.registeredPasses.map((p) => p.argument));
    register(this);
    const added = super.registeredPasses.map((p) => p.argument).filter((a) => !before.has(a));
    for (const a of added) this.stageByPass.set(a, stage);
    return added;
  }

  /**
   * @internal Announces `stage`'s passes (its static names); its package is loaded and
   * `register` run when one of them is looked up.
   */
  registerLazily(stage: CompilerStage, options: StageRegistrationOptions): void {
    const entry = { stage, options };
    for (const name of stage.passes) {
      if (this.pending.has(name) || super.lookupPass(name) || this.lookupPipeline(name)) throw new Error(`internal error: pass '${name}' registered twice`);
      this.pending.set(name, entry);
    }
  }

  private loadStage(stage: CompilerStage, options: StageRegistrationOptions): void {
    for (const name of stage.passes) this.pending.delete(name);
    this.loaded.push(stage.name);
    const added = this.registerFor(stage.name, (r) => stage.register!(r, options)).sort();
    const declared = [...stage.passes].sort();
    if (added.join() !== declared.join()) {
      throw new Error(`internal error: stage '${stage.name}' declares the passes [${declared.join(', ')}] but ${stage.packageName} registered [${added.join(', ')}]`);
    }
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
 * `register...Passes`, and the named pipelines `raptor-frontend` and `raptor-compile`. In a
 * {@link RaptorPassRegistry} a stage's package is loaded when one of its passes is first looked
 * up; in any other registry every stage registers now.
 */
export function registerRaptorPasses(registry: PassRegistry, options: RaptorPassRegistryOptions = {}): void {
  const stages = options.stages ?? RAPTOR_STAGES;
  if (registry instanceof RaptorPassRegistry) {
    registry.registerFor(CORE_STAGE, registerCorePasses);
    for (const stage of stages) {
      if (!stage.register) continue;
      // A stage that names no passes cannot be loaded on demand: it registers now.
      if (stage.passes.length === 0) registry.registerFor(stage.name, (r) => stage.register!(r, options));
      else registry.registerLazily(stage, options);
    }
  } else {
    registerCorePasses(registry);
    for (const stage of stages) if (stage.register) stage.register(registry, options);
  }
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
