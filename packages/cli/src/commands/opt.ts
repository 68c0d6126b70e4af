/**
 * `raptor opt FILE`: parses MLIR, verifies it, optionally runs a pass pipeline, and prints the
 * result, like `mlir-opt` (same flags where they exist, same output bytes).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EntryFunction } from '@raptor-pim/compiler';
import {
  MLIRContext,
  parseSourceString,
  printOperation,
  printOperationPieces,
  renderDiagnostics,
  splitInputFile,
  verify,
  verifyDiagnostics,
  parsePassPipeline,
  type Diagnostic,
  type Operation,
  type PassManager,
  type PassRegistry,
  type PrintOptions,
} from '@raptor-pim/ir-core';
import { registerPimDialect } from '@raptor-pim/pim-dialect';
import type { Target } from '@raptor-pim/pim-target';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import type { CliCommand, CliIo } from '../command';
import { CLI_MESSAGES } from '../diagnostics';
import { parseRunInput, type RunInputSpec } from '../run/run-input';
import { writePieces } from '../write-pieces';

// ------------------------------------------------------------------ options

/** Parsed `raptor opt` options. */
export interface OptArgs {
  input: string;
  output?: string;
  pipeline?: string;
  generic: boolean;
  debugInfo: boolean;
  splitInputFile: boolean;
  verifyDiagnostics: boolean;
  printIrAfterAll: boolean;
  allowUnregistered: boolean;
  timing: boolean;
  /** Parse keeping the source SSA names and print with them (`%lane`, not `%arg0`). */
  retainIdentifierNames: boolean;
  /** Name values after the `NameLoc`s of their locations (mlir-opt's flag). */
  useNameLocAsPrefix: boolean;
  /** Print the pipeline, fully expanded, to stderr before running it. */
  dumpPassPipeline: boolean;
  /** Print the IR to stderr after the passes with these pipeline names. */
  printIrAfter: string[];
  /** `--target FILE`: the architecture JSON the passes read their hardware numbers from. */
  target?: string;
  /** Interpret the module after the pipeline. */
  run: boolean;
  /** The function to run (default `main`, or the only public function). */
  entry?: string;
  /** `--input [NAME=]FILE.npy`, in argument order or by argument name. */
  inputs: RunInputSpec[];
  outputDir?: string;
  referenceDir?: string;
}

const USAGE = `usage: raptor opt [FILE|-] [options]

Parses MLIR (generic or custom form), verifies it, runs an optional pass pipeline and prints
the result like mlir-opt. Reads standard input when FILE is '-' or absent.

options:
  -o FILE                       write the output to FILE (only when everything succeeded; '-': standard output)
  --pass-pipeline=PIPELINE      e.g. 'builtin.module(canonicalize,cse)'
  --print-generic               print every op in the generic form (--mlir-print-op-generic)
  --print-debuginfo             print locations (--mlir-print-debuginfo)
  --split-input-file            process each '// -----' chunk separately
  --verify-diagnostics          check '// expected-error {{...}}' directives instead of printing errors
  --print-ir-after-all          print the IR to stderr after every pass
  --allow-unregistered-dialect  accept ops of unknown dialects (kept in generic form)
  --timing                      print a time report to stderr
  --retain-identifier-names     print values with the SSA names of the input (%lane, %w) instead
                                of renumbering them; clashes are uniqued (%x_0), output re-parses
  --mlir-use-nameloc-as-prefix  print values named after their NameLoc locations (as mlir-opt)
  --dump-pass-pipeline          print the pipeline, every named pipeline expanded, to stderr
  --print-ir-after=PASS[,PASS]  print the IR to stderr after the named passes
  --target FILE                 the target machine: Raptor's or pimsim-nn's architecture JSON
                                (default: the built-in defaults); passes read it from the pass
                                context key 'raptor.target'

The passes are those of @raptor-pim/compiler: every stage's passes, canonicalize, cse, and the
named pipelines raptor-frontend and raptor-compile (e.g.
--pass-pipeline='builtin.module(raptor-frontend)').

running the result (interprets the module after the pipeline, as 'raptor import --run'):
  --run                         interpret the entry function and write its results
  --entry NAME                  the function to run (default @main, or the only public one)
  --input FILE.npy              input in argument order (repeatable), or
  --input NAME=FILE.npy         input by argument name (its loc("NAME"))
  --output-dir DIR              write result k as DIR/output_<k>.npy (float32; default .)
  --reference-dir DIR           compare with DIR/output_<k>.npy and print the worst error
`;

