/**
 * The scheduler benchmark (see bench.mjs). For every model: import (onnx-frontend), plan
 * layouts and lower plans (layout-planner, plan-lowering) as the compiler's pipeline does, then
 * schedule a fresh copy with each built-in strategy and print one table row per strategy.
 */
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Operation } from '@raptor-pim/ir-core';
import { defaultTarget } from '@raptor-pim/pim-target';
import { BUILTIN_SCHEDULERS, verifyCommunication, type ScheduleReport } from '@raptor-pim/scheduler';
import { loweredSharedModel } from './lowered-model';

const shared = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(__dirname, '../../../../shared');
const args = process.argv.slice(2);
const json = args.includes('--json');
const DEFAULT_MODELS = ['mlp', 'mlp_batch4', 'lenet5', 'mnist-8', 'resnet_mini', 'resnet18'];
const models = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--option');
/** Strategy options given as `--option NAME=VALUE` (e.g. `--option local-memory=report`), passed to every strategy. */
const options: Record<string, string> = {};
args.forEach((a, i) => {
  if (a !== '--option') return;
  const [name, ...value] = (args[i + 1] ?? '').split('=');
  if (name) options[name] = value.join('=');
});

interface Row {
  model: string;
  strategy: string;
  report?: ScheduleReport;
  scheduleMs: number;
  heapMB: number;
  checks: number;
  error?: string;
}

const rows: Row[] = [];
const lowered = (model: string): Operation | string => loweredSharedModel(shared, model);
for (const model of models.length ? models : DEFAULT_MODELS) {
  for (const s of BUILTIN_SCHEDULERS) {
    const module = lowered(model);
    if (typeof module === 'string') {
      rows.push({ model, strategy: s.name, scheduleMs: 0, heapMB: 0, checks: 0, error: module });
      continue;
    }
    (globalThis as { gc?: () => void }).gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const r = s.schedule(module, defaultTarget(), options);
    const scheduleMs = performance.now() - t0;
    const heapMB = Math.max(0, process.memoryUsage().heapUsed - heap0) / 1e6;
    if (!r.module) {
      rows.push({ model, strategy: s.name, scheduleMs, heapMB, checks: 0, error: r.diagnostics.map((d) => d.message).join('; ') });
      continue;
    }
    const checks = verifyCommunication(module, defaultTarget()).diagnostics.length;
    rows.push({ model, strategy: s.name, report: r.report.functions[0], scheduleMs, heapMB, checks });
  }
}

if (json) {
  console.log(JSON.stringify(rows.map((r) => ({ ...r, report: r.report && { ...r.report, cores: undefined, layers: undefined } })), null, 2));
} else {
  const fmt = (x: number, d = 2): string => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const us = (ns: number): string => fmt(ns / 1000, 1);
  const header = ['model', 'strategy', 'latency us', 'x lat_min', 'thru /s', 'x thru_max', 'thru vs seq', 'lat vs seq', 'xbar util', 'peak KiB', 'sched ms', 'checks'];
  const lines: string[][] = [header];
  const notes: string[] = [];
  for (const r of rows) {
    if (!r.report) {
      notes.push(`${r.model} / ${r.strategy}: not scheduled (${r.scheduleMs.toFixed(0)} ms): ${r.error}`);
      lines.push([r.model, r.strategy, 'see note', '-', '-', '-', '-', '-', '-', '-', fmt(r.scheduleMs, 0), '-']);
      continue;
    }
    const seq = rows.find((x) => x.model === r.model && x.strategy === 'layer-sequential')?.report;
    const rep = r.report;
    lines.push([
      r.model,
      r.strategy,
      us(rep.latencyNs),
      fmt(rep.latencyRatio),
      fmt(rep.throughput, 0),
      fmt(rep.throughputRatio),
      seq ? `${fmt(rep.throughput / seq.throughput)}x` : '-',
      seq ? `1/${fmt(seq.latencyNs / rep.latencyNs)}` : '-',
      `${fmt(rep.crossbarUtilisation * 100, 1)}%`,
      fmt(rep.peakLocalBytes / 1024, 1),
      fmt(r.scheduleMs, 0),
      r.checks === 0 ? 'ok' : `${r.checks} errors`,
    ]);
  }
  const widths = header.map((_, i) => Math.max(3, ...lines.map((l) => (l[i] ?? '').length)));
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)));
  for (const l of lines) console.log('| ' + l.map((c, i) => (c ?? '').padEnd(i < 2 ? widths[i]! : 0).padStart(i < 2 ? 0 : widths[i]!)).join(' | ') + ' |');
  for (const n of notes) console.log(`\n${n}`);
}
