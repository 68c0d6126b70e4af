// The heap of the commands that hold a whole compiled model in memory.
//
// Node's default heap limit (about 4 GiB here) is far below what a large model needs:
// `raptor compile resnet18` holds millions of ops (4.4 M scheduled, 12 M after spatial-to-pim)
// and died of V8's "heap out of memory" abort after 3 minutes, a crash with a V8 stack trace
// instead of the compiler's own diagnostics. `raptor compile`, `run`, `opt` and `sim` therefore
// run in a child Node with a heap of three quarters of the machine's memory when that is well
// above the default, unless the user chose a limit (`--max-old-space-size` in Node's options or
// NODE_OPTIONS) or set RAPTOR_HEAP=0. The child inherits standard input and output; its exit
// status (or signal) is the command's.
//
// `compile` and `run` (which take a model through the whole pipeline) also get a young
// generation of 64 MiB semi-spaces (V8's default is 16 MiB on 64-bit machines) unless the user
// chose one: a compile allocates its IR in large bursts, and with the
// default most of it was copied twice by scavenges and then found by full collections of a
// heap of many GiB. resnet18 through pim-bufferize, same machine, quiet: 137 s instead of 171 s
// (spat-to-pim 46 s instead of 66 s, where garbage collection was 70% of the time). For a short
// command it costs (`raptor opt --print-generic` of 100,000 ops: 1.07x the CPU), so `opt` and
// `sim` keep V8's default.
'use strict';

/** Subcommands that hold a whole module in memory. */
const HEAVY_COMMANDS = new Set(['compile', 'run', 'opt', 'sim']);
/** Part of the machine's memory the child's heap may take. */
const MEMORY_SHARE = 0.75;
/** Respawn only when that gives at least this many times the current limit. */
const MIN_GAIN = 1.25;
/** Subcommands that read IR files: they respawn only for large inputs (or input of unknown size). */
const FILE_COMMANDS = new Set(['opt', 'sim']);
/** An `opt`/`sim` input below this many bytes fits V8's default heap (about 629 B of heap per op, some 100 B of text). */
const SMALL_INPUT_BYTES = 32 * 1048576;
/** Subcommands whose child gets a larger young generation. */
const PIPELINE_COMMANDS = new Set(['compile', 'run']);
/** Semi-space size of their young generation, in MiB. */
const SEMI_SPACE_MIB = 64;
/** Set in the child so that it never respawns again. */
const CHILD_MARK = 'RAPTOR_HEAP_CHILD';

/**
 * The Node options to run `subcommand` with in a child, or undefined to run it here: pure, for
 * the tests (`execArgv`: this process's Node options; `env`: its environment; `totalBytes`: the
 * machine's memory; `limitBytes`: this heap's limit; `inputBytes`: for `opt` and `sim`, the
 * bytes of their input files when every input is a regular file, else undefined).
 */
function heapChildArgs(subcommand, execArgv, env, totalBytes, limitBytes, inputBytes) {
  if (!HEAVY_COMMANDS.has(subcommand)) return undefined;
  // A small IR file fits the default heap: no second Node start-up (about 9% of a 0.8 s `opt`).
  if (FILE_COMMANDS.has(subcommand) && inputBytes !== undefined && inputBytes < SMALL_INPUT_BYTES) return undefined;
  if (env.RAPTOR_HEAP === '0' || env[CHILD_MARK] === '1') return undefined;
  const chosen = /--max[-_]old[-_]space[-_]size/;
  if (execArgv.some((a) => chosen.test(a)) || chosen.test(env.NODE_OPTIONS ?? '')) return undefined;
  const mib = Math.floor((totalBytes * MEMORY_SHARE) / 1048576);
  if (mib * 1048576 < limitBytes * MIN_GAIN) return undefined;
  const semi = /--max[-_]semi[-_]space[-_]size/;
  const sized = execArgv.some((a) => semi.test(a)) || semi.test(env.NODE_OPTIONS ?? '');
  const young = PIPELINE_COMMANDS.has(subcommand) && !sized ? [`--max-semi-space-size=${SEMI_SPACE_MIB}`] : [];
  return [`--max-old-space-size=${mib}`, ...young, ...execArgv];
}

/**
 * The bytes of the input files among a command's arguments (those not starting with `-` and not
 * the value of `-o`/`--output`), or undefined when there is none or one is not a regular file
 * (standard input, a bundle folder).
 */
function inputBytesOf(args) {
  const fs = require('node:fs');
  let bytes = 0;
  let inputs = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-o' || a === '--output') {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    let st;
    try {
      st = fs.statSync(a);
    } catch {
      return undefined;
    }
    if (!st.isFile()) return undefined;
    bytes += st.size;
    inputs++;
  }
  return inputs > 0 ? bytes : undefined;
}

/** Runs this command in a child with a larger heap when {@link heapChildArgs} says so (never returns then). */
function ensureHeap(launcher, argv) {
  // node:v8 (which loads node:stream) and node:os only for a command that may respawn: about
  // 2 ms of a short `raptor import`.
  if (!HEAVY_COMMANDS.has(argv[2])) return;
  const os = require('node:os');
  const v8 = require('node:v8');
  const args = heapChildArgs(argv[2], process.execArgv, process.env, os.totalmem(), v8.getHeapStatistics().heap_size_limit, FILE_COMMANDS.has(argv[2]) ? inputBytesOf(argv.slice(3)) : undefined);
  if (!args) return;
  const { spawnSync } = require('node:child_process');
  const r = spawnSync(process.execPath, [...args, launcher, ...argv.slice(2)], { stdio: 'inherit', env: { ...process.env, [CHILD_MARK]: '1' } });
  if (r.error) return; // could not start a child: run here with the default heap
  if (r.signal) process.kill(process.pid, r.signal);
  process.exit(r.status ?? 1);
}

module.exports = { heapChildArgs, inputBytesOf, ensureHeap, HEAVY_COMMANDS };
