/**
 * The compile report: per-stage wall-clock time and passes, the module's op counts after each
 * stage, and the peak JS heap, collected by a pass instrumentation while the pipeline runs.
 */
import { printOperation, type Operation, type Pass, type PassInstrumentation } from '@raptor-pim/ir-core';
import type { EmitStatistics } from '@raptor-pim/codegen';
import type { SchedulerRunReport } from '@raptor-pim/scheduler';

/** Time spent in one pass (summed over the ops it ran on). */
export interface PassTimingEntry {
  readonly pass: string;
  readonly ms: number;
  /** The pass's statistics after its last run (`pim-bufferize`: `copies-inserted`, ...), when one of them is nonzero. */
  readonly statistics?: Readonly<Record<string, number>>;
}

/** One stage of the run. */
export interface StageReport {
  /** The stage name (`frontend`, `scheduler`, ...; `core` for ir-core's passes outside a named pipeline). */
  readonly stage: string;
  /** Wall-clock milliseconds of the stage. */
  readonly ms: number;
  /** Its passes, in first-run order (`import` for the ONNX importer). */
  readonly passes: readonly PassTimingEntry[];
  /** Operations in the module after the stage (the module itself not counted). */
  readonly opCount: number;
  /** The same by op name, keys sorted. */
  readonly opCounts: Readonly<Record<string, number>>;
}

/** What `compile()` measured. */
export interface CompileReport {
  /** The stages in the order they ran (consecutive passes of one stage form one entry). */
  readonly stages: readonly StageReport[];
  /** Wall-clock milliseconds of the whole compile. */
  readonly totalMs: number;
  /** The largest JS heap in use (bytes), sampled before the run and after the import and every pass. */
  readonly peakHeapBytes: number;
  /** The scheduler's own report (`spat-schedule`'s), when a scheduler ran. */
  readonly schedule?: SchedulerRunReport;
  /** What `pim-emit` emitted (cores, array groups, crossbars, instructions, ...), when it ran. */
  readonly emit?: EmitStatistics;
}

/** The IR printed after a pass named in `dumpAfter`. */
export interface IrDump {
  /** The pass's pipeline name. */
  readonly pass: string;
  /** The module as printed after it. */
  readonly ir: string;
}

/** A progress event: the step that is about to run. */
export interface CompileProgress {
  /** The stage of the step. */
  readonly stage: string;
  /** The pass (`import` for the ONNX importer). */
  readonly pass: string;
  /** 0-based index of the step. */
  readonly step: number;
  /** Number of steps (import, if any, plus the passes of the pipeline). */
  readonly steps: number;
  /** 0-based index of the step within its stage (a stage is a run of consecutive steps of one stage). */
  readonly stageStep: number;
  /** Number of steps of the stage in the pipeline (the import counts toward `frontend`). */
  readonly stageSteps: number;
}

/** Counts the ops nested in `root` by name. */
export function countOperations(root: Operation): { total: number; byName: Record<string, number> } {
  const counts = new Map<string, number>();
  let total = 0;
  root.walk((op) => {
    if (op === root) return;
    total++;
    counts.set(op.name, (counts.get(op.name) ?? 0) + 1);
  });
  const byName: Record<string, number> = {};
  for (const k of [...counts.keys()].sort()) byName[k] = counts.get(k)!;
  return { total, byName };
}

interface OpenStage {
  stage: string;
  ms: number;
  passes: Map<string, number>;
}

/** Collects a {@link CompileReport} (and the `dumpAfter` dumps, and progress events). */
export class CompileReportCollector implements PassInstrumentation {
  private readonly closed: StageReport[] = [];
  private open: OpenStage | null = null;
  private passStart = 0;
  private step = 0;
  private stageStep = 0;
  private peakHeap = 0;
  private readonly startedAt = performance.now();
  /** The dumps, in order. */
  readonly dumps: IrDump[] = [];
  /** The scheduler report, if one arrived. */
  schedule: SchedulerRunReport | undefined;

  constructor(
    private readonly root: () => Operation | undefined,
    private readonly stageOf: (pass: Pass) => string,
    private readonly dumpAfter: ReadonlySet<string>,
    private readonly steps: number,
    private readonly onProgress?: (event: CompileProgress) => void,
    private readonly stageSteps: ReadonlyMap<string, number> = new Map(),
  ) {
    this.sampleHeap();
  }

  /** The stage now running (for diagnostics emitted meanwhile). */
  get currentStage(): string | undefined {
    return this.open?.stage;
  }

