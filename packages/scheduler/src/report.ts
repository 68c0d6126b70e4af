/**
 * The schedule report: per core the estimated busy time by unit, crossbars and peak local
 * memory; per layer (graph compute) its replicas and cores; the estimated latency and
 * throughput; the bounds B0-B5 and the estimate as a multiple of them. JSON-like values only,
 * so reports print and compare byte for byte.
 */
import type { Bounds, CostModel } from '@raptor-pim/pim-target';
import type { ScheduleEstimate } from './planning/estimate';
import type { ScheduleReplay } from './planning/schedule-replay';

/** One core of the report. */
export type CoreReport = {
  readonly core: number;
  readonly mvmNs: number;
  readonly vectorNs: number;
  /** Local copies and fills (`lmv`, `lldi`). */
  readonly copyNs: number;
  readonly transferNs: number;
  readonly hostNs: number;
  readonly syncNs: number;
  readonly busyNs: number;
  readonly crossbars: number;
  readonly peakLocalBytes: number;
  readonly replicas: number;
};

/** One graph compute of the report. */
export type LayerReport = {
  readonly name: string;
  readonly lanes: number;
  readonly replicas: number;
  readonly copies: number;
  readonly cores: readonly number[];
  /** Cores that recompute the node instead of receiving it (see mirrorHostFedComputes). */
  readonly mirrors: readonly number[];
  readonly crossbarsPerCopy: number;
  readonly granularity: string;
  /** Streaming windows: rounds per window of a replica (see `NodePlacement.windowRounds`). */
  readonly windowRounds?: number;
  /** Exact streaming windows: each run holds only what it reads (see `NodePlacement.exactWindows`). */
  readonly exactWindows?: boolean;
  /** In a host plan: results streamed to the readers through channels, not host slots (see `NodePlacement.onChip`). */
  readonly onChip?: boolean;
};

/** The bounds of hardware-defaults.md for the scheduled model. */
export type BoundsReport = {
  readonly crossbarsNeeded: number;
  readonly crossbarsAvailable: number;
  readonly b1Ns: number;
  readonly b2Ns: number;
  readonly b3Ns: number;
  readonly b4Ns: number;
  readonly b5Ns: number;
  readonly throughputMax: number;
  readonly latencyMinNs: number;
};

/** Everything a schedule reports. */
export type ScheduleReport = {
  readonly strategy: string;
  readonly function: string;
  /** Estimated latency of one inference (ns): the replay of the scheduled programs ({@link replaySchedule}) where it ran, else the plan's analytic estimate. */
  readonly latencyNs: number;
  /** Estimated steady-state period (ns), from the same source as {@link ScheduleReport.latencyNs}. */
  readonly periodNs: number;
  readonly throughput: number;
  /** Where the latency and period come from: `replay` (the scheduled programs simulated) or `plan` (the analytic estimate alone). */
  readonly estimatedBy: 'replay' | 'plan';
  /** The plan's analytic latency (what the strategy compared plans by) (ns). */
  readonly planLatencyNs: number;
  /** The plan's analytic period (ns). */
  readonly planPeriodNs: number;
  /** estimated latency / latency_min. */
  readonly latencyRatio: number;
  /** throughput_max / estimated throughput. */
  readonly throughputRatio: number;
  readonly crossbarsUsed: number;
  readonly crossbarsAvailable: number;
  readonly crossbarUtilisation: number;
  readonly coresUsed: number;
  readonly peakLocalBytes: number;
  readonly transferBytes: number;
  readonly spilledBytes: number;
  readonly channels: number;
  readonly hostSlots: number;
  readonly trafficByteHopsBefore: number;
  readonly trafficByteHopsAfter: number;
  readonly bounds: BoundsReport;
  readonly layers: readonly LayerReport[];
  readonly cores: readonly CoreReport[];
  readonly warnings: readonly string[];
};

/** What {@link buildReport} takes besides the estimate and bounds. */
export interface ReportInputs {
  readonly strategy: string;
  readonly functionName: string;
  readonly layers: readonly LayerReport[];
  readonly channels: number;
  readonly hostSlots: number;
  readonly trafficBefore: number;
  readonly trafficAfter: number;
  readonly warnings: readonly string[];
  /** The replay of the materialized schedule, when it ran: its latency and period are reported. */
  readonly replay?: ScheduleReplay;
}

/** Rounds to 3 decimals (stable printing). */
function r3(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 1000) / 1000 : x > 0 ? 1e300 : 0;
}

