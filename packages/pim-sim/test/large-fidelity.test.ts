/**
 * Timing fidelity against pimsim-nn on a large program: ring-100k (64 cores, vector ops and a
 * send/recv ring, 99,904 instructions; shared/spec/pimsim-nn-large). Targets: chip latency
 * within 0.1 %, every core's finish time within max(20 ns, 0.3 %) of what pimsim-nn reported.
 * The cores start with simultaneous `ld` requests to the global memory, so this case depends
 * on serving them in pimsim-nn's (SystemC's) order (src/timing/timed-wait-heap.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTarget } from '@raptor-pim/pim-target';
import { simulateDirectory } from '@raptor-pim/pim-sim';
import { SHARED } from './helpers';

const RING = path.join(SHARED, 'spec/pimsim-nn-large/ring-100k');

interface LargeExpected {
  latency_ns: number;
  energy_pj: number;
  core_finish_ns: Record<string, number>;
}

const present = fs.existsSync(path.join(RING, 'expected.json'));

(present ? describe : describe.skip)('pimsim-nn large program ring-100k', () => {
  const expected = present ? (JSON.parse(fs.readFileSync(path.join(RING, 'expected.json'), 'utf8')) as LargeExpected) : undefined;
  let timing: NonNullable<ReturnType<typeof simulateDirectory>['timing']>;

  beforeAll(() => {
    const target = loadTarget(path.join(RING, 'arch/latency_config.json'));
    if (!target.value) throw new Error('cannot load ring-100k/arch/latency_config.json');
    const result = simulateDirectory(path.join(RING, 'prog'), { target: target.value, timingOnly: true });
    if (!result.ok || !result.timing) throw new Error(result.error?.message ?? 'ring-100k: no timing');
    timing = result.timing;
  });

  test('chip latency within 0.1% and energy within 0.1%', () => {
    const e = expected!;
    expect(Math.abs(timing.latencyNs - e.latency_ns)).toBeLessThanOrEqual(0.001 * e.latency_ns);
    expect(Math.abs(timing.energyPj - e.energy_pj)).toBeLessThanOrEqual(0.001 * e.energy_pj);
  });

  test("every core's finish time within max(20 ns, 0.3%)", () => {
    const e = expected!;
    expect(timing.cores).toHaveLength(Object.keys(e.core_finish_ns).length);
    const rows = timing.cores.map((c) => {
      const want = e.core_finish_ns[String(c.id)];
      return { id: c.id, got: c.finishNs, want, diff: c.finishNs - want, tolerance: Math.max(20, 0.003 * want) };
    });
    const outside = rows.filter((r) => Math.abs(r.diff) > r.tolerance);
    if (outside.length > 0) {
      const worst = [...rows].sort((a, b) => Math.abs(b.diff) - Math.abs(a.diff)).slice(0, 10);
      const lines = worst.map((r) => `core ${r.id}: ${r.got} ns vs pimsim-nn ${r.want} ns (${r.diff >= 0 ? '+' : ''}${r.diff} ns, tolerance ${r.tolerance.toFixed(0)} ns)`);
      throw new Error(`${outside.length} of ${rows.length} cores outside max(20 ns, 0.3%); worst:\n${lines.join('\n')}`);
    }
  });
});
