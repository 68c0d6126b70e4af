/**
 * Golden tests over a split input file: every `// -----` case of an `.mlir` input is run
 * through a function (a pass pipeline, usually), the outputs are joined as `mlir-opt
 * --split-input-file` joins them, and the result must equal the expected file beside it
 * (rewritten by `UPDATE_GOLDEN=1`). Workspace test support, not a published package.
 */
import * as fs from 'node:fs';
import {
  PassRegistry,
  joinSplitOutputs,
  parsePassPipeline,
  printOperation,
  registerCorePasses,
  splitInputFile,
  type Operation,
} from '@raptor-pim/ir-core';

/**
 * Runs every case of `inputFile` through `run`, compares the joined outputs with
 * `expectedFile` (or writes it when `UPDATE_GOLDEN=1`) and returns the per-case outputs, for
 * further assertions on each case.
 */
export function expectGoldenCases(inputFile: string, expectedFile: string, run: (caseText: string) => string): string[] {
  const outputs = splitInputFile(fs.readFileSync(inputFile, 'utf8')).map((c) => run(c.text));
  const got = joinSplitOutputs(outputs);
  if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(expectedFile, got);
  expect(got).toBe(fs.readFileSync(expectedFile, 'utf8'));
  return outputs;
}

/**
 * Runs ir-core's `pipeline` (its core passes: canonicalize, cse, ...) on `module` in place,
 * expects success and returns the printed module with a trailing newline.
 */
export function runCorePipeline(module: Operation, pipeline: string): string {
  const registry = new PassRegistry();
  registerCorePasses(registry);
  const pm = parsePassPipeline(module.context, pipeline, registry)!;
  expect(pm.run(module).success).toBe(true);
  return printOperation(module) + '\n';
}
