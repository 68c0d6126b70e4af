// The worker of conformance.ts: runs the conformance cases from index FROM on (in collectCases
// order, filtered by SUBSTRING), printing one JSON line before (`{"start":i}`) and after
// (`{"index":i,...outcome}`) each case, so the parent can stop a case that takes too long and
// start a new worker after it.
//
// Usage: case FROM [SUBSTRING]
import { performance } from 'node:perf_hooks';
import { collectCases, runConformanceCase } from '../../../packages/compiler/test/support/conformance-compile';

const from = Number(process.argv[2] ?? 0);
const filter = process.argv[3];
const cases = collectCases().cases.filter((c) => filter === undefined || filter === '' || c.key.includes(filter));
process.stdout.write(JSON.stringify({ total: cases.length }) + '\n');
for (let i = from; i < cases.length; i++) {
  const c = cases[i]!;
  process.stdout.write(JSON.stringify({ start: i, key: c.key }) + '\n');
  const t = performance.now();
  const outcome = runConformanceCase(c);
  process.stdout.write(JSON.stringify({ index: i, key: c.key, op: c.op, seconds: Number(((performance.now() - t) / 1000).toFixed(3)), ...outcome }) + '\n');
}
