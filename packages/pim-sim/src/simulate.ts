/**
 * The simulator's entry points: validate a bundle against its target, run the functional
 * pass (values and checks), then the timing and energy pass, and read the model outputs
 * back from global memory.
 */
import {
  cloneConfig,
  emptyNetworkTable,
  pimsimDefaultConfig,
  validateBundle,
  ELEMENT_SIZE,
  isPimsimCompatibilityDiagnostic,
  formatDiagnostic,
} from '@raptor-pim/pim-target';
import type { ProgramBundle, Target, TargetDiagnostic, TensorLocation, WeightBlock } from '@raptor-pim/pim-target';
import type { SimError } from './diagnostics';
import { SIM_MESSAGES } from './diagnostics';
import { compileProgram } from './program';
import type { CompiledProgram } from './program';
import { readDirectoryForSimulation, readForSimulation } from './bundle-stream';
import type { BundleForSimulation } from './bundle-stream';
import { deriveParams, denseNetwork } from './params';
import type { SimParams } from './params';
import { runFunctional } from './functional/engine';
import type { ElementType, GroupWeights } from './functional/engine';
import { runTiming } from './timing/engine';
import type { TimingResult } from './timing/types';
import type { NpyArray, NpyDtype } from './io/npy';
import { typedFromBytes, bytesOfData, npyElementSize } from './io/npy';

/** Largest total of local and global memory bytes the functional pass allocates (4 GiB). */
export const MAX_SIMULATED_MEMORY = 4 * 1024 * 1024 * 1024;

/** Simulation mode: one inference (latency) or repeated streams for `sim_time` (throughput). */
export type SimMode = 'latency' | 'throughput';

/** Options of {@link simulateBundle} and {@link simulateDirectory}. */
export interface SimulateOptions {
  /** Target to run on; default: the bundle's own target, else pimsim-nn's defaults. */
  target?: Target;
  /** Mode; default: the target's `sim_config.sim_mode` (latency when the target is pimsim-nn's defaults). */
  mode?: SimMode;
  /** Model inputs by name (written to global memory at the manifest's addresses). */
  inputs?: Readonly<Record<string, NpyArray>>;
  /** Record a Chrome trace. */
  trace?: boolean;
  /** Simulated-time budget in ns (default: the target's `latency_timeout_ms`). */
  budgetNs?: number;
  /** Progress callback (simulated ns). */
  onProgress?: (simulatedNs: number) => void;
  /** Skip the functional pass (timing only). */
  timingOnly?: boolean;
}

/** pimsim-nn compatibility of the bundle. */
export interface Compatibility {
  /** True when pimsim-nn would run the bundle as we do. */
  pimsimCompatible: boolean;
  /** One line per problem. */
  notes: string[];
}

/** Everything a simulation produces. */
export interface SimulationResult {
  /** True when the run finished without error. */
  ok: boolean;
  /** The error that stopped the run (load, validation, functional or timing). */
  error?: SimError;
  /** Diagnostics from reading and validating the bundle. */
  diagnostics: TargetDiagnostic[];
  /** pimsim-nn compatibility. */
  compatibility: Compatibility;
  /** Mode simulated. */
  mode: SimMode;
  /** Timing and energy (absent when a load or functional error stopped the run). */
  timing?: TimingResult;
  /** Model outputs read back from global memory (manifest order). */
  outputs: { name: string; array: NpyArray }[];
  /** Instructions the functional pass executed. */
  executed: number;
  /** The target simulated. */
  target: Target;
}

function failure(
  error: SimError,
  diagnostics: TargetDiagnostic[],
  target: Target,
  mode: SimMode,
  compatibility: Compatibility = { pimsimCompatible: false, notes: [] },
): SimulationResult {
  return { ok: false, error, diagnostics, compatibility, mode, outputs: [], executed: 0, target };
}

function bundleError(message: string): SimError {
  return { kind: 'invalid-bundle', core: -1, pc: -1, instruction: '', message };
}

function inputError(message: string): SimError {
  return { kind: 'invalid-input', core: -1, pc: -1, instruction: '', message };
}

/** Decodes a weight block into the functional pass's matrix form. */
function groupWeights(block: WeightBlock): GroupWeights {
  const data = typedFromBytes(block.elementType as NpyDtype, block.data);
  let values: GroupWeights['data'];
  if (data instanceof BigInt64Array) values = Float64Array.from(data, (v) => Number(v));
  else if (data instanceof Uint16Array && (block.elementType === 'f16' || block.elementType === 'bf16'))
    values = Float64Array.from(data, (v) => (block.elementType === 'bf16' ? bf16ToNumber(v) : f16ToNumber(v)));
  else if (data instanceof Float32Array || data instanceof Float64Array || data instanceof Int32Array || data instanceof Int8Array || data instanceof Int16Array)
    values = data;
  else values = Float64Array.from(data as ArrayLike<number>);
  return { rows: block.rows, cols: block.cols, data: values };
}

