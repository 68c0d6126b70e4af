// See bench.mjs.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CaseRecord } from './records';

const args = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const root = path.resolve(__dirname, '../../..');
const modelsDir = path.resolve(root, '../shared/models');
const allModels = fs
  .readdirSync(modelsDir)
  .filter((m) => fs.existsSync(path.join(modelsDir, m, 'model.onnx')) && fs.existsSync(path.join(modelsDir, m, 'input_0.npy')))
  .sort();
const models = value('models')?.split(',') ?? allModels;
const strategies = value('strategies')?.split(',') ?? ['layer-sequential', 'throughput', 'latency'];
const timeoutS = Number(value('timeout-s') ?? 900);
const jsonFile = value('json');

/** Runs one case in a child process (4 GiB heap limit); a crash or a timeout becomes a failure record. */
function runCase(model: string, strategy: string): CaseRecord {
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    ['--max-old-space-size=4096', '--conditions=@raptor-pim/source', '-r', '@swc-node/register', path.join(__dirname, 'case.ts'), path.join(modelsDir, model), strategy],
    { cwd: root, encoding: 'utf8', timeout: timeoutS * 1000, maxBuffer: 64 << 20 },
  );
  const line = r.stdout?.trim().split('\n').pop();
  if (r.status === 0 && line?.startsWith('{')) return JSON.parse(line) as CaseRecord;
  const stderr = (r.stderr ?? '').trim().split('\n');
  const lastStep = stderr.filter((l) => l.startsWith('step ')).pop()?.slice('step '.length);
  const why =
    r.error?.message.includes('ETIMEDOUT') || r.signal === 'SIGTERM'
      ? `no result within ${timeoutS} s${lastStep ? ` (in ${lastStep})` : ''}`
      : `exit ${r.status ?? r.signal}: ${stderr.filter((l) => !l.startsWith('step ')).slice(-3).join(' / ')}`;
  return { model, strategy, ok: false, vsoftmax: false, failure: { stage: 'process', message: `${why} (${((Date.now() - started) / 1000).toFixed(0)} s)` } };
}

// --table FILE...: print the table of saved records (several runs' --json files) without running anything.
const tableFiles = args.includes('--table') ? args.slice(args.indexOf('--table') + 1) : undefined;
const records: CaseRecord[] = tableFiles ? tableFiles.flatMap((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as CaseRecord[]) : [];
if (!tableFiles) {
  for (const model of models) {
    for (const strategy of strategies) {
      const rec = runCase(model, strategy);
      records.push(rec);
      process.stderr.write(`${model} ${strategy}: ${rec.ok ? 'ok' : `${rec.failure?.stage}: ${rec.failure?.message}`}\n`);
      // Saved after every case, so an interrupted run keeps what it measured.
      if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify(records, null, 1) + '\n');
    }
  }
}

const f = (x: number | undefined, digits = 2): string => (x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(digits));
const us = (ns: number | undefined): string => (ns === undefined ? '-' : (ns / 1000).toFixed(1));
const mib = (b: number | undefined): string => (b === undefined ? '-' : (b / 2 ** 20).toFixed(0));
const out: string[] = [
  '| model | strategy | compile s | peak heap MiB | RSS MiB | cores | xbars | latency us | x lat_min | lat vs seq | thru /s | thru_max / thru | thru vs seq | energy uJ | est lat / sim | est thru / sim | sim s | vs ORT |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const r of records) {
  const seq = records.find((s) => s.model === r.model && s.strategy === 'layer-sequential' && s.latencyNs !== undefined);
  const head = `| ${r.model} | ${r.strategy} | ${f(r.compileMs === undefined ? undefined : r.compileMs / 1000, 1)} | ${mib(r.peakHeapBytes)} | ${mib(r.maxRssBytes)} |`;
  if (r.latencyNs === undefined) {
    const message = r.failure ? (r.failure.message.length > 150 ? `${r.failure.message.slice(0, 147)}...` : r.failure.message).replace(/\|/g, '\\|') : '';
    out.push(`${head} ${r.failure ? `not compiled/simulated: **${r.failure.stage}**: ${message}` : '-'} |`);
    continue;
  }
  const latRatio = r.bounds ? r.latencyNs / r.bounds.latencyMinNs : undefined;
  const thruRatio = r.bounds && r.throughput ? r.bounds.throughputMax / r.throughput : undefined;
  const latVsSeq = seq?.latencyNs ? r.latencyNs / seq.latencyNs : undefined;
  const thruVsSeq = seq?.throughput && r.throughput ? r.throughput / seq.throughput : undefined;
  const estLat = r.estimate ? r.estimate.latencyNs / r.latencyNs : undefined;
  const estThru = r.estimate && r.throughput ? r.estimate.throughput / r.throughput : undefined;
  out.push(
    `${head} ${r.cores ?? '-'} | ${r.crossbars ?? '-'} | ${us(r.latencyNs)} | ${f(latRatio, 1)} | ${f(latVsSeq)} | ${f(r.throughput, 0)} | ${f(thruRatio, 1)} | ${f(thruVsSeq)} | ${f(r.energyPj === undefined ? undefined : r.energyPj / 1e6, 1)} | ${f(estLat)} | ${f(estThru)} | ${f(r.simMs === undefined ? undefined : r.simMs / 1000, 1)} | ${r.matches ? 'match' : '**differs**'}${r.vsoftmax ? ' (vsoftmax)' : ''} |`,
  );
}
process.stdout.write(out.join('\n') + '\n');
