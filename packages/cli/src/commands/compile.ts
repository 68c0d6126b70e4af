/**
 * `raptor compile MODEL.onnx -o DIR`: compiles an ONNX model with the whole `raptor-compile`
 * pipeline and writes the program bundle (pim-target's bundle writer) and, with `--report`, the
 * compile report. The bundle is written to a temporary directory next to DIR and renamed into
 * place only when everything succeeded, so a failure leaves no partial bundle behind.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatCompileReport } from '@raptor-pim/compiler';
import { formatDiagnostic, writeBundle, type ProgramBundle } from '@raptor-pim/pim-target';
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

/** Parsed `raptor compile` options. */
export interface CompileArgs {
  model: string;
  output: string;
  flags: CompileFlags;
}

const USAGE = `usage: raptor compile MODEL.onnx -o DIR [options]

Compiles an ONNX model with the whole Raptor pipeline (raptor-compile: import, layout
planning, plan lowering, scheduling, spatial-to-pim, bufferization, memory planning,
verification, emission) and writes the program bundle to DIR (config.json, core_<id>.pim,
manifest.json, memory.bin, the crossbar weights). 'raptor sim DIR' simulates it.

options:
  -o DIR                           the bundle directory (replaced if it holds a bundle)
${COMPILE_FLAGS_USAGE}`;

/** Parses the arguments after `raptor compile`; returns the options, 'help', or an error message. */
export function parseCompileArgs(args: readonly string[]): CompileArgs | 'help' | { error: string } {
  const flags = defaultCompileFlags();
  let output: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : undefined;
    if (name === '--help' || name === '-h') return 'help';
    if (name === '-o' || name === '--output') {
      output = inline ?? args[++i];
      if (output === undefined) return { error: M.compileMissingValue('compile', name) };
      continue;
    }
    if (name === '--pim-disable-spatial-planning' || COMPILE_VALUE_OPTIONS.has(name)) {
      const value = name === '--pim-disable-spatial-planning' ? undefined : (inline ?? args[++i]);
      const error = applyCompileFlag('compile', flags, name, value);
      if (error !== undefined) return { error };
      continue;
    }
    if (a.startsWith('-') && a !== '-') return { error: M.compileUnknownOption('compile', a) };
    positional.push(a);
  }
  if (positional.length !== 1) return { error: M.compileNeedsModel('compile') };
  if (output === undefined) return { error: M.compileNeedsOutput() };
  return { model: positional[0]!, output, flags };
}

/**
 * Writes `bundle` to `dir` through a temporary directory next to it, renamed into place on
 * success (an existing bundle at `dir` is replaced; any other existing non-empty directory is
 * refused). Returns false after printing why; nothing is left behind then.
 */
export function writeBundleAtomically(command: string, dir: string, bundle: ProgramBundle, io: CliIo): boolean {
  const target = path.resolve(dir);
  let existing: 'none' | 'bundle' | 'empty' = 'none';
  if (fs.existsSync(target)) {
    const isDir = fs.statSync(target).isDirectory();
    const entries = isDir ? fs.readdirSync(target) : [];
    if (isDir && entries.length === 0) existing = 'empty';
    else if (isDir && entries.includes('config.json')) existing = 'bundle';
    else {
      io.stderr(M.compileOutputNotBundle(dir) + '\n');
      return false;
    }
  }
  const parent = path.dirname(target);
  let temp: string | undefined;
  try {
    fs.mkdirSync(parent, { recursive: true });
    temp = fs.mkdtempSync(path.join(parent, `.${path.basename(target)}.partial-`));
    const diagnostics = writeBundle(temp, bundle);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      for (const d of errors) io.stderr(formatDiagnostic(d) + '\n');
      io.stderr(M.compileInvalidBundle(command, errors.length) + '\n');
      fs.rmSync(temp, { recursive: true, force: true });
      return false;
    }
    if (existing !== 'none') {
      const old = fs.mkdtempSync(path.join(parent, `.${path.basename(target)}.old-`));
      fs.renameSync(target, path.join(old, 'bundle'));
      fs.renameSync(temp, target);
      fs.rmSync(old, { recursive: true, force: true });
    } else fs.renameSync(temp, target);
    return true;
  } catch (e) {
    if (temp !== undefined) fs.rmSync(temp, { recursive: true, force: true });
    io.stderr(M.cannotWrite(command, dir, (e as Error).message) + '\n');
    return false;
  }
}

/** Runs `raptor compile` with parsed options; returns the exit code. */
export async function runCompile(a: CompileArgs, io: CliIo): Promise<number> {
  const model = readModel(a.model, io);
  if (!model) return 1;
  const { shapes } = bindInputShapes(model, a.flags.inputShapes, []);
  const compiled = compileWithFlags('compile', model, a.flags, shapes, io);
  if (!compiled) return 1;
  if (!writeBundleAtomically('compile', a.output, compiled.bundle, io)) return 1;
  io.stdout(formatCompileReport(compiled.result.report));
  io.stdout(M.compileWroteBundle(a.output, compiled.bundle.coreCount) + '\n');
  if (a.flags.report !== undefined) io.stdout(M.compileWroteReport(a.flags.report) + '\n');
  return 0;
}

/** The `raptor compile` command. */
export const compileCommand: CliCommand = defineParsedCommand({
  name: 'compile',
  summary: 'compile an ONNX model to a program bundle (the whole pipeline)',
  usage: USAGE,
  parse: parseCompileArgs,
  run: runCompile,
});
