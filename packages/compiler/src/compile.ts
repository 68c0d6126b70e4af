/**
 * `compile(model, options)`: the whole Raptor pipeline in one call. Imports an ONNX model (or
 * takes a module at any IR level), runs a textual pipeline (`raptor-compile` by default) with
 * the target machine and the scheduler in the pass context, and returns the final module, the
 * diagnostics of every stage, the compile report and the requested IR dumps. Never throws for
 * bad input.
 */
import {
  MLIRContext,
  Operation,
  PassManager,
  addPipelineElements,
  type Pass,
  type PassRegistry,
} from '@raptor-pim/ir-core';
import { hasErrors as onnxHasErrors, importOnnxModel, type ImportOnnxOptions, type OnnxModel } from '@raptor-pim/onnx-frontend';
import { registerPimDialect } from '@raptor-pim/pim-dialect';
import { defaultTarget, loadTarget, type ProgramBundle, type Target } from '@raptor-pim/pim-target';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import {
  compileError,
  fromIrDiagnostic,
  fromOnnxDiagnostic,
  fromTargetDiagnostic,
  type CompileDiagnostic,
} from './compile-diagnostic';
import { CompileReportCollector, type CompileProgress, type CompileReport, type IrDump } from './compile-report';
import { TargetKey } from './context-keys';
import { CompilerMessages as M } from './diagnostics';
import { parseRaptorPipeline } from './pipeline';
import { CORE_STAGE, RAPTOR_COMPILE_PIPELINE, RAPTOR_FRONTEND_PIPELINE, RaptorPassRegistry, createRaptorPassRegistry } from './registry';
import { ScheduleReportKey, type Scheduler, type SchedulerOptions } from '@raptor-pim/scheduler';
import { BundleSinkKey, type BundleSink } from '@raptor-pim/codegen';

/** What {@link compile} takes: an ONNX model (read with onnx-frontend) or a module at any IR level. */
export type CompileInput = OnnxModel | Operation;

/** Options of {@link compile}. */
export interface CompileOptions {
  /**
   * The target machine: a pim-target {@link Target}, or the path of an architecture JSON (ours
   * or pimsim-nn's, loaded with `loadTarget`). Default `defaultTarget()`. Every pass reads it
   * from the pass context key `'raptor.target'`.
   */
  readonly target?: Target | string;
  /**
   * The scheduler `spat-schedule` runs (any value implementing `@raptor-pim/scheduler`'s
   * {@link Scheduler}; default: the built-in strategy `spat-schedule` picks). A pipeline
   * element `spat-schedule{strategy=NAME}` still selects a built-in strategy.
   */
  readonly scheduler?: Scheduler;
  /** Options for that scheduler (typed by its `optionsSchema`; options written in the pipeline win). */
  readonly schedulerOptions?: SchedulerOptions;
  /**
   * The pipeline: a registered pipeline name (`raptor-compile`, the default, or
   * `raptor-frontend`), or any textual pipeline (`builtin.module(...)`, or elements that are
   * then anchored on `builtin.module`).
   */
  readonly pipeline?: string;
  /** Pass names after which the module is printed into {@link CompileResult.dumps} (like `--mlir-print-ir-after`). */
  readonly dumpAfter?: readonly string[];
  /** Called before each step (the import and every pass). */
  readonly onProgress?: (event: CompileProgress) => void;
  /** ONNX import options (input shapes, constant inputs, function name); the crossbar size comes from the target. */
  readonly import?: Omit<ImportOnnxOptions, 'crossbarSize'>;
  /**
   * The pass registry (default {@link createRaptorPassRegistry} with `scheduler` and
   * `schedulerOptions`; a registry given here is used as it is, so those two are ignored).
   */
  readonly registry?: PassRegistry;
  /** Verify the module after every pass (default true). */
  readonly verifyEach?: boolean;
}

/** What {@link compile} returns. */
export interface CompileResult {
  /** True when no stage reported an error. */
  readonly ok: boolean;
  /** The module after the pipeline (after the failing pass when `ok` is false; undefined if the import failed). */
  readonly module: Operation | undefined;
  /** Every diagnostic, in the order reported. */
  readonly diagnostics: readonly CompileDiagnostic[];
  /** Timings, op counts, peak heap, scheduler report. */
  readonly report: CompileReport;
  /** The IR after each pass named in `dumpAfter`. */
  readonly dumps: readonly IrDump[];
  /** The pipeline that ran, fully expanded (undefined when it did not parse). */
  readonly pipeline: string | undefined;
  /** The target the passes saw. */
  readonly target: Target | undefined;
  /** The program bundle `pim-emit` produced (in memory; `pim-emit{bundle-dir=DIR}` also writes it), when the pipeline reached it. */
  readonly bundle: ProgramBundle | undefined;
}

