/**
 * The fixture harness of a pipeline stage: every `test/fixtures/*.mlir` file names the pipeline
 * it is run with on its first line, `// pipeline: builtin.module(spat-plan-layouts)`, and is
 *
 * - an expected-error file when its name ends in `-invalid.mlir` (cases split by `// -----`,
 *   `// expected-error@+1 {{...}}`; see {@link describeExpectedDiagnostics});
 * - otherwise a golden test: the module printed after the pipeline must equal
 *   `<name>.golden.mlir` beside it (written by `UPDATE_GOLDEN=1 npx jest -c packages/<pkg>/jest.config.ts`).
 *
 * A last test checks that every pass the stage registers appears in some fixture's pipeline.
 * Workspace test support, not a published package.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  PassRegistry,
  parsePassPipeline,
  parseSourceString,
  printOperation,
  renderDiagnostics,
  verify,
  type MLIRContext,
} from '@raptor-pim/ir-core';
import { describeExpectedDiagnostics, passPipelineRunner } from './expected-diagnostics';

/** What {@link describeStageFixtures} needs. */
export interface StageFixtureOptions {
  /** The folder of the fixtures (`path.join(__dirname, 'fixtures')`). */
  readonly fixturesDir: string;
  /** A fresh context with the dialects the fixtures use. */
  makeContext(): MLIRContext;
  /** Registers the stage's passes (`registerLayoutPlannerPasses`); each must appear in a fixture's pipeline. */
  register(registry: PassRegistry): void;
  /** Registers other passes the pipelines use (ir-core's `registerCorePasses`, ...); not checked for coverage. */
  registerOthers?(registry: PassRegistry): void;
  /** Accept unregistered ops (`test.*`) in the fixtures. */
  readonly allowUnregisteredDialects?: boolean;
  /** In `-invalid.mlir` files, the pipeline must fail exactly in the cases that expect an error (default true). */
  readonly checkOutcome?: boolean;
  /** In `-invalid.mlir` files, a failed pipeline must leave the module unchanged (default false). */
  readonly unchangedOnFailure?: boolean;
}

const PIPELINE_HEADER = /^\/\/ pipeline: (.+)$/m;

/** The pipeline named by a fixture's `// pipeline: ...` line, or undefined. */
export function fixturePipeline(text: string): string | undefined {
  return PIPELINE_HEADER.exec(text)?.[1]?.trim();
}

/** Declares the golden, expected-error and coverage tests of a stage's fixtures (see the file comment). */
export function describeStageFixtures(title: string, options: StageFixtureOptions): void {
  const dir = options.fixturesDir;
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.mlir') && !f.endsWith('.golden.mlir')).sort() : [];
  const register = (r: PassRegistry): void => {
    options.registerOthers?.(r);
    options.register(r);
  };
  const pipelines = new Map<string, string | undefined>(files.map((f) => [f, fixturePipeline(fs.readFileSync(path.join(dir, f), 'utf8'))]));

  describe(title, () => {
    for (const file of files) {
      const pipeline = pipelines.get(file);
      if (file.endsWith('-invalid.mlir')) {
        describeExpectedDiagnostics(`${file} (${pipeline ?? 'no pipeline line'})`, path.join(dir, file), {
          makeContext: options.makeContext,
          allowUnregisteredDialects: options.allowUnregisteredDialects ?? false,
          run: passPipelineRunner(pipeline ?? 'builtin.module()', register),
          checkOutcome: options.checkOutcome ?? true,
          unchangedOnFailure: options.unchangedOnFailure ?? false,
        });
        continue;
      }
      it(`${file}: ${pipeline ?? 'no pipeline line'} prints ${file.replace(/\.mlir$/, '.golden.mlir')}`, () => {
        expect(pipeline).toBeDefined();
        const ctx = options.makeContext();
        if (options.allowUnregisteredDialects) ctx.allowUnregisteredDialects = true;
        const text = fs.readFileSync(path.join(dir, file), 'utf8');
        const { result, diagnostics } = ctx.diagnostics.capture(() => {
          const m = parseSourceString(ctx, text, { filename: file });
          if (!m || !verify(m)) return undefined;
          const registry = new PassRegistry();
          register(registry);
          const pm = parsePassPipeline(ctx, pipeline!, registry);
          return pm && pm.run(m).success ? printOperation(m) + '\n' : undefined;
        });
        expect(renderDiagnostics(diagnostics)).toBe('');
        const golden = path.join(dir, file.replace(/\.mlir$/, '.golden.mlir'));
        if (process.env['UPDATE_GOLDEN'] === '1') fs.writeFileSync(golden, result!);
        expect(fs.existsSync(golden)).toBe(true);
        expect(result).toBe(fs.readFileSync(golden, 'utf8'));
      });
    }

    it('every pass the stage registers is run by some fixture', () => {
      const registry = new PassRegistry();
      options.register(registry);
      const used = [...pipelines.values()].join(' ');
      const untested = registry.registeredPasses.map((p) => p.argument).filter((a) => !new RegExp(`(^|[^\\w-])${a.replace(/[.-]/g, '\\$&')}($|[^\\w-])`).test(used));
      expect(untested).toEqual([]);
    });
  });
}
