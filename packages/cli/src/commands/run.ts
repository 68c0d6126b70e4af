/**
 * `raptor run MODEL.onnx --input x.npy`: compiles the model (as `raptor compile`, the bundle
 * stays in memory), simulates the bundle with pim-sim, writes the outputs as
 * DIR/output_<k>.npy, compares them with reference outputs (as `raptor import --run`), and
 * prints the simulated latency, throughput and energy with their ratios to the schedule's
 * bounds.
 */
import { simulateBundle, type NpyArray } from '@raptor-pim/pim-sim';
import type { OnnxModel } from '@raptor-pim/onnx-frontend';
import type { CompileReport, F32Tensor } from '@raptor-pim/compiler';
import { tensorToNumbers } from '@raptor-pim/onnx-frontend';
import { cloneConfig, type ProgramBundle, type Target } from '@raptor-pim/pim-target';
import { defineParsedCommand, type CliCommand, type CliIo } from '../command';
import { CLI_MESSAGES as M } from '../diagnostics';
import {
  COMPILE_FLAGS_USAGE,
  COMPILE_VALUE_OPTIONS,
  applyCompileFlag,
  bindInputShapes,
  compileWithFlags,
  defaultCompileFlags,
  readModel,
  type CompileFlags,
} from '../compile/compile-model';
import { parseRunInput, readNpyTensor, writeAndCompareOutputs, type OutputRecord, type RunInputSpec } from '../run/run-entry';

/** Parsed `raptor run` options. */
export interface RunArgs {
  model: string;
  inputs: RunInputSpec[];
  outputDir?: string;
  referenceDir?: string;
  json: boolean;
  flags: CompileFlags;
}

const USAGE = `usage: raptor run MODEL.onnx --input x.npy [options]

Compiles an ONNX model to a program bundle (as raptor compile, kept in memory), simulates it
with pim-sim (latency mode for the values, latency and energy; throughput mode for the
throughput), writes output k as DIR/output_<k>.npy and compares it with a reference. A
symbolic input dimension (a batch) takes its size from the --input file.

options:
  --input FILE.npy                 input in graph-input order (repeatable), or
  --input NAME=FILE.npy            input by graph-input name
  --output-dir DIR                 write output k as DIR/output_<k>.npy (float32; default .)
  --reference-dir DIR              compare with DIR/output_<k>.npy (exit 1 on a mismatch)
  --json                           print one JSON object (outputs, comparison, figures)
${COMPILE_FLAGS_USAGE}`;

/** Parses the arguments after `raptor run`; returns the options, 'help', or an error message. */
export function parseRunArgs(args: readonly string[]): RunArgs | 'help' | { error: string } {
  const out: RunArgs = { model: '', inputs: [], json: false, flags: defaultCompileFlags() };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : undefined;
    if (name === '--help' || name === '-h') return 'help';
    if (name === '--json') {
      out.json = true;
      continue;
    }
    if (name === '--input' || name === '--output-dir' || name === '--reference-dir') {
      const v = inline ?? args[++i];
      if (v === undefined) return { error: M.compileMissingValue('run', name) };
      if (name === '--input') out.inputs.push(parseRunInput(v));
      else if (name === '--output-dir') out.outputDir = v;
      else out.referenceDir = v;
      continue;
    }
    if (name === '--pim-disable-spatial-planning' || COMPILE_VALUE_OPTIONS.has(name)) {
      const value = name === '--pim-disable-spatial-planning' ? undefined : (inline ?? args[++i]);
      const error = applyCompileFlag('run', out.flags, name, value);
      if (error !== undefined) return { error };
      continue;
    }
    if (a.startsWith('-') && a !== '-') return { error: M.compileUnknownOption('run', a) };
    positional.push(a);
  }
  if (positional.length !== 1) return { error: M.compileNeedsModel('run') };
  if (out.inputs.length === 0) return { error: M.runNeedsInput() };
  out.model = positional[0]!;
  return out;
}

/** The `--input` file bound to each graph input (by name, or in order), undefined where none or where the binding is bad. */
function inputFiles(model: OnnxModel, specs: readonly RunInputSpec[]): (string | undefined)[] {
  const names = model.graph.inputs.map((i) => i.name);
  const files = new Array<string | undefined>(names.length);
  let next = 0;
  for (const spec of specs) {
    const k = spec.name !== undefined ? names.indexOf(spec.name) : next++;
    if (k >= 0 && k < names.length) files[k] = spec.file;
  }
  return files;
}

