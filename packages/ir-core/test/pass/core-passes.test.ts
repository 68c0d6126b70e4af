import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  MLIRContext,
  PassRegistry,
  parsePassPipeline,
  parseSourceString,
  printOperation,
  registerBuiltinDialects,
  registerCorePasses,
} from '../../src';

const MLIR_OPT = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
const haveMlirOpt = fs.existsSync(MLIR_OPT);

function runPipeline(file: string, pipeline: string): string {
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  registerBuiltinDialects(ctx);
  const registry = new PassRegistry();
  registerCorePasses(registry);
  const m = parseSourceString(ctx, fs.readFileSync(file, 'utf8'), { filename: path.basename(file) })!;
  const pm = parsePassPipeline(ctx, pipeline, registry)!;
  expect(pm.run(m).success).toBe(true);
  return printOperation(m) + '\n';
}

const cases: [string, string, string][] = [
  ['cse', path.resolve(__dirname, 'fixtures/cse.mlir'), path.resolve(__dirname, 'fixtures/cse.expected.mlir')],
  [
    'canonicalize,cse',
    path.resolve(__dirname, '../rewrite/fixtures/fold-only.mlir'),
    path.resolve(__dirname, '../rewrite/fixtures/fold-only.canonicalized.mlir'),
  ],
];

describe.each(cases)('builtin.module(%s)', (passes, input, expected) => {
  test('matches the recorded mlir-opt output byte for byte', () => {
    expect(runPipeline(input, `builtin.module(${passes})`)).toBe(fs.readFileSync(expected, 'utf8'));
  });
  (haveMlirOpt ? test : test.skip)('the recording is what mlir-opt prints today', () => {
    const out = execFileSync(MLIR_OPT, ['--allow-unregistered-dialect', `--pass-pipeline=builtin.module(${passes})`, input], {
      encoding: 'utf8',
    });
    expect(out).toBe(fs.readFileSync(expected, 'utf8'));
  });
});

test('canonicalize options print like MLIR and parse back', () => {
  const ctx = new MLIRContext();
  const registry = new PassRegistry();
  registerCorePasses(registry);
  const pm = parsePassPipeline(ctx, 'builtin.module(func.func(canonicalize{max-iterations=3}),cse)', registry)!;
  expect(pm.printAsTextualPipeline()).toBe(
    'builtin.module(func.func(canonicalize{max-iterations=3 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}),cse)',
  );
});
