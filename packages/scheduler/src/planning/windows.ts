/**
 * Replica windows: what one replica of a batch holds of an input and of its own results.
 *
 * A replica runs a contiguous block of its node's graph lanes (or, `interleaved`, runs of lanes
 * dealt round-robin). Of an input with an
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

/** {@link windowOfLanes} of the `count` consecutive graph lanes from `first` (cached per input). */
function cachedWindow(input: WorkloadInput, first: number, count: number): Box | undefined {
  if (!input.window || count <= 0) return undefined;
  let cache = windowCache.get(input);
  if (!cache) windowCache.set(input, (cache = new Map()));
  const key = `${first}:${count}`;
  let box = cache.get(key);
  if (box === undefined) {
    box = windowOfLanes(input, Array.from({ length: count }, (_, i) => first + i)) ?? null;
    cache.set(key, box);
  }
  return box ?? undefined;
}

/** {@link windowOfLanes} for replica `replica` of a node with `replicas` replicas (cached per input). */
export function replicaWindow(node: WorkloadNode, input: WorkloadInput, replicas: number, replica: number, interleaved = 0): Box | undefined {
  if (interleaved) return runWindow(input, lanesOfReplica({ replicas, interleaved }, node.lanes, replica));
  const rounds = roundsOf({ replicas }, node.lanes);
  const first = replica * rounds;
  return cachedWindow(input, first, Math.min(node.lanes, first + rounds) - first);
}

/**
 * The runs of rounds of replica `replica` that share one window: its lanes in runs of
 * `windowRounds` consecutive rounds (streaming windows), or all of them in one run.
 */
export function windowRunsOf(p: Pick<NodePlacement, 'replicas' | 'windowRounds' | 'interleaved'>, lanes: number, replica: number): number[][] {
  const all = lanesOfReplica(p, lanes, replica);
  const span = p.windowRounds ?? all.length;
  if (span >= all.length) return [all];
  const runs: number[][] = [];
  for (let i = 0; i < all.length; i += span) runs.push(all.slice(i, i + span));
  return runs;
}

/** {@link windowOfLanes} of the run of lanes `lanes` (in increasing order; cached per input). */
export function runWindow(input: WorkloadInput, lanes: readonly number[]): Box | undefined {
  if (!lanes.length) return undefined;
  const first = lanes[0]!;
  const step = lanes.length > 1 ? lanes[1]! - first : 1;
  const regular = lanes.every((l, i) => l === first + i * step);
  if (regular && step === 1) return cachedWindow(input, first, lanes.length);
  // Any other run (an interleaved replica's): every `step`-th lane is cached by first lane, count
  // and step; an irregular run (runs of several lanes dealt in turn) is computed each time.
  if (!regular) return windowOfLanes(input, lanes);
  if (!input.window) return undefined;
  let cache = windowCache.get(input);
  if (!cache) windowCache.set(input, (cache = new Map()));
  const key = `${first}:${lanes.length}:${step}`;
  let box = cache.get(key);
  if (box === undefined) cache.set(key, (box = windowOfLanes(input, lanes) ?? null));
  return box ?? undefined;
}

const streamCache = new WeakMap<WorkloadInput, Map<string, readonly Box[] | null>>();

/**
 * The windows of `input` over the runs of replica `replica` of placement `p` (streaming
 * windows; one run, the replica's window, without `windowRounds`), or undefined when some run
 * reads the input whole. A run's window is the bounding box
 * of its lanes' reads and of every part of the slots it reads that any run of the replica reads
 * (a line buffer): a slot is received once, into the window of the first run that reads it, and
 * each later window starts as a copy of the previous window's overlap, so it still holds what
 * later runs read of the slot. With `exactWindows` a run's window is its lanes' reads alone.
 */
