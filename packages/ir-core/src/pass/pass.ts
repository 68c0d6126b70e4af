import { M } from '../diagnostics/ir-messages';
import type { Operation } from '../ir/operation';
import { AnalysisManager, type AnalysisConstructor, type PreservedAnalyses } from './analysis-manager';
import { PassContext, type PassContextKey } from './pass-context';

/**
 * The value kinds a pass option can hold: `bool`, `int`, `uint` (non-negative integer),
 * `float`, `string`, `enum` (one of {@link PassOptionSpec.values}) and the list forms
 * (`int-list`, `uint-list`, `string-list`, `enum-list`; comma-separated in pipelines).
 */
export type PassOptionType =
  | 'bool'
  | 'int'
  | 'uint'
  | 'float'
  | 'string'
  | 'enum'
  | 'int-list'
  | 'uint-list'
  | 'string-list'
  | 'enum-list';

/** A pass option value. */
export type PassOptionValue = boolean | number | string | readonly number[] | readonly string[];

/**
 * Declaration of one pass option (MLIR's `Option<>` / `ListOption<>`). `T` is the type the
 * typed accessor {@link Pass.option} returns; declare options with {@link intOption},
 * {@link boolOption}, {@link enumOption}, ... so `T` is inferred.
 */
export interface PassOptionSpec<T extends PassOptionValue = PassOptionValue> {
  /** The name in pipelines (`max-iterations`). */
  readonly name: string;
  /** The value kind. */
  readonly type: PassOptionType;
  /** The default value. */
  readonly defaultValue: T;
  /** Help text. */
  readonly description: string;
  /** The accepted values of an `enum` / `enum-list` option, in the order they are listed. */
  readonly values?: readonly string[];
}

/**
 * Declares a pass option of any kind (untyped form, kept for existing passes; prefer the
 * typed helpers such as {@link intOption}).
 */
export function passOption(
  name: string,
  type: PassOptionType,
  defaultValue: PassOptionValue,
  description = '',
): PassOptionSpec {
  return { name, type, defaultValue, description };
}

/** A `bool` option (`flag`, `flag=true`, `flag=false`, `1`, `0` in pipelines). */
export function boolOption(name: string, defaultValue: boolean, description = ''): PassOptionSpec<boolean> {
  return { name, type: 'bool', defaultValue, description };
}
/** An `int` option (a possibly negative decimal integer). */
export function intOption(name: string, defaultValue: number, description = ''): PassOptionSpec<number> {
  return { name, type: 'int', defaultValue, description };
}
/** A `uint` option (a non-negative decimal integer). */
export function uintOption(name: string, defaultValue: number, description = ''): PassOptionSpec<number> {
  return { name, type: 'uint', defaultValue, description };
}
/** A `float` option (any finite number). */
export function floatOption(name: string, defaultValue: number, description = ''): PassOptionSpec<number> {
  return { name, type: 'float', defaultValue, description };
}
/** A `string` option. */
export function stringOption(name: string, defaultValue: string, description = ''): PassOptionSpec<string> {
  return { name, type: 'string', defaultValue, description };
}
/**
 * An `enum` option: one of `values`. A value outside the list in a textual pipeline is a
 * diagnostic naming the pass, the option and the accepted values.
 *
 * @example
 * ```ts
 * const order = enumOption('order', ['top-down', 'bottom-up'] as const, 'top-down');
 * // in the pass: this.option(order) is 'top-down' | 'bottom-up'
 * ```
 */
export function enumOption<const V extends readonly string[]>(
  name: string,
  values: V,
  defaultValue: V[number],
  description = '',
): PassOptionSpec<V[number]> {
  return { name, type: 'enum', defaultValue, description, values };
}
/** An `int-list` option (`a=1,2,3`). */
export function intListOption(name: string, defaultValue: readonly number[] = [], description = ''): PassOptionSpec<readonly number[]> {
  return { name, type: 'int-list', defaultValue, description };
}
/** A `uint-list` option (non-negative integers). */
export function uintListOption(name: string, defaultValue: readonly number[] = [], description = ''): PassOptionSpec<readonly number[]> {
  return { name, type: 'uint-list', defaultValue, description };
}
/** A `string-list` option (`a=x,y`). */
export function stringListOption(name: string, defaultValue: readonly string[] = [], description = ''): PassOptionSpec<readonly string[]> {
  return { name, type: 'string-list', defaultValue, description };
}
/** An `enum-list` option: every element is one of `values`. */
export function enumListOption<const V extends readonly string[]>(
  name: string,
  values: V,
  defaultValue: readonly V[number][] = [],
  description = '',
): PassOptionSpec<readonly V[number][]> {
  return { name, type: 'enum-list', defaultValue, description, values };
}

/** The result of {@link parsePassOptionValue}: the value, or the reason it was rejected. */
export type ParsedPassOption = { readonly ok: true; readonly value: PassOptionValue } | { readonly ok: false; readonly expected: string };

function isInt(s: string, unsigned: boolean): boolean {
  return unsigned ? /^\d+$/.test(s) : /^-?\d+$/.test(s);
}

/**
 * Converts the textual value `raw` of an option (undefined: the option was named without
 * `=value`) to its typed value. On failure `expected` says what is accepted (for enums, the
 * listed values).
 */
