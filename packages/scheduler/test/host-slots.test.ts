/**
 * Host memory of host-slot plans: stream groups, the node-order model of the slots' peak, the
 * values a layer-after-layer plan keeps on chip, and materialization's slot-only check.
 */
import { createCostModel, defaultTarget } from '@raptor-pim/pim-target';
import {
  Workload,
  hostSlotBudget,
  hostSlotPeak,
  materializeSchedule,
  planLayerSequential,
  placeSharedSlots,
  planReads,
  readersOfNodes,
  streamGroups,
  valuesKeptOnChip,
  withWindows,
  type NodePlacement,
} from '@raptor-pim/scheduler';
import fc from 'fast-check';
import { funcOf, printOperation } from './helpers';
import { lowerShared } from './models';

jest.setTimeout(120_000);

const placement = (onChip: boolean): NodePlacement => ({ replicas: 1, copies: 1, cores: [0], granularity: 'layer', ...(onChip ? { onChip: true } : {}) });

describe('streamGroups', () => {
  it('joins a node kept on chip with its readers, and overlapping groups into one', () => {
    // 0 -> 1 -> 2 -> 3, 1 -> 4, 5 alone; 1 and 2 on chip.
    const readers = [[1], [2, 4], [3], [], [], []];
    const g = streamGroups({ placements: [false, true, true, false, false, false].map(placement) }, (i) => readers[i]!);
    expect(g.first).toEqual([0, 1, 1, 1, 1, 5]);
    expect(g.last).toEqual([0, 4, 4, 4, 4, 5]);
  });

  it('leaves every node alone without nodes on chip', () => {
    const g = streamGroups({ placements: [false, false, false].map(placement) }, () => [1]);
    expect(g.first).toEqual([0, 1, 2]);
    expect(g.last).toEqual([0, 1, 2]);
  });
});

describe('host slots of lenet5', () => {
  const setup = (hostBytes: number): { workload: Workload; cost: ReturnType<typeof createCostModel>; target: ReturnType<typeof defaultTarget> } | undefined => {
    const m = lowerShared('lenet5');
    if (!m) return undefined;
    const target = defaultTarget();
    target.config.chip_config.global_memory_config.memory_size = hostBytes;
    const cost = createCostModel(target);
    return { workload: new Workload(funcOf(m.module), cost), cost, target };
  };

  it('the node-order peak counts the largest values live together; keeping values on chip lowers it below a budget', () => {
    const s = setup(16 * 1024);
    if (!s) return;
    const { workload, cost } = s;
    const peak = hostSlotPeak(workload, new Set(), cost);
    expect(peak.bytes).toBeGreaterThan(0);
    expect(peak.live.length).toBeGreaterThan(0);
    // The slots live at the peak are a producer's results and its readers come later.
    const readers = readersOfNodes(workload);
    for (const p of peak.live) expect(readers[p]!.length).toBeGreaterThan(0);
    const budget = Math.floor(peak.bytes / 2);
    const onChip = valuesKeptOnChip(workload, cost, { budget });
    expect(onChip.size).toBeGreaterThan(0);
    for (const i of onChip) {
      expect(workload.nodes[i]!.isBatch).toBe(true);
      for (const r of readers[i]!) expect(workload.nodes[r]!.isBatch).toBe(true);
    }
    const after = hostSlotPeak(workload, onChip, cost).bytes;
    expect(after).toBeLessThan(peak.bytes);
    // Nothing is kept on chip where the slots fit the room.
    expect(valuesKeptOnChip(workload, cost, { budget: peak.bytes }).size).toBe(0);
    expect(hostSlotBudget(workload, cost)).toBeLessThan(16 * 1024);
  });

  it('materialization with hostSlotsOnly places the slots and builds nothing', () => {
    const s = setup(16 * 1024);
    if (!s) return;
    const { workload, cost, target } = s;
    const plan = planLayerSequential({ workload, cost, target, options: { transfer: 'host', 'local-memory': 'enforce' } });
    if (typeof plan === 'string') throw new Error(plan);
    // The plan keeps some values on chip (16 KiB of host memory do not hold every slot).
    expect(plan.placements.some((p) => p.onChip)).toBe(true);
    const planned = withWindows(workload, plan, cost);
    const before = printOperation(workload.func);
    const r = materializeSchedule(workload, planned, planReads(workload, planned), cost, { hostSlotsOnly: true });
    expect(printOperation(workload.func)).toBe(before);
    expect(r.hostOverflow).toBeUndefined();
    expect(r.hostSlots).toBeGreaterThan(0);
    expect(r.hostBytes).toBeLessThanOrEqual(hostSlotBudget(workload, cost));
    // Without the values on chip the same layers' slots do not fit.
    const all = withWindows(workload, { ...plan, placements: plan.placements.map(({ onChip: _, ...p }) => ({ ...p, granularity: 'layer' as const })) }, cost);
    const over = materializeSchedule(workload, all, planReads(workload, all), cost, { hostSlotsOnly: true });
    expect(over.hostOverflow?.neededBytes).toBeGreaterThan(hostSlotBudget(workload, cost));
    expect(printOperation(workload.func)).toBe(before);
  });
});

