/**
 * `layer-sequential`: the PUMA-like baseline. Each layer's weights on cores of their own, one
 * copy (no replication), one layer after another per inference (an inference starts when the
 * previous one finished), activations passed through host memory with the READY/FREE protocol
 * (as PIMCOMP-NN's and PUMA's flows do) unless `transfer=channel`. Weightless computes
 * (activations, softmax) run on the core of their producer. The yardstick for the others.
 */
import { enumOption } from '@raptor-pim/ir-core';
import type { WorkloadNode } from '../analysis/workload';
import { replicaItems } from '../planning/core-mapping';
import type { NodePlacement, TransferMode } from '../planning/schedule-plan';
import { createPlanScheduler, type PlanContext } from '../scheduler';
import { SchedulerMessages as M } from '../diagnostics';

const transferOption = enumOption('transfer', ['host', 'channel'] as const, 'host', 'how activations move between layers');

function planLayerSequential({ workload, cost, options }: PlanContext) {
  const items = replicaItems(workload, workload.nodes.map(() => ({ replicas: 1, copies: 1 })), cost);
  const coreOf: number[] = [];
  const used: number[] = [];
  let next = 0;
  const fitsOn = (c: number, n: WorkloadNode): boolean => used[c]! + n.crossbars <= cost.crossbarsPerCore;
  for (const n of workload.nodes) {
    const affinity = items[n.index]!.affinity;
    let core = -1;
    if (n.crossbars === 0 && affinity >= 0) core = coreOf[affinity]!;
    else if (next < cost.cores) core = next++;
    else for (let c = 0; c < used.length && core < 0; c++) if (fitsOn(c, n)) core = c;
    if (core < 0) return M.noPacking('layer-sequential', cost.cores);
    if (used[core] === undefined) used[core] = 0;
    used[core]! += n.crossbars;
    coreOf[n.index] = core;
  }
  const placements: NodePlacement[] = workload.nodes.map((n) => ({ replicas: 1, copies: 1, cores: [coreOf[n.index]!], granularity: 'layer' }));
  return { strategy: 'layer-sequential', placements, transfer: options['transfer'] as TransferMode, pipelined: false };
}

/** The `layer-sequential` strategy. */
export const layerSequentialScheduler = createPlanScheduler({
  name: 'layer-sequential',
  description: 'PUMA-like baseline: one copy per layer on its own cores, layer after layer, activations through host memory',
  optionsSchema: [transferOption],
  plan: planLayerSequential,
});
