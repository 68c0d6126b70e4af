// The standalone `raptor import`: for arguments without `--run` and `--const-input`, the launcher
// runs `dist/import-bin.cjs`, one file holding the plain import and only the parts of ir-core,
// the dialects and onnx-frontend it uses (built by the cli's rollup config), instead of
// `dist/bin.cjs` and the five packages' own bundles. The two words are IMPORT_FLAGS_BEYOND_PLAIN
// of src/import/plain-import.ts (a test checks they agree): without them the import needs
// neither the compiler nor the interpreter, which would load the packages' own bundles, a second
// copy of ir-core beside the inlined one.
'use strict';
const path = require('node:path');

/** Arguments that need the whole CLI (the compiler and the interpreter). */
const BEYOND_PLAIN_IMPORT = ['--run', '--const-input'];

/**
 * V8's interrupt budget for the standalone import: twice Node 20's default (V8 11.3: 66 KiB of
 * bytecode between two profiler ticks), so that TurboFan is asked for a function after twice as
 * much of its execution. A plain import of a small model is over in about 0.05 s, before the
 * optimized code of its many briefly hot helpers (uniquing dense arrays, operand group ranges,
 * the lexer's character tests) would pay for compiling it on V8's other thread; the loops over
 * a model's weights still get optimized, a few milliseconds later. Measured: 0.89-0.93x the
 * CPU of a whole `raptor import ultraface-slim-320` (about 0.01 s less), resnet18's import
 * (0.5 s) unchanged. A larger budget saved no more (Sparkplug waits for the same ticks).
 */
const SHORT_RUN_V8_FLAGS = '--interrupt-budget=135168';

/**
 * The standalone bundle of `distDir` when it runs the command line `args` (process.argv without
 * node and the launcher), else undefined: pure, for the tests (`exists`: whether a file exists).
 */
function standaloneImportEntry(distDir, args, exists) {
  if (args[0] !== 'import' || args.some((a) => BEYOND_PLAIN_IMPORT.includes(a))) return undefined;
  const file = path.join(distDir, 'import-bin.cjs');
  return exists(file) ? file : undefined;
}

/** Whether {@link SHORT_RUN_V8_FLAGS} apply: V8 11 (Node 20), where they were measured. */
function isTunedRuntime(v8Version = process.versions.v8) {
  return v8Version.split('.')[0] === '11';
}

/**
 * Sets {@link SHORT_RUN_V8_FLAGS} where they apply (other Node versions keep V8's own tiering):
 * before the bundle is compiled, as V8's code caches record the flags.
 */
function tuneV8ForShortRun() {
  if (isTunedRuntime()) require('node:v8').setFlagsFromString(SHORT_RUN_V8_FLAGS);
}

module.exports = { standaloneImportEntry, tuneV8ForShortRun, isTunedRuntime, BEYOND_PLAIN_IMPORT, SHORT_RUN_V8_FLAGS };
