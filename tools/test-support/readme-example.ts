/**
 * The README example of a stage package: the IR text given to `parseSourceString(ctx, `...`)` in
 * the README is parsed, run through the stage's pipeline, and every line the README shows as
 * output (comment lines with a prefix) must appear in the printed module. Workspace test
 * support, not a published package.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassRegistry, parsePassPipeline, parseSourceString, printOperation, type MLIRContext } from '@raptor-pim/ir-core';

/** What {@link expectReadmeExample} needs. */
export interface ReadmeExampleOptions {
  /** The package folder (holding README.md). */
  readonly packageDir: string;
  /** A context with the dialects of the example. */
  makeContext(): MLIRContext;
  /** Registers the stage's passes. */
  register(registry: PassRegistry): void;
  /** The pipeline the example runs (`builtin.module(...)`). */
  readonly pipeline: string;
  /** The prefix of the README lines that show output (`// `). */
  readonly shownPrefix: string;
}

/** Runs the README example as {@link ReadmeExampleOptions} says and checks the lines it shows. */
export function expectReadmeExample(options: ReadmeExampleOptions): void {
  const readme = fs.readFileSync(path.join(options.packageDir, 'README.md'), 'utf8');
  const source = /parseSourceString\(ctx, `([^`]*)`\)/.exec(readme)![1]!;
  const ctx = options.makeContext();
  const module = parseSourceString(ctx, source)!;
  const registry = new PassRegistry();
  options.register(registry);
  expect(parsePassPipeline(ctx, options.pipeline, registry)!.run(module).success).toBe(true);
  const printed = printOperation(module);
  const shown = readme
    .split('\n')
    .filter((l) => l.startsWith(options.shownPrefix))
    .map((l) => l.slice(3).trim());
  for (const line of shown) expect(printed).toContain(line);
}
