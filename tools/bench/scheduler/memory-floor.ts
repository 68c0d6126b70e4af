/**
 * The local-memory floor benchmark (see memory-floor.mjs): the scheduler's memory model applied
 * to a lowered model before any strategy, as the driver of the built-in strategies prepares it.
 */
import * as path from 'node:path';
import { FuncOp, type Operation } from '@raptor-pim/ir-core';
import { createCostModel, defaultTarget, type CostModel } from '@raptor-pim/pim-target';
import {
  Workload,
  divisors,
  minimumFootprint,
  minimumReplicas,
  placedFootprint,
  planLaneSplits,
  planOversizedSplits,
  planParallelTiles,
  splitInputChannels,
  splitLimitsOf,
  splitOversizedComputes,
  splitWideLanes,
  tileOversizedParallelComputes,
} from '@raptor-pim/scheduler';
import { loweredSharedModel } from './lowered-model';

const shared = process.env['RAPTOR_SHARED_DIR'] ?? path.resolve(__dirname, '../../../../shared');
const models = process.argv.slice(2).filter((a) => !a.startsWith('--'));

/** The workload of `func` prepared as the driver prepares it with local memory enforced. */
function prepared(func: Operation, cost: CostModel): Workload {
  splitInputChannels(func, cost);
  const split = planOversizedSplits(func, splitLimitsOf(cost));
  if (split.plans.length && !split.diagnostics.length) splitOversizedComputes(func, splitLimitsOf(cost), split);
  let w = new Workload(func, cost);
  const tiles = planParallelTiles(w, cost);
  if (tiles.length) {
    tileOversizedParallelComputes(func, cost, tiles);
    w = new Workload(func, cost);
  }
  if (w.nodes.some((n) => minimumFootprint(w, n, cost).bodyBytes > cost.localMemoryBytes)) {
    const lanes = planLaneSplits(w, cost);
    if (lanes.length) {
      splitWideLanes(func, cost, lanes);
      w = new Workload(func, cost);
    }
  }
  return w;
}

const mb = (b: number): string => (b / 1e6).toFixed(2);
console.log('| model | nodes | window replicas | crossbars | with layer fallback: crossbars | window bodies MB | chip local MB | results MB | host MB | fits no core |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const model of models.length ? models : ['resnet18', 'mobilenet_block']) {
  const module = loweredSharedModel(shared, model);
  if (typeof module === 'string') {
    console.log(`| ${model} | ${module} |`);
    continue;
  }
  const cost = createCostModel(defaultTarget());
  let func: Operation | undefined;
  module.walk((o: Operation) => {
    if (!func && FuncOp.isInstance(o)) func = o;
  });
  const w = prepared(func!, cost);
  let replicas = 0;
  let crossbars = 0;
  let bodies = 0;
  const refused: string[] = [];
  for (const n of w.nodes) {
    const r = divisors(n.lanes).filter((d) => d <= cost.cores).find((d) => placedFootprint(w, n, d, 'window', cost).bodyBytes <= cost.localMemoryBytes);
    if (r === undefined) {
      refused.push(n.name);
      continue;
    }
    replicas += r;
    crossbars += r * n.crossbars;
    bodies += r * placedFootprint(w, n, r, 'window', cost).bodyBytes;
  }
  const withFallback = minimumReplicas(w, cost, w.nodes.map(() => 'window')).reduce((a, r, i) => a + r * w.nodes[i]!.crossbars, 0);
  const results = w.nodes.reduce((a, n) => a + n.resultBytes.reduce((x, y) => x + y, 0), 0);
  console.log(
    `| ${model} | ${w.nodes.length} | ${replicas} | ${crossbars} | ${withFallback} | ${mb(bodies)} | ${mb(cost.cores * cost.localMemoryBytes)} | ${mb(results)} | ${mb(cost.hostMemoryBytes)} | ${refused.join(', ') || '-'} |`,
  );
}
