/**
 * Replica windows: what one replica of a batch holds of an input and of its own results.
 *
 * A replica runs a contiguous block of its node's graph lanes. Of an input with an
 * {@link InputWindow} it holds only the window its lanes read: the bounding box of their read
 * boxes; every source fragment they need is clipped to it (a plane lane of a strips-to-dense
 * transpose keeps one channel of each pixel it receives, a conv replica the rows of each plane
 * under its windows). Of its results it holds only its own slots (`[lanes of the replica] ++ F`, a replica's
 * *part*), so a compute whose feature map exceeds a core fits once it has enough replicas.
 * Materialization builds exactly these buffers and the local-memory model counts them.
 */
import type { Box } from '../analysis/fragment-needs';
import { boundingBox } from '../analysis/fragment-needs';
import type { WorkloadInput, WorkloadNode } from '../analysis/workload';
import { lanesOfReplica, roundsOf, type NodePlacement } from './schedule-plan';

/** The window of `input` that the graph lanes `lanes` read, or undefined when the input is read whole. */
export function windowOfLanes(input: WorkloadInput, lanes: readonly number[]): Box | undefined {
  const w = input.window;
  if (!w || !lanes.length) return undefined;
  const box = boundingBox(lanes.map((l) => w.boxesPerLane[l]!));
  for (let k = 0; k < input.sources.length; k++) {
    const regions = w.regions[k];
    if (!regions) continue;
    for (const l of lanes) for (const slot of input.sources[k]!.slotsPerLane[l] ?? []) if (!regions[slot]) return undefined;
  }
  return box;
}

/** The intersection of two boxes, or undefined when they do not meet. */
export function intersectBoxes(a: Box, b: Box): Box | undefined {
  const offsets: number[] = [];
  const sizes: number[] = [];
  for (let d = 0; d < a.offsets.length; d++) {
    const lo = Math.max(a.offsets[d]!, b.offsets[d]!);
    const hi = Math.min(a.offsets[d]! + a.sizes[d]!, b.offsets[d]! + b.sizes[d]!);
    if (hi <= lo) return undefined;
    offsets.push(lo);
    sizes.push(hi - lo);
  }
  return { offsets, sizes };
}

/** Bytes of a window box of `input` (elements times the element size). */
export function windowBytes(input: WorkloadInput, box: Box): number {
  return box.sizes.reduce((a, b) => a * b, 1) * (input.window?.elementBytes ?? 4);
}

const windowCache = new WeakMap<WorkloadInput, Map<string, Box | null>>();

/** {@link windowOfLanes} for replica `replica` of a node with `replicas` replicas (cached per input). */
export function replicaWindow(node: WorkloadNode, input: WorkloadInput, replicas: number, replica: number): Box | undefined {
  if (!input.window) return undefined;
  let cache = windowCache.get(input);
  if (!cache) windowCache.set(input, (cache = new Map()));
  const key = `${replicas}:${replica}`;
  let box = cache.get(key);
  if (box === undefined) {
    const lanes = lanesOfReplica({ replicas }, node.lanes, replica);
    box = windowOfLanes(input, lanes) ?? null;
    cache.set(key, box);
  }
  return box ?? undefined;
}

/** The largest window bytes of `input` over the replicas of a node with `replicas` replicas, or undefined when read whole. */
export function largestReplicaWindowBytes(node: WorkloadNode, input: WorkloadInput, replicas: number): number | undefined {
  let m = 0;
  for (let j = 0; j < replicas; j++) {
    const box = replicaWindow(node, input, replicas, j);
    if (!box) return undefined;
    m = Math.max(m, windowBytes(input, box));
  }
  return m;
}

/** First graph lane of replica `replica` (its part's slot 0). */
export function firstLaneOfReplica(p: Pick<NodePlacement, 'replicas'>, lanes: number, replica: number): number {
  return replica * roundsOf(p, lanes);
}

/** Bytes of one replica's part of result `resultIndex` (a batch: its slots only; a scalar compute: the whole value). */
export function partBytes(node: WorkloadNode, resultIndex: number, replicas: number): number {
  const whole = node.resultBytes[resultIndex] ?? 0;
  if (!node.isBatch) return whole;
  const rounds = Math.ceil(node.lanes / replicas);
  return (whole / node.lanes) * rounds;
}
