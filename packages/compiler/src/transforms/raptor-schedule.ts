/**
 * `raptor-schedule`: the scheduler slot of the pipeline. Runs the {@link Scheduler} stored
 * under the `'raptor.scheduler'` pass-context key (set by `compile({ scheduler })`) on the
 * module, with the target under `'raptor.target'`, and replaces the module's body with the
 * scheduled one. Without a scheduler it fails with the "no scheduler stage" diagnostic.
 */
import {
  Diagnostic,
  Pass,
  parsePassOptionValue,
  stringOption,
  type Operation,
  type PassOptionValue,
} from '@raptor-pim/ir-core';
import { defaultTarget } from '@raptor-pim/pim-target';
import { SchedulerKey, TargetKey } from '../context-keys';
import { CompilerMessages as M } from '../diagnostics';
import type { Scheduler, SchedulerOptions } from '../scheduler';

const strategyOption = stringOption('strategy', '', "the scheduler's name; empty: the scheduler given to compile()");
const optionsOption = stringOption('options', '', "the scheduler's options as 'name=value name=value' (checked against its options schema)");

/**
 * Splits `a=1 b={x y} c` into `[key, raw value]` pairs (a value in braces keeps its spaces; a
 * key without `=` has an undefined value, as a flag in a pipeline).
 */
function splitOptionText(text: string): { key: string; value: string | undefined }[] {
  const out: { key: string; value: string | undefined }[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    const start = i;
    let depth = 0;
    while (i < text.length && (depth > 0 || !/\s/.test(text[i]!))) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}') depth--;
      i++;
    }
    const item = text.slice(start, i);
    const eq = item.indexOf('=');
    if (eq < 0) out.push({ key: item, value: undefined });
    else {
      let v = item.slice(eq + 1);
      if (v.startsWith('{') && v.endsWith('}')) v = v.slice(1, -1);
      out.push({ key: item.slice(0, eq), value: v });
    }
  }
  return out;
}

/**
 * Parses `text` against `scheduler.optionsSchema` on top of `base`; returns the options or the
 * message naming the option and the accepted values.
 */
export function parseSchedulerOptions(scheduler: Scheduler, text: string, base: SchedulerOptions = {}): SchedulerOptions | string {
  const values: Record<string, PassOptionValue> = { ...base };
  for (const { key, value } of splitOptionText(text)) {
    const spec = scheduler.optionsSchema.find((s) => s.name === key);
    if (!spec) {
      const known = scheduler.optionsSchema.map((s) => s.name);
      return M.schedulerBadOption(scheduler.name, `unknown option '${key}'; the options are: ${known.join(', ') || '(none)'}`);
    }
    const r = parsePassOptionValue(spec, value);
    if (!r.ok) return M.schedulerBadOption(scheduler.name, `option '${key}' expects ${r.expected}, got '${value ?? ''}'`);
    values[key] = r.value;
  }
  return values;
}

/** The `raptor-schedule` pass (see the file comment). */
export class RaptorSchedulePass extends Pass {
  override readonly argument = 'raptor-schedule';
  override readonly description = "Schedules graph computes onto cores with the Scheduler given to compile() (key 'raptor.scheduler')";
  override readonly opName = 'builtin.module';
  override readonly optionSpecs = [strategyOption, optionsOption];

  runOnOperation(module: Operation): void {
    const fail = (message: string): void => {
      module.context.diagnostics.emit(new Diagnostic('error', module.location, message));
      this.signalPassFailure();
    };
    const selection = this.getContext(SchedulerKey);
    const wanted = this.option(strategyOption);
    if (!selection) return fail(wanted === '' ? M.noSchedulerStage() : M.schedulerMismatch(wanted, []));
    const { scheduler } = selection;
    if (wanted !== '' && wanted !== scheduler.name) return fail(M.schedulerMismatch(wanted, [scheduler.name]));
    const options = parseSchedulerOptions(scheduler, this.option(optionsOption), selection.options);
    if (typeof options === 'string') return fail(options);
    const target = this.getContext(TargetKey) ?? defaultTarget();
    const result = scheduler.schedule(module, target, options);
    for (const d of result.diagnostics ?? []) module.context.diagnostics.emit(d);
    if (result.report) selection.onReport?.(scheduler.name, result.report);
    const scheduled = result.module;
    if (!scheduled) return fail(M.schedulerFailed(scheduler.name));
    if ((result.diagnostics ?? []).some((d) => d.severity === 'error')) return fail(M.schedulerFailed(scheduler.name));
    if (scheduled === module) return;
    if (scheduled.name !== 'builtin.module') return fail(M.schedulerReturnedNonModule(scheduler.name, scheduled.name));
    if (scheduled.context !== module.context) return fail(M.schedulerForeignContext(scheduler.name));
    replaceModuleBody(module, scheduled);
  }
}

/** Moves the body of `from` (a module) into `into`, replacing what `into` held. */
function replaceModuleBody(into: Operation, from: Operation): void {
  const body = into.regions[0]!.firstBlock!;
  for (const op of body.operations.reverse()) op.erase();
  body.spliceFrom(from.regions[0]!.firstBlock!);
  for (const [name, value] of from.attributes) into.setAttr(name, value);
}
