/**
 * What `raptor compile` and `raptor run` share: the compile flags, reading the model, binding
 * symbolic input shapes (from `--input-shape`, or from the `--input` .npy files), running
 * `@raptor-pim/compiler`'s `compile()` with a progress line per step on a terminal, printing
 * its diagnostics and `--dump-after` dumps, and checking the bundle it emitted with
 * pim-target's validator.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  RAPTOR_COMPILE_PIPELINE,
  RAPTOR_STAGES,
  compile,
  createRaptorPassRegistry,
  formatCompileDiagnostic,
  type CompileProgress,
  type CompileResult,
  type CompilerStage,
} from '@raptor-pim/compiler';
import { formatDiagnostic as formatOnnxDiagnostic, hasErrors, parseInputShapeFlag, readOnnxFile, type OnnxModel } from '@raptor-pim/onnx-frontend';
import { formatDiagnostic as formatTargetDiagnostic, validateBundle, type ProgramBundle } from '@raptor-pim/pim-target';
import type { CliIo } from '../command';
import { CLI_MESSAGES as M } from '../diagnostics';

/** The compile flags of `raptor compile` and `raptor run`. */
export interface CompileFlags {
  /** `--target FILE`: Raptor's `config.json` or pimsim-nn's architecture JSON. */
  target?: string;
  /** `--scheduler NAME|PATH`: a built-in strategy, or a plug-in module (a path). */
  scheduler?: string;
  /** `--pim-disable-spatial-planning`: `spat-plan-layouts{disable-spatial-planning=true}`. */
  disableSpatialPlanning: boolean;
  /** `--input-shape NAME=1x1x28x28` (repeatable). */
  inputShapes: Record<string, number[]>;
  /** `--dump-after PASS` (repeatable): print the IR after the pass to stderr. */
  dumpAfter: string[];
  /** `--pass-pipeline TEXT`: another pipeline than `raptor-compile` (it must end with `pim-emit`). */
  pipeline?: string;
  /** `--report FILE`: write the compile report as JSON. */
  report?: string;
}

/** The usage lines of the compile flags. */
export const COMPILE_FLAGS_USAGE = `compile options:
  --target FILE                    the target machine: Raptor's config.json or pimsim-nn's
                                   architecture JSON (default: the built-in defaults)
  --scheduler NAME|PATH            a built-in strategy (throughput, latency, layer-sequential)
                                   or a scheduler plug-in module (./my-scheduler.mjs: its default
                                   export implements @raptor-pim/scheduler's Scheduler)
  --pim-disable-spatial-planning   plan every layer as one block (no spatial split)
  --input-shape NAME=1x1x28x28     bind the shape of a graph input (repeatable)
  --dump-after PASS                print the IR after PASS to stderr (repeatable)
  --pass-pipeline TEXT             run TEXT instead of raptor-compile (it must end in pim-emit)
  --report FILE                    write the compile report (per-stage time, op counts, cores,
                                   crossbars, memory, schedule estimate and bounds) as JSON
`;

/** An empty set of compile flags. */
export function defaultCompileFlags(): CompileFlags {
  return { disableSpatialPlanning: false, inputShapes: {}, dumpAfter: [] };
}

/** Options of the compile flags that take a value. */
export const COMPILE_VALUE_OPTIONS: ReadonlySet<string> = new Set(['--target', '--scheduler', '--input-shape', '--dump-after', '--pass-pipeline', '--report']);

/**
 * Applies one compile flag to `flags`: `name` is the option (`--target`), `value` its value
 * (for value options). Returns an error message, or undefined when the flag was applied.
 */