const FLAGS: Readonly<Record<string, keyof OptArgs>> = {
  '--print-generic': 'generic',
  '--mlir-print-op-generic': 'generic',
  '--print-debuginfo': 'debugInfo',
  '--mlir-print-debuginfo': 'debugInfo',
  '--split-input-file': 'splitInputFile',
  '--verify-diagnostics': 'verifyDiagnostics',
  '--print-ir-after-all': 'printIrAfterAll',
  '--mlir-print-ir-after-all': 'printIrAfterAll',
  '--allow-unregistered-dialect': 'allowUnregistered',
  '--timing': 'timing',
  '--mlir-timing': 'timing',
  '--retain-identifier-names': 'retainIdentifierNames',
  '--mlir-use-nameloc-as-prefix': 'useNameLocAsPrefix',
  '--dump-pass-pipeline': 'dumpPassPipeline',
  '--run': 'run',
};

/** Options that take a value (`--name VALUE` or `--name=VALUE`). */
const VALUE_OPTIONS = new Set([
  '-o',
  '--output',
  '--pass-pipeline',
  '--target',
  '--entry',
  '--input',
  '--output-dir',
  '--reference-dir',
  '--print-ir-after',
  '--mlir-print-ir-after',
]);

/** Parses the command line; returns the options or an exit code (after printing why). */
export function parseOptArgs(args: readonly string[], io: CliIo): OptArgs | number {
  const out: OptArgs = {
    input: '-',
    generic: false,
    debugInfo: false,
    splitInputFile: false,
    verifyDiagnostics: false,
    printIrAfterAll: false,
    allowUnregistered: false,
    timing: false,
    retainIdentifierNames: false,
    useNameLocAsPrefix: false,
    dumpPassPipeline: false,
    printIrAfter: [],
    run: false,
    inputs: [],
  };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const arg = a.startsWith('-') && !a.startsWith('--') && a.length > 2 && a !== '-o' ? a : a;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : undefined;
    if (name === '-h' || name === '--help') {
      io.stdout(USAGE);
      return 0;
    }
    const flag = FLAGS[name];
    if (flag) {
      if (inline !== undefined) {
        io.stderr(CLI_MESSAGES.optUnknownOption(arg) + '\n' + USAGE);
        return 1;
      }
      (out as unknown as Record<string, boolean>)[flag] = true;
      continue;
    }
    if (VALUE_OPTIONS.has(name)) {
      const v = inline ?? args[++i];
      if (v === undefined) {
        io.stderr(CLI_MESSAGES.optMissingValue(name) + '\n' + USAGE);
        return 1;
      }
      if (name === '--pass-pipeline') out.pipeline = v;
      else if (name === '--target') out.target = v;
      else if (name === '--entry') out.entry = v;
      else if (name === '--input') out.inputs.push(parseRunInput(v));
      else if (name === '--output-dir') out.outputDir = v;
      else if (name === '--reference-dir') out.referenceDir = v;
      else if (name === '--print-ir-after' || name === '--mlir-print-ir-after') out.printIrAfter.push(...v.split(',').filter((x) => x !== ''));
      else out.output = v;
      continue;
    }
    if (name !== '-' && name.startsWith('-')) {
      io.stderr(CLI_MESSAGES.optUnknownOption(arg) + '\n' + USAGE);
      return 1;
    }
    positional.push(arg);
  }
  if (positional.length > 1) {
    io.stderr(CLI_MESSAGES.optTooManyInputs(positional) + '\n' + USAGE);
    return 1;
  }
  if (positional.length === 1) out.input = positional[0]!;
  if (!out.run) {
    const runOnly = (
      [
        ['--entry', out.entry],
        ['--input', out.inputs.length ? 'x' : undefined],
        ['--output-dir', out.outputDir],
        ['--reference-dir', out.referenceDir],
      ] as const
    ).find(([, v]) => v !== undefined);
    if (runOnly) {
      io.stderr(CLI_MESSAGES.optRunFlagWithoutRun(runOnly[0]) + '\n');
      return 1;
    }
  } else if (out.splitInputFile || out.verifyDiagnostics) {
    io.stderr(CLI_MESSAGES.optRunWithSplit() + '\n');
    return 1;
  }
  return out;
}

