/**
 * The local-memory model on the dialect reference's graph batch (a 2-lane ReLU batch read by a
 * weighted compute through a blueprint), with the numbers derived by hand from the form
 * materialization writes (4-byte alignment of the default target):
 * - batch #0, one replica: its partial result `tensor<2x1x4xf32>` (32 B) and two round
 *   temporaries of 16 B (`tensor<1x4xf32>`; a lane reads its slice of the graph input straight
 *   from host memory): 64 B.
 * - scalar #1: the reconstruction of #0's result (32 B), the blueprint's logical
 *   `tensor<1x8xf32>` (32 B), its largest computed value (the `tensor<1x3xf32>` product, 12 B)
 *   and the message being received (32 B at layer granularity: the whole collection in one
 *   message): 108 B.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuncOp, MLIRContext, parseSourceString, type Operation } from '@raptor-pim/ir-core';
import { createCostModel, defaultTarget } from '@raptor-pim/pim-target';
import { registerSpatialDialect } from '@raptor-pim/spatial-dialect';
import {
  Workload,
  granularityForMemory,
  layerWiseCandidates,
  minimumReplicas,
  spreadReplication,
  minimumFootprint,
  packReplicas,
  planLocalMemory,
  planReads,
  replicaFootprint,
  replicaItems,
  type SchedulePlan,
} from '@raptor-pim/scheduler';
import { lowerShared } from './models';

function workload(): Workload {
  const ctx = new MLIRContext();
  registerSpatialDialect(ctx);
  const text = fs.readFileSync(path.join(__dirname, 'fixtures', 'graph-batch.mlir'), 'utf8');
  const module = parseSourceString(ctx, text, { filename: 'graph-batch.mlir' })!;
  let func: Operation | undefined;
  module.walk((op: Operation) => {
    if (FuncOp.isInstance(op)) func = op;
  });
  return new Workload(func!, createCostModel(defaultTarget()));
}

const cost = createCostModel(defaultTarget());

function plan(cores: [number, number], transfer: 'channel' | 'host' = 'channel'): SchedulePlan {
  return {
    strategy: 'test',
    transfer,
    pipelined: true,
    placements: cores.map((c) => ({ replicas: 1, copies: 1, cores: [c], granularity: 'layer' as const })),
  };
}

describe('replica footprints', () => {
  it('counts the partial result and the round temporaries of a batch replica', () => {
    const w = workload();
    const f = replicaFootprint(w, w.nodes[0]!, 'layer', cost);
    expect(f.parts).toEqual({ inputs: 0, hostData: 0, blueprints: 0, results: 32, round: 32 });
    expect(f.bodyBytes).toBe(64);
    // Its consumer reads it after the body: the partial result stays live for the send task.
    expect(f.retainedBytes).toBe(32);
    expect(replicaFootprint(w, w.nodes[0]!, 'window', cost).retainedBytes).toBe(0);
  });

  it('counts the reconstruction, the blueprint copy and the message of a scalar consumer', () => {
    const w = workload();
    const f = replicaFootprint(w, w.nodes[1]!, 'layer', cost);
    expect(f.bodyBytes).toBe(32 /* blueprint */ + 32 /* reconstruction */ + 12 /* largest value */ + 32 /* message */);
    expect(minimumFootprint(w, w.nodes[1]!, cost).bodyBytes).toBeLessThanOrEqual(f.bodyBytes);
  });
});

describe('planLocalMemory', () => {
  it('gives each core the peak of its own computes when producer and consumer are apart', () => {
    const w = workload();
    const p = plan([0, 1]);
    const cores = planLocalMemory(w, p, planReads(w, p), cost);
    expect(cores.map((c) => [c.core, c.peakBytes])).toEqual([
      [0, 64],
      [1, 108],
    ]);
    // The send task on core 0 binds the partial result: it is live there until the task ran.
    expect(cores[0]!.peakAt).toBe('#0 spat.graph_compute_batch replica 0');
  });

  it('keeps a forwarded result live across the computes of one core', () => {
    const w = workload();
    const p = plan([0, 0]);
    const [core] = planLocalMemory(w, p, planReads(w, p), cost);
    // The consumer reads the producer's partial result locally (SSA forwarding): 32 B forwarded
    // plus its blueprint copy (32 B) and product (12 B, twice), no reconstruction and no message:
    // 88 B, not 64 + 108.
    expect(core!.core).toBe(0);
    expect(core!.peakBytes).toBe(88);
    expect(core!.forwardedBytes).toBe(32);
    expect(core!.peakAt).toBe('#1 spat.graph_compute replica 0');
  });
});

