/**
 * pim-sim against pimsim-nn: every case of shared/spec/pimsim-nn-bench (latency within
 * max(3 ns, 1%), energy within 1%; rejected cases must be rejected or flagged) and the
 * two-core example. Prints one line per mismatch (or per case with --all) and a per-family
 * summary. Set RAPTOR_SHARED to use another shared folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTarget } from '@raptor-pim/pim-target';
import { simulateDirectory } from '@raptor-pim/pim-sim';

const shared = process.env.RAPTOR_SHARED ?? path.resolve(__dirname, '../../../../shared');
const bench = path.join(shared, 'spec/pimsim-nn-bench');
const all = process.argv.includes('--all');
const prefix = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '';

interface Family {
  cases: number;
  ok: number;
  exact: number;
  worstNs: number;
  worstCase: string;
}
const families = new Map<string, Family>();
let functionalFlags = 0;

for (const name of fs.readdirSync(bench).sort()) {
  const dir = path.join(bench, name);
  if (!fs.statSync(dir).isDirectory() || !name.startsWith(prefix)) continue;
  const family = name.split('_')[0];
  const f = families.get(family) ?? { cases: 0, ok: 0, exact: 0, worstNs: 0, worstCase: '' };
  families.set(family, f);
  f.cases++;
  const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  const target = loadTarget(path.join(dir, 'arch.json')).value!;
  let r = simulateDirectory(path.join(dir, 'prog'), { target });
  let note = '';
  if (!r.ok && !r.timing && r.error && r.error.kind !== 'invalid-bundle') {
    note = ` [functional check: ${r.error.kind}; timed with --timing-only]`;
    functionalFlags++;
    r = simulateDirectory(path.join(dir, 'prog'), { target, timingOnly: true });
  }
  if (expected.latency_ns === null) {
    const flagged = !r.ok || !r.compatibility.pimsimCompatible;
    if (flagged) {
      f.ok++;
      f.exact++;
    }
    if (all || !flagged)
      console.log(`${flagged ? 'ok  ' : 'MISS'} ${name}: pimsim-nn ${expected.error ? `rejects (${expected.error.slice(0, 60)})` : 'crashes'}; pim-sim ${r.ok ? `runs, flags: ${r.compatibility.notes[0] ?? 'none'}` : `rejects: ${r.error!.message.split('\n')[0]}`}`);
    continue;
  }
  if (!r.ok || !r.timing) {
    console.log(`FAIL ${name}: ${r.error?.message}`);
    continue;
  }
  const t = r.timing;
  const dLat = t.latencyNs - expected.latency_ns;
  const dE = t.energyPj - expected.energy_pj;
  const ok = Math.abs(dLat) <= Math.max(3, 0.01 * expected.latency_ns) && Math.abs(dE) <= 0.01 * Math.abs(expected.energy_pj) + 1e-9;
  const fin = t.cores.map((c) => c.finishNs);
  const exact = JSON.stringify(fin) === JSON.stringify(expected.finish_ns) && Math.abs(dE) < 1e-6;
  if (ok) f.ok++;
  if (exact) f.exact++;
  if (Math.abs(dLat) > f.worstNs) {
    f.worstNs = Math.abs(dLat);
    f.worstCase = name;
  }
  if (all || !exact)
    console.log(`${ok ? (exact ? 'ok  ' : 'near') : 'BAD '} ${name}: finish ${JSON.stringify(fin)} vs ${JSON.stringify(expected.finish_ns)}, energy ${+t.energyPj.toFixed(3)} vs ${expected.energy_pj} pJ${note}`);
}

let cases = 0;
let ok = 0;
let exact = 0;
console.log('\nfamily                           cases  within-tolerance  exact  worst |dLatency| ns');
for (const [name, f] of [...families].sort()) {
  cases += f.cases;
  ok += f.ok;
  exact += f.exact;
  console.log(`${name.padEnd(32)} ${String(f.cases).padStart(5)}  ${String(f.ok).padStart(16)}  ${String(f.exact).padStart(5)}  ${f.worstNs}${f.worstCase ? ` (${f.worstCase})` : ''}`);
}
console.log(`total: ${ok}/${cases} within tolerance, ${exact}/${cases} exact; ${functionalFlags} finished case(s) rejected by our functional checks and timed with --timing-only`);

const example = path.join(shared, 'spec/pimsim-nn-example');
for (const prog of ['prog-json', 'prog-pim']) {
  const r = simulateDirectory(path.join(example, prog), { target: loadTarget(path.join(example, 'arch/latency_config.json')).value! });
  console.log(`example ${prog}: ${r.timing?.latencyNs} ns (pimsim-nn 5938), ${r.timing?.energyPj} pJ (pimsim-nn 20298), cores ${JSON.stringify(r.timing?.cores.map((c) => c.finishNs))}`);
}
const tp = simulateDirectory(path.join(example, 'prog-pim'), { target: loadTarget(path.join(example, 'arch/throughput_config.json')).value! });
console.log(`example throughput: ${tp.timing?.rounds} outputs (pimsim-nn 16), ${(tp.timing!.energyPj / tp.timing!.rounds).toFixed(3)} pJ/it (pimsim-nn 21294.375)`);
