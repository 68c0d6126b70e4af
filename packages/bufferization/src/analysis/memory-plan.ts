/**
 * Offset planning of one core's local memory: every buffer has a byte size and a live interval
 * `[start, end]` (inclusive positions in the linear op order); buffers whose intervals overlap
 * must get disjoint byte ranges. Pure functions over intervals, so tests and the benchmark can
 * call them directly.
 *
 * The planner runs greedy-by-size offset planning (as TFLite Micro's GreedyMemoryPlanner:
 * largest buffer first, each at the lowest offset that fits between the already placed buffers
 * it is live with), three other orders, each first fit and best fit, keeps the plan with the
 * smallest peak (ties: greedy by size, so it is never worse than greedy-by-size), stops as soon
 * as a plan reaches the lower bound, and otherwise improves the best plan by promoting the
 * buffers at the peak to the front of the order and by a fixed set of perturbed size orders.
 */

/** A buffer to place: `size` bytes live from op `start` to op `end` (inclusive). */
export interface LiveBuffer {
  /** Caller's identifier (index of the allocation). */
  readonly id: number;
  /** Bytes (before alignment). */
  readonly size: number;
  /** First op position where the buffer is live. */
  readonly start: number;
  /** Last op position where the buffer is live (>= start). */
  readonly end: number;
}

/** A placed buffer. */
export interface PlannedBuffer extends LiveBuffer {
  /** Byte offset in the arena (a multiple of the alignment). */
  readonly offset: number;
}

/** The plan of one arena. */
export interface MemoryPlan {
  /** Buffers with offsets, in the order given. */
  readonly buffers: readonly PlannedBuffer[];
  /** Planned peak: the largest `offset + aligned size`. */
  readonly peak: number;
  /** Lower bound: the largest total of aligned sizes live at one op position. */
  readonly lowerBound: number;
  /** Position where the lower bound is reached (-1 when empty). */
  readonly peakPosition: number;
  /** The order that produced the plan. */
  readonly strategy: PlanningOrder;
}

/** The first-fit orders the planner tries. */
export type PlanningOrder = 'greedy-by-size' | 'by-start' | 'by-area' | 'by-conflicts' | 'promotion' | 'perturbed';

/** Perturbed orders tried when no order reaches the lower bound (fewer for large streams). */
const PERTURBED_ROUNDS = 24;
/** Conflict-pair visits the perturbed rounds may spend (one placement visits every conflict pair twice). */
const PLACEMENT_BUDGET = 8_000_000;

/** `n` rounded up to a multiple of `alignment`. */
export function alignUp(n: number, alignment: number): number {
  return Math.ceil(n / alignment) * alignment;
}

/** True when the live intervals of `a` and `b` share a position. */
export function livesOverlap(a: LiveBuffer, b: LiveBuffer): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/** The largest total of aligned sizes live at one position, and that position (a sweep). */
export function liveBytesLowerBound(buffers: readonly LiveBuffer[], alignment: number): { bytes: number; position: number } {
  const events: [number, number][] = [];
  for (const b of buffers) {
    const s = alignUp(b.size, alignment);
    events.push([b.start, s], [b.end + 1, -s]);
  }
  events.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let cur = 0;
  let best = 0;
  let position = -1;
  for (const [pos, delta] of events) {
    cur += delta;
    if (cur > best) {
      best = cur;
      position = pos;
    }
  }
  return { bytes: best, position };
}

/**
 * The conflict graph: per buffer, the buffers whose live intervals overlap it (a sweep over
 * the buffers by start with the set of buffers still live; O(n log n + edges)).
 */
function conflictLists(buffers: readonly LiveBuffer[]): number[][] {
  const lists: number[][] = buffers.map(() => []);
  const byStart = buffers.map((_, i) => i).sort((a, b) => buffers[a]!.start - buffers[b]!.start || a - b);
  let active: number[] = [];
  for (const i of byStart) {
    const b = buffers[i]!;
    active = active.filter((j) => buffers[j]!.end >= b.start);
    for (const j of active) {
      lists[i]!.push(j);
      lists[j]!.push(i);
    }
    active.push(i);
  }
  return lists;
}