/** The pass that runs the scheduler. */
const SCHEDULE_PASS = 'spat-schedule';

function isModule(input: CompileInput): input is Operation {
  return input instanceof Operation;
}

function resolveTarget(target: Target | string | undefined, diagnostics: CompileDiagnostic[]): Target | undefined {
  if (target === undefined) return defaultTarget();
  if (typeof target !== 'string') return target;
  const loaded = loadTarget(target);
  diagnostics.push(...loaded.diagnostics.map(fromTargetDiagnostic));
  if (!loaded.value || loaded.diagnostics.some((d) => d.severity === 'error')) {
    diagnostics.push(compileError('target', M.targetLoadFailed(target)));
    return undefined;
  }
  return loaded.value;
}

/**
 * Builds the pass manager for `pipeline`. The named Raptor pipelines are built stage by stage,
 * so every pass is attributed to the stage whose elements added it (ir-core's `canonicalize`
 * in the frontend's clean-up counts as `frontend`). In other pipelines each pass counts toward
 * the stage that registered it, and ir-core's passes toward the stage that ran before them
 * (`frontend` after an import; `core` when nothing ran before).
 */
function buildPassManager(
  context: MLIRContext,
  pipeline: string,
  registry: PassRegistry,
  firstStage: string | undefined,
): { pm: PassManager | undefined; stageOfPass: Map<Pass, string> } {
  const stageOfPass = new Map<Pass, string>();
  const name = pipeline.trim();
  if (registry instanceof RaptorPassRegistry && (name === RAPTOR_COMPILE_PIPELINE || name === RAPTOR_FRONTEND_PIPELINE)) {
    const pm = new PassManager(context, 'builtin.module');
    const stages = name === RAPTOR_COMPILE_PIPELINE ? registry.stages : registry.stages.filter((s) => s.name === 'frontend');
    for (const stage of stages) {
      if (stage.pipeline === '') continue;
      const before = new Set(pm.allPasses);
      if (!addPipelineElements(context, pm, stage.pipeline, registry)) return { pm: undefined, stageOfPass };
      for (const p of pm.allPasses) if (!before.has(p)) stageOfPass.set(p, stage.name);
    }
    return { pm, stageOfPass };
  }
  const pm = parseRaptorPipeline(context, pipeline, registry);
  if (pm) {
    let previous = firstStage;
    for (const p of pm.allPasses) {
      const registered = registry instanceof RaptorPassRegistry ? (registry.stageOf(p.argument) ?? 'custom') : 'custom';
      const stage = registered === CORE_STAGE && previous !== undefined ? previous : registered;
      stageOfPass.set(p, stage);
      previous = stage;
    }
  }
  return { pm, stageOfPass };
}

/**
 * Compiles `model` with the Raptor pipeline.
 *
 * @example
 * ```ts
 * const { model } = readOnnxFile('model.onnx');
 * const r = compile(model!, { pipeline: 'raptor-frontend', dumpAfter: ['cse'] });
 * for (const d of r.diagnostics) console.error(formatCompileDiagnostic(d));
 * console.log(formatCompileReport(r.report));
 * ```
 */
