import type { Pass } from './pass';

/** One registered pass: its pipeline name, help text and factory. */
export interface PassRegistration {
  /** Pipeline name. */
  readonly argument: string;
  /** Help text. */
  readonly description: string;
  /** Creates a fresh instance (with default options). */
  readonly create: () => Pass;
}

/** One registered pipeline alias: a name that expands to a textual pipeline element list. */
export interface PipelineRegistration {
  /** Pipeline name. */
  readonly argument: string;
  /** Help text. */
  readonly description: string;
  /** The elements it expands to (e.g. `canonicalize,cse`), parsed in the same anchor. */
  readonly pipeline: string;
}

/**
 * Passes and pipelines by pipeline name (MLIR's pass registry). The compiler owns one and
 * each stage package registers its passes in it.
 */
export class PassRegistry {
  private readonly passes = new Map<string, PassRegistration>();
  private readonly pipelines = new Map<string, PipelineRegistration>();

  /** Registers a pass factory under its argument (an internal error if taken). */
  registerPass(create: () => Pass, description?: string): void {
    const sample = create();
    const arg = sample.argument;
    if (this.passes.has(arg) || this.pipelines.has(arg)) throw new Error(`internal error: pass '${arg}' registered twice`);
    this.passes.set(arg, { argument: arg, description: description ?? sample.description, create });
  }

  /** Registers a pipeline alias. */
  registerPipeline(argument: string, pipeline: string, description = ''): void {
    if (this.passes.has(argument) || this.pipelines.has(argument)) {
      throw new Error(`internal error: pipeline '${argument}' registered twice`);
    }
    this.pipelines.set(argument, { argument, description, pipeline });
  }

  /** The pass registered as `argument`. */
  lookupPass(argument: string): PassRegistration | undefined {
    return this.passes.get(argument);
  }

  /** The pipeline registered as `argument`. */
  lookupPipeline(argument: string): PipelineRegistration | undefined {
    return this.pipelines.get(argument);
  }

  /** All registered passes, sorted by argument. */
  get registeredPasses(): PassRegistration[] {
    return [...this.passes.values()].sort((a, b) => (a.argument < b.argument ? -1 : 1));
  }
}