export function applyCompileFlag(command: string, flags: CompileFlags, name: string, value: string | undefined): string | undefined {
  if (name === '--pim-disable-spatial-planning') {
    flags.disableSpatialPlanning = true;
    return undefined;
  }
  if (value === undefined) return M.compileMissingValue(command, name);
  switch (name) {
    case '--target':
      flags.target = value;
      return undefined;
    case '--scheduler':
      flags.scheduler = value;
      return undefined;
    case '--dump-after':
      flags.dumpAfter.push(...value.split(',').filter((p) => p !== ''));
      return undefined;
    case '--pass-pipeline':
      flags.pipeline = value;
      return undefined;
    case '--report':
      flags.report = value;
      return undefined;
    case '--input-shape': {
      const b = parseInputShapeFlag(value);
      if ('error' in b) return `raptor ${command}: ${b.error}`;
      flags.inputShapes[b.name] = b.shape;
      return undefined;
    }
    default:
      return M.compileUnknownOption(command, name);
  }
}

/** A scheduler given as a path (a plug-in module) rather than a built-in strategy's name. */
function isPluginPath(scheduler: string): boolean {
  return /[\\/]/.test(scheduler) || /\.(m|c)?[jt]s$/.test(scheduler);
}

/** The `spat-schedule` option that selects the scheduler of `--scheduler`. */
function schedulerOption(scheduler: string): string {
  if (!isPluginPath(scheduler)) return `strategy=${scheduler}`;
  return `plugin=${JSON.stringify(path.resolve(scheduler))}`;
}

/** Adds `option` to every bare `pass` element of a pipeline text (`pass` -> `pass{option}`). */
function withPassOption(pipeline: string, pass: string, option: string): string {
  return pipeline.replace(new RegExp(`(^|[(,\\s])${pass}(?![-\\w{])`, 'g'), `$1${pass}{${option}}`);
}

/** The pipeline text with the element options the flags ask for. */
function applyPassFlags(pipeline: string, flags: CompileFlags): string {
  let text = pipeline;
  if (flags.disableSpatialPlanning) text = withPassOption(text, 'spat-plan-layouts', 'disable-spatial-planning=true');
  if (flags.scheduler !== undefined) text = withPassOption(text, 'spat-schedule', schedulerOption(flags.scheduler));
  return text;
}

/**
 * The shape bindings for `model`: `--input-shape` first; a graph input with a symbolic (or
 * unknown) dimension and no `--input-shape` takes the shape of its `--input` file (`files[k]`,
 * the file bound to graph input k). Returns the bindings and the inputs it inferred.
 */
export function bindInputShapes(
  model: OnnxModel,
  given: Readonly<Record<string, number[]>>,
  fileShapes: readonly (readonly number[] | undefined)[],
): { shapes: Record<string, number[]>; inferred: { name: string; shape: number[] }[] } {
  const shapes: Record<string, number[]> = { ...given };
  const inferred: { name: string; shape: number[] }[] = [];
  model.graph.inputs.forEach((input, k) => {
    if (shapes[input.name] !== undefined) return;
    const symbolic = input.shape === undefined || input.shape.some((d) => typeof d !== 'number' || d < 0);
    const fromFile = fileShapes[k];
    if (!symbolic || fromFile === undefined) return;
    shapes[input.name] = [...fromFile];
    inferred.push({ name: input.name, shape: [...fromFile] });
  });
  return { shapes, inferred };
}

/** Reads MODEL.onnx, printing its diagnostics; undefined when it cannot be used. */
export function readModel(file: string, io: CliIo): OnnxModel | undefined {
  const { model, diagnostics } = readOnnxFile(file);
  for (const d of diagnostics) io.stderr(formatOnnxDiagnostic(d) + '\n');
  return model && !hasErrors(diagnostics) ? model : undefined;
}

/** Width of a stage's progress bar, in characters. */
const BAR_WIDTH = 20;

/**
 * The progress display on a terminal (stderr): one line per stage with a bar of its steps, the
 * step running and the overall step count, redrawn in place; a finished stage's line stays
 * (full bar, its wall time), so the stages pile up as they complete.
 */
class ProgressBars {
  private stage: { name: string; steps: number; startedAt: number } | undefined;

  constructor(private readonly io: CliIo) {}

  private static bar(done: number, total: number): string {
    const filled = total > 0 ? Math.round((BAR_WIDTH * done) / total) : BAR_WIDTH;
    return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
  }

