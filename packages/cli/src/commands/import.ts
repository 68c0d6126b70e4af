/**
 * `raptor import MODEL.onnx`: lowers an ONNX model to a module of Spatial plans and prints it
 * (or writes it with -o); with --run, interprets it on .npy inputs, writes each graph output as
 * DIR/output_<k>.npy (float32) and optionally compares with reference outputs.
 */
import * as fs from 'node:fs';
import { printOperationPieces } from '@raptor-pim/ir-core';
import { formatDiagnostic, hasErrors, importOnnxModel, parseInputShapeFlag, readOnnxFile, type OnnxTensor } from '@raptor-pim/onnx-frontend';
import { defineParsedCommand, type CliCommand, type CliIo } from '../command';
import { CLI_MESSAGES as M } from '../diagnostics';
import { parseRunInput, type RunInputSpec } from '../run/run-input';
import { writePieces } from '../write-pieces';

/** Parsed `raptor import` options. */
export interface ImportArgs {
  model: string;
  output?: string;
  inputShapes: Record<string, number[]>;
  crossbarSize?: number;
  run: boolean;
  /** `--input FILE.npy` (positional, name undefined) or `--input NAME=FILE.npy`. */
  inputs: RunInputSpec[];
  /** `--const-input NAME=FILE.npy`: graph inputs bound to compile-time values. */
  constInputs: { name: string; file: string }[];
  outputDir?: string;
  referenceDir?: string;
}

const USAGE = `usage: raptor import MODEL.onnx [options]

Lowers an ONNX model to a func.func of Spatial plans (spat.*_plan, spat.graph_compute with
crossbar-tiled spat.wvmm) and prints the module.

options:
  -o FILE                        write the module to FILE instead of standard output ('-': standard output)
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
      } else out.inputs.push(parseRunInput(v));
      continue;
    }
    if (a.startsWith('-') && a !== '-') return { error: M.importUnknownOption(a) };
    positional.push(a);
  }
  if (positional.length !== 1) return { error: M.importNeedsModel() };
  out.model = positional[0]!;
  return out;
}

/**
 * Runs `raptor import` with parsed options; returns the exit code. The compiler and the
 * interpreter are loaded only for `--run` and `--const-input` (a plain import does not need them).
 */
export async function runImport(a: ImportArgs, io: CliIo): Promise<number> {
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
    const { readNpyTensor } = await import('../run/run-entry');
    const t = readNpyTensor('import', c.file, io);
    if (!t) return 1;
    constantInputs[c.name] = t;
  }
  const imported = importOnnxModel(model, { inputShapes: a.inputShapes, crossbarSize: a.crossbarSize, constantInputs });
  for (const d of imported.diagnostics) io.stderr(formatDiagnostic(d) + '\n');
  if (!imported.module || hasErrors(imported.diagnostics)) return 1;
  // The module's text in consecutive pieces (large constants are pieces of their own), written
  // one by one: never joined into one string first.
  const pieces = printOperationPieces(imported.module);
  if (!pieces[pieces.length - 1]!.endsWith('\n')) pieces.push('\n');
  // `-o -` is standard output, as in mlir-opt.
  const toStdout = a.output === '-';
  if (a.output !== undefined && !toStdout) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(a.output, 'w');
      writePieces(fd, pieces);
    } catch (e) {
      io.stderr(M.cannotWrite('import', a.output, (e as Error).message) + '\n');
      return 1;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  } else if (!a.run || toStdout) for (const piece of pieces) io.stdout(piece);
  if (!a.run) return 0;

  // Interpreted exactly as `raptor opt --run` interprets a module (src/run/run-entry.ts).
  const [{ findEntryFunction, formatIrLocation }, { runEntryWithFiles }] = await Promise.all([import('@raptor-pim/compiler'), import('../run/run-entry')]);
  const entry = findEntryFunction(imported.module, imported.functionName);
  if (!entry.ok) {
    for (const d of entry.diagnostics) io.stderr(`${formatIrLocation(d.location)}: ${d.severity}: ${d.message}\n`);
    return 1;
  }
  return runEntryWithFiles(
    imported.module,
    { ...entry.entry, inputs: entry.entry.inputs.map((v, k) => ({ ...v, name: imported.inputs[k]?.name ?? v.name })) },
    { command: 'import', inputKind: 'graph input', inputs: a.inputs, outputDir: a.outputDir, referenceDir: a.referenceDir },
    io,
    imported.outputs.map((o) => o.name),
  );
}

/** The `raptor import` command. */
export const importCommand: CliCommand = defineParsedCommand({
  name: 'import',
  summary: 'lower an ONNX model to Spatial plans (and optionally run it)',
  usage: USAGE,
  parse: parseImportArgs,
  run: runImport,
});
