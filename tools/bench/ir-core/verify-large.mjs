// Times `verify()` on a large flat module shaped like the compiler's PIM modules: one func.func
// holding C isolated-from-above `bench.core` ops, each with one block of N ops whose operands
// are defined earlier in the same block (arith.constant/addi/muli/cmpi/select). Measures the
// current sources (transpiled, no build needed) against the previous verifier
// (verifier-baseline.ts, transpiled next to them), interleaved in one process, best of R runs
// after a warm-up.
//
//   node tools/bench/ir-core/verify-large.mjs [--cores 64] [--ops 20000] [--runs 7]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { transpileTree } from './transpile.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const repo = path.resolve(here, '../../..');
const require = createRequire(path.join(repo, 'package.json'));
const ts = require('typescript');

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const cores = arg('cores', 64);
const opsPerCore = arg('ops', 20000);
const runs = arg('runs', 7);

const jsDir = transpileTree(path.join(repo, 'packages/ir-core/src'), fs.mkdtempSync(path.join(os.tmpdir(), 'ir-core-js-')));
const baseline = ts.transpileModule(fs.readFileSync(path.join(here, 'verifier-baseline.ts'), 'utf8'), {
  compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
}).outputText;
fs.writeFileSync(path.join(jsDir, 'ir/verifier-baseline.js'), baseline);

const api = require(path.join(jsDir, 'index.js'));
const verifyOld = require(path.join(jsDir, 'ir/verifier-baseline.js')).verify;
const { MLIRContext, parseSourceString, registerBuiltinDialects, verify, defineOp, defineDialect, anyRegion, Traits } = api;

const CoreOp = defineOp({
  name: 'bench.core',
  regions: { body: anyRegion() },
  traits: [Traits.IsolatedFromAbove, Traits.SingleBlock, Traits.NoTerminator],
});
const BenchDialect = defineDialect({ namespace: 'bench', operations: [CoreOp] });

/** The text of the module: `cores` cores of `n` ops each (names reused: each core is isolated). */
function generate(cores, n) {
  const parts = ['func.func @main() {\n'];
  for (let c = 0; c < cores; c++) {
    parts.push('  "bench.core"() ({\n    %v0 = arith.constant 1 : i32\n    %v1 = arith.constant 2 : i32\n');
    for (let i = 2; i < n; i++) {
      const a = `%v${i - 1}`;
      const b = `%v${i - 2}`;
      switch (i % 5) {
        case 0:
          parts.push(`    %v${i} = arith.constant ${i} : i32\n`);
          break;
        case 1:
          parts.push(`    %v${i} = arith.addi ${a}, ${b} : i32\n`);
          break;
        case 2:
          parts.push(`    %v${i} = arith.muli ${a}, ${b} : i32\n`);
          break;
        case 3:
          parts.push(`    %c${i} = arith.cmpi slt, ${a}, ${b} : i32\n    %v${i} = arith.select %c${i}, ${a}, ${b} : i32\n`);
          i++;
          if (i < n) parts.push(`    %v${i} = arith.subi %v${i - 1}, %v${i - 3} : i32\n`);
          break;
        default:
          parts.push(`    %v${i} = arith.subi ${a}, ${b} : i32\n`);
      }
    }
    parts.push('  }) : () -> ()\n');
  }
  parts.push('  return\n}\n');
  return parts.join('');
}

const ctx = new MLIRContext();
registerBuiltinDialects(ctx);
ctx.registerDialect(BenchDialect);
let text = generate(cores, opsPerCore);
const module = parseSourceString(ctx, text, { filename: 'verify-large.mlir' });
text = null;
if (!module) throw new Error('parse failed: ' + ctx.diagnostics.collected.map((d) => d.message).join('; '));
let ops = 0;
module.walk(() => {
  ops++;
});

function time(fn) {
  const t = performance.now();
  const ok = fn(module);
  const ms = performance.now() - t;
  if (!ok) throw new Error('verify failed: ' + ctx.diagnostics.collected.map((d) => d.message).join('; '));
  return ms;
}

time(verifyOld);
time(verify);
const old = [];
const cur = [];
for (let r = 0; r < runs; r++) {
  old.push(time(verifyOld));
  cur.push(time(verify));
}
const best = (xs) => Math.min(...xs);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (xs) => `best ${best(xs).toFixed(0)} ms (${((best(xs) * 1e6) / ops).toFixed(0)} ns/op), median ${median(xs).toFixed(0)} ms`;
console.log(`verify of ${ops} ops (${cores} isolated cores x ${opsPerCore} ops), ${runs} runs each, interleaved:`);
console.log(`  old verifier: ${fmt(old)}`);
console.log(`  new verifier: ${fmt(cur)}`);
console.log(`  ratio new/old: best ${(best(cur) / best(old)).toFixed(3)}, median ${(median(cur) / median(old)).toFixed(3)}`);
fs.rmSync(jsDir, { recursive: true, force: true });
