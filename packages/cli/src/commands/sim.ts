/**
 * `raptor sim BUNDLE`: runs a program bundle (a Raptor bundle or a plain pimsim-nn program
 * directory) on the simulator and prints a report.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatDiagnostic, loadTarget } from '@raptor-pim/pim-target';
import type { Target } from '@raptor-pim/pim-target';
import { chromeTraceJsonChunks, jsonReport, readNpy, simulateDirectory, textReport, writeNpy } from '@raptor-pim/pim-sim';
import type { NpyArray, SimMode } from '@raptor-pim/pim-sim';
import type { CliCommand, CliIo } from '../command';
import { CLI_MESSAGES } from '../diagnostics';

/** Parsed `raptor sim` options. */
interface SimArgs {
  bundle: string;
  config?: string;
  mode?: SimMode;
  inputs: [string, string][];
  outputDir?: string;
  trace?: string;
  json: boolean;
  timingOnly: boolean;
  budgetNs?: number;
}

const USAGE = `usage: raptor sim BUNDLE [options]

Simulates a program bundle (values, cycles, energy) and prints a report.

options:
  --config FILE        hardware configuration: Raptor's or pimsim-nn's architecture JSON
                       (its network table is resolved relative to the file)
  --mode MODE          latency (one inference) or throughput (streams for sim_time)
  --input NAME=FILE    a model input as .npy (repeatable)
  --output-dir DIR     write the outputs as NAME.npy and report.txt / report.json there
  --trace FILE         write a Chrome trace-event JSON (open it in Perfetto)
  --json               print the report as one JSON object
  --timing-only        skip the functional pass (no values, no value checks)
  --budget-ns N        stop with an error after N simulated ns
`;

function parseArgs(args: readonly string[], io: CliIo): SimArgs | number {
  const out: SimArgs = { bundle: '', inputs: [], json: false, timingOnly: false };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : undefined;
    const value = (): string | undefined => {
      if (inline !== undefined) return inline;
      const v = args[i + 1];
      if (v === undefined) return undefined;
      i++;
      return v;
    };
    switch (name) {
      case '-h':
      case '--help':
        io.stdout(USAGE);
        return 0;
      case '--json':
        out.json = true;
        break;
      case '--timing-only':
        out.timingOnly = true;
        break;
      case '--config':
      case '--mode':
      case '--input':
      case '--output-dir':
      case '--trace':
      case '--budget-ns': {
        const v = value();
        if (v === undefined) {
          io.stderr(CLI_MESSAGES.simMissingValue(name) + '\n' + USAGE);
          return 1;
        }
        if (name === '--config') out.config = v;
        else if (name === '--mode') {
          if (v !== 'latency' && v !== 'throughput') {
            io.stderr(CLI_MESSAGES.simBadMode(v) + '\n');
            return 1;
          }
          out.mode = v;
        } else if (name === '--input') {
          const k = v.indexOf('=');
          if (k <= 0) {
            io.stderr(CLI_MESSAGES.simBadInput(v) + '\n');
            return 1;
          }
          out.inputs.push([v.slice(0, k), v.slice(k + 1)]);
        } else if (name === '--output-dir') out.outputDir = v;
        else if (name === '--trace') out.trace = v;
        else {
          const n = Number(v);
          if (!(n > 0)) {
            io.stderr(CLI_MESSAGES.simBadBudget(v) + '\n');
            return 1;
          }
          out.budgetNs = n;
        }
        break;
      }
      default:
        if (a.startsWith('-')) {
          io.stderr(CLI_MESSAGES.simUnknownOption(a) + '\n' + USAGE);
          return 1;
        }
        positional.push(a);
    }
  }
  if (positional.length !== 1) {
    io.stderr(CLI_MESSAGES.simNeedsBundle() + '\n' + USAGE);
    return 1;
  }
  out.bundle = positional[0];
  return out;
}

/** File name for an output tensor: the name with path separators and odd characters replaced. */
function outputFileName(name: string): string {
  return `${name.replace(/[^A-Za-z0-9._-]/g, '_') || 'output'}.npy`;
}