/** Reads the `--input` files bound to the model's graph inputs (by name or in order); undefined after printing why. */
function readInputs(model: OnnxModel, specs: readonly RunInputSpec[], io: CliIo): F32Tensor[] | undefined {
  const names = model.graph.inputs.map((i) => i.name);
  const files = new Array<string | undefined>(names.length);
  let next = 0;
  for (const spec of specs) {
    const k = spec.name !== undefined ? names.indexOf(spec.name) : next++;
    if (k < 0 || k >= names.length) {
      io.stderr(M.runBadInputBinding('run', spec.name ?? spec.file, 'graph input', names) + '\n');
      return undefined;
    }
    files[k] = spec.file;
  }
  const tensors: F32Tensor[] = [];
  for (let k = 0; k < names.length; k++) {
    const file = files[k];
    if (file === undefined) {
      io.stderr(M.runMissingInput('run', 'graph input', names[k]!) + '\n');
      return undefined;
    }
    const t = readNpyTensor('run', file, io);
    if (!t) return undefined;
    tensors.push({ shape: [...t.dims], data: Float32Array.from(tensorToNumbers(t)) });
  }
  return tensors;
}

/** The bounds the schedule was measured against (of the first scheduled function), if the report has them. */
function boundsOf(report: CompileReport): { latencyMinNs: number; throughputMax: number; strategy: string; estimatedLatencyNs: number; estimatedThroughput: number } | undefined {
  const f = report.schedule?.functions[0];
  if (!f) return undefined;
  return {
    latencyMinNs: f.bounds.latencyMinNs,
    throughputMax: f.bounds.throughputMax,
    strategy: f.strategy,
    estimatedLatencyNs: f.latencyNs,
    estimatedThroughput: f.throughput,
  };
}

/**
 * The bundle's target with `sim_time` long enough for the throughput run to complete
 * {@link THROUGHPUT_ROUNDS} inferences one after another (pipelined inferences complete more):
 * with a shorter `sim_time` than one inference, throughput mode would count no output.
 */
function throughputTarget(bundle: ProgramBundle, latencyNs: number): { target?: Target } {
  if (!bundle.target) return {};
  const config = cloneConfig(bundle.target.config);
  const neededMs = (THROUGHPUT_ROUNDS * latencyNs) / 1e6;
  if (config.sim_config.sim_time < neededMs) config.sim_config.sim_time = Math.ceil(neededMs * 1000) / 1000;
  return { target: { config, network: bundle.target.network } };
}

/** Inferences the throughput run lasts at least (at the latency-mode latency each). */
const THROUGHPUT_ROUNDS = 8;

/** A stdout-less view of `io` (for --json: the per-output lines go into the object instead). */
function quiet(io: CliIo): CliIo {
  return { stdout: () => undefined, stderr: (t) => io.stderr(t), readStdin: () => io.readStdin(), isTty: io.isTty };
}

