/**
 * The `pim-plan-memory` pass: a local memory plan per core stream (addresses from the live
 * intervals, recorded on the ops) and the host layout; a stream whose live data exceeds the
 * core's local memory is a diagnostic with the core, the peak and the capacity. Intervals come
 * from ir-core's `Liveness` analysis of each stream (`getAnalysisOf(Liveness, stream)`). The logic is
 * {@link planModuleMemory}.
 */
import { Liveness, Pass, type Operation } from '@raptor-pim/ir-core';
import { planModuleMemory, type ModuleMemoryReport } from '../analysis/plan-module';
import { targetConfigOf } from '../target';

/** Options of {@link PimPlanMemoryPass}. */
export interface PimPlanMemoryOptions {
  /** Receives the report of each run (per stream: planned peak vs lower bound). */
  readonly onReport?: (report: ModuleMemoryReport) => void;
}

/** `pim-plan-memory`. Statistics: `streams`, `max-peak-bytes`, `max-lower-bound-bytes`, `host-bytes`. */
export class PimPlanMemoryPass extends Pass {
  readonly argument = 'pim-plan-memory';
  override readonly description = 'Plan local memory addresses per core stream and the host memory layout';
  private readonly streams = this.statistic('streams', 'core streams planned');
  private readonly peak = this.statistic('max-peak-bytes', 'largest planned local peak of a stream');
  private readonly bound = this.statistic('max-lower-bound-bytes', 'largest simultaneously-live bytes of a stream');
  private readonly host = this.statistic('host-bytes', 'host memory laid out');

  constructor(private readonly options: PimPlanMemoryOptions = {}) {
    super();
  }

  runOnOperation(module: Operation): void {
    const report = planModuleMemory(module, targetConfigOf(this), (stream) => this.getAnalysisOf(Liveness, stream));
    this.markAllAnalysesPreserved(); // attributes only: no op, value or use changes
    this.streams.value += report.streams.length;
    for (const s of report.streams) {
      this.peak.value = Math.max(this.peak.value, s.peak);
      this.bound.value = Math.max(this.bound.value, s.lowerBound);
    }
    this.host.value += report.hostBytes;
    this.options.onReport?.(report);
    if (!report.ok) this.signalPassFailure();
  }
}
