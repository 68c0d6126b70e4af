/**
 * Topological sorting of a graph's nodes (Kahn's algorithm, stable in file order), with the
 * nodes of a cycle reported when there is one.
 */
import type { OnnxNode } from './model';

/** Sorted nodes, or the nodes that lie on (or between) cycles. */
export type SortResult = { readonly nodes: OnnxNode[] } | { readonly cycle: OnnxNode[] };

/** Sorts `nodes` so that every value is produced before it is used. */
export function sortNodes(nodes: readonly OnnxNode[]): SortResult {
  const producer = new Map<string, number>();
  nodes.forEach((n, i) => n.outputs.forEach((o) => o !== '' && producer.set(o, i)));
  // Fast path: already sorted.
  let sorted = true;
  const seen = new Set<number>();
  for (let i = 0; i < nodes.length && sorted; i++) {
    for (const input of nodes[i]!.inputs) {
      const p = producer.get(input);
      if (p !== undefined && !seen.has(p)) {
        sorted = false;
        break;
      }
    }
    seen.add(i);
  }
  if (sorted) return { nodes: [...nodes] };
  const preds: number[][] = nodes.map((n) => [...new Set(n.inputs.map((x) => producer.get(x)).filter((p): p is number => p !== undefined))]);
  const succs: number[][] = nodes.map(() => []);
  const indegree = preds.map((p) => p.length);
  preds.forEach((ps, i) => ps.forEach((p) => succs[p]!.push(i)));
  const ready: number[] = [];
  indegree.forEach((d, i) => d === 0 && ready.push(i));
  const order: OnnxNode[] = [];
  while (ready.length > 0) {
    // Smallest index first keeps file order where possible.
    let best = 0;
    for (let k = 1; k < ready.length; k++) if (ready[k]! < ready[best]!) best = k;
    const i = ready.splice(best, 1)[0]!;
    order.push(nodes[i]!);
    for (const s of succs[i]!) if (--indegree[s]! === 0) ready.push(s);
  }
  if (order.length === nodes.length) return { nodes: order };
  // Remaining nodes are on or downstream of cycles; strip those with no remaining successor.
  const remaining = new Set<number>();
  indegree.forEach((d, i) => d > 0 && remaining.add(i));
  let changed = true;
  while (changed) {
    changed = false;
    for (const i of remaining) {
      if (!succs[i]!.some((s) => remaining.has(s))) {
        remaining.delete(i);
        changed = true;
      }
    }
  }
  return { cycle: [...remaining].sort((a, b) => a - b).map((i) => nodes[i]!) };
}