export function streamingWindows(node: WorkloadNode, input: WorkloadInput, p: Pick<NodePlacement, 'replicas' | 'windowRounds' | 'exactWindows' | 'interleaved'>, replica: number): readonly Box[] | undefined {
  const w = input.window;
  if (!w) return undefined;
  let cache = streamCache.get(input);
  if (!cache) streamCache.set(input, (cache = new Map()));
  const exact = p.exactWindows === true && p.windowRounds !== undefined;
  const key = `${p.replicas}:${p.windowRounds ?? 0}:${replica}${exact ? ':exact' : ''}${p.interleaved ? `:interleaved${p.interleaved}` : ''}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const runs = windowRunsOf(p, node.lanes, replica);
  const reads: Box[] = [];
  for (const run of runs) {
    const box = runWindow(input, run);
    if (!box) {
      cache.set(key, null);
      return undefined;
    }
    reads.push(box);
  }
  if (runs.length === 1 || exact) {
    // One run: the replica's window (the hull of a slot's reads lies inside it). Exact windows:
    // each run's own reads, no line buffer (its transfers move pieces of fragments).
    cache.set(key, reads);
    return reads;
  }
  // Per source slot: the hull of what the replica's runs read of it (bounds updated in place:
  // resnet18's planning asks this for every replica count and run length it tries).
  const bounds: Map<number, { lo: number[]; hi: number[] }>[] = input.sources.map(() => new Map());
  input.sources.forEach((src, k) => {
    const regions = w.regions[k];
    if (!regions) return;
    runs.forEach((run, g) => {
      const read = reads[g]!;
      const rank = read.offsets.length;
      // The piece of a slot the run reads (region x read), in scratch bounds.
      const lo = new Array<number>(rank);
      const hi = new Array<number>(rank);
      for (const l of run) {
        for (const q of src.slotsPerLane[l] ?? []) {
          const region = regions[q];
          if (!region) continue;
          let meets = true;
          for (let d = 0; d < rank && meets; d++) {
            lo[d] = Math.max(region.offsets[d]!, read.offsets[d]!);
            hi[d] = Math.min(region.offsets[d]! + region.sizes[d]!, read.offsets[d]! + read.sizes[d]!);
            meets = hi[d]! > lo[d]!;
          }
          if (!meets) continue;
          const h = bounds[k]!.get(q);
          if (!h) {
            bounds[k]!.set(q, { lo: [...lo], hi: [...hi] });
            continue;
          }
          for (let d = 0; d < rank; d++) {
            if (lo[d]! < h.lo[d]!) h.lo[d] = lo[d]!;
            if (hi[d]! > h.hi[d]!) h.hi[d] = hi[d]!;
          }
        }
      }
    });
  });
  const out = runs.map((run, g) => {
    // The bounding box of the run's reads and of the hulls of the slots it reads.
    const read = reads[g]!;
    const lo = [...read.offsets];
    const hi = read.offsets.map((o, d) => o + read.sizes[d]!);
    input.sources.forEach((src, k) => {
      for (const l of run) {
        for (const q of src.slotsPerLane[l] ?? []) {
          const h = bounds[k]!.get(q);
          if (!h) continue;
          for (let d = 0; d < lo.length; d++) {
            if (h.lo[d]! < lo[d]!) lo[d] = h.lo[d]!;
            if (h.hi[d]! > hi[d]!) hi[d] = h.hi[d]!;
          }
        }
      }
    });
    return { offsets: lo, sizes: hi.map((x, d) => x - lo[d]!) };
  });
  cache.set(key, out);
  return out;
}

/**
 * The largest window bytes of `input` over the replicas of a node with `replicas` replicas (over
 * their runs of `windowRounds` rounds with streaming windows), or undefined when read whole.
 */
export function largestReplicaWindowBytes(node: WorkloadNode, input: WorkloadInput, replicas: number, windowRounds?: number, exactWindows = false, interleaved = 0): number | undefined {
  const p = windowRounds === undefined ? { replicas, interleaved } : { replicas, windowRounds, exactWindows, interleaved };
  let m = 0;
  for (let j = 0; j < replicas; j++) {
    const b = largestRunWindowBytes(node, input, p, j);
    if (b === undefined) return undefined;
    m = Math.max(m, b);
  }
  return m;
}

/** The largest window bytes of `input` over the runs of replica `replica` of placement `p`, or undefined when read whole. */
export function largestRunWindowBytes(node: WorkloadNode, input: WorkloadInput, p: Pick<NodePlacement, 'replicas' | 'windowRounds' | 'exactWindows' | 'interleaved'>, replica: number): number | undefined {
  return runWindowsBytes(input, streamingWindows(node, input, p, replica));
}

/**
 * The largest bytes the windows of `input` take over consecutive runs: a run's window while the
 * previous one is still live (its overlap is copied into the next), or undefined when read whole.
 */
function runWindowsBytes(input: WorkloadInput, boxes: readonly Box[] | undefined): number | undefined {
  if (!boxes) return undefined;
  let m = 0;
  let previous = 0;
  for (const box of boxes) {
    const bytes = windowBytes(input, box);
    m = Math.max(m, previous + bytes);
    previous = bytes;
  }
  return m;
}

/** First graph lane of replica `replica` (its part's slot 0). */
export function firstLaneOfReplica(p: Pick<NodePlacement, 'replicas' | 'interleaved'>, lanes: number, replica: number): number {
  return p.interleaved ? replica * p.interleaved : replica * roundsOf(p, lanes);
}

/** Bytes of one replica's part of result `resultIndex` (a batch: its slots only; a scalar compute: the whole value). */
export function partBytes(node: WorkloadNode, resultIndex: number, replicas: number): number {
  const whole = node.resultBytes[resultIndex] ?? 0;
  if (!node.isBatch) return whole;
  const rounds = Math.ceil(node.lanes / replicas);
  return (whole / node.lanes) * rounds;
}
