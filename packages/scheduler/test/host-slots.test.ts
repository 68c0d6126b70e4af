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
  planReads,
  readersOfNodes,
  streamGroups,
  valuesKeptOnChip,
  withWindows,
  type NodePlacement,
} from '@raptor-pim/scheduler';
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
