#!/usr/bin/env node
// Launcher for the `raptor` command: loads the built CLI from dist/.
//
// Start-up is most of a short command's time (compiling the bundles of the packages a command
// loads), so the bundles' compiled code is cached between runs: with Node's own compile cache
// where Node has it (22.1 and later, `module.enableCompileCache`), otherwise with V8 code caches
// of the Raptor bundles (see compile-cache.cjs). RAPTOR_COMPILE_CACHE=0 turns either off;
// RAPTOR_COMPILE_CACHE=DIR chooses the folder (default: raptor-compile-cache in the OS temp dir).
// The V8 caches are kept per subcommand: each holds the functions its command's first run used.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const dist = path.join(__dirname, '..', 'dist');
if (!fs.existsSync(path.join(dist, 'bin.cjs'))) {
  process.stderr.write('raptor: the CLI is not built yet; run `npx nx run-many -t build` in the repository first\n');
  process.exit(2);
}
// Commands that hold a whole model get a heap sized to the machine (see heap-limit.cjs).
require('./heap-limit.cjs').ensureHeap(__filename, process.argv);
// A plain `raptor import` runs its standalone bundle (see standalone-import.cjs).
const standalone = require('./standalone-import.cjs');
const importEntry = standalone.standaloneImportEntry(dist, process.argv.slice(2), fs.existsSync);
if (importEntry) standalone.tuneV8ForShortRun();
// (The standalone bundle requires only Node's modules: no resolution table for it.)
require('./compile-cache.cjs').enableCompileCache(path.join(__dirname, '..', '..'), process.argv[2], { resolutions: !importEntry });
require(importEntry ?? path.join(dist, 'bin.cjs'));
