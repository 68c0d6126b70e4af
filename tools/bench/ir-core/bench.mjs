// Benchmark: parse + verify + print generic of a 100,000-op "spat.vadd" chain, ours (CPU time
// measured inside a child process with process.cpuUsage) against
// `mlir-opt --allow-unregistered-dialect --mlir-print-op-generic` (user+sys CPU time from
// /usr/bin/time) on the same file, several interleaved rounds, median; then the heap retained
// per op on a 1,000,000-op file (node --expose-gc, heapUsed after gc with the module alive).
//
// Usage: node tools/bench/ir-core/bench.mjs [--ops 100000] [--rounds 5] [--heap-ops 1000000]
// Targets: ratio <= 2.0 (ours/mlir-opt), heap <= 1024 bytes per op. Not run in CI.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateChain } from './generate.mjs';
import { transpileTree } from './transpile.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const repo = path.resolve(here, '../../..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('--ops', 100000);
const ROUNDS = arg('--rounds', 5);
const HEAP_N = arg('--heap-ops', 1000000);
const MLIR_OPT = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ir-core-bench-'));
const jsDir = transpileTree(path.join(repo, 'packages/ir-core/src'), path.join(work, 'js'));
const file = path.join(work, `chain-${N}.mlir`);
fs.writeFileSync(file, generateChain(N));
const size = fs.statSync(file).size;
console.log(`input: ${N} ops, ${(size / 1e6).toFixed(2)} MB (${file})`);

function ours() {
  const out = execFileSync(process.execPath, [path.join(here, 'ours-child.cjs'), jsDir, file, 'time'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out);
}

function mlirOpt() {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %e', MLIR_OPT, '--allow-unregistered-dialect', '--mlir-print-op-generic', file, '-o', '/dev/null'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`mlir-opt failed: ${r.stderr}`);
  const [user, sys, wall] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { cpuMs: (user + sys) * 1000, wallMs: wall * 1000 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const haveMlirOpt = fs.existsSync(MLIR_OPT) && fs.existsSync('/usr/bin/time');
if (!haveMlirOpt) console.log(`mlir-opt or /usr/bin/time not found (${MLIR_OPT}); printing our figures only`);
const oursCpu = [];
const theirsCpu = [];
for (let r = 0; r < ROUNDS; r++) {
  const o = ours();
  oursCpu.push(o.cpuMs);
  let line = `round ${r + 1}: ours ${o.cpuMs.toFixed(0)} ms CPU (parse ${o.wallParseMs.toFixed(0)}, verify ${o.wallVerifyMs.toFixed(0)}, print ${o.wallPrintMs.toFixed(0)} ms wall)`;
  if (haveMlirOpt) {
    const m = mlirOpt();
    theirsCpu.push(m.cpuMs);
    line += `, mlir-opt ${m.cpuMs.toFixed(0)} ms CPU`;
  }
  console.log(line);
}
const oursMed = median(oursCpu);
console.log(`median CPU: ours ${oursMed.toFixed(0)} ms`);
if (haveMlirOpt) {
  const theirsMed = median(theirsCpu);
  const ratio = oursMed / theirsMed;
  console.log(`median CPU: mlir-opt ${theirsMed.toFixed(0)} ms`);
  console.log(`ratio ours/mlir-opt: ${ratio.toFixed(2)}x (target <= 2.00x) ${ratio <= 2 ? 'OK' : 'MISSED'}`);
}

if (HEAP_N > 0) {
  const heapFile = path.join(work, `chain-${HEAP_N}.mlir`);
  fs.writeFileSync(heapFile, generateChain(HEAP_N));
  const out = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', path.join(here, 'ours-child.cjs'), jsDir, heapFile, 'heap'], {
    encoding: 'utf8',
  });
  const h = JSON.parse(out);
  console.log(
    `heap: ${h.ops} ops retain ${(h.heapBytes / 1048576).toFixed(1)} MiB = ${h.bytesPerOp.toFixed(0)} bytes per op (target <= 1024) ${h.bytesPerOp <= 1024 ? 'OK' : 'MISSED'}`,
  );
  fs.rmSync(heapFile);
}
fs.rmSync(work, { recursive: true, force: true });
