/**
 * Opt-in timing of parse + verify + print of a 100,000-op function against mlir-opt
 * (`IR_BENCH=1 npx jest -c packages/ir-core/jest.config.ts bench-verify`). Skipped otherwise:
 * wall-clock figures never gate CI.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MLIRContext, parseSourceString, printOperation, registerBuiltinDialects, verify } from '../../src';

const N = Number(process.env.IR_BENCH_OPS ?? 100_000);
const MLIR_OPT = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';

function source(n: number): string {
  const lines = ['func.func @f(%arg0: i32) -> i32 {'];
  let prev = '%arg0';
  for (let i = 0; i < n - 1; i++) {
    lines.push(`  %${i} = arith.addi ${prev}, %arg0 : i32`);
    prev = `%${i}`;
  }
  lines.push(`  return ${prev} : i32`, '}');
  return lines.join('\n') + '\n';
}

(process.env.IR_BENCH ? test : test.skip)(`parse + verify + print of ${N} ops`, () => {
  const text = source(N);
  const ctx = new MLIRContext();
  registerBuiltinDialects(ctx);
  const t0 = performance.now();
  const m = parseSourceString(ctx, text, { filename: 'bench.mlir' })!;
  const t1 = performance.now();
  expect(verify(m)).toBe(true);
  const t2 = performance.now();
  const out = printOperation(m);
  const t3 = performance.now();
  expect(out.length).toBeGreaterThan(text.length / 2);
  const ours = t3 - t0;
  let line = `ops=${N} parse=${(t1 - t0).toFixed(0)}ms verify=${(t2 - t1).toFixed(0)}ms print=${(t3 - t2).toFixed(0)}ms total=${ours.toFixed(0)}ms`;
  if (fs.existsSync(MLIR_OPT)) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ir-bench-')), 'bench.mlir');
    fs.writeFileSync(file, text);
    const s = performance.now();
    execFileSync(MLIR_OPT, [file, '-o', os.devNull]);
    const ref = performance.now() - s;
    line += ` mlir-opt=${ref.toFixed(0)}ms ratio=${(ours / ref).toFixed(2)}`;
  }
  console.log(line);
}, 600_000);