describe('placeSharedSlots', () => {
  const identity = (n: number): { first: number[]; last: number[] } => ({ first: Array.from({ length: n }, (_, i) => i), last: Array.from({ length: n }, (_, i) => i) });
  const slot = (producer: number, writer: number, lastReader: number, bytes: number) => ({ producer, writer, readers: [{ consumer: lastReader }], bytes });

  it('greedy by size beats first fit in writer order where the latter leaves a hole too small', () => {
    // A (node 0, read by 1) and B (node 0, read by 3) are written first; C (node 2, read by 3,
    // twice their size) may take A's bytes. First fit in writer order puts C after B (256 B);
    // largest first puts C at 0, A in its bytes, B after them (192 B).
    const slots = [slot(0, 0, 1, 64), slot(0, 1, 3, 64), slot(2, 2, 3, 128)];
    const placed = placeSharedSlots(slots, (s) => s.bytes, identity(4));
    expect(placed.peak).toBe(192);
    expect(placed.offsets).toEqual([0, 128, 0]);
    expect(placed.pairs).toEqual([[0, 2]]);
  });

  it('keeps first fit in writer order when it is as small (ties keep it)', () => {
    const slots = [slot(0, 0, 1, 64), slot(2, 1, 3, 64)];
    const placed = placeSharedSlots(slots, (s) => s.bytes, identity(4));
    expect(placed).toEqual({ offsets: [0, 0], peak: 64, pairs: [[0, 1]] });
  });

  it('never lets two slots that may not share bytes overlap; the pairs are exactly the overlaps (property)', () => {
    const arbSlot = fc.record({ producer: fc.integer({ min: 0, max: 9 }), span: fc.integer({ min: 1, max: 4 }), writer: fc.integer({ min: 0, max: 3 }), bytes: fc.integer({ min: 1, max: 8 }).map((x) => 16 * x) });
    fc.assert(
      fc.property(fc.array(arbSlot, { minLength: 1, maxLength: 24 }), (raw) => {
        const slots = raw.map((r) => slot(r.producer, r.writer, r.producer + r.span, r.bytes));
        const last = (s: (typeof slots)[number]): number => s.readers[0]!.consumer;
        const compatible = (a: (typeof slots)[number], b: (typeof slots)[number]): boolean => last(a) < b.producer && a.writer !== b.writer;
        const { offsets, peak, pairs } = placeSharedSlots(slots, (s) => s.bytes, identity(16));
        const overlaps: [number, number][] = [];
        let lowerBound = 0;
        for (let node = 0; node < 16; node++) lowerBound = Math.max(lowerBound, slots.filter((s) => s.producer <= node && node <= last(s)).reduce((a, s) => a + s.bytes, 0));
        slots.forEach((a, i) => {
          expect(offsets[i]).toBeGreaterThanOrEqual(0);
          expect(offsets[i]! + a.bytes).toBeLessThanOrEqual(peak);
          slots.forEach((b, j) => {
            if (i === j || !(offsets[i]! < offsets[j]! + b.bytes && offsets[j]! < offsets[i]! + a.bytes)) return;
            expect(compatible(a, b) || compatible(b, a)).toBe(true);
            if (compatible(a, b)) overlaps.push([i, j]);
          });
        });
        expect([...pairs].sort((x, y) => x[0] - y[0] || x[1] - y[1])).toEqual(overlaps.sort((x, y) => x[0] - y[0] || x[1] - y[1]));
        expect(peak).toBeGreaterThanOrEqual(lowerBound);
        expect(peak).toBeLessThanOrEqual(slots.reduce((a, s) => a + s.bytes, 0));
      }),
      { seed: 20261207, numRuns: 300 },
    );
  });
});