export function parsePassOptionValue(spec: PassOptionSpec, raw: string | undefined): ParsedPassOption {
  const bad = (expected: string): ParsedPassOption => ({ ok: false, expected });
  const oneOf = (): string => `one of ${(spec.values ?? []).map((v) => `'${v}'`).join(', ')}`;
  const list = (): string[] => (raw === undefined || raw === '' ? [] : raw.split(',').map((x) => x.trim()));
  switch (spec.type) {
    case 'bool':
      if (raw === undefined || raw === 'true' || raw === '1') return { ok: true, value: true };
      if (raw === 'false' || raw === '0') return { ok: true, value: false };
      return bad('true or false');
    case 'int':
    case 'uint': {
      const u = spec.type === 'uint';
      return raw !== undefined && isInt(raw, u) ? { ok: true, value: Number(raw) } : bad(u ? 'a non-negative integer' : 'an integer');
    }
    case 'float': {
      const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
      return Number.isFinite(n) ? { ok: true, value: n } : bad('a number');
    }
    case 'string':
      return { ok: true, value: raw ?? '' };
    case 'enum':
      return raw !== undefined && (spec.values ?? []).includes(raw) ? { ok: true, value: raw } : bad(oneOf());
    case 'int-list':
    case 'uint-list': {
      const u = spec.type === 'uint-list';
      const parts = list();
      return parts.every((p) => isInt(p, u))
        ? { ok: true, value: parts.map(Number) }
        : bad(u ? 'a comma-separated list of non-negative integers' : 'a comma-separated list of integers');
    }
    case 'string-list':
      return { ok: true, value: list() };
    case 'enum-list': {
      const parts = list();
      return parts.every((p) => (spec.values ?? []).includes(p)) ? { ok: true, value: parts } : bad(`a comma-separated list of ${oneOf()}`);
    }
  }
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
  private passContext: PassContext = PassContext.empty;
  private analyses: AnalysisManager | null = null;
  private preserved: PreservedAnalyses | null = null;

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

  /**
   * The typed value of the declared option `spec` (its default when not set).
   *
   * @example
   * ```ts
   * const maxIterations = uintOption('max-iterations', 10);
   * class MyPass extends Pass {
   *   override readonly optionSpecs = [maxIterations];
   *   runOnOperation() { const n: number = this.option(maxIterations); }
   * }
   * ```
   */
  option<T extends PassOptionValue>(spec: PassOptionSpec<T>): T {
    if (!this.optionSpecs.some((o) => o.name === spec.name)) {
      throw new Error(`internal error: pass '${this.argument}' has no option '${spec.name}'`);
    }
    const v = this.optionValues.get(spec.name);
    return v !== undefined ? (v as T) : spec.defaultValue;
  }

  /** The value of option `name` (its default when not set); prefer the typed {@link option}. */
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

  /**
   * Sets option `name` from its textual form (as in a pipeline `name=value`). Returns null on
   * success, or the diagnostic message naming the pass, the option and the accepted values.
   */
  setOptionFromString(name: string, raw: string | undefined): string | null {
    const spec = this.optionSpecs.find((s) => s.name === name);
    if (!spec) return M.unknownPassOption(this.argument, name);
    const r = parsePassOptionValue(spec, raw);
    if (!r.ok) return M.badPassOptionValue(this.argument, name, raw ?? '', r.expected);
    this.optionValues.set(name, r.value);
    return null;
  }

  /**
   * The value stored under `key` by the pass manager running this pass
   * ({@link PassManager.setContext}), or `undefined` when none was set.
   *
   * @example
   * ```ts
   * const TargetKey = definePassContextKey<HardwareConfig>('raptor.target');
   * const target = this.getContext(TargetKey); // HardwareConfig | undefined
   * ```
   */
  getContext<T>(key: PassContextKey<T>): T | undefined {
    return this.passContext.get(key);
  }

  /**
   * The analysis `ctor` of the current operation, computed on first request and cached by the
   * pass manager's analysis manager until a pass that does not preserve it runs
   * (MLIR's `getAnalysis<T>()`). Run outside a pass manager, the cache lasts for this run.
   */
  getAnalysis<A>(ctor: AnalysisConstructor<A>): A {
    const op = this.getOperation();
    return this.analysisManager.getAnalysis(ctor, op);
  }

  private get analysisManager(): AnalysisManager {
    if (!this.analyses) throw new Error(`internal error: pass '${this.argument}' asked for an analysis outside runOnOperation`);
    return this.analyses;
  }

  /** The analysis `ctor` of `op` (nested in the current operation), cached likewise. */
  getAnalysisOf<A>(ctor: AnalysisConstructor<A>, op: Operation): A {
    return this.analysisManager.getAnalysis(ctor, op);
  }

  /** The cached analysis `ctor` of the current operation, without computing it. */
  getCachedAnalysis<A>(ctor: AnalysisConstructor<A>): A | undefined {
    return this.analyses?.getCachedAnalysis(ctor, this.getOperation());
  }

  /**
   * Declares that this run kept the analyses `ctors` valid: they stay cached after the pass
   * (every other analysis of the operation and of the ops nested in it is dropped).
   */
  markAnalysesPreserved(...ctors: AnalysisConstructor<unknown>[]): void {
    this.preserved?.preserve(ctors);
  }

  /** Declares that this run changed nothing any analysis depends on (all stay cached). */
  markAllAnalysesPreserved(): void {
    this.preserved?.preserveAll();
  }

  /** The options that were set explicitly. */
  get explicitOptions(): ReadonlyMap<string, PassOptionValue> {
    return this.optionValues;
  }

  /**
   * @internal Runs the pass on `op`; returns false on failure. The pass manager passes its
   * context values, its analysis manager and the set the pass fills with what it preserved.
   */
  run(op: Operation, passContext?: PassContext, analyses?: AnalysisManager, preserved?: PreservedAnalyses): boolean {
    this.failedFlag = false;
    this.current = op;
    this.passContext = passContext ?? PassContext.empty;
    this.analyses = analyses ?? new AnalysisManager();
    this.preserved = preserved ?? null;
    try {
      this.runOnOperation(op);
    } finally {
      this.current = null;
      this.passContext = PassContext.empty;
      this.analyses = null;
      this.preserved = null;
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
