/**
 * pim-sim against pimsim-nn on a large program directory (default: shared/spec/pimsim-nn-large/
 * ring-100k): chip latency, energy and every core's finish time, worst cores first.
 * Usage: node tools/bench/pim-sim/run-ts.mjs compare-large.ts [CASE_DIR] [--top N] [--all] [--reached]
 * CASE_DIR is either a shared case (prog/, arch/latency_config.json, expected.json) or a
 * directory written by `generate.ts --write` (the bundle with arch.json) after pimsim-nn's
 * report was saved in it as report.txt; expected figures are then read from the report.
 * --reached also compares pimsim-nn's "core :N reached time" lines with pim-sim's fetchEndNs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTarget } from '@raptor-pim/pim-target';
import { simulateDirectory } from '@raptor-pim/pim-sim';

const shared = process.env.RAPTOR_SHARED ?? path.resolve(__dirname, '../../../../shared');
const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 10;
const dir = args.find((a, i) => !a.startsWith('--') && (topAt < 0 || i !== topAt + 1)) ?? path.join(shared, 'spec/pimsim-nn-large/ring-100k');
interface Expected {
  latency_ns: number;
  energy_pj: number;
  core_finish_ns: Record<string, number>;
}
/** The figures of a pimsim-nn latency-mode report (ms printed with 5-10 significant digits). */
function fromReport(text: string): Expected {
  const num = (re: RegExp) => Number(re.exec(text)?.[1]);
  const cores: Record<string, number> = {};
  for (const m of text.matchAll(/Core (\d+) Information\s*\n\s*- finish time:\s*([0-9.e+-]+) ms/g)) cores[m[1]] = Math.round(Number(m[2]) * 1e6);
  return { latency_ns: Math.round(num(/- latency:\s*([0-9.e+-]+) ms/) * 1e6), energy_pj: num(/- average energy:\s*([0-9.e+-]+) pJ/), core_finish_ns: cores };
}
const sharedCase = fs.existsSync(path.join(dir, 'prog'));
const expected: Expected = fs.existsSync(path.join(dir, 'expected.json'))
  ? (JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected)
  : fromReport(fs.readFileSync(path.join(dir, 'report.txt'), 'utf8'));
const target = loadTarget(path.join(dir, sharedCase ? 'arch/latency_config.json' : 'arch.json'));
if (!target.value) throw new Error('cannot load the architecture');
const t0 = process.hrtime.bigint();
const r = simulateDirectory(sharedCase ? path.join(dir, 'prog') : dir, { target: target.value, timingOnly: args.includes('--timing-only') });
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
if (!r.ok || !r.timing) throw new Error(r.error?.message ?? 'no timing');
const t = r.timing;
const pct = (a: number, b: number) => ((100 * (a - b)) / b).toFixed(3) + '%';
console.log(`latency ${t.latencyNs} vs ${expected.latency_ns} ns (${pct(t.latencyNs, expected.latency_ns)}), energy ${t.energyPj.toFixed(0)} vs ${expected.energy_pj} pJ (${pct(t.energyPj, expected.energy_pj)}), ${seconds.toFixed(2)} s`);
const rows = t.cores.map((c) => {
  const e = expected.core_finish_ns[String(c.id)];
  const d = c.finishNs - e;
  const tol = Math.max(20, 0.003 * e);
  return { id: c.id, ours: c.finishNs, e, d, bad: Math.abs(d) > tol };
});
const bad = rows.filter((x) => x.bad).length;
console.log(`cores outside max(20 ns, 0.3%): ${bad} / ${rows.length}`);
for (const x of [...rows].sort((a, b) => Math.abs(b.d) - Math.abs(a.d)).slice(0, top))
  console.log(`  core ${x.id}: ${x.ours} vs ${x.e} ns (${x.d >= 0 ? '+' : ''}${x.d} ns, ${pct(x.ours, x.e)})`);
if (args.includes('--all')) for (const x of rows) console.log(`${x.id} ${x.ours} ${x.e} ${x.d}`);
// pimsim-nn's "core :N reached time" lines (fetch passed the end), when its report is there.
const reportPath = path.join(dir, 'report.txt');
if (args.includes('--reached') && fs.existsSync(reportPath)) {
  const reached = new Map<number, number>();
  for (const m of fs.readFileSync(reportPath, 'utf8').matchAll(/core :(\d+) reached time:(\d+) ns/g)) reached.set(Number(m[1]), Number(m[2]));
  console.log('core  reached(ours)  reached(pimsim-nn)  diff');
  for (const c of t.cores) {
    const e = reached.get(c.id);
    if (e !== undefined) console.log(`${c.id} ${c.fetchEndNs} ${e} ${c.fetchEndNs - e}`);
  }
}