/** Wall-clock timers of one run, reported with `--timing`. */
class Timing {
  readonly entries: [string, number][] = [];
  measure<T>(name: string, body: () => T): T {
    const start = process.hrtime.bigint();
    try {
      return body();
    } finally {
      const ns = Number(process.hrtime.bigint() - start);
      const e = this.entries.find((x) => x[0] === name);
      if (e) e[1] += ns;
      else this.entries.push([name, ns]);
    }
  }
  report(): string {
    const total = this.entries.reduce((s, e) => s + e[1], 0);
    const line = '===' + '-'.repeat(73) + '===';
    const rows = this.entries.map(([n, ns]) => `  ${(ns / 1e9).toFixed(4)} (${((100 * ns) / (total || 1)).toFixed(1).padStart(5)}%)  ${n}`);
    return [
      line,
      '                         ... Execution time report ...',
      line,
      `  Total Execution Time: ${(total / 1e9).toFixed(4)} seconds`,
      '',
      '  ----Wall Time----  ----Name----',
      ...rows,
      `  ${(total / 1e9).toFixed(4)} (100.0%)  Total`,
      '',
    ].join('\n');
  }
}

/**
 * A context with every dialect Raptor defines (builtin, func, arith, affine, tensor, scf, memref,
 * spat, pim): the dialects of the compiler's `createRaptorContext`, registered here from the
 * dialect packages so that a command without a pipeline does not load the compiler, its stages
 * and the ONNX importer (test/opt-dialects.test.ts checks the two register the same dialects).
 */
export function createOptContext(): MLIRContext {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  registerPimDialect(ctx);
  return ctx;
}

/** What a pipeline needs from the compiler: its target key and, for `--run`, the entry lookup. */
type CompilerModule = typeof import('@raptor-pim/compiler');

interface ChunkResult {
  ok: boolean;
  /** The printed module in consecutive pieces (see `printOperationPieces`), written one by one. */
  output: readonly string[];
  /** The module after the pipeline (when everything succeeded). */
  module?: Operation;
}

/** Processes one buffer (the whole file or a `// -----` chunk): parse, verify, passes, print. */
function processChunk(
  text: string,
  lineOffset: number,
  filename: string,
  args: OptArgs,
  registry: PassRegistry | undefined,
  pipeline: { readonly compiler: CompilerModule; readonly target: Target } | undefined,
  timing: Timing,
  diagnostics: Diagnostic[],
  io: CliIo,
): ChunkResult {
  const ctx = createOptContext();
  ctx.allowUnregisteredDialects = args.allowUnregistered;
  ctx.printOpOnDiagnostic = !args.verifyDiagnostics;
  const printOptions: PrintOptions = {
    generic: args.generic,
    debugInfo: args.debugInfo,
    useRetainedNames: args.retainIdentifierNames,
    useNameLocAsPrefix: args.useNameLocAsPrefix,
  };
  const print = (module: Operation): string[] =>
    timing.measure('Output', () => {
      const pieces = printOperationPieces(module, printOptions);
      pieces.push('\n');
      return pieces;
    });
  let pm: PassManager | undefined;
  let result: Operation | undefined;
  const body = (): string[] | undefined => {
    if (args.pipeline !== undefined && registry && pipeline) {
      pm = parsePassPipeline(ctx, args.pipeline, registry);
      if (!pm) return undefined;
      pm.setContext(pipeline.compiler.TargetKey, pipeline.target);
      if (args.printIrAfterAll || args.printIrAfter.length > 0) {
        const after = new Set(args.printIrAfter);
        pm.enableIRPrinting({
          printAfter: (pass) => args.printIrAfterAll || after.has(pass.argument),
          printModuleScope: true,
          print: (op) => printOperation(op, printOptions),
          output: (t) => io.stderr(t),
        });
      }
      if (args.timing) pm.enableTiming();
    }
    const module = timing.measure('Parser', () => parseSourceString(ctx, text, { filename, lineOffset, retainIdentifierNames: args.retainIdentifierNames }));
    if (!module) return undefined;
    if (!timing.measure('Verifier', () => verify(module))) return undefined;
    if (pm && !timing.measure('Pipeline', () => pm!.run(module).success)) return undefined;
    result = module;
    return print(module);
  };
  if (args.verifyDiagnostics) {
    const r = verifyDiagnostics(ctx, filename, text, body, lineOffset);
    diagnostics.push(...r.problems);
    if (pm && args.timing) io.stderr(pm.timingReport());
    return { ok: r.problems.length === 0, output: r.result ?? [] };
  }
  let failed = false;
  const output = ctx.diagnostics.withHandler((d) => {
    if (d.severity === 'error') failed = true;
    diagnostics.push(d);
  }, body);
  if (pm && args.timing) io.stderr(pm.timingReport());
  const ok = output !== undefined && !failed;
  return ok && result ? { ok, output: output!, module: result } : { ok, output: output ?? [] };
}

