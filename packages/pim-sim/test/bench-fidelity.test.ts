/**
 * Timing fidelity against pimsim-nn: the 185 micro-benchmarks (pimsim-nn-bench) and the
 * two-core example, each with what the HEAPLab fork reported.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTarget } from '@raptor-pim/pim-target';
import { simulateDirectory } from '@raptor-pim/pim-sim';
import { SHARED } from './helpers';

const BENCH = path.join(SHARED, 'spec/pimsim-nn-bench');
const EXAMPLE = path.join(SHARED, 'spec/pimsim-nn-example');

interface Expected {
  finish_ns: number[];
  latency_ns: number | null;
  energy_pj: number | null;
  error?: string;
}

const cases = fs.existsSync(BENCH)
  ? fs
      .readdirSync(BENCH)
      .filter((n) => fs.statSync(path.join(BENCH, n)).isDirectory())
      .sort()
  : [];

function run(dir: string) {
  const target = loadTarget(path.join(dir, 'arch.json'));
  if (!target.value) throw new Error(`cannot load ${dir}/arch.json`);
  let result = simulateDirectory(path.join(dir, 'prog'), { target: target.value });
  let functionalError: string | undefined;
  if (!result.ok && result.timing === undefined && result.error && result.error.kind !== 'invalid-bundle') {
    // pimsim-nn computes no values: a program our functional checks reject is still timed.
    functionalError = result.error.kind;
    result = simulateDirectory(path.join(dir, 'prog'), { target: target.value, timingOnly: true });
  }
  return { result, functionalError };
}

describe('pimsim-nn micro-benchmarks', () => {
  test('the bench is present', () => {
    expect(cases.length).toBe(185);
  });

  const finished = cases.filter((n) => (JSON.parse(fs.readFileSync(path.join(BENCH, n, 'expected.json'), 'utf8')) as Expected).latency_ns !== null);
  const rejected = cases.filter((n) => !finished.includes(n));

  test.each(finished)('%s: latency within max(3 ns, 1%%), energy within 1%%', (name) => {
    const dir = path.join(BENCH, name);
    const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
    const { result } = run(dir);
    expect(result.error).toBeUndefined();
    const t = result.timing!;
    const lat = expected.latency_ns as number;
    expect(Math.abs(t.latencyNs - lat)).toBeLessThanOrEqual(Math.max(3, 0.01 * lat));
    expect(Math.abs(t.energyPj - (expected.energy_pj as number))).toBeLessThanOrEqual(0.01 * Math.abs(expected.energy_pj as number) + 1e-9);
    expect(t.cores.map((c) => c.finishNs)).toHaveLength(expected.finish_ns.length);
  });

  test.each(rejected)('%s: rejected or flagged incompatible like pimsim-nn', (name) => {
    const { result } = run(path.join(BENCH, name));
    const flagged = !result.ok || !result.compatibility.pimsimCompatible;
    expect(flagged).toBe(true);
  });

  test('per-core finish times match exactly on every finished case', () => {
    const mismatches: string[] = [];
    for (const name of finished) {
      const expected = JSON.parse(fs.readFileSync(path.join(BENCH, name, 'expected.json'), 'utf8')) as Expected;
      const { result } = run(path.join(BENCH, name));
      const got = result.timing!.cores.map((c) => c.finishNs);
      if (JSON.stringify(got) !== JSON.stringify(expected.finish_ns)) mismatches.push(`${name}: ${JSON.stringify(got)} vs ${JSON.stringify(expected.finish_ns)}`);
    }
    expect(mismatches).toEqual([]);
  });
});

describe('pimsim-nn two-core example', () => {
  const target = () => {
    const t = loadTarget(path.join(EXAMPLE, 'arch/latency_config.json'));
    if (!t.value) throw new Error('cannot load the example architecture');
    return t.value;
  };
  test.each(['prog-json', 'prog-pim'])('%s: 5938 ns and 20298 pJ within 2%%', (prog) => {
    const r = simulateDirectory(path.join(EXAMPLE, prog), { target: target() });
    expect(r.error).toBeUndefined();
    expect(Math.abs(r.timing!.latencyNs - 5938)).toBeLessThanOrEqual(0.02 * 5938);
    expect(Math.abs(r.timing!.energyPj - 20298)).toBeLessThanOrEqual(0.02 * 20298);
    expect(r.timing!.cores.map((c) => c.finishNs)).toEqual([5938, 5930]);
  });

  test('throughput mode: 16 outputs in 0.1 ms, 21294.375 pJ per output', () => {
    const t = loadTarget(path.join(EXAMPLE, 'arch/throughput_config.json'));
    const r = simulateDirectory(path.join(EXAMPLE, 'prog-pim'), { target: t.value! });
    expect(r.mode).toBe('throughput');
    expect(r.timing!.cores.map((c) => c.rounds)).toEqual([17, 16]);
    expect(r.timing!.rounds).toBe(16);
    expect(r.timing!.energyPj / r.timing!.rounds).toBeCloseTo(21294.375, 6);
  });

  test('functional pass runs the example with zeroed memories', () => {
    const r = simulateDirectory(path.join(EXAMPLE, 'prog-pim'), { target: target() });
    expect(r.executed).toBe(26);
    expect(r.compatibility.pimsimCompatible).toBe(true);
  });
});
