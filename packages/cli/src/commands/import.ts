/**
 * `raptor import MODEL.onnx`: lowers an ONNX model to a module of Spatial plans and prints it
 * (or writes it with -o); with --run, interprets it on .npy inputs, writes each graph output as
 * DIR/output_<k>.npy (float32) and optionally compares with reference outputs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { printOperation } from '@raptor-pim/ir-core';
import {
  OnnxDataType,
  formatDiagnostic,
  hasErrors,
  importOnnxModel,
  parseInputShapeFlag,
  readNpy,
  readOnnxFile,
  runImportedModule,
  tensorToNumbers,
  writeNpy,
  type F32Array,
  type OnnxTensor,
} from '@raptor-pim/onnx-frontend';
import type { CliCommand, CliIo } from '../command';
import { CLI_MESSAGES as M } from '../diagnostics';

/** Parsed `raptor import` options. */
export interface ImportArgs {
  model: string;
  output?: string;
  inputShapes: Record<string, number[]>;
  crossbarSize?: number;
  run: boolean;
  /** `--input FILE.npy` (positional, name undefined) or `--input NAME=FILE.npy`. */
  inputs: { name?: string; file: string }[];
  /** `--const-input NAME=FILE.npy`: graph inputs bound to compile-time values. */
  constInputs: { name: string; file: string }[];
  outputDir?: string;
  referenceDir?: string;
}

const USAGE = `usage: raptor import MODEL.onnx [options]

Lowers an ONNX model to a func.func of Spatial plans (spat.*_plan, spat.graph_compute with
crossbar-tiled spat.wvmm) and prints the module.

options:
  -o FILE                        write the module to FILE instead of standard output
  --input-shape NAME=1x3x224x224 bind the shape of a graph input (repeatable)
  --crossbar-size N              weight tile size of spat.wvmm (default 128)
  --const-input NAME=FILE.npy    bind graph input NAME to the value in FILE.npy at compile
                                 time (weights or shape tensors fed as graph inputs; crossbar
                                 weights must be constants); it is no longer a run input
  --run                          interpret the module on the given inputs
  --input FILE.npy               input in graph-input order (repeatable), or
  --input NAME=FILE.npy          input by graph-input name
  --output-dir DIR               write graph output k as DIR/output_<k>.npy (float32; default .)
  --reference-dir DIR            compare with DIR/output_<k>.npy and print the worst error
`;

/** Parses the arguments after `raptor import`; returns the options or an error message. */
export function parseImportArgs(args: readonly string[]): ImportArgs | { error: string } | 'help' {
  const out: ImportArgs = { model: '', inputShapes: {}, run: false, inputs: [], constInputs: [] };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string | undefined => args[++i];
    if (a === '--help' || a === '-h') return 'help';
    if (a === '--run') {
      out.run = true;
      continue;
    }
    if (a === '-o' || a === '--input-shape' || a === '--crossbar-size' || a === '--input' || a === '--const-input' || a === '--output-dir' || a === '--reference-dir') {
      const v = value();
      if (v === undefined) return { error: M.importMissingValue(a) };
      if (a === '-o') out.output = v;
      else if (a === '--output-dir') out.outputDir = v;
      else if (a === '--reference-dir') out.referenceDir = v;
      else if (a === '--crossbar-size') {
        const n = Number(v);
        if (!Number.isInteger(n) || n <= 0) return { error: M.importBadCrossbar(v) };
        out.crossbarSize = n;
      } else if (a === '--input-shape') {
        const b = parseInputShapeFlag(v);
        if ('error' in b) return { error: `raptor import: ${b.error}` };
        out.inputShapes[b.name] = b.shape;
      } else if (a === '--const-input') {
        const eq = v.lastIndexOf('=');
        if (eq <= 0) return { error: M.importBadConstInput(v) };
        out.constInputs.push({ name: v.slice(0, eq), file: v.slice(eq + 1) });
      } else {
        const eq = v.lastIndexOf('=');
        out.inputs.push(eq > 0 ? { name: v.slice(0, eq), file: v.slice(eq + 1) } : { file: v });
      }
      continue;
    }
    if (a.startsWith('-') && a !== '-') return { error: M.importUnknownOption(a) };
    positional.push(a);
  }
  if (positional.length !== 1) return { error: M.importNeedsModel() };
  out.model = positional[0]!;
  return out;
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