  /** The step `e` is about to run. */
  update(e: CompileProgress): void {
    if (this.stage && this.stage.name !== e.stage) this.close();
    if (!this.stage) this.stage = { name: e.stage, steps: e.stageSteps, startedAt: performance.now() };
    this.stage.steps = e.stageSteps;
    const line = `${e.stage.padEnd(15)} ${ProgressBars.bar(e.stageStep, e.stageSteps)} ${e.stageStep + 1}/${e.stageSteps} ${M.compileProgress(e.pass, e.step, e.steps)}`;
    this.io.stderr(`\r\x1b[K${line}`);
  }

  /** Leaves the current stage's line complete. */
  private close(): void {
    const s = this.stage!;
    this.io.stderr(`\r\x1b[K${s.name.padEnd(15)} ${ProgressBars.bar(s.steps, s.steps)} ${s.steps}/${s.steps} ${(performance.now() - s.startedAt).toFixed(0)} ms\n`);
    this.stage = undefined;
  }

  /** After the compile: the last stage's line is completed when it succeeded, erased when it failed (the diagnostics follow). */
  finish(ok: boolean): void {
    if (!this.stage) return;
    if (ok) this.close();
    else {
      this.io.stderr('\r\x1b[K');
      this.stage = undefined;
    }
  }
}

/** A compile that produced a bundle the validator accepts. */
export interface CompiledBundle {
  readonly result: CompileResult;
  readonly bundle: ProgramBundle;
}

/**
 * Compiles `model` with `flags` (input shapes already bound in `inputShapes`): prints a
 * progress line per step on a terminal, every diagnostic, the requested dumps, and writes
 * `--report`. Returns the result with its validated bundle, or undefined after printing why.
 */
export function compileWithFlags(command: string, model: OnnxModel, flags: CompileFlags, inputShapes: Record<string, number[]>, io: CliIo): CompiledBundle | undefined {
  const stages: CompilerStage[] = RAPTOR_STAGES.map((s) => ({ ...s, pipeline: applyPassFlags(s.pipeline, flags) }));
  const registry = createRaptorPassRegistry({ stages });
  const pipeline = flags.pipeline === undefined ? RAPTOR_COMPILE_PIPELINE : applyPassFlags(flags.pipeline, flags);
  const progress = io.isTty ? new ProgressBars(io) : undefined;
  const result = compile(model, {
    registry,
    pipeline,
    ...(flags.target !== undefined ? { target: flags.target } : {}),
    ...(flags.dumpAfter.length > 0 ? { dumpAfter: flags.dumpAfter } : {}),
    import: { inputShapes },
    ...(progress ? { onProgress: (e: CompileProgress) => progress.update(e) } : {}),
  });
  progress?.finish(result.ok);
  for (const d of result.diagnostics) io.stderr(formatCompileDiagnostic(d) + '\n');
  for (const dump of result.dumps) io.stderr(`${M.compileDumpHeader(dump.pass)}\n${dump.ir}${dump.ir.endsWith('\n') ? '' : '\n'}\n`);
  if (flags.report !== undefined) {
    try {
      fs.mkdirSync(path.dirname(path.resolve(flags.report)), { recursive: true });
      fs.writeFileSync(flags.report, JSON.stringify(result.report, null, 2) + '\n');
    } catch (e) {
      io.stderr(M.cannotWrite(command, flags.report, (e as Error).message) + '\n');
      return undefined;
    }
  }
  if (!result.ok) {
    io.stderr(M.compileFailed(command, result.diagnostics.filter((d) => d.severity === 'error').length) + '\n');
    return undefined;
  }
  const bundle = result.bundle;
  if (!bundle) {
    io.stderr(M.compileNoBundle(command) + '\n');
    return undefined;
  }
  const validation = validateBundle(bundle);
  if (validation.errorCount > 0) {
    for (const d of validation.diagnostics) if (d.severity === 'error') io.stderr(formatTargetDiagnostic(d) + '\n');
    io.stderr(M.compileInvalidBundle(command, validation.errorCount) + '\n');
    return undefined;
  }
  return { result, bundle };
}
