/**
 * Parse/print throughput of the ir-core syntax layer, with mlir-opt as the baseline when it is
 * installed. Run from the repository root:
 *   npx tsc --outDir /tmp/raptor-bench --rootDir . --module commonjs --moduleResolution bundler --ignoreDeprecations 6.0 \
 *     --target ES2022 --lib ES2023 --types node --skipLibCheck --esModuleInterop tools/bench/ir-syntax/bench.ts
 *   node --max-old-space-size=6000 /tmp/raptor-bench/tools/bench/ir-syntax/bench.js
 * Env: MLIR_OPT (default /usr/lib/llvm-22/bin/mlir-opt), BENCH_DIR (scratch dir, default os.tmpdir()).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { MLIRContext, parseSourceString, printOperation } from '../../../packages/ir-core/src';

const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';
const dir = process.env.BENCH_DIR ?? os.tmpdir();

function writeCases(): { name: string; file: string }[] {
  // 1. ~100 MB on a single line: one op with a long dense array.
  const nums: string[] = [];
  for (let i = 0; i < 20_000_000; i++) nums.push(String(i % 1000));
  const longLine = '"t.a"() {a = array<i32: ' + nums.join(', ') + '>} : () -> ()\n';
  // 2. ~10 MB of ordinary IR: many small ops with blocks, regions and attributes.
  const parts: string[] = [];
  for (let f = 0; f < 2000; f++) {
    parts.push(`"t.func"() ({\n^bb0(%arg0: tensor<4x8xf32>, %arg1: i32):\n`);
    for (let i = 0; i < 25; i++) {
      const prev = i === 0 ? '%arg0' : `%${i - 1}`;
      parts.push(`  %${i} = "t.op"(${prev}, %arg1) {k = ${i} : i64, s = "x${i}", m = affine_map<(d0, d1) -> (d1, d0 + ${i})>} : (tensor<4x8xf32>, i32) -> tensor<4x8xf32>\n`);
    }
    parts.push(`  "t.ret"(%24) : (tensor<4x8xf32>) -> ()\n}) {sym_name = "f${f}"} : () -> ()\n`);
  }
  const big = parts.join('');
  // 3. ~10 MB of weights: dense constants printed in hex (as ONNX-imported models are).
  const weights: string[] = [];
  for (let w = 0; w < 12; w++) {
    const bytes: string[] = [];
    for (let i = 0; i < 100000; i++) bytes.push(((i * 2654435761 + w) >>> 0).toString(16).toUpperCase().padStart(8, '0'));
    weights.push(`%w${w} = "t.const"() {value = dense<"0x${bytes.join('')}"> : tensor<100000xf32>} : () -> tensor<100000xf32>\n`);
  }
  const cases = [
    { name: 'long-line-100MB', text: longLine },
    { name: 'module-10MB', text: big },
    { name: 'weights-10MB', text: weights.join('') },
  ];
  return cases.map((c) => {
    const file = path.join(dir, `raptor-bench-${c.name}.mlir`);
    fs.writeFileSync(file, c.text);
    return { name: c.name, file };
  });
}

/** Wall-clock and user+system CPU time (the machine may be shared: CPU time is the fairer figure). */
function time<T>(f: () => T): { ms: number; cpuMs: number; value: T } {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const value = f();
  const c = process.cpuUsage(c0);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpuMs: (c.user + c.system) / 1000, value };
}

/** Runs mlir-opt under /usr/bin/time when available to get its CPU time too. */
function runMlirOpt(file: string): { ms: number; cpuMs: number | undefined } {
  const args = ['--allow-unregistered-dialect', '--mlir-print-op-generic', file, '-o', os.devNull];
  if (fs.existsSync('/usr/bin/time')) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S', mlirOpt, ...args], { encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const m = /([0-9.]+) ([0-9.]+)\s*$/.exec(r.stderr);
    return { ms, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined };
  }
  const t = time(() => execFileSync(mlirOpt, args));
  return { ms: t.ms, cpuMs: undefined };
}

for (const c of writeCases()) {
  const text = fs.readFileSync(c.file, 'utf8');
  const ctx = new MLIRContext();
  ctx.allowUnregisteredDialects = true;
  const parsed = time(() => parseSourceString(ctx, text, { filename: c.name }));
  if (!parsed.value) throw new Error(`${c.name}: parse failed`);
  const printed = time(() => printOperation(parsed.value!, { generic: true }));
  let baseline = '';
  if (fs.existsSync(mlirOpt)) {
    const m = runMlirOpt(c.file);
    baseline = `  | mlir-opt parse+print wall ${m.ms.toFixed(0)} ms` + (m.cpuMs !== undefined ? ` cpu ${m.cpuMs.toFixed(0)} ms` : '');
    baseline += `  | ratio wall ${((parsed.ms + printed.ms) / m.ms).toFixed(2)}x`;
    if (m.cpuMs) baseline += ` cpu ${((parsed.cpuMs + printed.cpuMs) / m.cpuMs).toFixed(2)}x`;
  }
  console.log(
    `${c.name}: ${(text.length / 1e6).toFixed(1)} MB  parse wall ${parsed.ms.toFixed(0)} ms cpu ${parsed.cpuMs.toFixed(0)} ms  print wall ${printed.ms.toFixed(0)} ms cpu ${printed.cpuMs.toFixed(0)} ms (${(printed.value.length / 1e6).toFixed(1)} MB)` + baseline,
  );
  fs.unlinkSync(c.file);
}
