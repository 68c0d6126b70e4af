import type { Operation } from '../ir/operation';

/** The value kinds a pass option can hold. */
export type PassOptionType = 'bool' | 'int' | 'float' | 'string' | 'int-list' | 'string-list';

/** A pass option value. */
export type PassOptionValue = boolean | number | string | readonly number[] | readonly string[];

/** Declaration of one pass option (MLIR's `Option<>` / `ListOption<>`). */
export interface PassOptionSpec {
  /** The name in pipelines (`max-iterations`). */
  readonly name: string;
  /** The value kind. */
  readonly type: PassOptionType;
  /** The default value. */
  readonly defaultValue: PassOptionValue;
  /** Help text. */
  readonly description: string;
}

/** Declares a pass option. */
export function passOption(
  name: string,
  type: PassOptionType,
  defaultValue: PassOptionValue,
  description = '',
): PassOptionSpec {
  return { name, type, defaultValue, description };
}

/** A pass statistic: a named counter reported by the pass manager (MLIR's `Statistic`). */
export class PassStatistic {
  /** The current value. */
  value = 0;
  constructor(
    /** Name as reported (`num-folded`). */
    readonly name: string,
    /** Description. */
    readonly description: string,
  ) {}
}

/**
 * A pass (MLIR's `Pass`/`OperationPass<>`): runs on one operation at a time. Subclasses set
 * `argument` (the pipeline name), optionally `opName` (restrict to ops of that name), declare
 * `optionSpecs`, and implement `runOnOperation`. Failures are reported with diagnostics on the
 * IR plus {@link signalPassFailure}; a pass never throws for bad input.
 */
export abstract class Pass {
  /** The pipeline name (`canonicalize`, `spat-plan-layouts`). */
  abstract readonly argument: string;
  /** Help text. */
  readonly description: string = '';
  /** The op name this pass is restricted to (`func.func`), or `null` for any op. */
  readonly opName: string | null = null;
  /** Declared options. */
  readonly optionSpecs: readonly PassOptionSpec[] = [];
  /** Registered statistics. */
  readonly statistics: PassStatistic[] = [];
  private readonly optionValues = new Map<string, PassOptionValue>();
  private failedFlag = false;
  private current: Operation | null = null;

  /** The display name (timing, IR dumps); defaults to the argument. */
  get name(): string {
    return this.argument;
  }

  /** The operation being processed (valid inside `runOnOperation`). */
  getOperation(): Operation {
    if (!this.current) throw new Error(`internal error: pass '${this.argument}' has no current operation`);
    return this.current;
  }

  /** Does the work on `op` (also available as {@link getOperation}). */
  abstract runOnOperation(op: Operation): void;

  /** Marks the current run as failed (the pass manager stops after this pass). */
  signalPassFailure(): void {
    this.failedFlag = true;
  }

  /** True when this pass can run on `op` (default: `opName` matches, or any op). */
  canScheduleOn(op: Operation): boolean {
    return this.opName === null || this.opName === op.name;
  }

  /** Declares (or returns the existing) statistic `name`. */
  statistic(name: string, description: string): PassStatistic {
    let s = this.statistics.find((x) => x.name === name);
    if (!s) this.statistics.push((s = new PassStatistic(name, description)));
    return s;
  }

  /** The value of option `name` (its default when not set). */
  getOption<T extends PassOptionValue>(name: string): T {
    const v = this.optionValues.get(name);
    if (v !== undefined) return v as T;
    const spec = this.optionSpecs.find((o) => o.name === name);
    if (!spec) throw new Error(`internal error: pass '${this.argument}' has no option '${name}'`);
    return spec.defaultValue as T;
  }

  /** Sets option `name` (the caller has validated the value's kind). */
  setOption(name: string, value: PassOptionValue): void {
    this.optionValues.set(name, value);
  }

  /** The options that were set explicitly. */
  get explicitOptions(): ReadonlyMap<string, PassOptionValue> {
    return this.optionValues;
  }

  /** @internal Runs the pass on `op`; returns false on failure. */
  run(op: Operation): boolean {
    this.failedFlag = false;
    this.current = op;
    try {
      this.runOnOperation(op);
    } finally {
      this.current = null;
    }
    return !this.failedFlag;
  }
}

/** What {@link createPass} takes. */
export interface PassSpec {
  /** Pipeline name. */
  readonly argument: string;
  /** Display name (default: the argument). */
  readonly name?: string;
  /** Help text. */
  readonly description?: string;
  /** Op name restriction. */
  readonly opName?: string | null;
  /** Options. */
  readonly options?: readonly PassOptionSpec[];
  /** The work; call `pass.signalPassFailure()` on failure. */
  run(op: Operation, pass: Pass): void;
}

/** Builds a pass from a function (handy for tests and small passes). */
export function createPass(spec: PassSpec): Pass {
  class FunctionPass extends Pass {
    override readonly argument = spec.argument;
    override readonly description = spec.description ?? '';
    override readonly opName = spec.opName ?? null;
    override readonly optionSpecs = spec.options ?? [];
    override get name(): string {
      return spec.name ?? spec.argument;
    }
    runOnOperation(op: Operation): void {
      spec.run(op, this);
    }
  }
  return new FunctionPass();
}