/** Assembles the report of one scheduled function. */
export function buildReport(estimate: ScheduleEstimate, bounds: Bounds, cost: CostModel, inputs: ReportInputs): ScheduleReport {
  const crossbarsUsed = estimate.cores.reduce((a, c) => a + c.crossbars, 0);
  const replay = inputs.replay;
  const latencyNs = replay ? replay.latencyNs : estimate.latencyNs;
  const periodNs = replay ? replay.periodNs : estimate.periodNs;
  const throughput = replay ? replay.throughput : estimate.throughput;
  return {
    strategy: inputs.strategy,
    function: inputs.functionName,
    latencyNs: r3(latencyNs),
    periodNs: r3(periodNs),
    throughput: r3(throughput),
    estimatedBy: replay ? 'replay' : 'plan',
    planLatencyNs: r3(estimate.latencyNs),
    planPeriodNs: r3(estimate.periodNs),
    latencyRatio: r3(bounds.latencyMinNs > 0 ? latencyNs / bounds.latencyMinNs : 0),
    throughputRatio: r3(throughput > 0 ? bounds.throughputMax / throughput : 0),
    crossbarsUsed,
    crossbarsAvailable: cost.crossbars,
    crossbarUtilisation: r3(crossbarsUsed / Math.max(1, cost.crossbars)),
    coresUsed: estimate.cores.length,
    peakLocalBytes: Math.max(0, ...estimate.cores.map((c) => c.peakLocalBytes)),
    transferBytes: estimate.transferBytes,
    spilledBytes: estimate.spilledBytes,
    channels: inputs.channels,
    hostSlots: inputs.hostSlots,
    trafficByteHopsBefore: inputs.trafficBefore,
    trafficByteHopsAfter: inputs.trafficAfter,
    bounds: {
      crossbarsNeeded: bounds.crossbarsNeeded,
      crossbarsAvailable: bounds.crossbarsAvailable,
      b1Ns: r3(bounds.b1Ns),
      b2Ns: r3(bounds.b2Ns),
      b3Ns: r3(bounds.b3Ns),
      b4Ns: r3(bounds.b4Ns),
      b5Ns: r3(bounds.b5Ns),
      throughputMax: r3(bounds.throughputMax),
      latencyMinNs: r3(bounds.latencyMinNs),
    },
    layers: inputs.layers,
    cores: estimate.cores.map((c) => ({
      core: c.core,
      mvmNs: r3(c.mvmNs),
      vectorNs: r3(c.vectorNs),
      copyNs: r3(c.copyNs),
      transferNs: r3(c.transferNs),
      hostNs: r3(c.hostNs),
      syncNs: r3(c.syncNs),
      busyNs: r3(c.busyNs),
      crossbars: c.crossbars,
      peakLocalBytes: c.peakLocalBytes,
      replicas: c.replicas,
    })),
    warnings: inputs.warnings,
  };
}

function fmtNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(3)} us`;
  return `${ns.toFixed(1)} ns`;
}

/** The report as text (what `raptor opt` prints). */
export function formatReport(report: ScheduleReport): string {
  const lines: string[] = [];
  lines.push(`schedule of @${report.function} by '${report.strategy}'`);
  lines.push(
    `  latency ${fmtNs(report.latencyNs)} (${report.latencyRatio}x latency_min ${fmtNs(report.bounds.latencyMinNs)}), estimated by ${report.estimatedBy === 'replay' ? 'a replay of the core programs' : 'the plan'} (plan: latency ${fmtNs(report.planLatencyNs)}, period ${fmtNs(report.planPeriodNs)})`,
  );
  lines.push(
    `  throughput ${report.throughput.toFixed(1)}/s, period ${fmtNs(report.periodNs)} (throughput_max ${report.bounds.throughputMax.toFixed(1)}/s is ${report.throughputRatio}x)`,
  );
  lines.push(
    `  crossbars ${report.crossbarsUsed}/${report.crossbarsAvailable} (${(report.crossbarUtilisation * 100).toFixed(1)}%), cores ${report.coresUsed}, peak local memory ${report.peakLocalBytes} B`,
  );
  lines.push(
    `  traffic ${report.transferBytes} B in ${report.channels} channels, ${report.hostSlots} host slots (${report.spilledBytes} B through host); bytes x hops ${report.trafficByteHopsBefore} -> ${report.trafficByteHopsAfter} after placement`,
  );
  const b = report.bounds;
  lines.push(
    `  bounds: B0 ${b.crossbarsNeeded}/${b.crossbarsAvailable} crossbars, B1 ${fmtNs(b.b1Ns)}, B2 ${fmtNs(b.b2Ns)}, B3 ${fmtNs(b.b3Ns)}, B4 ${fmtNs(b.b4Ns)}, B5 ${fmtNs(b.b5Ns)}`,
  );
  lines.push('  layers:');
  for (const l of report.layers) lines.push(`    ${l.name}: ${l.lanes} lanes, ${l.replicas} replicas x ${l.copies} copies on cores [${l.cores.join(', ')}]${l.mirrors.length ? ` (recomputed on ${l.mirrors.length} more)` : ''}, ${l.crossbarsPerCopy} crossbars/copy, ${l.granularity}${l.windowRounds !== undefined ? `, ${l.exactWindows ? 'an exact window' : 'a window'} per ${l.windowRounds} rounds` : ''}${l.onChip ? ', streamed on chip' : ''}`);
  lines.push('  cores:');
  for (const c of report.cores) {
    lines.push(
      `    core ${c.core}: busy ${fmtNs(c.busyNs)} (mvm ${fmtNs(c.mvmNs)}, vector ${fmtNs(c.vectorNs)}, copy ${fmtNs(c.copyNs)}, transfer ${fmtNs(c.transferNs)}, host ${fmtNs(c.hostNs)}), ${c.crossbars} crossbars, ${c.peakLocalBytes} B`,
    );
  }
  for (const w of report.warnings) lines.push(`  warning: ${w}`);
  return lines.join('\n') + '\n';
}
