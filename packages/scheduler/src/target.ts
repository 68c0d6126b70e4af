/**
 * The pass-context keys of the scheduler's passes: the target machine (`'raptor.target'`, the
 * key every stage reads) and the sink of schedule reports (`'raptor.schedule-report'`).
 */
import { definePassContextKey, type Pass } from '@raptor-pim/ir-core';
import { defaultTarget, emptyNetworkTable, type HardwareConfig, type Target } from '@raptor-pim/pim-target';
import type { SchedulerRunReport } from './scheduler';

/** The target machine of the pass (shared key name with the other stages). */
export const TargetKey = definePassContextKey<Target | HardwareConfig>('raptor.target');
/** Where `spat-schedule` sends its report. */
export const ScheduleReportKey = definePassContextKey<(report: SchedulerRunReport) => void>('raptor.schedule-report');

/** The target of a pass: the context value, or the default target. */
export function targetOf(pass: Pass): Target {
  const t = pass.getContext(TargetKey);
  if (!t) return defaultTarget();
  return 'config' in t ? t : { config: t, network: emptyNetworkTable() };
}