/** Runs `raptor import` with parsed options; returns the exit code. */
export function runImport(a: ImportArgs, io: CliIo): number {
  const { model, diagnostics: readDiagnostics } = readOnnxFile(a.model);
  for (const d of readDiagnostics) io.stderr(formatDiagnostic(d) + '\n');
  if (!model || hasErrors(readDiagnostics)) return 1;
  const graphInputs = model.graph.inputs.map((i) => i.name);
  const constantInputs: Record<string, OnnxTensor> = {};
  for (const c of a.constInputs) {
    if (!graphInputs.includes(c.name)) {
      io.stderr(M.importBadInputBinding(c.name, graphInputs) + '\n');
      return 1;
    }
    const t = readNpyTensor(c.file, io);
    if (!t) return 1;
    constantInputs[c.name] = t;
  }
  const imported = importOnnxModel(model, { inputShapes: a.inputShapes, crossbarSize: a.crossbarSize, constantInputs });
  for (const d of imported.diagnostics) io.stderr(formatDiagnostic(d) + '\n');
  if (!imported.module || hasErrors(imported.diagnostics)) return 1;
  const text = printOperation(imported.module);
  const printed = text.endsWith('\n') ? text : text + '\n';
  if (a.output !== undefined) {
    try {
      fs.writeFileSync(a.output, printed);
    } catch (e) {
      io.stderr(M.importCannotWrite(a.output, (e as Error).message) + '\n');
      return 1;
    }
  } else if (!a.run) io.stdout(printed);
  if (!a.run) return 0;

  // Bind inputs in graph-input order or by name.
  const names = imported.inputs.map((i) => i.name);
  const files = new Array<string | undefined>(names.length);
  let next = 0;
  for (const inp of a.inputs) {
    const k = inp.name !== undefined ? names.indexOf(inp.name) : next++;
    if (k < 0 || k >= names.length) {
      io.stderr(M.importBadInputBinding(inp.name ?? inp.file, names) + '\n');
      return 1;
    }
    files[k] = inp.file;
  }
  const inputs: F32Array[] = [];
  for (let k = 0; k < names.length; k++) {
    const file = files[k];
    if (file === undefined) {
      io.stderr(M.importMissingInput(names[k]!) + '\n');
      return 1;
    }
    const t = readNpyFile(file, io);
    if (!t) return 1;
    inputs.push({ shape: t.dims, data: Float32Array.from(t.values) });
  }
  const r = runImportedModule(imported, inputs);
  if (!r.ok) {
    for (const d of r.diagnostics) io.stderr(formatDiagnostic(d) + '\n');
    return 1;
  }
  const dir = a.outputDir ?? '.';
  let status = 0;
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    io.stderr(M.importCannotWrite(dir, (e as Error).message) + '\n');
    return 1;
  }
  r.outputs.forEach((o, k) => {
    const file = path.join(dir, `output_${k}.npy`);
    try {
      fs.writeFileSync(file, writeNpy({ dataType: OnnxDataType.FLOAT, dims: o.shape, data: o.data }));
    } catch (e) {
      io.stderr(M.importCannotWrite(file, (e as Error).message) + '\n');
      status = 1;
      return;
    }
    io.stdout(M.importWroteOutput(k, imported.outputs[k]!.name, o.shape, file) + '\n');
    if (a.referenceDir !== undefined) {
      const ref = readNpyFile(path.join(a.referenceDir, `output_${k}.npy`), io);
      if (!ref) {
        status = 1;
        return;
      }
      const c = compareOutputs(o.data, ref.values);
      const shapeOk = ref.dims.join() === o.shape.join();
      io.stdout(M.importCompared(k, c.maxAbs, c.ok && shapeOk) + '\n');
      if (!c.ok || !shapeOk) status = 1;
    }
  });
  return status;
}

function readNpyFile(file: string, io: CliIo): { dims: number[]; values: number[] } | undefined {
  const tensor = readNpyTensor(file, io);
  return tensor ? { dims: [...tensor.dims], values: tensorToNumbers(tensor) } : undefined;
}

function readNpyTensor(file: string, io: CliIo): OnnxTensor | undefined {
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    io.stderr(M.importCannotRead(file, (e as Error).message) + '\n');
    return undefined;
  }
  const { tensor, diagnostics } = readNpy(bytes, file);
  for (const d of diagnostics) io.stderr(formatDiagnostic(d) + '\n');
  return tensor;
}

/** The `raptor import` command. */
export const importCommand: CliCommand = {
  name: 'import',
  summary: 'lower an ONNX model to Spatial plans (and optionally run it)',
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const a = parseImportArgs(args);
    if (a === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    if ('error' in a) {
      io.stderr(a.error + '\n' + USAGE);
      return 1;
    }
    return runImport(a, io);
  },
};
