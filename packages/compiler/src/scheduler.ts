/**
 * The scheduler slot of the pipeline. A scheduler maps a module of graph computes to physical
 * cores; any value with this shape can be given to `compile({ scheduler })`. The interface is
 * structural, so a scheduler written against `@raptor-pim/scheduler`'s own `Scheduler` type
 * (the package that owns the built-in strategies) fits here as well.
 */
import type { Diagnostic, Operation, PassOptionSpec, PassOptionValue } from '@raptor-pim/ir-core';
import type { Target } from '@raptor-pim/pim-target';

/** A value in a scheduler's report (JSON-like, so reports print and compare deterministically). */
export type ScheduleReportValue = number | string | boolean | readonly ScheduleReportValue[] | { readonly [key: string]: ScheduleReportValue };

/** What a scheduler says about its schedule (makespan estimate, cores used, ...). */
export type ScheduleReport = { readonly [key: string]: ScheduleReportValue };

/** Scheduler options by name, typed by the scheduler's {@link Scheduler.optionsSchema}. */
export type SchedulerOptions = { readonly [name: string]: PassOptionValue };

/** The outcome of {@link Scheduler.schedule}: the scheduled module, or the diagnostics saying why not. */
export type ScheduleResult =
  | { readonly module: Operation; readonly report: ScheduleReport; readonly diagnostics?: readonly Diagnostic[] }
  | { readonly module?: undefined; readonly diagnostics: readonly Diagnostic[]; readonly report?: ScheduleReport };

/**
 * A scheduling strategy: `schedule` receives the module (graph computes), the target machine and
 * its options, and returns the scheduled module (the same op changed in place, or a new
 * `builtin.module` whose body replaces the input's) or diagnostics. It must not throw for bad
 * input.
 */
export interface Scheduler {
  /** The strategy's name (`raptor-schedule{strategy=NAME}` selects it). */
  readonly name: string;
  /** The options it accepts, declared like pass options (values are parsed and typed with them). */
  readonly optionsSchema: readonly PassOptionSpec[];
  /** Schedules `module` on `target`. */
  schedule(module: Operation, target: Target, options: SchedulerOptions): ScheduleResult;
}

/** What the compiler stores under `'raptor.scheduler'`: the scheduler, its options and where its report goes. */
export interface SchedulerSelection {
  /** The scheduler to run. */
  readonly scheduler: Scheduler;
  /** Options given programmatically (a pipeline's `raptor-schedule{options={...}}` overrides them). */
  readonly options?: SchedulerOptions;
  /** Receives the scheduler's report. */
  readonly onReport?: (scheduler: string, report: ScheduleReport) => void;
}
