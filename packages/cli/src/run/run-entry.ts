/**
 * What `raptor import --run` and `raptor opt --run` share: binding `--input [NAME=]FILE.npy`
 * to the entry function's arguments, interpreting it (the compiler's `interpretFunction`, with
 * the rules of every Raptor dialect), writing each result as DIR/output_<k>.npy (float32) and
 * comparing with DIR/output_<k>.npy references.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatIrLocation, interpretFunction, type EntryFunction, type F32Tensor } from '@raptor-pim/compiler';
import type { Operation } from '@raptor-pim/ir-core';
import { OnnxDataType, formatDiagnostic, readNpy, tensorToNumbers, writeNpy, type OnnxTensor } from '@raptor-pim/onnx-frontend';
import type { CliIo } from '../command';
import { CLI_MESSAGES as M } from '../diagnostics';
import type { RunInputSpec } from './run-input';

export { parseRunInput, type RunInputSpec } from './run-input';

/** The run flags of a command. */
export interface RunRequest {
  /** The command, for messages (`import`, `opt`). */
  readonly command: string;
  /** What an input is called in messages (`graph input`, `argument of @main`). */
  readonly inputKind: string;
  readonly inputs: readonly RunInputSpec[];
  /** Where output_<k>.npy go (default `.`). */
  readonly outputDir?: string;
  /** Where reference output_<k>.npy are read from. */
  readonly referenceDir?: string;
}

/** Worst error of `got` against `ref`: max |diff| and whether rtol 1e-3 + atol 1e-5*max|ref| holds. */
export function compareOutputs(got: Float32Array, ref: readonly number[]): { maxAbs: number; ok: boolean } {
  const maxRef = ref.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  let maxAbs = 0;
  let ok = got.length === ref.length;
  for (let i = 0; i < Math.min(got.length, ref.length); i++) {
    const d = Math.abs(got[i]! - ref[i]!);
    if (!(d <= 1e-5 * maxRef + 1e-3 * Math.abs(ref[i]!))) ok = false;
    if (!(d <= maxAbs)) maxAbs = d;
  }
  return { maxAbs, ok };
}

/** Reads an .npy file as a tensor, printing why not (and returning undefined) on failure. */
export function readNpyTensor(command: string, file: string, io: CliIo): OnnxTensor | undefined {
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    io.stderr(M.cannotRead(command, file, (e as Error).message) + '\n');
    return undefined;
  }
  const { tensor, diagnostics } = readNpy(bytes, file);
  for (const d of diagnostics) io.stderr(formatDiagnostic(d) + '\n');
  return tensor;
}

function readNpyNumbers(command: string, file: string, io: CliIo): { dims: number[]; values: number[] } | undefined {
  const tensor = readNpyTensor(command, file, io);
  return tensor ? { dims: [...tensor.dims], values: tensorToNumbers(tensor) } : undefined;
}

/**
 * Runs `entry` of `module` on the inputs of `request` and writes (and compares) its outputs.
 * `outputNames` names the results in messages (default: the entry's result names). Returns
 * the exit code: 0, or 1 after printing why (a bad binding, an unreadable file, a failing
 * interpretation, a reference mismatch).
 */
export function runEntryWithFiles(
  module: Operation,
  entry: EntryFunction,
  request: RunRequest,
  io: CliIo,
  outputNames: readonly string[] = entry.outputs.map((o) => o.name),
): number {
  const { command } = request;
  const names = entry.inputs.map((i) => i.name);
  const files = new Array<string | undefined>(names.length);
  let next = 0;
  for (const inp of request.inputs) {
    const k = inp.name !== undefined ? names.indexOf(inp.name) : next++;
    if (k < 0 || k >= names.length) {
      io.stderr(M.runBadInputBinding(command, inp.name ?? inp.file, request.inputKind, names) + '\n');
      return 1;
    }
    files[k] = inp.file;
  }
  const inputs: F32Tensor[] = [];
  for (let k = 0; k < names.length; k++) {
    const file = files[k];
    if (file === undefined) {
      io.stderr(M.runMissingInput(command, request.inputKind, names[k]!) + '\n');
      return 1;
    }
    const t = readNpyNumbers(command, file, io);
    if (!t) return 1;
    inputs.push({ shape: t.dims, data: Float32Array.from(t.values) });
  }
  const r = interpretFunction(module, entry.name, inputs);
  if (!r.ok) {
    for (const d of r.diagnostics) io.stderr(`${formatIrLocation(d.location)}: ${d.severity}: ${d.message}\n`);
    return 1;
  }
  return writeAndCompareOutputs(r.outputs, request, io, outputNames).status;
}

/** What {@link writeAndCompareOutputs} did with one output. */
export interface OutputRecord {
  readonly index: number;
  readonly name: string;
  readonly shape: readonly number[];
  /** The .npy written (undefined when writing failed). */
  readonly file?: string;
  /** Max |diff| against the reference (with `referenceDir`). */
  readonly maxAbsDiff?: number;
  /** Whether shape and values match the reference (with `referenceDir`). */
  readonly matches?: boolean;
}

/**
 * Writes each of `outputs` as DIR/output_<k>.npy (float32; DIR is `request.outputDir`, default
 * `.`), prints one line per output and, with `request.referenceDir`, compares output k with
 * REF/output_<k>.npy (shape and values, {@link compareOutputs}). Shared by `raptor import
 * --run`, `raptor opt --run` and `raptor run`. Returns 0, or 1 after printing why (an
 * unwritable file, an unreadable reference, a mismatch) as `status`, and what happened to
 * each output.
 */
export function writeAndCompareOutputs(
  outputs: readonly F32Tensor[],
  request: Pick<RunRequest, 'command' | 'outputDir' | 'referenceDir'>,
  io: CliIo,
  outputNames: readonly string[] = [],
): { status: number; outputs: OutputRecord[] } {
  const { command } = request;
  const records: OutputRecord[] = [];
  const dir = request.outputDir ?? '.';
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    io.stderr(M.cannotWrite(command, dir, (e as Error).message) + '\n');
    return { status: 1, outputs: records };
  }
  let status = 0;
  outputs.forEach((o, k) => {
    const file = path.join(dir, `output_${k}.npy`);
    const name = outputNames[k] ?? `result${k}`;
    try {
      fs.writeFileSync(file, writeNpy({ dataType: OnnxDataType.FLOAT, dims: o.shape, data: o.data }));
    } catch (e) {
      io.stderr(M.cannotWrite(command, file, (e as Error).message) + '\n');
      records.push({ index: k, name, shape: o.shape });
      status = 1;
      return;
    }
    io.stdout(M.runWroteOutput(k, name, o.shape, file) + '\n');
    if (request.referenceDir === undefined) {
      records.push({ index: k, name, shape: o.shape, file });
      return;
    }
    const ref = readNpyNumbers(command, path.join(request.referenceDir, `output_${k}.npy`), io);
    if (!ref) {
      records.push({ index: k, name, shape: o.shape, file });
      status = 1;
      return;
    }
    const c = compareOutputs(o.data, ref.values);
    const shapeOk = ref.dims.join() === o.shape.join();
    io.stdout(M.runCompared(k, c.maxAbs, c.ok && shapeOk) + '\n');
    records.push({ index: k, name, shape: o.shape, file, maxAbsDiff: c.maxAbs, matches: c.ok && shapeOk });
    if (!c.ok || !shapeOk) status = 1;
  });
  return { status, outputs: records };
}