/** What the placements of one planning call share: aligned sizes and the conflict graph. */
interface PlacementContext {
  readonly buffers: readonly LiveBuffer[];
  readonly sizes: readonly number[];
  readonly conflicts: readonly (readonly number[])[];
}

function placementContext(buffers: readonly LiveBuffer[], alignment: number): PlacementContext {
  return { buffers, sizes: buffers.map((b) => alignUp(b.size, alignment)), conflicts: conflictLists(buffers) };
}

/**
 * Placement of `order` (indices into `buffers`): each buffer at the lowest offset that fits
 * between the already placed buffers it is live with (first fit), or in the smallest such gap
 * (best fit; the top of the arena counts as an unbounded gap).
 */
function placeInOrder(pc: PlacementContext, order: readonly number[], bestFit = false): { offsets: number[]; peak: number } {
  const { sizes, conflicts } = pc;
  const offsets = new Array<number>(sizes.length).fill(-1);
  let peak = 0;
  const live: number[] = [];
  for (const i of order) {
    const size = sizes[i]!;
    live.length = 0;
    for (const j of conflicts[i]!) if (offsets[j]! >= 0) live.push(j);
    live.sort((x, y) => offsets[x]! - offsets[y]!);
    let offset = -1;
    let bestGap = Infinity;
    let cursor = 0;
    for (const j of live) {
      const o = offsets[j]!;
      if (o - cursor >= size) {
        if (!bestFit) {
          offset = cursor;
          break;
        }
        if (o - cursor < bestGap) {
          bestGap = o - cursor;
          offset = cursor;
        }
      }
      cursor = Math.max(cursor, o + sizes[j]!);
    }
    if (offset < 0) offset = cursor;
    offsets[i] = offset;
    peak = Math.max(peak, offset + size);
  }
  return { offsets, peak };
}

/**
 * Improves a plan by promotion (local search): the buffers that reach the peak move to the
 * front of the order and the order is placed again; a change is kept when the peak drops.
 * Deterministic; at most `rounds` re-placements.
 */
function promotePeakBuffers(
  pc: PlacementContext,
  order: number[],
  start: { offsets: number[]; peak: number },
  bound: number,
  rounds: number,
): { offsets: number[]; peak: number; order: number[] } {
  let best = { ...start, order };
  for (let r = 0; r < rounds && best.peak > bound; r++) {
    const top = best.order.filter((i) => best.offsets[i]! + pc.sizes[i]! === best.peak);
    const atTop = new Set(top);
    const next = [...top, ...best.order.filter((i) => !atTop.has(i))];
    const placed = placeInOrder(pc, next, r % 2 === 1);
    if (placed.peak < best.peak) best = { ...placed, order: next };
    else if (r > 0 && next.join() === best.order.join()) break;
    else best = { ...best, order: next };
  }
  return best;
}

