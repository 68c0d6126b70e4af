/**
 * `raptor import` without `--run` and `--const-input`: read the model, import it, write the
 * module. Nothing here loads the compiler, the interpreter or the `.npy` codec, so this module
 * is also the whole of the standalone bundle the launcher runs for a plain import
 * (`src/import-bin.ts`); `commands/import.ts` adds the flags that need more.
 */
import * as fs from 'node:fs';
import { printOperationPieces } from '@raptor-pim/ir-core';
import {
  formatDiagnostic,
  hasErrors,
  importOnnxModel,
  parseInputShapeFlag,
  readOnnxFile,
  type ImportedModule,
  type OnnxModel,
  type OnnxTensor,
} from '@raptor-pim/onnx-frontend';
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

/** One-line description of `raptor import` in the usage text. */
export const IMPORT_SUMMARY = 'lower an ONNX model to Spatial plans (and optionally run it)';

/** The usage text of `raptor import`. */
export const IMPORT_USAGE = `usage: raptor import MODEL.onnx [options]

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

/**
 * The command-line words that make `raptor import` need more than this module (the compiler
 * and the interpreter, the `.npy` codec): without either word in the arguments,
 * {@link parseImportArgs} never sets `run` or `constInputs`.
 */
export const IMPORT_FLAGS_BEYOND_PLAIN: readonly string[] = ['--run', '--const-input'];

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

/** Reads `a.model` and prints its diagnostics; returns the model, or undefined after an error. */
export function readImportModel(a: ImportArgs, io: CliIo): OnnxModel | undefined {
  const { model, diagnostics } = readOnnxFile(a.model);
  for (const d of diagnostics) io.stderr(formatDiagnostic(d) + '\n');
  return model && !hasErrors(diagnostics) ? model : undefined;
}

/** What {@link importAndWrite} did: the exit code so far and, on success, the imported module. */
export interface ImportWritten {
  readonly code: number;
  readonly imported?: ImportedModule;
}

/**
 * Imports `model` with the options of `a` and `constantInputs` (graph inputs bound to values),
 * prints the diagnostics and writes the module: to `-o FILE`, or to standard output (also for
 * `-o -`, as in mlir-opt) unless `--run` alone asks for the run's report there.
 */
export function importAndWrite(a: ImportArgs, model: OnnxModel, constantInputs: Record<string, OnnxTensor>, io: CliIo): ImportWritten {
  const imported = importOnnxModel(model, { inputShapes: a.inputShapes, crossbarSize: a.crossbarSize, constantInputs });
  for (const d of imported.diagnostics) io.stderr(formatDiagnostic(d) + '\n');
  if (!imported.module || hasErrors(imported.diagnostics)) return { code: 1 };
  // The module's text in consecutive pieces (large constants are pieces of their own), written
  // one by one: never joined into one string first.
  const pieces = printOperationPieces(imported.module);
  if (!pieces[pieces.length - 1]!.endsWith('\n')) pieces.push('\n');
  const toStdout = a.output === '-';
  if (a.output !== undefined && !toStdout) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(a.output, 'w');
      writePieces(fd, pieces);
    } catch (e) {
      io.stderr(M.cannotWrite('import', a.output, (e as Error).message) + '\n');
      return { code: 1 };
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  } else if (!a.run || toStdout) for (const piece of pieces) io.stdout(piece);
  return { code: 0, imported };
}

/** Runs a plain `raptor import` (no `--run`, no `--const-input`); returns the exit code. */
export async function runPlainImport(a: ImportArgs, io: CliIo): Promise<number> {
  if (a.run || a.constInputs.length > 0) throw new Error('internal: --run and --const-input need the full raptor import (commands/import.ts)');
  const model = readImportModel(a, io);
  if (!model) return 1;
  return importAndWrite(a, model, {}, io).code;
}

/** `raptor import` for the arguments without {@link IMPORT_FLAGS_BEYOND_PLAIN}. */
export const plainImportCommand: CliCommand = defineParsedCommand({
  name: 'import',
  summary: IMPORT_SUMMARY,
  usage: IMPORT_USAGE,
  parse: parseImportArgs,
  run: runPlainImport,
});
