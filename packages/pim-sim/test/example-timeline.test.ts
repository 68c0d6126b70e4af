/**
 * The pimsim-nn example's per-instruction timeline: pimsim-nn was run on prefix-truncated
 * variants of the two-core program (E/timeline.txt); every prefix must give the same core
 * finish times and energy.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTarget, readBundle } from '@raptor-pim/pim-target';
import { simulateBundle } from '@raptor-pim/pim-sim';
import { SHARED } from './helpers';

const EXAMPLE = path.join(SHARED, 'spec/pimsim-nn-example');

interface Row {
  label: string;
  core0: number; // last instruction index kept (-1 = empty program)
  core1: number;
  finish: [number, number];
  energy: number;
}

function parseTimeline(): Row[] {
  const rows: Row[] = [];
  for (const line of fs.readFileSync(path.join(EXAMPLE, 'timeline.txt'), 'utf8').split('\n')) {
    const m = /^(.*?)\s+finish\(core0,core1\)=\[([\d.]+), ([\d.]+)\] latency=[\d.]+ energy=([\d.]+)/.exec(line);
    if (!m) continue;
    const label = m[1].trim();
    const prefix = (core: string): number => {
      if (label === 'full') return Infinity;
      const part = label.split('|').find((p) => p.trim().startsWith(core));
      if (!part || part.includes('[]')) return -1;
      return Number(/\.\.(\d+)/.exec(part)![1]);
    };
    rows.push({ label, core0: prefix('core0'), core1: prefix('core1'), finish: [Number(m[2]), Number(m[3])], energy: Number(m[4]) });
  }
  return rows;
}

const rows = fs.existsSync(path.join(EXAMPLE, 'timeline.txt')) ? parseTimeline() : [];

test('the timeline has every prefix', () => {
  expect(rows).toHaveLength(10);
});

test.each(rows.map((r) => [r.label, r] as const))('%s', (_label, row) => {
  const target = loadTarget(path.join(EXAMPLE, 'arch/latency_config.json')).value!;
  const bundle = readBundle(path.join(EXAMPLE, 'prog-pim')).value!;
  bundle.programs = bundle.programs.map((p, core) => p.slice(0, (core === 0 ? row.core0 : row.core1) + 1));
  const r = simulateBundle(bundle, { target, timingOnly: true });
  expect(r.error).toBeUndefined();
  expect(r.timing!.cores.map((c) => c.finishNs)).toEqual(row.finish);
  expect(r.timing!.energyPj).toBeCloseTo(row.energy, 6);
});
