// Runs a TypeScript benchmark script of this folder with sibling packages resolved from source
// (tools/bench/run-ts.mjs). Usage: node tools/bench/pim-sim/run-ts.mjs <script.ts> [args...]
import { fileURLToPath } from 'node:url';
import { runTs as runTsFrom } from '../run-ts.mjs';

/** Runs `script` (a file of this folder) with `args` after the Node options `nodeArgs`; returns its exit status. */
export function runTs(script, args = [], nodeArgs = []) {
  return runTsFrom(import.meta.url, script, args, nodeArgs);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(runTs(process.argv[2], process.argv.slice(3)));
