/**
 * `raptor opt FILE`: parses MLIR, verifies it, optionally runs a pass pipeline, and prints the
 * result, like `mlir-opt` (same flags where they exist, same output bytes).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  MLIRContext,
  parseSourceString,
  printOperation,
  renderDiagnostics,
  splitInputFile,
  verify,
  verifyDiagnostics,
  PassRegistry,
  parsePassPipeline,
  registerCorePasses,
  type Diagnostic,
  type Operation,
  type PassManager,
  type PrintOptions,
} from '@raptor-pim/ir-core';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import { registerPimDialect } from '@raptor-pim/pim-dialect';
import type { CliCommand, CliIo } from '../command';
import { CLI_MESSAGES } from '../diagnostics';

// ------------------------------------------------------------------ passes

/**
 * The passes `raptor opt --pass-pipeline` knows: ir-core's generic passes (`canonicalize`,
 * `cse`); stages register theirs in the compiler's registry.
 */
export function createOptPassRegistry(): PassRegistry {
  const registry = new PassRegistry();
  registerCorePasses(registry);
  return registry;
}

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
}

const USAGE = `usage: raptor opt [FILE|-] [options]

Parses MLIR (generic or custom form), verifies it, runs an optional pass pipeline and prints
the result like mlir-opt. Reads standard input when FILE is '-' or absent.

options:
  -o FILE                       write the output to FILE (only when everything succeeded)
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
};

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
    if (name === '-o' || name === '--output' || name === '--pass-pipeline') {
      const v = inline ?? args[++i];
      if (v === undefined) {
        io.stderr(CLI_MESSAGES.optMissingValue(name) + '\n' + USAGE);
        return 1;
      }
      if (name === '--pass-pipeline') out.pipeline = v;
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

interface ChunkResult {
  ok: boolean;
  output: string;
}

/** Processes one buffer (the whole file or a `// -----` chunk): parse, verify, passes, print. */
function processChunk(
  text: string,
  lineOffset: number,
  filename: string,
  args: OptArgs,
  registry: PassRegistry,
  timing: Timing,
  diagnostics: Diagnostic[],
  io: CliIo,
): ChunkResult {
  const ctx = new MLIRContext();
  // every dialect Raptor defines: builtin, func, arith, affine, tensor, scf, memref, spat, pim
  registerSpatialDialect(ctx);
  registerPimDialect(ctx);
  ctx.allowUnregisteredDialects = args.allowUnregistered;
  ctx.printOpOnDiagnostic = !args.verifyDiagnostics;
  const printOptions: PrintOptions = {
    generic: args.generic,
    debugInfo: args.debugInfo,
    useRetainedNames: args.retainIdentifierNames,
    useNameLocAsPrefix: args.useNameLocAsPrefix,
  };
  const print = (module: Operation): string => timing.measure('Output', () => printOperation(module, printOptions) + '\n');
  let pm: PassManager | undefined;
  const body = (): string | undefined => {
    if (args.pipeline !== undefined) {
      pm = parsePassPipeline(ctx, args.pipeline, registry);
      if (!pm) return undefined;
      if (args.printIrAfterAll) {
        pm.enableIRPrinting({
          printAfter: () => true,
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
    return print(module);
  };
  if (args.verifyDiagnostics) {
    const r = verifyDiagnostics(ctx, filename, text, body, lineOffset);
    diagnostics.push(...r.problems);
    if (pm && args.timing) io.stderr(pm.timingReport());
    return { ok: r.problems.length === 0, output: r.result ?? '' };
  }
  let failed = false;
  const output = ctx.diagnostics.withHandler((d) => {
    if (d.severity === 'error') failed = true;
    diagnostics.push(d);
  }, body);
  if (pm && args.timing) io.stderr(pm.timingReport());
  return { ok: output !== undefined && !failed, output: output ?? '' };
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

/** Runs `raptor opt` with parsed options; returns the exit code. */
export async function runOpt(args: OptArgs, io: CliIo, registry: PassRegistry = createOptPassRegistry()): Promise<number> {
  const filename = args.input === '-' ? '<stdin>' : args.input;
  let text: string;
  if (args.input === '-') text = await io.readStdin();
  else {
    try {
      text = fs.readFileSync(args.input, 'utf8');
    } catch (e) {
      io.stderr(CLI_MESSAGES.optCannotRead(args.input, (e as NodeJS.ErrnoException).code ?? String(e)) + '\n');
      return 1;
    }
  }
  if (args.pipeline !== undefined) {
    // Check the pipeline once up front, so a typo is reported before any input is processed.
    const scratch = new MLIRContext();
    const { result, diagnostics } = scratch.diagnostics.capture(() => parsePassPipeline(scratch, args.pipeline!, registry));
    if (!result) {
      io.stderr(CLI_MESSAGES.optBadPipeline(args.pipeline) + '\n' + renderDiagnostics(diagnostics, () => args.pipeline));
      return 1;
    }
  }
  const timing = new Timing();
  const diagnostics: Diagnostic[] = [];
  const chunks = args.splitInputFile ? splitInputFile(text) : [{ text, lineOffset: 0 }];
  const outputs: string[] = [];
  let ok = true;
  for (const chunk of chunks) {
    let r: ChunkResult;
    try {
      r = processChunk(chunk.text, chunk.lineOffset, filename, args, registry, timing, diagnostics, io);
    } catch (e) {
      throw withReproducer(e, chunk.text);
    }
    if (!r.ok) ok = false;
    outputs.push(r.output);
  }
  // Diagnostics go to stderr with their source lines, as mlir-opt's SourceMgr handler prints them.
  let lines: string[] | undefined;
  const lookup = (file: string, line: number): string | undefined => {
    if (file !== filename) return undefined;
    lines ??= text.split('\n');
    const l = lines[line - 1];
    return l === undefined ? undefined : l.endsWith('\r') ? l.slice(0, -1) : l;
  };
  if (diagnostics.length) io.stderr(renderDiagnostics(diagnostics, lookup));
  const result = outputs.join('// -----\n');
  if (args.timing) io.stderr(timing.report());
  if (!ok) return 1;
  if (args.output !== undefined) {
    // Write to a temporary file beside the target and rename, so no partial output is left behind.
    const tmp = path.join(path.dirname(args.output), `.${path.basename(args.output)}.${process.pid}.tmp`);
    try {
      fs.writeFileSync(tmp, result);
      fs.renameSync(tmp, args.output);
    } catch (e) {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // nothing left to clean
      }
      io.stderr(CLI_MESSAGES.optCannotWrite(args.output, (e as NodeJS.ErrnoException).code ?? String(e)) + '\n');
      return 1;
    }
  } else io.stdout(result);
  return 0;
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