/**
 * An internal error (a broken invariant, never bad input) annotated with the input that
 * triggered it: saved to a temporary file so it can be attached to a bug report.
 */
function withReproducer(error: unknown, input: string): Error {
  const file = path.join(os.tmpdir(), `raptor-opt-crash-${process.pid}-${Date.now()}.mlir`);
  let saved = '';
  try {
    fs.writeFileSync(file, input);
    saved = CLI_MESSAGES.optCrashInputSaved(file);
  } catch {
    saved = CLI_MESSAGES.optCrashInputNotSaved(input.length);
  }
  const e = error instanceof Error ? error : new Error(String(error));
  e.stack = `${e.stack ?? e.message}\n${saved}`;
  return e;
}

/**
 * Runs `raptor opt` with parsed options; returns the exit code. `registry` defaults to the
 * compiler's (`createRaptorPassRegistry()`). The compiler and the target are loaded only when a
 * pipeline, `--target` or `--run` needs them: parsing, verifying and printing load the
 * dialects alone.
 */
export async function runOpt(args: OptArgs, io: CliIo, registry?: PassRegistry): Promise<number> {
  const filename = args.input === '-' ? '<stdin>' : args.input;
  let text: string;
  if (args.input === '-') text = await io.readStdin();
  else {
    try {
      // Read as bytes, then decoded: Node 20's `readFileSync(file, 'utf8')` takes about twice as long.
      text = fs.readFileSync(args.input).toString('utf8');
    } catch (e) {
      io.stderr(CLI_MESSAGES.optCannotRead(args.input, (e as NodeJS.ErrnoException).code ?? String(e)) + '\n');
      return 1;
    }
  }
  const compiler = args.pipeline !== undefined || args.run ? await import('@raptor-pim/compiler') : undefined;
  if (args.pipeline !== undefined) {
    registry ??= compiler!.createRaptorPassRegistry();
    // Check the pipeline once up front, so a typo is reported before any input is processed.
    const scratch = new MLIRContext();
    const { result, diagnostics } = scratch.diagnostics.capture(() => parsePassPipeline(scratch, args.pipeline!, registry!));
    if (!result) {
      io.stderr(CLI_MESSAGES.optBadPipeline(args.pipeline) + '\n' + renderDiagnostics(diagnostics, () => args.pipeline));
      return 1;
    }
    if (args.dumpPassPipeline) io.stderr(result.printAsTextualPipeline() + '\n');
  }
  let pipeline: { readonly compiler: CompilerModule; readonly target: Target } | undefined;
  if (args.pipeline !== undefined || args.target !== undefined) {
    const targets = await import('@raptor-pim/pim-target');
    let target = targets.defaultTarget();
    if (args.target !== undefined) {
      const loaded = targets.loadTarget(args.target);
      for (const d of loaded.diagnostics) io.stderr(targets.formatDiagnostic(d) + '\n');
      if (!loaded.value || loaded.diagnostics.some((d) => d.severity === 'error')) {
        io.stderr(CLI_MESSAGES.optBadTarget(args.target) + '\n');
        return 1;
      }
      target = loaded.value;
    }
    if (compiler) pipeline = { compiler, target };
  }
  const timing = new Timing();
  const diagnostics: Diagnostic[] = [];
  const chunks = args.splitInputFile ? splitInputFile(text) : [{ text, lineOffset: 0 }];
  const outputs: (readonly string[])[] = [];
  let ok = true;
  let module: Operation | undefined;
  let runEntry: { module: Operation; entry: EntryFunction } | undefined;
  for (const chunk of chunks) {
    let r: ChunkResult;
    try {
      r = processChunk(chunk.text, chunk.lineOffset, filename, args, registry, pipeline, timing, diagnostics, io);
    } catch (e) {
      throw withReproducer(e, chunk.text);
    }
    if (!r.ok) ok = false;
    outputs.push(r.output);
    module = r.module;
  }
  // Diagnostics go to stderr with their source lines, as mlir-opt's SourceMgr handler prints them.
  let lines: string[] | undefined;
  const lookup = (file: string, line: number): string | undefined => {
    if (file !== filename) return undefined;
    lines ??= text.split('\n');
    const l = lines[line - 1];
    return l === undefined ? undefined : l.endsWith('\r') ? l.slice(0, -1) : l;
  };
  // With --run, the module after the pipeline is interpreted (as `raptor import --run` does).
  if (ok && args.run && module && compiler) {
    const entry = compiler.findEntryFunction(module, args.entry);
    if (!entry.ok) {
      diagnostics.push(...entry.diagnostics);
      ok = false;
    } else {
      runEntry = { module, entry: entry.entry };
    }
  }
  if (diagnostics.length) io.stderr(renderDiagnostics(diagnostics, lookup));
  const result: string[] = [];
  for (let k = 0; k < outputs.length; k++) {
    if (k) result.push('// -----\n');
    for (const piece of outputs[k]!) result.push(piece);
  }
  if (args.timing) io.stderr(timing.report());
  if (!ok) return 1;
  // `-o -` is standard output, as in mlir-opt.
  const toStdout = args.output === '-';
  if (runEntry) {
    if (toStdout) for (const piece of result) io.stdout(piece);
    else if (args.output !== undefined && !writeOutput(args.output, result, io)) return 1;
    const { module: m, entry } = runEntry;
    const { runEntryWithFiles } = await import('../run/run-entry');
    return runEntryWithFiles(m, entry, { command: 'opt', inputKind: `@${entry.name} argument`, inputs: args.inputs, outputDir: args.outputDir, referenceDir: args.referenceDir }, io);
  }
  if (args.output !== undefined && !toStdout) return writeOutput(args.output, result, io) ? 0 : 1;
  for (const piece of result) io.stdout(piece);
  return 0;
}

