#!/usr/bin/env node
// ONNX conformance end to end: every ONNX backend test case (Debian libonnx-testdata) that
// `raptor import` accepts is compiled with raptor-compile on the default target (retried with
// raptor_config.allow_vsoftmax = true when the refusal names that flag), simulated with pim-sim
// and compared with its output_<k>.pb. Prints the counts: compiled and matched, refused (grouped
// by the diagnostic), wrong results, crashes. Runs conformance.ts with the workspace packages
// resolved from source (no build needed).
//
// Each case runs in a worker process with a time limit (--case-timeout-s, default 120): a case
// past it is counted as such and the next worker starts after it.
//
// Usage: node tools/bench/compile/conformance.mjs [--filter SUBSTRING] [--json FILE] [--case-timeout-s N] [--verbose]
import { runTs } from '../run-ts.mjs';

process.exit(runTs(import.meta.url, 'conformance.ts', process.argv.slice(2)));
