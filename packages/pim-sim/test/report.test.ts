import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTarget } from '@raptor-pim/pim-target';
import { chromeTrace, chromeTraceJsonChunks, jsonReport, simulateBundle, simulateDirectory, textReport } from '@raptor-pim/pim-sim';
import { SHARED, makeBundle, testTarget } from './helpers';

const EXAMPLE = path.join(SHARED, 'spec/pimsim-nn-example');
const exampleTarget = () => loadTarget(path.join(EXAMPLE, 'arch/latency_config.json')).value!;

function golden(name: string, text: string): void {
  const file = path.join(__dirname, 'fixtures', name);
  if (process.env.UPDATE_GOLDEN === '1' || !fs.existsSync(file)) fs.writeFileSync(file, text);
  expect(text).toBe(fs.readFileSync(file, 'utf8'));
}

describe('reports', () => {
  const result = simulateDirectory(path.join(EXAMPLE, 'prog-pim'), { target: exampleTarget(), trace: true });

  test('text report of the pimsim-nn example (golden)', () => {
    golden('example-report.txt', textReport(result));
  });

  test('JSON report of the pimsim-nn example (golden) and its required fields', () => {
    const json = jsonReport(result);
    expect(json).toMatchObject({ ok: true, latencyNs: 5938, energyPj: 20298, mode: 'latency' });
    expect(json.cores.map((c) => ({ id: c.id, finishNs: c.finishNs }))).toEqual([
      { id: 0, finishNs: 5938 },
      { id: 1, finishNs: 5930 },
    ]);
    golden('example-report.json', JSON.stringify(json, null, 2) + '\n');
  });

  test('per-core statistics: instruction mix, bytes, unit busy time, stalls', () => {
    const [c0, c1] = result.timing!.cores;
    expect(c0.mix).toEqual({ setbw: 1, sldi: 8, ld: 2, vvadd: 1, vrelu: 1, send: 1, sync: 1, wait: 1 });
    expect(c0.bytes).toMatchObject({ globalRead: 256, sent: 128 });
    expect(c1.bytes).toMatchObject({ globalWrite: 256, received: 128 });
    // mvmul: read 128 x 1 B x 8 (16 beats of 64 B) + 5168 ns MVM + write 256 B (4 beats).
    expect(c1.busyNs.matrix).toBe(16 + 5168 + 4);
    expect(c0.busyNs.vector).toBe(38 + 36);
    expect(c0.stallNs.robFull).toBeGreaterThan(0);
    expect(result.timing!.energy.networkPj).toBe(54 * 46);
    expect(result.timing!.energy.staticPj).toBe(3 * 5938);
  });

  test('Chrome trace: one process per core and the network, complete events per instruction', () => {
    const doc = chromeTrace(result);
    const names = doc.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => e.args!.name);
    expect(names).toEqual(['core 0', 'core 1', 'network']);
    const slices = doc.traceEvents.filter((e) => e.ph === 'X');
    expect(slices.filter((e) => e.pid === 0).map((e) => e.name)).toEqual(['ld', 'ld', 'vvadd', 'vrelu', 'send', 'sync', 'wait']);
    expect(slices.filter((e) => e.pid === 1).map((e) => e.name)).toEqual(['recv', 'wait', 'mvmul', 'st', 'sync']);
    const mvmul = slices.find((e) => e.name === 'mvmul')!;
    expect(mvmul.tid).toBe(3);
    expect(mvmul.dur).toBeCloseTo(5.188, 9);
    for (const e of slices) {
      expect(e.ts).toBeGreaterThanOrEqual(0);
      expect(e.dur).toBeGreaterThanOrEqual(0);
    }
    expect(slices.some((e) => e.pid === 2 && e.name === 'data')).toBe(true);
  });

  test('Chrome trace in JSON pieces: the same document, and traces of millions of events', () => {
    expect(JSON.parse([...chromeTraceJsonChunks(result, 2)].join(''))).toEqual(JSON.parse(JSON.stringify(chromeTrace(result))));
    // A trace larger than a spread argument list may be (chromeTrace once built it with push(...events)).
    const event = result.timing!.trace![0]!;
    const big = { ...result, timing: { ...result.timing!, trace: new Array(1_000_000).fill(event) } };
    const one = { ...result, timing: { ...result.timing!, trace: [event] } };
    expect(chromeTrace(big).traceEvents.length).toBe(chromeTrace(one).traceEvents.length - 1 + 1_000_000);
    let events = 0;
    let pieces = 0;
    for (const chunk of chromeTraceJsonChunks(big)) {
      pieces++;
      events += (chunk.match(/"ph":/g) ?? []).length;
    }
    expect(pieces).toBeGreaterThan(10);
    expect(events).toBe(chromeTrace(big).traceEvents.length);
  });
});

describe('Raptor timing extensions', () => {
  const program = `
    setbw ibiw=8, obiw=8
    sldi r1, 0
    sldi r4, 30000
    sldi r5, 40000
    mvmul r4, r1, mbiw=8, relu=0, group=0
    mvmul r5, r1, mbiw=8, relu=0, group=1
  `;
  test('mvm_issue_interval_ns spaces mvmul issues on one core', () => {
    const run = (interval: number) =>
      simulateBundle(
        makeBundle({
          cores: [program],
          groups: [[1, 1]],
          target: testTarget((t) => {
            t.config.chip_config.core_config.rob_size = 4;
            t.config.raptor_config.mvm_issue_interval_ns = interval;
          }),
        }),
        { trace: true },
      );
    const gap = (r: ReturnType<typeof run>) => {
      const starts = r.timing!.trace!.filter((e) => e.name === 'mvmul').map((e) => e.ts * 1000);
      return starts[1] - starts[0];
    };
    const free = run(0);
    const spaced = run(1000);
    expect(free.error).toBeUndefined();
    expect(spaced.error).toBeUndefined();
    expect(gap(free)).toBe(1); // back-to-back issue, one cycle apart
    expect(gap(spaced)).toBe(1000);
    expect(spaced.timing!.latencyNs).toBeGreaterThan(free.timing!.latencyNs);
  });
});