/**
 * Whether `file` exists and is not a regular file (`/dev/null`, `/dev/stdout`, a pipe): it is
 * written in place, since renaming a file over it would replace the device.
 */
function isSpecialFile(file: string): boolean {
  try {
    const stat = fs.statSync(file);
    return !stat.isFile() && !stat.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Writes the text (its consecutive pieces, never joined into one string) to `file` through a
 * temporary file beside it, so no partial output is left behind; a device or pipe is written
 * directly.
 */
function writeOutput(file: string, pieces: readonly string[], io: CliIo): boolean {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const direct = isSpecialFile(file);
  let fd: number | undefined;
  try {
    fd = fs.openSync(direct ? file : tmp, 'w');
    writePieces(fd, pieces);
    fs.closeSync(fd);
    fd = undefined;
    if (!direct) fs.renameSync(tmp, file);
    return true;
  } catch (e) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failed
      }
    }
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // nothing left to clean
    }
    io.stderr(CLI_MESSAGES.optCannotWrite(file, (e as NodeJS.ErrnoException).code ?? String(e)) + '\n');
    return false;
  }
}

/** The `raptor opt` command. */
export const optCommand: CliCommand = {
  name: 'opt',
  summary: 'parse, verify, transform and print MLIR (like mlir-opt)',
  async run(args, io) {
    const parsed = parseOptArgs(args, io);
    if (typeof parsed === 'number') return parsed;
    return runOpt(parsed, io);
  },
};