/** Runs `raptor run` with parsed options; returns the exit code. */
export async function runRun(a: RunArgs, io: CliIo): Promise<number> {
  const model = readModel(a.model, io);
  if (!model) return 1;
  const inputs = readInputs(model, a.inputs, io);
  if (!inputs) return 1;
  const { shapes, inferred } = bindInputShapes(
    model,
    a.flags.inputShapes,
    inputs.map((t) => t.shape),
  );
  if (!a.json) for (const i of inferred) io.stderr(M.compileInferredShape(i.name, i.shape) + '\n');
  // A binding given with --input-shape must fit its file (checked before compiling).
  const count = (s: readonly number[]): number => s.reduce((x, y) => x * y, 1);
  for (const [k, graphInput] of model.graph.inputs.entries()) {
    const given = a.flags.inputShapes[graphInput.name];
    const file = inputs[k];
    if (given !== undefined && file !== undefined && count(given) !== count(file.shape)) {
      io.stderr(M.runInputShapeMismatch(graphInput.name, given, inputFiles(model, a.inputs)[k] ?? '', file.shape) + '\n');
      return 1;
    }
  }
  const compiled = compileWithFlags('run', model, a.flags, shapes, io);
  if (!compiled) return 1;
  const { bundle, result } = compiled;

  // The bundle's inputs are the graph inputs, in order (matched by name when they carry one).
  const simInputs: Record<string, NpyArray> = {};
  for (let k = 0; k < bundle.inputs.length; k++) {
    const location = bundle.inputs[k]!;
    const j = model.graph.inputs.findIndex((i) => i.name === location.name);
    const t = inputs[j >= 0 ? j : k];
    if (!t) continue;
    const count = (s: readonly number[]): number => s.reduce((x, y) => x * y, 1);
    if (count(t.shape) !== count(location.shape)) {
      io.stderr(M.runSimInput(location.name, location.shape, t.shape) + '\n');
      return 1;
    }
    simInputs[location.name] = { dtype: 'f32', shape: [...location.shape], data: t.data };
  }
  const latencyRun = simulateBundle(bundle, { mode: 'latency', inputs: simInputs });
  if (!latencyRun.ok || !latencyRun.timing) {
    io.stderr(M.runSimFailed(latencyRun.error?.message ?? 'no timing result') + '\n');
    return 1;
  }
  const throughputRun = simulateBundle(bundle, { mode: 'throughput', inputs: simInputs, timingOnly: true, ...throughputTarget(bundle, latencyRun.timing.latencyNs) });
  const simulatedS = (throughputRun.timing?.latencyNs ?? 0) * 1e-9;
  const throughput = throughputRun.ok && throughputRun.timing && simulatedS > 0 ? throughputRun.timing.rounds / simulatedS : undefined;

  const outputs: F32Tensor[] = latencyRun.outputs.map((o) => ({ shape: [...o.array.shape], data: Float32Array.from(o.array.data as ArrayLike<number>) }));
  // Outputs are named after the graph outputs (the bundle's manifest calls them output_<k>).
  const graphOutputs = model.graph.outputs.map((o) => o.name);
  const names = latencyRun.outputs.map((o, k) => (latencyRun.outputs.length === graphOutputs.length ? graphOutputs[k]! : o.name));
  const written = writeAndCompareOutputs(outputs, { command: 'run', outputDir: a.outputDir, referenceDir: a.referenceDir }, a.json ? quiet(io) : io, names);

  const latencyNs = latencyRun.timing.latencyNs;
  const energyPj = latencyRun.timing.energyPj;
  const bounds = boundsOf(result.report);
  const latencyRatio = bounds && bounds.latencyMinNs > 0 ? latencyNs / bounds.latencyMinNs : undefined;
  const throughputRatio = bounds && throughput !== undefined && throughput > 0 ? bounds.throughputMax / throughput : undefined;
  if (a.json) {
    io.stdout(
      JSON.stringify(runJson(written.status, written.outputs, bundle.coreCount, latencyNs, throughput, energyPj, bounds, latencyRatio, throughputRatio, latencyRun.compatibility.pimsimCompatible)) +
        '\n',
    );
  } else {
    if (throughputRun.error && !throughputRun.ok) io.stderr(M.runSimFailed(throughputRun.error.message) + '\n');
    io.stdout(M.runLatency(latencyNs, latencyRatio !== undefined && bounds ? M.runLatencyRatio(latencyRatio, bounds.latencyMinNs) : '') + '\n');
    if (throughput !== undefined) io.stdout(M.runThroughput(throughput, throughputRatio !== undefined && bounds ? M.runThroughputRatio(throughputRatio, bounds.throughputMax) : '') + '\n');
    io.stdout(M.runEnergy(energyPj) + '\n');
    if (bounds) io.stdout(M.runEstimate(bounds.strategy, bounds.estimatedLatencyNs, bounds.estimatedThroughput) + '\n');
  }
  return written.status;
}

/** The `--json` object of `raptor run`. */
function runJson(
  status: number,
  outputs: readonly OutputRecord[],
  cores: number,
  latencyNs: number,
  throughput: number | undefined,
  energyPj: number,
  bounds: ReturnType<typeof boundsOf>,
  latencyRatio: number | undefined,
  throughputRatio: number | undefined,
  pimsimCompatible: boolean,
): Record<string, unknown> {
  return {
    ok: status === 0,
    cores,
    outputs,
    latencyNs,
    throughputPerS: throughput ?? null,
    energyPj,
    pimsimCompatible,
    schedule: bounds
      ? { strategy: bounds.strategy, estimatedLatencyNs: bounds.estimatedLatencyNs, estimatedThroughputPerS: bounds.estimatedThroughput }
      : null,
    bounds: bounds ? { latencyMinNs: bounds.latencyMinNs, throughputMaxPerS: bounds.throughputMax } : null,
    latencyOverBound: latencyRatio ?? null,
    boundOverThroughput: throughputRatio ?? null,
  };
}

/** The `raptor run` command. */
export const runCommand: CliCommand = defineParsedCommand({
  name: 'run',
  summary: 'compile an ONNX model, simulate it and compare with reference outputs',
  usage: USAGE,
  parse: parseRunArgs,
  run: runRun,
});
