#!/usr/bin/env node
// Launcher for the `raptor` command: loads the built CLI from dist/.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const entry = path.join(__dirname, '..', 'dist', 'bin.cjs');
if (!fs.existsSync(entry)) {
  process.stderr.write('raptor: the CLI is not built yet; run `npx nx run-many -t build` in the repository first\n');
  process.exit(2);
}
require(entry);
