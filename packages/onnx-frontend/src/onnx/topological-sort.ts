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
  // Ready nodes in a binary min-heap of indices: smallest index first keeps file order.
  const heap: number[] = [];
  const push = (v: number): void => {
    let k = heap.push(v) - 1;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (heap[parent]! <= v) break;
      heap[k] = heap[parent]!;
      k = parent;
    }
    heap[k] = v;
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        if (l >= heap.length) break;
        const c = l + 1 < heap.length && heap[l + 1]! < heap[l]! ? l + 1 : l;
        if (heap[c]! >= last) break;
        heap[k] = heap[c]!;
        k = c;
      }
      heap[k] = last;
    }
    return top;
  };
  indegree.forEach((d, i) => d === 0 && push(i));
  const order: OnnxNode[] = [];
  while (heap.length > 0) {
    const i = pop();
    order.push(nodes[i]!);
    for (const s of succs[i]!) if (--indegree[s]! === 0) push(s);
  }
  if (order.length === nodes.length) return { nodes: order };
  // Remaining nodes are on or downstream of cycles; peel off, in reverse, those with no
  // remaining successor (linear time), which leaves the nodes on or between cycles.
  const remaining = new Set<number>();
  indegree.forEach((d, i) => d > 0 && remaining.add(i));
  const outdegree = new Map<number, number>();
  for (const i of remaining) outdegree.set(i, new Set(succs[i]!.filter((x) => remaining.has(x))).size);
  const sinks: number[] = [...remaining].filter((i) => outdegree.get(i) === 0);
  while (sinks.length > 0) {
    const i = sinks.pop()!;
    remaining.delete(i);
    for (const p of preds[i]!) {
      if (!remaining.has(p)) continue;
      const d = outdegree.get(p)! - 1;
      outdegree.set(p, d);
      if (d === 0) sinks.push(p);
    }
  }
  return { cycle: [...remaining].sort((a, b) => a - b).map((i) => nodes[i]!) };
}
