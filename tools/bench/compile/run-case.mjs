#!/usr/bin/env node
// Runs case.ts (one model and strategy of the compile benchmark). Usage: node run-case.mjs MODEL_DIR STRATEGY
import { runTs } from '../run-ts.mjs';

process.exit(runTs(import.meta.url, 'case.ts', process.argv.slice(2)));
