/**
 * `spat-schedule{strategy=NAME | plugin=PATH, <strategy options>}`: schedules the module's
 * graph computes onto the cores of the target (pass-context key `'raptor.target'`, else the
 * default target) with a built-in strategy or a plug-in, and hands the report to the
 * `'raptor.schedule-report'` sink (also kept as {@link SpatSchedulePass.lastReport}).
 */
import {
  Diagnostic,
  Pass,
  parsePassOptionValue,
  stringOption,
  type Operation,
  type PassOptionValue,
} from '@raptor-pim/ir-core';
import { SchedulerMessages as M } from '../diagnostics';
import { ScheduleReportKey, targetOf } from '../target';
import { loadSchedulerPluginSync } from '../plugin';
import type { Scheduler, SchedulerOptions, SchedulerRunReport } from '../scheduler';
import { CommunicationVerified } from './spat-verify-communication';
import { BUILTIN_SCHEDULERS, builtinScheduler } from '../strategies';

const strategyOption = stringOption('strategy', '', `a built-in strategy: ${BUILTIN_SCHEDULERS.map((s) => s.name).join(', ')} (default ${BUILTIN_SCHEDULERS[0]!.name})`);
const pluginOption = stringOption('plugin', '', 'path of a scheduler plug-in module (default export: a Scheduler)');

/** The `spat-schedule` pass. */
export class SpatSchedulePass extends Pass {
  override readonly argument = 'spat-schedule';
  override readonly description = 'Schedules graph computes onto physical cores (replication, mapping, communication)';
  override readonly opName = 'builtin.module';
  override readonly optionSpecs = [strategyOption, pluginOption];
  /** Options of the strategy, as written in the pipeline (checked against its schema when it runs). */
  private readonly strategyOptions = new Map<string, string | undefined>();
  /** The report of the last run. */
  lastReport: SchedulerRunReport | undefined;

  constructor(private readonly given?: Scheduler) {
    super();
  }

  /** Accepts the pass's own options and, unchecked until the run, any strategy option. */
  override setOptionFromString(name: string, raw: string | undefined): string | null {
    if (this.optionSpecs.some((s) => s.name === name)) return super.setOptionFromString(name, raw);
    this.strategyOptions.set(name, raw);
    return null;
  }

  /** Sets a strategy option programmatically. */
  setStrategyOption(name: string, raw: string): void {
    this.strategyOptions.set(name, raw);
  }

  private fail(module: Operation, message: string): void {
    module.context.diagnostics.emit(new Diagnostic('error', module.location, message));
    this.signalPassFailure();
  }

  runOnOperation(module: Operation): void {
    const strategy = this.option(strategyOption);
    const plugin = this.option(pluginOption);
    if (strategy && plugin) return this.fail(module, M.strategyAndPlugin());
    let scheduler: Scheduler | undefined = this.given;
    if (plugin) {
      const s = loadSchedulerPluginSync(plugin);
      if (typeof s === 'string') return this.fail(module, s);
      scheduler = s;
    } else if (strategy || !scheduler) {
      const name = strategy || BUILTIN_SCHEDULERS[0]!.name;
      scheduler = builtinScheduler(name);
      if (!scheduler) return this.fail(module, M.unknownStrategy(name, BUILTIN_SCHEDULERS.map((s) => s.name)));
    }
    const options: Record<string, PassOptionValue> = {};
    for (const [name, raw] of this.strategyOptions) {
      const spec = scheduler.optionsSchema.find((s) => s.name === name);
      if (!spec) return this.fail(module, M.unknownStrategyOption(scheduler.name, name, scheduler.optionsSchema.map((s) => s.name)));
      const r = parsePassOptionValue(spec, raw);
      if (!r.ok) return this.fail(module, M.badStrategyOption(scheduler.name, name, raw ?? '', r.expected));
      options[name] = r.value;
    }
    let result;
    try {
      result = scheduler.schedule(module, targetOf(this), options as SchedulerOptions);
    } catch (e) {
      return this.fail(module, M.pluginThrew(scheduler.name, e instanceof Error ? e.message : String(e)));
    }
    if (!result.module) {
      for (const d of result.diagnostics) module.context.diagnostics.emit(d);
      this.signalPassFailure();
      return;
    }
    for (const d of result.diagnostics ?? []) module.context.diagnostics.emit(d);
    if (result.module !== module) module.regions[0]!.takeBody(result.module.regions[0]!);
    this.lastReport = result.report;
    this.getContext(ScheduleReportKey)?.(result.report);
    // Functions the scheduler checked in their final form: spat-verify-communication right after need not check them again.
    if (result.communicationVerified?.length) {
      const verified = this.getAnalysis(CommunicationVerified);
      verified.target = targetOf(this);
      for (const f of result.communicationVerified) verified.functions.add(f);
      this.markAnalysesPreserved(CommunicationVerified);
    }
  }
}