  private sampleHeap(): void {
    const used = process.memoryUsage().heapUsed;
    if (used > this.peakHeap) this.peakHeap = used;
  }

  private enter(stage: string, pass: string): void {
    if (this.open && this.open.stage !== stage) this.closeStage();
    if (!this.open) {
      this.open = { stage, ms: 0, passes: new Map() };
      this.stageStep = 0;
    }
    const stageStep = this.stageStep++;
    this.onProgress?.({ stage, pass, step: this.step++, steps: this.steps, stageStep, stageSteps: Math.max(this.stageSteps.get(stage) ?? 0, stageStep + 1) });
  }

  /** Statistics per pass of the open stage (the values after the pass's latest run). */
  private readonly statistics = new Map<string, Record<string, number>>();

  private recordStatistics(pass: Pass): void {
    if (pass.statistics.some((st) => st.value !== 0)) this.statistics.set(pass.argument, Object.fromEntries(pass.statistics.map((st) => [st.name, st.value])));
  }

  private closeStage(): void {
    const s = this.open;
    if (!s) return;
    this.open = null;
    const module = this.root();
    const counts = module ? countOperations(module) : { total: 0, byName: {} };
    const passes = [...s.passes].map(([pass, ms]) => {
      const statistics = this.statistics.get(pass);
      return statistics ? { pass, ms, statistics } : { pass, ms };
    });
    this.statistics.clear();
    this.closed.push({ stage: s.stage, ms: s.ms, passes, opCount: counts.total, opCounts: counts.byName });
  }

  /** Times a step outside the pass manager (the ONNX import). */
  measure<T>(stage: string, step: string, body: () => T): T {
    this.enter(stage, step);
    const start = performance.now();
    try {
      return body();
    } finally {
      this.record(step, performance.now() - start);
      this.sampleHeap();
    }
  }

  private record(pass: string, ms: number): void {
    const s = this.open!;
    s.ms += ms;
    s.passes.set(pass, (s.passes.get(pass) ?? 0) + ms);
  }

  runBeforePass(pass: Pass): void {
    this.enter(this.stageOf(pass), pass.argument);
    this.passStart = performance.now();
  }

  runAfterPass(pass: Pass): void {
    this.record(pass.argument, performance.now() - this.passStart);
    this.recordStatistics(pass);
    this.sampleHeap();
    if (this.dumpAfter.has(pass.argument)) {
      const module = this.root();
      if (module) this.dumps.push({ pass: pass.argument, ir: printOperation(module) });
    }
  }

  runAfterPassFailed(pass: Pass): void {
    this.record(pass.argument, performance.now() - this.passStart);
    this.sampleHeap();
  }

  /** Closes the last stage and returns the report. */
  finish(): CompileReport {
    this.closeStage();
    const report: CompileReport = { stages: this.closed, totalMs: performance.now() - this.startedAt, peakHeapBytes: this.peakHeap };
    return this.schedule ? { ...report, schedule: this.schedule } : report;
  }
}

/** The report as a small table (stage, ms, ops after, passes), then the scheduler's warnings and the passes' statistics. */
export function formatCompileReport(report: CompileReport): string {
  const lines = ['stage            ms        ops  passes'];
  for (const s of report.stages) {
    const passes = s.passes.map((p) => `${p.pass} ${p.ms.toFixed(1)}`).join(', ');
    lines.push(`${s.stage.padEnd(14)} ${s.ms.toFixed(1).padStart(8)} ${String(s.opCount).padStart(8)}  ${passes}`);
  }
  lines.push(`total ${report.totalMs.toFixed(1)} ms, peak heap ${(report.peakHeapBytes / 2 ** 20).toFixed(1)} MiB`);
  if (report.schedule) {
    lines.push(`scheduler ${report.schedule.strategy}: ${report.schedule.functions.length} function(s) scheduled`);
    // The scheduler's warnings (a strategy that fell back to another's plan, host slots moved to channels, ...).
    for (const f of report.schedule.functions) for (const w of f.warnings ?? []) lines.push(`scheduler warning (@${f.function}): ${w}`);
  }
  for (const s of report.stages)
    for (const p of s.passes) if (p.statistics) lines.push(`${p.pass}: ${Object.entries(p.statistics).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (report.emit) lines.push(`bundle: ${report.emit.cores} cores (${report.emit.activeCores} active), ${report.emit.arrayGroups} array groups, ${report.emit.crossbars} crossbars`);
  return lines.join('\n') + '\n';
}
