// Benchmark: parse + verify + print generic of a 100,000-op "spat.vadd" chain, ours (CPU time
// measured inside a child process with process.cpuUsage) against
// `mlir-opt --allow-unregistered-dialect --mlir-print-op-generic` (user+sys CPU time from
// /usr/bin/time) on the same file, several interleaved rounds, median; then the heap retained
// per op on a 1,000,000-op file (node --expose-gc, heapUsed after gc with the module alive).
//
// In the same rounds, the whole process as a user runs it: `raptor opt --print-generic FILE`
// (the built cli, startup and module loading included; user+sys CPU from /usr/bin/time)
// against the same mlir-opt run, reported as a second ratio next to the in-process one.
//
// Usage: node tools/bench/ir-core/bench.mjs [--ops 100000] [--rounds 5] [--heap-ops 1000000]
// Targets: in-process and whole-process ratio <= 2.0 (ours/mlir-opt), heap <= 1024 bytes per
// op. The whole-process figure needs the cli built (`npx nx run-many -t build
// --projects=tag:raptor`); without it that figure is skipped with a note. Not run in CI.
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

/** user+sys CPU and wall time of one whole process, as /usr/bin/time accounts it. */
function timeProcess(what, command, args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %e', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${what} failed: ${r.stderr}`);
  const [user, sys, wall] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { cpuMs: (user + sys) * 1000, wallMs: wall * 1000 };
}

function mlirOpt() {
  return timeProcess('mlir-opt', MLIR_OPT, ['--allow-unregistered-dialect', '--mlir-print-op-generic', file, '-o', '/dev/null']);
}

// The cli as a user starts it (bin launcher -> dist), whole process.
const RAPTOR_BIN = path.join(repo, 'packages/cli/bin/raptor.cjs');
function raptorOpt() {
  return timeProcess('raptor opt', process.execPath, [RAPTOR_BIN, 'opt', '--print-generic', file, '-o', '/dev/null']);
}
function raptorAvailable() {
  if (!fs.existsSync(path.join(repo, 'packages/cli/dist/bin.cjs'))) return 'packages/cli/dist is missing';
  const r = spawnSync(process.execPath, [RAPTOR_BIN, 'opt', '--print-generic', file, '-o', '/dev/null'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return r.status === 0 ? null : `raptor opt exited ${r.status}: ${(r.stderr ?? '').split('\n').slice(0, 3).join(' ')}`;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const haveMlirOpt = fs.existsSync(MLIR_OPT) && fs.existsSync('/usr/bin/time');
if (!haveMlirOpt) console.log(`mlir-opt or /usr/bin/time not found (${MLIR_OPT}); printing our figures only`);
const raptorMissing = haveMlirOpt ? raptorAvailable() : 'mlir-opt is missing';
if (raptorMissing) console.log(`whole-process figure skipped (${raptorMissing}); build the cli: npx nx run-many -t build --projects=tag:raptor`);
const oursCpu = [];
const theirsCpu = [];
const raptorCpu = [];
for (let r = 0; r < ROUNDS; r++) {
  const o = ours();
  oursCpu.push(o.cpuMs);
  let line = `round ${r + 1}: ours ${o.cpuMs.toFixed(0)} ms CPU (parse ${o.wallParseMs.toFixed(0)}, verify ${o.wallVerifyMs.toFixed(0)}, print ${o.wallPrintMs.toFixed(0)} ms wall)`;
  if (haveMlirOpt) {
    const m = mlirOpt();
    theirsCpu.push(m.cpuMs);
    line += `, mlir-opt ${m.cpuMs.toFixed(0)} ms CPU`;
  }
  if (!raptorMissing) {
    const w = raptorOpt();
    raptorCpu.push(w.cpuMs);
    line += `, raptor opt (whole process) ${w.cpuMs.toFixed(0)} ms CPU`;
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
  if (raptorCpu.length) {
    const wholeMed = median(raptorCpu);
    const whole = wholeMed / theirsMed;
    console.log(`median CPU: raptor opt --print-generic (whole process) ${wholeMed.toFixed(0)} ms`);
    console.log(`ratio whole process raptor opt/mlir-opt: ${whole.toFixed(2)}x (target <= 2.00x) ${whole <= 2 ? 'OK' : 'MISSED'}`);
  }
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
