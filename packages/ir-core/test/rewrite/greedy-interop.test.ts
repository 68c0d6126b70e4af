import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MLIRContext, applyPatternsGreedily, parseSourceString, printOperation, registerBuiltinDialects, verify } from '../../src';

const dir = path.resolve(__dirname, 'fixtures');
const MLIR_OPT = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';

/** Runs the greedy driver (folding, dead-op erasure, constant uniquing; no patterns) on every function. */
function foldAll(text: string): string {
  const ctx = new MLIRContext();
  registerBuiltinDialects(ctx);
  const m = parseSourceString(ctx, text, { filename: 'fold-only.mlir' });
  if (!m) throw new Error('parse failed');
  for (const f of m.regions[0]!.firstBlock!.operations) expect(applyPatternsGreedily(f, []).converged).toBe(true);
  expect(verify(m)).toBe(true);
  return printOperation(m) + '\n';
}

describe('greedy driver vs mlir-opt --canonicalize (fold-only input)', () => {
  const input = fs.readFileSync(path.join(dir, 'fold-only.mlir'), 'utf8');
  const golden = fs.readFileSync(path.join(dir, 'fold-only.canonicalized.mlir'), 'utf8');

  test('byte-identical to the recorded mlir-opt output (constant order included)', () => {
    expect(foldAll(input)).toBe(golden);
  });

  const haveMlirOpt = fs.existsSync(MLIR_OPT);
  (haveMlirOpt ? test : test.skip)('the recorded output is what mlir-opt prints today', () => {
    expect(execFileSync(MLIR_OPT, ['--canonicalize', path.join(dir, 'fold-only.mlir')], { encoding: 'utf8' })).toBe(golden);
  });
});
