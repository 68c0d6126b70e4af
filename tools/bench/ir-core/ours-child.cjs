// Child process of bench.mjs: loads the transpiled ir-core sources from argv[2], then on the
// file argv[3] measures (mode "time") the CPU time of parse + verify + print generic, or
// (mode "heap", run with --expose-gc) the heap retained by the parsed module. Prints JSON.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const [, , jsDir, file, mode] = process.argv;
// Load through the package entry (as users do), then the dialects (exported there too once wired).
const api = require(path.join(jsDir, 'index'));
const { MLIRContext, parseSourceString, printOperation, verify } = api;
const registerBuiltinDialects = api.registerBuiltinDialects ?? require(path.join(jsDir, 'dialects/index')).registerBuiltinDialects;

function newContext() {
  const ctx = new MLIRContext();
  registerBuiltinDialects(ctx);
  ctx.allowUnregisteredDialects = true;
  return ctx;
}

if (mode === 'heap') {
  global.gc();
  global.gc();
  const before = process.memoryUsage().heapUsed;
  let text = fs.readFileSync(file, 'utf8');
  const ctx = newContext();
  const module = parseSourceString(ctx, text, { filename: file });
  if (!module) throw new Error('parse failed: ' + ctx.diagnostics.collected.map((d) => d.message).join('; '));
  text = null;
  global.gc();
  global.gc();
  const after = process.memoryUsage().heapUsed;
  let ops = 0;
  module.walk(() => {
    ops++;
  });
  process.stdout.write(JSON.stringify({ ops, heapBytes: after - before, bytesPerOp: (after - before) / ops }) + '\n');
} else {
  const text = fs.readFileSync(file, 'utf8');
  const start = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const ctx = newContext();
  const module = parseSourceString(ctx, text, { filename: file });
  if (!module) throw new Error('parse failed: ' + ctx.diagnostics.collected.map((d) => d.message).join('; '));
  const t1 = process.hrtime.bigint();
  const cpuParse = process.cpuUsage(start);
  if (!verify(module)) throw new Error('verify failed: ' + ctx.diagnostics.collected.map((d) => d.message).join('; '));
  const t2 = process.hrtime.bigint();
  const out = printOperation(module, { generic: true });
  const t3 = process.hrtime.bigint();
  const cpu = process.cpuUsage(start);
  process.stdout.write(
    JSON.stringify({
      cpuMs: (cpu.user + cpu.system) / 1000,
      parseCpuMs: (cpuParse.user + cpuParse.system) / 1000,
      wallParseMs: Number(t1 - t0) / 1e6,
      wallVerifyMs: Number(t2 - t1) / 1e6,
      wallPrintMs: Number(t3 - t2) / 1e6,
      outputBytes: out.length,
    }) + '\n',
  );
}