describe('packing with a tiny local memory', () => {
  it('separates computes that do not fit one core together and refuses what fits none', () => {
    const w = workload();
    const single = w.nodes.map(() => ({ replicas: 1, copies: 1 }));
    const items = replicaItems(w, single, cost);
    const roomy = packReplicas(items, w.nodes.length, cost, { cores: 4, timeBudgetNs: Infinity, preferAffinity: true });
    expect(roomy).toBeDefined();
    const target = defaultTarget();
    // Together: the consumer's 108 B body plus the producer's 32 B partial result kept for it = 140 B.
    expect(roomy!.cores[0]).toEqual(roomy!.cores[1]);
    expect(roomy!.memoryBytes).toEqual([140]);
    target.config.chip_config.core_config.local_memory_config.memory_size = 128;
    const small = createCostModel(target);
    const tight = packReplicas(replicaItems(w, single, small), w.nodes.length, small, { cores: 4, timeBudgetNs: Infinity, preferAffinity: true });
    expect(tight).toBeDefined();
    expect(tight!.cores[0]).not.toEqual(tight!.cores[1]);
    for (const m of tight!.memoryBytes) expect(m).toBeLessThanOrEqual(128);
    target.config.chip_config.core_config.local_memory_config.memory_size = 64;
    const none = createCostModel(target);
    expect(packReplicas(replicaItems(w, single, none), w.nodes.length, none, { cores: 4, timeBudgetNs: Infinity, preferAffinity: true })).toBeUndefined();
    expect(granularityForMemory(w, none, 'layer')).toEqual(['layer', 'layer']);
  });

  it('separateNeighbours keeps a consumer off its producer\'s core while another core takes it, and shares one otherwise', () => {
    const w = workload();
    const single = w.nodes.map(() => ({ replicas: 1, copies: 1 }));
    const items = replicaItems(w, single, cost);
    const apart = packReplicas(items, w.nodes.length, cost, { cores: 4, timeBudgetNs: Infinity, preferAffinity: true, separateNeighbours: true });
    expect(apart).toBeDefined();
    expect(apart!.cores[0]).not.toEqual(apart!.cores[1]);
    // One core: the preference yields (the same packing as without it).
    const one = packReplicas(items, w.nodes.length, cost, { cores: 1, timeBudgetNs: Infinity, preferAffinity: true, separateNeighbours: true });
    expect(one?.cores).toEqual(packReplicas(items, w.nodes.length, cost, { cores: 1, timeBudgetNs: Infinity, preferAffinity: true })?.cores);
    expect(one!.cores[0]).toEqual(one!.cores[1]);
  });
});

describe('layerWiseCandidates', () => {
  it('spreads every compute over up to all, half or a quarter of the cores (divisors of its lanes, at least what memory asks), packed within the target', () => {
    const m = lowerShared('lenet5');
    if (!m) return;
    const func = m.module.regions[0]!.firstBlock!.operations.find((o) => FuncOp.isInstance(o))!;
    const w = new Workload(func, cost);
    const candidates = layerWiseCandidates(w, cost);
    expect(candidates.length).toBeGreaterThan(0);
    const minimum = minimumReplicas(w, cost, w.nodes.map(() => 'layer'));
    for (const c of candidates) {
      // One of the three spreads.
      expect([cost.cores, cost.cores / 2, cost.cores / 4].some((k) => JSON.stringify(spreadReplication(w, k, minimum)) === JSON.stringify(c.replication))).toBe(true);
      c.replication.forEach((r, i) => {
        const n = w.nodes[i]!;
        expect(n.lanes % r.replicas).toBe(0);
        expect(r.replicas).toBeGreaterThanOrEqual(minimum[i]!);
        expect(c.packing.cores[i]).toHaveLength(r.replicas);
        expect(new Set(c.packing.cores[i]).size).toBe(r.replicas);
      });
      for (const x of c.packing.crossbarsUsed) expect(x).toBeLessThanOrEqual(cost.crossbarsPerCore);
      for (const b of c.packing.memoryBytes) expect(b).toBeLessThanOrEqual(cost.localMemoryBytes);
    }
  });
});
