/**
 * Streaming windows (`NodePlacement.windowRounds`): a replica working at window granularity
 * through channels takes its rounds in runs and holds, of every windowed input, only the window
 * of the current run, received afresh for each run. Hand-made plans (every node alone on its
 * cores, a window pipeline) with runs of 1..rounds rounds must compute exactly what the graph
 * computes did and pass the communication checks; the local-memory model counts one run's
 * window; `placedFootprint` takes the longest run that fits where one window per replica does not.
 */
import fc from 'fast-check';
import { createCostModel, defaultTarget, type Target } from '@raptor-pim/pim-target';
import {
  Workload,
  largestRunWindowBytes,
  materializeSchedule,
  placedFootprint,
  replicaFootprint,
  replicaWindow,
  runWindow,
  streamingWindows,
  windowBytes,
  type Box,
  planReads,
  planSendOrder,
  windowRunsOf,
  type NodePlacement,
  type SchedulePlan,
} from '@raptor-pim/scheduler';
import { checkModule, funcOf, run } from './helpers';
import { lowerShared, lowerSharedWorkload, replicasOf } from './models';


function targetWithLocalMemory(bytes: number): Target {
  const t = defaultTarget();
  t.config.chip_config.core_config.local_memory_config.memory_size = bytes;
  return t;
}


/**
 * A window pipeline of `workload` with every replica on a core of its own, windows on every
 * batch with a windowed input and `rounds(node, replicaRounds)` rounds per window there.
 */
function streamingPlan(workload: Workload, rounds: (node: number, replicaRounds: number) => number | undefined, maxReplicas = 3): SchedulePlan {
  let core = 0;
  const placements: NodePlacement[] = workload.nodes.map((n) => {
    const replicas = replicasOf(n.lanes, maxReplicas);
    const cores = Array.from({ length: replicas }, () => core++);
    const windowed = n.isBatch && n.inputs.some((i) => i.window !== undefined);
    const per = windowed ? rounds(n.index, Math.ceil(n.lanes / replicas)) : undefined;
    return { replicas, copies: 1, cores, granularity: 'window', ...(windowed ? { windows: true } : {}), ...(per !== undefined ? { windowRounds: per } : {}) };
  });
  return { strategy: 'test', transfer: 'channel', pipelined: true, placements };
}

