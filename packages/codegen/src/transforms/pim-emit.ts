/**
 * `pim-emit`: writes the program bundle of a bufferized PIM module through pim-target's
 * bundle writer (`config.json`, `core_<id>.pim`, `manifest.json`, `memory.bin`,
 * `weights.bin`, optionally `core_<id>.json`). Option `bundle-dir` names the directory (empty:
 * only keep the bundle in memory). The bundle is also handed to the pass manager's
 * {@link BundleSinkKey} context value when there is one (how `compile()` gets it), and kept in
 * {@link EmitPass.bundle}. The IR is not changed.
 */
import { Pass, boolOption, definePassContextKey, stringOption, type Operation, type PassContextKey } from '@raptor-pim/ir-core';
import { formatDiagnostic, writeBundle, type ProgramBundle } from '@raptor-pim/pim-target';
import { Reporter } from '../analysis/reporter';
import { CodegenMessages as M } from '../diagnostics';
import { CodegenAnalysis } from '../analysis/codegen-analysis';
import { generateBundleFrom, type EmitStatistics } from '../emit/emit-bundle';
import { passTarget, type TargetLike } from '../target';

/** Where `pim-emit` leaves its bundle for the caller of a pipeline (set on the pass manager). */
export interface BundleSink {
  /** The emitted bundle (set by a successful `pim-emit`). */
  bundle?: ProgramBundle;
  /** Its figures. */
  statistics?: EmitStatistics;
}

/** The pass-context key `'raptor.bundle'`: a {@link BundleSink} the caller owns. */
export const BundleSinkKey: PassContextKey<BundleSink> = definePassContextKey<BundleSink>('raptor.bundle');

/** The `pim-emit` pass. */
export class EmitPass extends Pass {
  readonly argument = 'pim-emit';
  override readonly description = 'Emit the per-core programs of a bufferized PIM module as a program bundle';
  override readonly opName = 'builtin.module';
  private static readonly bundleDir = stringOption('bundle-dir', '', 'directory to write the bundle to (empty: keep it in memory)');
  private static readonly json = boolOption('json', false, 'also write core_<id>.json beside every core_<id>.pim');
  override readonly optionSpecs = [EmitPass.bundleDir, EmitPass.json];
  private readonly instructionCount = this.statistic('num-instructions', 'instructions emitted');
  /** The bundle of the last successful run. */
  bundle: ProgramBundle | undefined;
  /** Figures of the last successful run. */
  statisticsOfLastRun: EmitStatistics | undefined;

  /** `target`: the machine (default: the pass manager's `'raptor.target'`, else the default target). */
  constructor(private readonly target?: TargetLike) {
    super();
  }

  runOnOperation(op: Operation): void {
    this.bundle = undefined;
    const target = passTarget(this, this.target);
    const { program, errors } = this.getAnalysis(CodegenAnalysis).evaluate(target);
    const report = new Reporter();
    const generated = program && errors === 0 ? generateBundleFrom(program, target, report) : undefined;
    if (!generated) {
      this.signalPassFailure();
      return;
    }
    const dir = this.option(EmitPass.bundleDir);
    if (dir !== '') {
      let problems;
      try {
        problems = writeBundle(dir, generated.bundle, { json: this.option(EmitPass.json) });
      } catch (e) {
        op.emitError(M.writeFailed(dir, e instanceof Error ? e.message : String(e)));
        this.signalPassFailure();
        return;
      }
      const errors = problems.filter((d) => d.severity === 'error');
      if (errors.length > 0) {
        op.emitError(M.bundleInvalid(errors.map(formatDiagnostic).join('; ')));
        this.signalPassFailure();
        return;
      }
    }
    this.markAllAnalysesPreserved();
    this.bundle = generated.bundle;
    this.statisticsOfLastRun = generated.statistics;
    const sink = this.getContext(BundleSinkKey);
    if (sink) {
      sink.bundle = generated.bundle;
      sink.statistics = generated.statistics;
    }
    this.instructionCount.value += generated.statistics.instructions;
  }
}
