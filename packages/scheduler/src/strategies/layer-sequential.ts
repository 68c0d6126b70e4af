/**
 * `layer-sequential`: the PUMA-like baseline. Each layer's weights on cores of their own, one
 * copy (no replication), one layer after another per inference (an inference starts when the
 * previous one finished), activations passed through host memory with the READY/FREE protocol
 * (as PIMCOMP-NN's and PUMA's flows do) unless `transfer=channel`. Weightless computes
 * (activations, softmax) run on the core of their producer when both fit its local memory,
 * else on a core of their own. The yardstick for the others.
 */
import { enumOption } from '@raptor-pim/ir-core';
import type { WorkloadNode } from '../analysis/workload';
import { replicaItems } from '../planning/core-mapping';
import { enforcesLocalMemory, granularityForMemory, localMemoryOption, minimumReplicas } from '../planning/local-memory';
import type { NodePlacement, TransferMode } from '../planning/schedule-plan';
import { createPlanScheduler, type PlanContext } from '../scheduler';
import { SchedulerMessages as M } from '../diagnostics';

const transferOption = enumOption('transfer', ['host', 'channel'] as const, 'host', 'how activations move between layers');

function planLayerSequential({ workload, cost, options }: PlanContext) {
  const enforce = enforcesLocalMemory(options);
  const transfer = options['transfer'] as TransferMode;
  const granularity = enforce ? granularityForMemory(workload, cost, 'layer', transfer) : workload.nodes.map(() => 'layer' as const);
  // One copy per layer; a layer whose data does not fit one core is split over as many cores as it needs.
  const replicas = enforce ? minimumReplicas(workload, cost, granularity, transfer) : workload.nodes.map(() => 1);
  const allItems = replicaItems(workload, workload.nodes.map((n) => ({ replicas: replicas[n.index]!, copies: 1 })), cost, granularity, transfer);
  const items = workload.nodes.map((n) => allItems.find((it) => it.node === n.index)!);
  const coreOf: number[][] = [];
  const used: number[] = [];
  // Per core: the largest body and the bytes kept live between its computes.
  const body: number[] = [];
  const kept: number[] = [];
  let next = 0;
  const fitsOn = (c: number, n: WorkloadNode): boolean => used[c]! + n.crossbars <= cost.crossbarsPerCore;
  // With host transfers a partial result is stored inside its producer's body: nothing stays live after it.
  const retained = (i: number): number => (transfer === 'host' ? 0 : items[i]!.retainedBytes);
  const memoryFits = (c: number, i: number, forwarded: number): boolean =>
    !enforce || Math.max(body[c] ?? 0, items[i]!.memoryBytes) + (kept[c] ?? 0) + retained(i) + forwarded <= cost.localMemoryBytes;
  const producersOf = (n: WorkloadNode): number[] => [...new Set(n.inputs.flatMap((i) => i.sources.map((s) => s.producer)))];
  for (const n of workload.nodes) {
    const affinity = items[n.index]!.affinity;
    const mine: number[] = [];
    for (let j = 0; j < replicas[n.index]!; j++) {
      let core = -1;
      let forwarded = 0;
      if (n.crossbars === 0 && affinity >= 0 && replicas[n.index] === replicas[affinity]) {
        // Forwarding on the producer's core keeps the producer's result live until this compute.
        const f = transfer === 'host' ? items[affinity]!.resultBytes : 0;
        if (memoryFits(coreOf[affinity]![j]!, n.index, f)) {
          core = coreOf[affinity]![j]!;
          forwarded = f;
        }
      }
      if (core < 0 && next < cost.cores) core = next++;
      else if (core < 0) {
        for (let c = 0; c < used.length && core < 0; c++) {
          // A producer replica already on the core is read locally: its result stays live until this compute.
          const f = transfer === 'host' ? producersOf(n).reduce((a, p) => a + (coreOf[p]!.includes(c) ? items[p]!.resultBytes : 0), 0) : 0;
          if (!mine.includes(c) && fitsOn(c, n) && memoryFits(c, n.index, f)) {
            core = c;
            forwarded = f;
          }
        }
      }
      if (core < 0) return M.noPacking('layer-sequential', cost.cores);
      if (used[core] === undefined) used[core] = 0;
      used[core]! += n.crossbars;
      body[core] = Math.max(body[core] ?? 0, items[n.index]!.memoryBytes);
      kept[core] = (kept[core] ?? 0) + retained(n.index) + forwarded;
      mine.push(core);
    }
    coreOf[n.index] = mine;
  }
  const placements: NodePlacement[] = workload.nodes.map((n) => ({ replicas: replicas[n.index]!, copies: 1, cores: coreOf[n.index]!, granularity: granularity[n.index]! }));
  return { strategy: 'layer-sequential', placements, transfer, pipelined: false };
}

/** The `layer-sequential` strategy. */
export const layerSequentialScheduler = createPlanScheduler({
  name: 'layer-sequential',
  description: 'PUMA-like baseline: one copy per layer on its own cores, layer after layer, activations through host memory',
  optionsSchema: [transferOption, localMemoryOption],
  plan: planLayerSequential,
});