describe('streaming windows', () => {
  it('windowRunsOf splits a replica\'s lanes into runs of windowRounds rounds', () => {
    expect(windowRunsOf({ replicas: 2, windowRounds: 2 }, 10, 1)).toEqual([[5, 6], [7, 8], [9]]);
    expect(windowRunsOf({ replicas: 2 }, 10, 0)).toEqual([[0, 1, 2, 3, 4]]);
    expect(windowRunsOf({ replicas: 1, windowRounds: 7 }, 4, 0)).toEqual([[0, 1, 2, 3]]);
  });

  it.each(['lenet5', 'mnist-8'])('%s: runs of one round and of two rounds compute the same outputs, checks pass, one run\'s window counted', (model) => {
    for (const per of [1, 2]) {
      const lowered = lowerSharedWorkload(model);
      if (!lowered) return;
      const { model: m, reference, cost, workload } = lowered;
      const plan = streamingPlan(workload, () => per);
      const streamed = plan.placements.filter((p) => p.windowRounds !== undefined).length;
      expect(streamed).toBeGreaterThan(0);
      const whole: SchedulePlan = { ...plan, placements: plan.placements.map(({ windowRounds: _w, ...p }) => p) };
      // A run's window is never larger than the replica's, and smaller somewhere; the model
      // counts a run's window with the previous one (its overlap is copied into the next).
      let smaller = 0;
      for (const n of workload.nodes) {
        const p = plan.placements[n.index]!;
        if (p.windowRounds === undefined) continue;
        for (const input of n.inputs) {
          for (let j = 0; j < p.replicas; j++) {
            const runs = streamingWindows(n, input, p, j);
            const all = replicaWindow(n, input, p.replicas, j);
            if (!runs || !all) continue;
            const size = (b: Box): number => b.sizes.reduce((a, x) => a * x, 1);
            for (const b of runs) expect(size(b)).toBeLessThanOrEqual(size(all));
            if (runs.some((b) => size(b) < size(all))) smaller++;
            let pair = 0;
            runs.forEach((b, g) => (pair = Math.max(pair, windowBytes(input, b) + (g > 0 ? windowBytes(input, runs[g - 1]!) : 0))));
            expect(largestRunWindowBytes(n, input, p, j)).toBe(pair);
          }
        }
      }
      expect(smaller).toBeGreaterThan(0);
      const reads = planReads(workload, plan);
      // A slot of a collection is received once while consecutive runs read it: each run's
      // window starts from the previous one's overlap. (A scalar producer's window is received per
      // run; mnist-8's padding lanes read a border row again after other rows: received again.)
      const collectionReads = (rs: typeof reads): number =>
        rs.filter((r) => workload.nodes[r.consumer]!.inputs.find((i) => i.inputIndex === r.inputIndex)?.window?.regions[r.sourceIndex] !== undefined).reduce((a, r) => a + r.remote.length, 0);
      const again = collectionReads(reads) - collectionReads(planReads(workload, whole));
      expect(again).toBeGreaterThanOrEqual(0);
      expect(again).toBeLessThanOrEqual(model === 'lenet5' ? 0 : 8);
      materializeSchedule(workload, plan, reads, cost);
      expect(checkModule(m.module)).toEqual([]);
      expect(run(m.module, m.fn, m.args)).toEqual(reference);
    }
  });

  it('property: any rounds per window on any node of lenet5 keeps the outputs and the checks', () => {
    const base = lowerShared('lenet5');
    if (!base) return;
    const reference = run(base.module, base.fn, base.args);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 16, maxLength: 16 }), (choice) => {
        const m = lowerShared('lenet5')!;
        const cost = createCostModel(defaultTarget());
        const workload = new Workload(funcOf(m.module), cost);
        const plan = streamingPlan(workload, (node, rounds) => Math.min(rounds, choice[node % choice.length]!));
        materializeSchedule(workload, plan, planReads(workload, plan), cost);
        expect(checkModule(m.module)).toEqual([]);
        expect(run(m.module, m.fn, m.args)).toEqual(reference);
      }),
      { numRuns: 6, seed: 20261206 },
    );
  });

  it.each(['lenet5', 'mnist-8'])('%s: exact windows move pieces of fragments (through channels and host slots) and compute the same outputs', (model) => {
    // Through host slots any runs; through channels one run per replica, or one replica per node
    // with runs of one round (where a producer never blocks on a later run's piece).
    const cases = [
      { transfer: 'host', per: 1, replicas: 3 },
      { transfer: 'host', per: 3, replicas: 3 },
      { transfer: 'channel', per: Infinity, replicas: 3 },
      { transfer: 'channel', per: 1, replicas: 1 },
    ] as const;
    for (const { transfer, per, replicas } of cases) {
      {
        const m = lowerShared(model);
        if (!m) return;
        const reference = run(m.module, m.fn, m.args);
        const cost = createCostModel(defaultTarget());
        const workload = new Workload(funcOf(m.module), cost);
        const lines = streamingPlan(workload, (_, rounds) => Math.min(per, rounds), replicas);
        const plan: SchedulePlan = { ...lines, transfer, placements: lines.placements.map((p) => (p.windowRounds !== undefined ? { ...p, exactWindows: true } : p)) };
        // A run's window is its lanes' reads alone.
        for (const n of workload.nodes) {
          const p = plan.placements[n.index]!;
          if (!p.exactWindows) continue;
          for (const input of n.inputs) {
            for (let j = 0; j < p.replicas; j++) {
              const boxes = streamingWindows(n, input, p, j);
              if (boxes) windowRunsOf(p, n.lanes, j).forEach((run, g) => expect(boxes[g]).toEqual(runWindow(input, run)));
            }
          }
        }
        const reads = planReads(workload, plan);
        const pieces = reads.flatMap((r) => r.remote).filter((f) => f.piece !== undefined);
        expect(pieces.length).toBeGreaterThan(0);
        // Some piece is smaller than its fragment, and a piece's bytes are what it holds.
        const fragmentBytes = (f: (typeof pieces)[number]): number => workload.nodes[f.producer]!.resultBytes[f.resultIndex]! / workload.nodes[f.producer]!.lanes;
        expect(pieces.some((f) => f.bytes < fragmentBytes(f))).toBe(true);
        for (const f of pieces) expect(f.bytes).toBe(f.piece!.box.sizes.reduce((a, x) => a * x, 1) * 4);
        materializeSchedule(workload, plan, reads, cost);
        expect(checkModule(m.module)).toEqual([]);
        expect(run(m.module, m.fn, m.args)).toEqual(reference);
      }
    }
  });

  it.each(['lenet5', 'mnist-8'])('%s: exact windows through channels, three replicas per node: sending each piece when made deadlocks; the simulated send order (planSendOrder) passes the checks and computes the same outputs', (model) => {
    for (const ordered of [false, true]) {
      const m = lowerShared(model);
      if (!m) return;
      const reference = run(m.module, m.fn, m.args);
      const cost = createCostModel(defaultTarget());
      const workload = new Workload(funcOf(m.module), cost);
      const lines = streamingPlan(workload, () => 1, 3);
      const plan: SchedulePlan = { ...lines, placements: lines.placements.map((p) => (p.windowRounds !== undefined ? { ...p, exactWindows: true } : p)) };
      const reads = planReads(workload, plan);
      const schedule = ordered ? planSendOrder(workload, plan, reads) : undefined;
      if (ordered) {
        expect(schedule).toBeDefined();
        // Producers hold made fragments for readers that have not taken them yet.
        expect(Math.max(...schedule!.heldBytes.values())).toBeGreaterThan(0);
      }
      materializeSchedule(workload, plan, reads, cost, schedule ? { sendSchedule: schedule } : {});
      const problems = checkModule(m.module);
      if (!ordered) {
        expect(problems.join('\n')).toMatch(/communication deadlock/);
        continue;
      }
      expect(problems).toEqual([]);
      expect(run(m.module, m.fn, m.args)).toEqual(reference);
    }
  });

  it('property: exact windows through channels with any runs, replicas and layer/window granularity per node on lenet5, in the simulated send order, keep the outputs and the checks', () => {
    const base = lowerShared('lenet5');
    if (!base) return;
    const reference = run(base.module, base.fn, base.args);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 16, maxLength: 16 }),
        fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
        (maxReplicas, choice, layer) => {
          const m = lowerShared('lenet5')!;
          const cost = createCostModel(defaultTarget());
          const workload = new Workload(funcOf(m.module), cost);
          const lines = streamingPlan(workload, (node, rounds) => Math.min(rounds, choice[node % choice.length]!), maxReplicas);
          // Layer-granularity nodes send through send tasks after their bodies (no streaming windows).
          const placements: NodePlacement[] = lines.placements.map((p, i) => {
            if (!layer[i]) return p.windowRounds !== undefined ? { ...p, exactWindows: true } : p;
            const { windowRounds: _w, ...rest } = p;
            return { ...rest, granularity: 'layer' };
          });
          const plan: SchedulePlan = { ...lines, placements };
          const reads = planReads(workload, plan);
          const schedule = planSendOrder(workload, plan, reads);
          expect(schedule).toBeDefined();
          materializeSchedule(workload, plan, reads, cost, { sendSchedule: schedule! });
          expect(checkModule(m.module)).toEqual([]);
          expect(run(m.module, m.fn, m.args)).toEqual(reference);
        },
      ),
      { numRuns: 8, seed: 20261206 },
    );
  });

  it('placedFootprint streams where one window per replica does not fit, with the longest run that fits', () => {
    const m = lowerShared('lenet5');
    if (!m) return;
    const cost = createCostModel(targetWithLocalMemory(4 * 1024));
    const workload = new Workload(funcOf(m.module), cost);
    let streamed = 0;
    for (const n of workload.nodes) {
      if (!n.isBatch) continue;
      const r = replicasOf(n.lanes, 2);
      const f = placedFootprint(workload, n, r, 'window', cost);
      // Layer granularity never streams; through host slots a run loads its own fragments, so
      // streaming runs fit there too (one-round runs are the fallback that may still not fit).
      expect(placedFootprint(workload, n, r, 'layer', cost).windowRounds).toBeUndefined();
      const viaHost = placedFootprint(workload, n, r, 'window', cost, 'host');
      if (viaHost.windowRounds !== undefined && viaHost.windowRounds > 1) expect(viaHost.bodyBytes).toBeLessThanOrEqual(cost.localMemoryBytes);
      if (f.windowRounds === undefined) continue;
      streamed++;
      expect(f.windows).toBe(true);
      const rounds = Math.ceil(n.lanes / r);
      if (f.windowRounds > 1) expect(f.bodyBytes).toBeLessThanOrEqual(cost.localMemoryBytes);
      if (f.windowRounds < rounds && f.bodyBytes <= cost.localMemoryBytes) {
        // One more round per window would not fit (or is the whole replica, which did not).
        expect(replicaFootprint(workload, n, 'window', cost, 'channel', r, true, f.windowRounds + 1).bodyBytes).toBeGreaterThan(cost.localMemoryBytes);
      }
    }
    expect(streamed).toBeGreaterThan(0);
  });
});
