/**
 * Emission of a program bundle (pim-isa.md, decision 1) from a bufferized PIM module: static
 * evaluation and verification, array-group allocation, instruction selection per core, then
 * pim-target's bundle (`config.json`, `core_<id>.pim`, `manifest.json`, `memory.bin`,
 * `weights.bin`) checked by pim-target's validator. The same module gives the same bytes.
 */
import { FloatType, IntegerType, ReturnOp, type Diagnostic, type Operation } from '@raptor-pim/ir-core';
import {
  formatDiagnostic,
  isPimsimCompatibilityDiagnostic,
  validateBundle,
  writeBundleFiles,
  type ElementType,
  type ProgramBundle,
  type Target,
  type TensorLocation,
  type WeightBlock,
} from '@raptor-pim/pim-target';
import { allocateArrayGroups, type ArrayGroupPlan } from '../analysis/array-groups';
import { checkCommunication } from '../analysis/communication';
import type { HostBuffer } from '../analysis/host-layout';
import { Reporter } from '../analysis/reporter';
import { buildStaticProgram, type StaticProgram } from '../analysis/static-program';
import { CodegenMessages as M } from '../diagnostics';
import { selectInstructions, type SelectionStatistics } from '../isel/select';
import { resolveCodegenTarget, type TargetLike } from '../target';
import { elementBytes, typeText } from '../analysis/types';

/** The producer string written to the manifest. */
export const PRODUCER = 'raptor codegen 0.1.0';

/** Figures of one emission (for the compile report). */
export interface EmitStatistics extends SelectionStatistics {
  /** Cores in the bundle (`core_cnt`). */
  cores: number;
  /** Cores that run a stream. */
  activeCores: number;
  /** Array groups over all cores. */
  arrayGroups: number;
  /** Crossbars over all cores. */
  crossbars: number;
  /** Bytes of the global memory image. */
  globalBytes: number;
  /** Element type and widths the programs are timed at. */
  elementType: 'f32';
}

/** A generated bundle. */
export interface GeneratedBundle {
  /** The bundle. */
  readonly bundle: ProgramBundle;
  /** Figures. */
  readonly statistics: EmitStatistics;
}

/** Verifies `module` and evaluates it statically; reports through `report`. */
export function analyzeModule(module: Operation, target: Target, report: Reporter): { program: StaticProgram; plan: ArrayGroupPlan } | undefined {
  const program = buildStaticProgram(module, target, report);
  if (!program) return undefined;
  checkCommunication(program, report);
  const plan = allocateArrayGroups(program, target, report);
  return report.errors > 0 ? undefined : { program, plan };
}

/**
 * Generates the bundle of `module`; diagnostics (on the IR) go to `report`, and the result
 * is undefined when there was an error.
 */
export function generateBundle(module: Operation, target: Target, report: Reporter): GeneratedBundle | undefined {
  const program = buildStaticProgram(module, target, report);
  if (!program) return undefined;
  checkCommunication(program, report);
  return report.errors > 0 ? undefined : generateBundleFrom(program, target, report);
}

/**
 * Generates the bundle of an evaluated, error-free `program`: array groups, instruction
 * selection, tensors, memory image, validation. Undefined when `report` got an error.
 */
export function generateBundleFrom(program: StaticProgram, target: Target, report: Reporter): GeneratedBundle | undefined {
  const plan = allocateArrayGroups(program, target, report);
  if (report.errors > 0) return undefined;
  const coreCount = Math.max(1, program.coreCount);
  const stats: EmitStatistics = {
    instructions: 0,
    registerLoads: 0,
    registerHits: 0,
    cores: coreCount,
    activeCores: program.streams.length,
    arrayGroups: 0,
    crossbars: 0,
    globalBytes: program.host.end,
    elementType: 'f32',
  };
  const programs = Array.from({ length: coreCount }, () => [] as ProgramBundle['programs'][number]);
  const arrayGroupMap = Array.from({ length: coreCount }, () => [] as number[]);
  const weights: WeightBlock[] = [];
  for (const stream of program.streams) {
    programs[stream.coreId] = selectInstructions(stream, plan, target, stats);
    const groups = plan.groups.get(stream.coreId) ?? [];
    arrayGroupMap[stream.coreId] = groups.map((g) => g.crossbars);
    stats.arrayGroups += groups.length;
    stats.crossbars += groups.reduce((a, g) => a + g.crossbars, 0);
    for (const g of groups) {
      if (!g.weight) continue;
      weights.push({
        core: stream.coreId,
        group: g.index,
        rows: g.weight.rows,
        cols: g.weight.cols,
        elementType: 'f32',
        data: new Uint8Array(g.weight.data.buffer, g.weight.data.byteOffset, g.weight.data.byteLength),
      });
    }
  }
  const { inputs, outputs } = modelTensors(program, report);
  const bundle: ProgramBundle = {
    coreCount,
    arrayGroupMap,
    programs,
    target,
    inputs,
    outputs,
    memoryImage: memoryImage(program, report),
    weights,
    producer: PRODUCER,
  };
  const validation = validateBundle(bundle, { target });
  for (const d of validation.diagnostics) {
    if (d.severity === 'error') report.error(program.func, M.bundleInvalid(formatDiagnostic(d)));
    else if (isPimsimCompatibilityDiagnostic(d) && !(d.code === 'pimsim-vsoftmax' && target.config.raptor_config.allow_vsoftmax)) {
      report.error(program.func, M.bundleInvalid(formatDiagnostic(d)));
    }
  }
  return report.errors > 0 ? undefined : { bundle, statistics: stats };
}