/** Progress on stderr, only on a terminal and only once a run has taken a second. */
function progress(io: CliIo): ((ns: number) => void) | undefined {
  if (!io.isTty) return undefined;
  const start = Date.now();
  let last = 0;
  return (ns: number) => {
    const now = Date.now();
    if (now - start < 1000 || now - last < 200) return;
    last = now;
    io.stderr(`\rsimulating... ${(ns / 1000).toFixed(1)} us simulated`);
  };
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, io);
  if (typeof parsed === 'number') return parsed;
  let target: Target | undefined;
  if (parsed.config !== undefined) {
    const loaded = loadTarget(parsed.config);
    for (const d of loaded.diagnostics) if (d.severity === 'error') io.stderr(formatDiagnostic(d) + '\n');
    if (!loaded.value) {
      io.stderr(CLI_MESSAGES.simBadConfig(parsed.config) + '\n');
      return 1;
    }
    target = loaded.value;
  }
  if (!fs.existsSync(parsed.bundle) || !fs.statSync(parsed.bundle).isDirectory()) {
    io.stderr(CLI_MESSAGES.simNoBundle(parsed.bundle) + '\n');
    return 1;
  }
  const inputs: Record<string, NpyArray> = {};
  for (const [name, file] of parsed.inputs) {
    let bytes: Uint8Array;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      io.stderr(CLI_MESSAGES.simCannotRead(file) + '\n');
      return 1;
    }
    const r = readNpy(bytes);
    if (!r.ok) {
      io.stderr(CLI_MESSAGES.simBadNpy(file, r.message) + '\n');
      return 1;
    }
    inputs[name] = r.array;
  }
  const onProgress = progress(io);
  const result = simulateDirectory(parsed.bundle, {
    ...(target ? { target } : {}),
    ...(parsed.mode ? { mode: parsed.mode } : {}),
    inputs,
    ...(parsed.trace !== undefined ? { trace: true } : {}),
    ...(parsed.timingOnly ? { timingOnly: true } : {}),
    ...(parsed.budgetNs !== undefined ? { budgetNs: parsed.budgetNs } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  if (onProgress) io.stderr('\r\x1b[K');
  const outputFiles: Record<string, string> = {};
  if (result.ok && parsed.outputDir !== undefined) {
    fs.mkdirSync(parsed.outputDir, { recursive: true });
    for (const o of result.outputs) {
      const file = path.join(parsed.outputDir, outputFileName(o.name));
      fs.writeFileSync(file, writeNpy(o.array));
      outputFiles[o.name] = file;
    }
  }
  const json = jsonReport(result, outputFiles);
  const text = textReport(result);
  if (parsed.outputDir !== undefined && result.timing) {
    fs.mkdirSync(parsed.outputDir, { recursive: true });
    fs.writeFileSync(path.join(parsed.outputDir, 'report.json'), JSON.stringify(json, null, 2) + '\n');
    fs.writeFileSync(path.join(parsed.outputDir, 'report.txt'), text);
  }
  if (parsed.trace !== undefined && result.timing) writeTrace(parsed.trace, result);
  if (parsed.json) io.stdout(JSON.stringify(json) + '\n');
  else if (result.timing) io.stdout(text);
  if (!result.ok) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    if (result.error?.kind === 'invalid-bundle' && errors.length > 0) {
      for (const d of errors) io.stderr(formatDiagnostic(d) + '\n');
      io.stderr(CLI_MESSAGES.simInvalidBundle(errors.length) + '\n');
    } else {
      io.stderr(CLI_MESSAGES.simFailed(result.error?.message ?? 'unknown error') + '\n');
      const kind = result.error?.kind;
      if (kind === 'out-of-bounds' || kind === 'misaligned' || kind === 'mvmul-shape' || kind === 'unsupported') {
        io.stderr(CLI_MESSAGES.simTimingOnlyHint() + '\n');
      }
    }
    return 1;
  }
  return 0;
}

/**
 * Writes the Chrome trace of `result` to `file` piece by piece (a whole model's trace is larger
 * than one string may be), through a temporary file renamed at the end: a failed write leaves
 * no partial trace behind.
 */
function writeTrace(file: string, result: Parameters<typeof chromeTraceJsonChunks>[0]): void {
  const partial = `${file}.partial`;
  const fd = fs.openSync(partial, 'w');
  try {
    for (const chunk of chromeTraceJsonChunks(result)) fs.writeSync(fd, chunk);
    fs.closeSync(fd);
    fs.renameSync(partial, file);
  } catch (e) {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed
    }
    fs.rmSync(partial, { force: true });
    throw e;
  }
}

/** The `raptor sim` command. */
export const simCommand: CliCommand = {
  name: 'sim',
  summary: 'simulate a program bundle: values, cycles, energy, traces',
  run,
};