/** Per buffer, the total size of the buffers live with it (itself included): sorted sweeps, O(n log n). */
function conflictSizes(buffers: readonly LiveBuffer[]): number[] {
  const byStart = [...buffers].sort((a, b) => a.start - b.start);
  const byEnd = [...buffers].sort((a, b) => a.end - b.end);
  const prefix = (xs: readonly LiveBuffer[]): number[] => {
    const p = [0];
    for (const x of xs) p.push(p[p.length - 1]! + x.size);
    return p;
  };
  const startSums = prefix(byStart);
  const endSums = prefix(byEnd);
  const total = startSums[startSums.length - 1]!;
  const countBelow = (xs: readonly LiveBuffer[], key: (b: LiveBuffer) => number, limit: number): number => {
    let lo = 0;
    let hi = xs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (key(xs[mid]!) < limit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return buffers.map((b) => {
    const endedBefore = endSums[countBelow(byEnd, (x) => x.end, b.start)]!;
    const startsAfter = total - startSums[countBelow(byStart, (x) => x.start, b.end + 1)]!;
    return total - endedBefore - startsAfter;
  });
}

/** The orders, best tie-break first (computed on demand: the planner stops at an optimal plan). */
function* orders(buffers: readonly LiveBuffer[]): Generator<[PlanningOrder, number[]]> {
  const idx = buffers.map((_, i) => i);
  const size = (i: number) => buffers[i]!.size;
  const len = (i: number) => buffers[i]!.end - buffers[i]!.start + 1;
  const tie = (a: number, b: number) => buffers[a]!.start - buffers[b]!.start || a - b;
  yield ['greedy-by-size', [...idx].sort((a, b) => size(b) - size(a) || tie(a, b))];
  yield ['by-start', [...idx].sort((a, b) => tie(a, b))];
  yield ['by-area', [...idx].sort((a, b) => size(b) * len(b) - size(a) * len(a) || tie(a, b))];
  const conflicts = conflictSizes(buffers);
  yield ['by-conflicts', [...idx].sort((a, b) => conflicts[b]! - conflicts[a]! || size(b) - size(a) || tie(a, b))];
}

/**
 * Plans offsets for `buffers` (every offset a multiple of `alignment`): the best of the
 * first-fit orders, greedy-by-size first so ties keep it.
 *
 * @example
 * ```ts
 * const plan = planMemory([{ id: 0, size: 16, start: 0, end: 1 }, { id: 1, size: 16, start: 2, end: 3 }], 4);
 * plan.peak; // 16: the second buffer reuses the first one's bytes
 * ```
 */
export function planMemory(buffers: readonly LiveBuffer[], alignment: number, only?: PlanningOrder): MemoryPlan {
  const bound = liveBytesLowerBound(buffers, alignment);
  const pc = placementContext(buffers, alignment);
  let best: { offsets: number[]; peak: number; strategy: PlanningOrder; order: number[] } | undefined;
  for (const [strategy, order] of orders(buffers)) {
    if (only && strategy !== only) continue;
    for (const bestFit of only ? [false] : [false, true]) {
      const r = placeInOrder(pc, order, bestFit);
      if (!best || r.peak < best.peak) best = { ...r, strategy, order };
      if (best.peak === bound.bytes) break;
    }
    if (best && best.peak === bound.bytes) break; // optimal
  }
  if (best && !only && best.peak > bound.bytes) {
    const improved = promotePeakBuffers(pc, best.order, best, bound.bytes, 16);
    if (improved.peak < best.peak) best = { ...improved, strategy: 'promotion' };
    // Perturbed greedy-by-size orders (a fixed pseudo-random sequence, so plans are deterministic).
    let seed = 0x9e3779b9;
    const random = (): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 4294967296;
    };
    const pairs = pc.conflicts.reduce((n, c) => n + c.length, buffers.length);
    const rounds = Math.max(2, Math.min(PERTURBED_ROUNDS, Math.floor(PLACEMENT_BUDGET / pairs)));
    for (let round = 0; round < rounds && best.peak > bound.bytes; round++) {
      const keys = buffers.map((b) => b.size * (0.7 + 0.6 * random()));
      const order = buffers.map((_, i) => i).sort((a, c) => keys[c]! - keys[a]! || a - c);
      const r = placeInOrder(pc, order, round % 2 === 1);
      if (r.peak < best.peak) best = { ...r, strategy: 'perturbed', order };
    }
  }
  const b = best ?? { offsets: [], peak: 0, strategy: 'greedy-by-size' as const };
  return {
    buffers: buffers.map((x, i) => ({ ...x, offset: b.offsets[i]! })),
    peak: b.peak,
    lowerBound: bound.bytes,
    peakPosition: bound.position,
    strategy: b.strategy,
  };
}