function elementTypeOf(buffer: HostBuffer): ElementType | undefined {
  const t = buffer.type.elementType;
  if (t instanceof FloatType) {
    if (t.kind === 'f32' || t.kind === 'f16' || t.kind === 'bf16' || t.kind === 'f64') return t.kind;
    return undefined;
  }
  if (t instanceof IntegerType) {
    const names: Record<number, ElementType> = t.isUnsigned ? { 8: 'u8', 16: 'u16', 32: 'u32' } : { 8: 'i8', 16: 'i16', 32: 'i32', 64: 'i64' };
    return names[t.width];
  }
  return undefined;
}

/**
 * The model inputs and outputs. Outputs are the host buffers the entry function returns (the
 * form bufferization produces), in result order; a function that returns nothing has its
 * written memref arguments (`pim.memcp_dh` destinations) as outputs instead. Inputs are the
 * other memref arguments, in argument order. Names come from `pim.name` argument attributes,
 * else `input_<k>` / `output_<k>` (as `raptor run` names its `.npy` files).
 */
function modelTensors(program: StaticProgram, report: Reporter): { inputs: TensorLocation[]; outputs: TensorLocation[] } {
  const written = new Set<HostBuffer>();
  for (const s of program.streams) for (const op of s.ops) if (op.kind === 'st') written.add(op.host);
  const entry = program.func.regions[0]?.firstBlock;
  const terminator = entry?.lastOp;
  const returned: HostBuffer[] = [];
  if (terminator && ReturnOp.isInstance(terminator)) {
    for (const v of terminator.operands) {
      const b = program.host.lookup(v);
      if (b && !returned.includes(b)) returned.push(b);
    }
  }
  const args = program.host.buffers.filter((b) => b.argument !== undefined).sort((a, b) => a.argument! - b.argument!);
  const outputBuffers = returned.length > 0 ? returned : args.filter((b) => written.has(b));
  const inputBuffers = args.filter((b) => !outputBuffers.includes(b) && !written.has(b));
  const locate = (b: HostBuffer, name: string): TensorLocation | undefined => {
    const elementType = elementTypeOf(b);
    if (!elementType) {
      report.error(b.reportAt, M.elementType(`host buffer ${b.name}`, typeText(b.type.elementType)));
      return undefined;
    }
    return { name: b.tensorName ?? name, address: b.address, elementType, shape: [...b.type.shape] };
  };
  const inputs = inputBuffers.map((b, k) => locate(b, `input_${k}`)).filter((t): t is TensorLocation => t !== undefined);
  const outputs = outputBuffers.map((b, k) => locate(b, `output_${k}`)).filter((t): t is TensorLocation => t !== undefined);
  return { inputs, outputs };
}

/** The initial global memory: zero, with the initial values of the `memref.global`s. */
function memoryImage(program: StaticProgram, report: Reporter): Uint8Array {
  const image = new Uint8Array(program.host.end);
  for (const b of program.host.buffers) {
    const init = b.initialValue;
    if (!init) continue;
    const data = init.data;
    const width = data.BYTES_PER_ELEMENT;
    if (width !== elementBytes(b.type.elementType)) {
      // The attribute stores these elements at another width (f16/bf16 values are kept as f32).
      report.error(b.reportAt, M.initialValueType(b.name, typeText(b.type.elementType)));
      continue;
    }
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (init.isSplat) for (let at = 0; at < b.bytes; at += width) image.set(bytes.subarray(0, width), b.address + at);
    else image.set(bytes.subarray(0, b.bytes), b.address);
  }
  return image;
}

/** Options of {@link emitBundle}. */
export interface EmitBundleOptions {
  /** Also produce `core_<id>.json` files. Default false. */
  readonly json?: boolean;
}

/** The result of {@link emitBundle}: the bundle and its files, or the diagnostics. */
export type EmitBundleResult =
  | {
      readonly ok: true;
      readonly bundle: ProgramBundle;
      /** File name → bytes, as `writeBundle` would write them. */
      readonly files: ReadonlyMap<string, Uint8Array>;
      readonly statistics: EmitStatistics;
      /** Warnings (e.g. surplus syncs). */
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * Emits the program bundle of a bufferized PIM module for `target` (default:
 * `defaultTarget()`). Never throws on bad input: failures are diagnostics at the ops.
 *
 * @example
 * ```ts
 * const r = emitBundle(module, defaultTarget());
 * if (r.ok) writeBundle('out.bundle', r.bundle);
 * else for (const d of r.diagnostics) console.error(d.message);
 * ```
 */
export function emitBundle(module: Operation, target?: TargetLike, options: EmitBundleOptions = {}): EmitBundleResult {
  const t = resolveCodegenTarget(target);
  const report = new Reporter();
  const { result, diagnostics } = module.context.diagnostics.capture(() => generateBundle(module, t, report));
  if (!result) return { ok: false, diagnostics };
  const writing = writeBundleFiles(result.bundle, { json: options.json ?? false });
  if (!writing.files) {
    const messages = writing.diagnostics.map(formatDiagnostic).join('; ');
    const { diagnostics: more } = module.context.diagnostics.capture(() => module.emitError(M.bundleInvalid(messages)));
    return { ok: false, diagnostics: [...diagnostics, ...more] };
  }
  return { ok: true, bundle: result.bundle, files: writing.files, statistics: result.statistics, diagnostics };
}
