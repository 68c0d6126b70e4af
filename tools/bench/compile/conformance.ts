// See conformance.mjs.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { performance } from 'node:perf_hooks';
import { refusalGroup, type ConformanceOutcome } from '../../../packages/compiler/test/support/conformance-compile';

const args = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const filter = value('filter') ?? '';
const jsonFile = value('json');
const verbose = args.includes('--verbose');
const caseTimeoutS = Number(value('case-timeout-s') ?? 120);
const root = path.resolve(__dirname, '../../..');

type Row = { key: string; op: string; seconds: number } & (ConformanceOutcome | { kind: 'timeout'; why: string });

/** Runs a worker from case `from`; resolves with the rows it produced and the index it stopped at (the total when it finished). */
function runWorker(from: number): Promise<{ rows: Row[]; next: number; total: number }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=4096', '--conditions=@raptor-pim/source', '-r', '@swc-node/register', path.join(__dirname, 'conformance-worker.ts'), String(from), filter],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const rows: Row[] = [];
    let total = Infinity;
    let current: { index: number; key: string } | undefined;
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, caseTimeoutS * 1000);
    };
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const msg = JSON.parse(line) as { total?: number; start?: number; key?: string; index?: number } & Row;
      if (msg.total !== undefined) total = msg.total;
      else if (msg.start !== undefined) {
        current = { index: msg.start, key: msg.key! };
        arm();
      } else if (msg.index !== undefined) {
        const { index: _index, ...row } = msg;
        rows.push(row as Row);
        if (verbose) process.stderr.write(`${row.key} ${row.kind} ${row.seconds.toFixed(1)} s ${describe(row as Row)}\n`);
        current = undefined;
      }
    });
    child.on('exit', () => {
      if (timer) clearTimeout(timer);
      if (current) {
        const why = timedOut ? `no result within ${caseTimeoutS} s` : 'the worker process died';
        rows.push({ key: current.key, op: '', seconds: caseTimeoutS, kind: timedOut ? 'timeout' : 'crash', why });
        if (verbose) process.stderr.write(`${current.key} ${timedOut ? 'timeout' : 'crash'} ${why}\n`);
        resolve({ rows, next: current.index + 1, total });
      } else resolve({ rows, next: total, total });
    });
  });
}

function describe(row: Row): string {
  if (row.kind === 'matched') return row.vsoftmax ? 'vsoftmax' : '';
  if (row.kind === 'refused') return `${row.stage}: ${row.message.split('\n')[0]}`;
  return 'why' in row ? row.why.split('\n')[0]! : '';
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const rows: Row[] = [];
  let from = 0;
  for (;;) {
    const r = await runWorker(from);
    rows.push(...r.rows);
    if (r.next >= r.total) break;
    from = r.next;
  }
  const of = (kind: Row['kind']) => rows.filter((o) => o.kind === kind);
  const accepted = rows.filter((o) => o.kind !== 'not-imported');
  const matched = of('matched');
  const refused = of('refused');
  const wrong = of('wrong');
  const crashed = of('crash');
  const timedOut = of('timeout');
  const pct = (n: number) => (accepted.length > 0 ? ((100 * n) / accepted.length).toFixed(1) : '0.0');
  const groups = new Map<string, string[]>();
  for (const o of refused) if (o.kind === 'refused') groups.set(refusalGroup(o.stage, o.message), [...(groups.get(refusalGroup(o.stage, o.message)) ?? []), o.key]);
  const short = (k: string) => k.replace(/^node\/test_/, '').replace(/^pytorch-converted\/test_/, 'pytorch/');
  const lines = [
    `ONNX conformance end to end (raptor-compile, default target, pim-sim latency mode): ${rows.length} cases with supported operators and float32 outputs, ${accepted.length} accepted by raptor import (${of('not-imported').length} not)`,
    `compiled and matched: ${matched.length} (${pct(matched.length)}%), ${matched.filter((o) => o.kind === 'matched' && o.vsoftmax).length} of them with raptor_config.allow_vsoftmax = true`,
    `refused with a diagnostic: ${refused.length} (${pct(refused.length)}%)`,
    `wrong results: ${wrong.length}`,
    `crashes: ${crashed.length}`,
    `no result within ${caseTimeoutS} s: ${timedOut.length}${timedOut.length > 0 ? ` (${timedOut.map((o) => short(o.key)).join(', ')})` : ''}`,
    `time: ${((performance.now() - t0) / 1000).toFixed(0)} s; slowest: ${[...rows].filter((o) => o.kind !== 'timeout').sort((a, b) => b.seconds - a.seconds).slice(0, 5).map((o) => `${short(o.key)} ${o.seconds.toFixed(1)} s`).join(', ')}`,
    '',
    'refusals by diagnostic (count | stage: message | cases):',
    ...[...groups.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0])).map(([g, keys]) => `${keys.length} | ${g} | ${keys.map(short).join(', ')}`),
    ...(wrong.length > 0 ? ['', 'wrong results:', ...wrong.map((o) => `${o.key}: ${describe(o)}`)] : []),
    ...(crashed.length > 0 ? ['', 'crashes:', ...crashed.map((o) => `${o.key}: ${'why' in o ? o.why : ''}`)] : []),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify(rows, null, 1) + '\n');
  process.exitCode = wrong.length + crashed.length > 0 ? 1 : 0;
}

void main();