function f16ToNumber(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

function bf16ToNumber(h: number): number {
  const buf = new DataView(new ArrayBuffer(4));
  buf.setUint32(0, h << 16, true);
  return buf.getFloat32(0, true);
}

function tensorCount(t: TensorLocation): number {
  return t.shape.reduce((a, b) => a * b, 1);
}

/** Static pimsim-nn compatibility notes the validator does not give (configuration level). */
function configNotes(target: Target): string[] {
  const notes: string[] = [];
  const level = target.config.sim_config.report_verbose_level;
  if (level >= 2) notes.push(SIM_MESSAGES.incompatVerbose(level));
  return notes;
}

/**
 * Simulates a bundle already in memory.
 *
 * @example
 * ```ts
 * const { value: bundle } = readBundle('out/model.bundle');
 * const result = simulateBundle(bundle!, { mode: 'latency' });
 * console.log(result.timing?.latencyNs, result.timing?.energyPj);
 * ```
 */
export function simulateBundle(bundle: ProgramBundle, options: SimulateOptions = {}): SimulationResult {
  return simulate(bundle, options, false, [], undefined);
}

/**
 * The simulation. With `owned` (a bundle this module read itself), each core's instruction
 * objects are dropped as soon as that core is compiled: on a 1M-instruction bundle they are
 * about half the process's memory, and only the compiled form is used afterwards.
 * `precompiled` are the programs already compiled by the reader (see bundle-stream.ts).
 */
function simulate(
  bundle: ProgramBundle,
  options: SimulateOptions,
  owned: boolean,
  readDiagnostics: readonly TargetDiagnostic[],
  precompiled: readonly CompiledProgram[] | undefined,
): SimulationResult {
  const baseTarget: Target = options.target ?? bundle.target ?? { config: pimsimDefaultConfig(), network: emptyNetworkTable() };
  const config = cloneConfig(baseTarget.config);
  const defaultMode: SimMode =
    options.target || bundle.target ? (config.sim_config.sim_mode === 1 ? 'latency' : 'throughput') : 'latency';
  const mode = options.mode ?? defaultMode;
  config.sim_config.sim_mode = mode === 'latency' ? 1 : 0;
  const target: Target = { config, network: baseTarget.network };

  const validation = validateBundle(bundle, { target });
  const diagnostics = readDiagnostics.length > 0 ? [...readDiagnostics, ...validation.diagnostics] : validation.diagnostics;
  const notes = diagnostics.filter(isPimsimCompatibilityDiagnostic).map(formatDiagnostic);
  notes.push(...configNotes(target));
  const compatibility: Compatibility = { pimsimCompatible: validation.pimsimCompatible && notes.length === 0, notes };
  const firstError = diagnostics.find((d) => d.severity === 'error');
  if (firstError) return failure(bundleError(formatDiagnostic(firstError)), diagnostics, target, mode, compatibility);

  const params: SimParams = deriveParams(config);
  const programs =
    precompiled ??
    bundle.programs.map((p, core) => {
      const compiled = compileProgram(p);
      if (owned) bundle.programs[core] = [];
      return compiled;
    });
  const groups = bundle.arrayGroupMap;

  // Global memory image with the inputs written in.
  const globalSize = config.chip_config.global_memory_config.memory_size;
  let image: Uint8Array | undefined = bundle.memoryImage;
  const inputs = options.inputs ?? {};
  const known = bundle.inputs.map((t) => t.name);
  for (const name of Object.keys(inputs)) {
    if (!known.includes(name)) return failure(inputError(SIM_MESSAGES.inputUnknown(name, known)), diagnostics, target, mode, compatibility);
  }
  for (const t of bundle.inputs) {
    const given = inputs[t.name];
    if (!given) continue;
    if (given.dtype !== t.elementType)
      return failure(inputError(SIM_MESSAGES.inputDtype(t.name, given.dtype, t.elementType)), diagnostics, target, mode, compatibility);
    if (given.data.length !== tensorCount(t))
      return failure(inputError(SIM_MESSAGES.inputShape(t.name, given.shape, t.shape)), diagnostics, target, mode, compatibility);
    const bytes = bytesOfData(given.data);
    const end = t.address + bytes.length;
    if (end > globalSize) return failure(inputError(SIM_MESSAGES.inputShape(t.name, given.shape, t.shape)), diagnostics, target, mode, compatibility);
    if (!image || image.length < end) {
      const grown = new Uint8Array(Math.max(end, image?.length ?? 0));
      if (image) grown.set(image);
      image = grown;
    } else if (image === bundle.memoryImage) image = image.slice();
    image.set(bytes, t.address);
  }

  // The functional pass allocates every memory: refuse sizes this process cannot hold.
  const totalBytes = params.local.size * bundle.coreCount + globalSize;
  if (!options.timingOnly && !(totalBytes <= MAX_SIMULATED_MEMORY)) {
    return failure(
      { kind: 'unsupported', core: -1, pc: -1, instruction: '', message: SIM_MESSAGES.memoryTooLarge(totalBytes, MAX_SIMULATED_MEMORY) },
      diagnostics,
      target,
      mode,
      compatibility,
    );
  }
  const elementType: ElementType = [...bundle.inputs, ...bundle.outputs].some((t) => t.elementType === 'i32') ? 'i32' : 'f32';
  let executed = 0;
  let global: Uint8Array | undefined;
  if (!options.timingOnly) {
    const weights: (GroupWeights | undefined)[][] = Array.from({ length: bundle.coreCount }, () => []);
    for (const block of bundle.weights) weights[block.core][block.group] = groupWeights(block);
    const functional = runFunctional(
      {
        xbarRows: params.xbarRows,
        xbarCols: params.xbarCols,
        cellPrecision: params.cellPrecision,
        localSize: params.local.size,
        globalSize,
        elementType,
      },
      { programs, groups, weights, ...(image ? { globalImage: image } : {}) },
    );
    executed = functional.executed;
    if (functional.error) {
      return { ok: false, error: functional.error, diagnostics, compatibility, mode, outputs: [], executed, target };
    }
    global = functional.global.bytes;
  }

  const net = denseNetwork(target.network, bundle.coreCount, params.globalSwitchId);
  const timing = runTiming(params, net, programs, groups, {
    ...(options.trace ? { trace: true } : {}),
    ...(options.budgetNs !== undefined ? { budgetNs: options.budgetNs } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const outputs: { name: string; array: NpyArray }[] = [];
  if (global) {
    for (const t of bundle.outputs) {
      const size = tensorCount(t) * ELEMENT_SIZE[t.elementType];
      const dtype = t.elementType as NpyDtype;
      if (t.address + size > global.length || size % npyElementSize(dtype) !== 0) continue;
      outputs.push({ name: t.name, array: { dtype, shape: [...t.shape], data: typedFromBytes(dtype, global.subarray(t.address, t.address + size)) } });
    }
  }
  const result: SimulationResult = {
    ok: timing.error === undefined,
    diagnostics,
    compatibility,
    mode,
    timing,
    outputs,
    executed,
    target,
  };
  if (timing.error) result.error = timing.error;
  return result;
}

/** Simulates a bundle read by this module (validated once, by {@link simulate}). */
function simulateRead(forSimulation: BundleForSimulation, options: SimulateOptions): SimulationResult {
  const read = forSimulation.read;
  const fallback: Target = options.target ?? { config: pimsimDefaultConfig(), network: emptyNetworkTable() };
  if (!read.value) {
    const first = read.diagnostics.find((d) => d.severity === 'error');
    return failure(
      bundleError(first ? formatDiagnostic(first) : SIM_MESSAGES.bundleUnreadable()),
      read.diagnostics,
      fallback,
      options.mode ?? 'latency',
    );
  }
  const readErrors = read.diagnostics.filter((d) => d.severity === 'error');
  if (readErrors.length > 0) {
    return failure(bundleError(formatDiagnostic(readErrors[0])), read.diagnostics, read.value.target ?? fallback, options.mode ?? 'latency');
  }
  return simulate(read.value, options, true, read.diagnostics, forSimulation.compiled);
}

/**
 * Reads, validates and simulates a bundle directory (a Raptor bundle or a plain pimsim-nn
 * program directory). Never throws on bad input: problems come back as `error`.
 *
 * @example
 * ```ts
 * const r = simulateDirectory('out/model.bundle', { mode: 'latency' });
 * if (!r.ok) console.error(r.error!.message);
 * ```
 */
export function simulateDirectory(directory: string, options: SimulateOptions = {}): SimulationResult {
  return simulateRead(readDirectoryForSimulation(directory), options);
}

/**
 * Like {@link simulateDirectory} for a bundle held in memory (file name → bytes).
 */
export function simulateBundleFiles(files: ReadonlyMap<string, Uint8Array>, options: SimulateOptions = {}): SimulationResult {
  return simulateRead(readForSimulation(files), options);
}