export function compile(model: CompileInput, options: CompileOptions = {}): CompileResult {
  const diagnostics: CompileDiagnostic[] = [];
  let module: Operation | undefined = isModule(model) ? model : undefined;
  const registry =
    options.registry ?? createRaptorPassRegistry({ ...(options.scheduler ? { scheduler: options.scheduler } : {}), ...(options.schedulerOptions ? { schedulerOptions: options.schedulerOptions } : {}) });
  const pipelineText = options.pipeline ?? RAPTOR_COMPILE_PIPELINE;
  const dumpAfter = new Set(options.dumpAfter ?? []);
  const emitted: BundleSink = {};
  const finish = (collector: CompileReportCollector, pipeline: string | undefined, target: Target | undefined): CompileResult => {
    const report = collector.finish();
    return {
      ok: !diagnostics.some((d) => d.severity === 'error'),
      module,
      diagnostics,
      report: emitted.statistics ? { ...report, emit: emitted.statistics } : report,
      dumps: collector.dumps,
      pipeline,
      target,
      bundle: emitted.bundle,
    };
  };

  // The pipeline is parsed first (in a scratch context when the module does not exist yet), so
  // a typo is reported before an import runs.
  const context = module ? module.context : new MLIRContext();
  const firstStage = module ? undefined : 'frontend';
  const built = context.diagnostics.capture(() => buildPassManager(context, pipelineText, registry, firstStage));
  diagnostics.push(...built.diagnostics.map((d) => fromIrDiagnostic('pipeline', d)));
  const { pm, stageOfPass } = built.result;
  const importSteps = module ? 0 : 1;
  // Steps per stage, for the progress events (the import is the frontend's first step).
  const stageSteps = new Map<string, number>(importSteps > 0 ? [['frontend', 1]] : []);
  for (const p of pm?.allPasses ?? []) {
    const stage = stageOfPass.get(p) ?? 'custom';
    stageSteps.set(stage, (stageSteps.get(stage) ?? 0) + 1);
  }
  const collector = new CompileReportCollector(
    () => module,
    (p) => stageOfPass.get(p) ?? 'custom',
    dumpAfter,
    importSteps + (pm ? pm.allPasses.length : 0),
    options.onProgress,
    stageSteps,
  );
  if (!pm) {
    diagnostics.push(compileError('pipeline', M.badPipeline(pipelineText)));
    return finish(collector, undefined, undefined);
  }
  const passNames = [...new Set(pm.allPasses.map((p) => p.argument))];
  for (const name of dumpAfter) if (!passNames.includes(name)) diagnostics.push(compileError('pipeline', M.dumpAfterUnknownPass(name, passNames)));
  if (options.scheduler && !passNames.includes(SCHEDULE_PASS)) {
    diagnostics.push({ ...compileError('pipeline', M.schedulerUnused(options.scheduler.name, SCHEDULE_PASS)), severity: 'warning' });
  }
  const target = resolveTarget(options.target, diagnostics);
  if (!target || diagnostics.some((d) => d.severity === 'error')) return finish(collector, pm.printAsTextualPipeline(), target);

  if (!module) {
    const [rows, cols] = target.config.chip_config.core_config.matrix_config.xbar_size;
    if (rows !== cols) {
      diagnostics.push(compileError('frontend', M.nonSquareCrossbar(rows, cols)));
      return finish(collector, pm.printAsTextualPipeline(), target);
    }
    const onnx = model as OnnxModel;
    const imported = collector.measure('frontend', 'import', () => importOnnxModel(onnx, { ...options.import, crossbarSize: rows }));
    diagnostics.push(...imported.diagnostics.map(fromOnnxDiagnostic));
    if (!imported.module || onnxHasErrors(imported.diagnostics)) return finish(collector, pm.printAsTextualPipeline(), target);
    module = imported.module;
    registerSpatialDialect(module.context);
    registerPimDialect(module.context);
  }

  // The pass manager was built in a scratch context: rebuild it in the module's (the context
  // receives the passes' diagnostics).
  let runner = pm;
  if (context !== module.context) {
    const again = buildPassManager(module.context, pipelineText, registry, firstStage);
    runner = again.pm!;
    stageOfPass.clear();
    for (const [p, s] of again.stageOfPass) stageOfPass.set(p, s);
  }
  runner.enableVerifier(options.verifyEach ?? true);
  runner.setContext(TargetKey, target);
  runner.setContext(ScheduleReportKey, (report) => {
    collector.schedule = report;
  });
  runner.setContext(BundleSinkKey, emitted);
  runner.addInstrumentation(collector);
  const root = module;
  const run = root.context.diagnostics.withHandler(
    (d) => diagnostics.push(fromIrDiagnostic(collector.currentStage ?? 'pipeline', d)),
    () => runner.run(root),
  );
  // A pass that fails must say why; one that does not still fails the compile.
  if (!run.success && !diagnostics.some((d) => d.severity === 'error')) {
    const pass = run.failedPass;
    diagnostics.push(compileError(pass ? (stageOfPass.get(pass) ?? 'custom') : 'pipeline', M.passFailedSilently(pass?.argument ?? runner.anchor)));
  }
  return finish(collector, runner.printAsTextualPipeline(), target);
}
