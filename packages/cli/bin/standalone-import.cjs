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
 * The standalone bundle of `distDir` when it runs the command line `args` (process.argv without
 * node and the launcher), else undefined: pure, for the tests (`exists`: whether a file exists).
 */
function standaloneImportEntry(distDir, args, exists) {
  if (args[0] !== 'import' || args.some((a) => BEYOND_PLAIN_IMPORT.includes(a))) return undefined;
  const file = path.join(distDir, 'import-bin.cjs');
  return exists(file) ? file : undefined;
}

module.exports = { standaloneImportEntry, BEYOND_PLAIN_IMPORT };
