/**
 * Placement on the mesh: maps virtual cores to physical cores so that the schedule's traffic,
 * bytes x hops, is small. Greedy construction (the heaviest-talking core first, at the mesh
 * centre; each next core on the free physical core closest to its partners), then improving
 * pairwise swaps until none helps (a 2-opt local search, as in classic task-mapping
 * heuristics).
 */
import type { CostModel } from '@raptor-pim/pim-target';

/** Bytes per inference between virtual cores: `traffic.get(a)?.get(b)` for a -> b. */
export type TrafficMatrix = Map<number, Map<number, number>>;

/** Adds `bytes` from `a` to `b`. */
export function addTraffic(m: TrafficMatrix, a: number, b: number, bytes: number): void {
  if (a === b || bytes <= 0) return;
  let row = m.get(a);
  if (!row) m.set(a, (row = new Map()));
  row.set(b, (row.get(b) ?? 0) + bytes);
}

/** Total bytes x hops of `traffic` under `physical` (virtual core -> physical core). */
export function trafficCost(traffic: TrafficMatrix, physical: readonly number[], cost: CostModel): number {
  let total = 0;
  for (const [a, row] of traffic) for (const [b, bytes] of row) total += bytes * cost.hops(physical[a]!, physical[b]!);
  return total;
}

/** The result of {@link placeOnMesh}. */
export interface MeshPlacement {
  /** physical[virtual] = physical core id. */
  readonly physical: number[];
  /** Bytes x hops with virtual core v on physical core v (the naive placement). */
  readonly naiveCost: number;
  /** Bytes x hops after placement. */
  readonly cost: number;
  /** Swaps accepted by the local search. */
  readonly swaps: number;
}

/**
 * Places `virtualCores` virtual cores on the `cost.cores` physical cores. Deterministic: ties
 * go to the lower core id.
 */
export function placeOnMesh(virtualCores: number, traffic: TrafficMatrix, cost: CostModel, maxSweeps = 8): MeshPlacement {
  const n = virtualCores;
  const identity = Array.from({ length: n }, (_, i) => i);
  const naiveCost = trafficCost(traffic, identity, cost);
  // Symmetric weights.
  const w: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  for (const [a, row] of traffic) {
    for (const [b, bytes] of row) {
      w[a]!.set(b, (w[a]!.get(b) ?? 0) + bytes);
      w[b]!.set(a, (w[b]!.get(a) ?? 0) + bytes);
    }
  }
  const volume = w.map((m) => [...m.values()].reduce((x, y) => x + y, 0));
  if (n === 0 || volume.every((v) => v === 0)) return { physical: identity, naiveCost, cost: naiveCost, swaps: 0 };
  const P = cost.cores;
  const hopTable = new Int32Array(P * P);
  for (let a = 0; a < P; a++) for (let b = 0; b < P; b++) hopTable[a * P + b] = cost.hops(a, b);
  const hops = (a: number, b: number): number => hopTable[a * P + b]!;
  const [rows, cols] = cost.meshLayout;
  const centre = Math.min(cost.cores - 1, Math.floor(rows / 2) * Math.max(1, cols) + Math.floor(cols / 2));
  const physical = new Array<number>(n).fill(-1);
  const taken = new Set<number>();
  const order = identity.slice().sort((a, b) => volume[b]! - volume[a]! || a - b);
  const placed: number[] = [];
  for (const v of order) {
    let bestCore = -1;
    let bestCost = Infinity;
    for (let p = 0; p < cost.cores; p++) {
      if (taken.has(p)) continue;
      let c = 0;
      for (const u of placed) {
        const bytes = w[v]!.get(u);
        if (bytes) c += bytes * hops(p, physical[u]!);
      }
      if (placed.length === 0) c = hops(p, centre);
      if (c < bestCost) {
        bestCost = c;
        bestCore = p;
      }
    }
    physical[v] = bestCore;
    taken.add(bestCore);
    placed.push(v);
  }
  // Improving swaps of two virtual cores (or a move to a free physical core).
  const costOf = (v: number, p: number, skip: number): number => {
    let c = 0;
    for (const [u, bytes] of w[v]!) if (u !== skip) c += bytes * hops(p, physical[u]!);
    return c;
  };
  let swaps = 0;
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    let improved = false;
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        const pa = physical[a]!;
        const pb = physical[b]!;
        const before = costOf(a, pa, b) + costOf(b, pb, a);
        const after = costOf(a, pb, b) + costOf(b, pa, a);
        if (after < before) {
          physical[a] = pb;
          physical[b] = pa;
          swaps++;
          improved = true;
        }
      }
      for (let p = 0; p < cost.cores; p++) {
        if (taken.has(p)) continue;
        const pa = physical[a]!;
        if (costOf(a, p, -1) < costOf(a, pa, -1)) {
          taken.delete(pa);
          taken.add(p);
          physical[a] = p;
          swaps++;
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return { physical, naiveCost, cost: trafficCost(traffic, physical, cost), swaps };
}
