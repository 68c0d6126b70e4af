/**
 * The exact layout solver (`solver=exact`): the layout choice as a minimum-cost labelling of
 * the plan graph under {@link labellingCost}, solved as a PBQP (partitioned boolean quadratic
 * problem, as in Scholz & Eckstein's register allocation and LLVM's RegAllocPBQP): one cost
 * vector per plan (intrinsic costs and the costs against fixed producers and users), one
 * cost matrix per producer/consumer pair (operand mismatches).
 *
 * Reductions R0 (no neighbour), RI (one neighbour: folded into it) and RII (two neighbours:
 * folded into the edge between them) are optimal; they solve chains and trees by dynamic
 * programming and series-parallel DAGs (residual joins) completely. When only nodes of degree
 * >= 3 remain, instead of PBQP's heuristic RN the solver branches on the labels of the node of
 * highest degree and keeps the cheapest branch, so the result stays exact.
 */
import { conversionCost, operandCost, resultLayoutOf, type LayoutProblem, type Selection } from './layout-problem';

/**
 * Branchings the exact solver may perform before it gives up (each one multiplies the work by
 * the labels of one plan). Series-parallel plan graphs need none; every shared model needs none.
 */
export const EXACT_BRANCHING_BUDGET = 4096;

/** Thrown inside the solver when the branching budget is exhausted (caught by {@link solveExact}). */
class BranchingBudgetExceeded extends Error {}

/** The outcome of {@link solveExact}. */
export interface ExactResult {
  /** The optimal selection. */
  readonly selection: Selection;
  /** Its total cost (equal to `labellingCost(problem, selection)`). */
  readonly cost: number;
  /** RI, RII reductions and branchings performed (for statistics). */
  readonly reductions: { readonly r0: number; readonly r1: number; readonly r2: number; readonly branchings: number };
}

/** Cost matrix between node i (rows) and node j (columns), row-major. */
interface Edge {
  readonly rows: number;
  readonly cols: number;
  readonly m: Float64Array;
}

interface State {
  readonly labels: readonly number[];
  readonly unary: Float64Array[];
  /** adj[i].get(j): matrix oriented i x j (both orientations kept in sync). */
  readonly adj: Map<number, Edge>[];
  readonly alive: boolean[];
  constant: number;
}

type Step =
  | { readonly kind: 'r0'; readonly i: number; readonly u: Float64Array }
  | { readonly kind: 'r1'; readonly i: number; readonly u: Float64Array; readonly j: number; readonly mij: Edge }
  | { readonly kind: 'r2'; readonly i: number; readonly u: Float64Array; readonly j: number; readonly mij: Edge; readonly k: number; readonly mik: Edge };

const at = (e: Edge, a: number, b: number): number => e.m[a * e.cols + b]!;

function transpose(e: Edge): Edge {
  const m = new Float64Array(e.rows * e.cols);
  for (let a = 0; a < e.rows; a++) for (let b = 0; b < e.cols; b++) m[b * e.rows + a] = e.m[a * e.cols + b]!;
  return { rows: e.cols, cols: e.rows, m };
}

function addEdge(st: State, i: number, j: number, e: Edge): void {
  const existing = st.adj[i]!.get(j);
  if (existing) {
    for (let x = 0; x < e.m.length; x++) existing.m[x] = existing.m[x]! + e.m[x]!;
    st.adj[j]!.set(i, transpose(existing));
  } else {
    st.adj[i]!.set(j, e);
    st.adj[j]!.set(i, transpose(e));
  }
}

function removeNode(st: State, i: number): void {
  for (const j of st.adj[i]!.keys()) st.adj[j]!.delete(i);
  st.adj[i]!.clear();
  st.alive[i] = false;
}

function cloneState(st: State): State {
  return {
    labels: st.labels,
    unary: st.unary.map((u) => Float64Array.from(u)),
    adj: st.adj.map((m) => new Map([...m].map(([j, e]) => [j, { rows: e.rows, cols: e.cols, m: Float64Array.from(e.m) }]))),
    alive: [...st.alive],
    constant: st.constant,
  };
}

function argmin(n: number, cost: (a: number) => number): number {
  let best = 0;
  let bestCost = Infinity;
  for (let a = 0; a < n; a++) {
    const c = cost(a);
    if (c < bestCost) {
      bestCost = c;
      best = a;
    }
  }
  return best;
}

function buildState(problem: LayoutProblem): State {
  const n = problem.nodes.length;
  const labels = problem.nodes.map((node) => node.candidates.alternatives.length);
  const unary = problem.nodes.map((node) => Float64Array.from(node.candidates.alternatives, (alt) => alt.intrinsicCost));
  const st: State = { labels, unary, adj: Array.from({ length: n }, () => new Map<number, Edge>()), alive: new Array<boolean>(n).fill(true), constant: 0 };
  for (const node of problem.nodes) {
    const u = unary[node.index]!;
    node.candidates.alternatives.forEach((alt, a) => {
      node.sources.forEach((s, k) => {
        if (s.kind === 'fixed') u[a] = u[a]! + operandCost(s.layout, alt.operands[k]!);
      });
      for (const sink of node.sinks) if (sink.kind === 'fixed') u[a] = u[a]! + conversionCost(alt.resultLayout, sink.layout);
    });
    node.sources.forEach((s, k) => {
      if (s.kind !== 'plan') return;
      const producer = problem.nodes[s.node]!;
      const rows = labels[s.node]!;
      const cols = labels[node.index]!;
      const m = new Float64Array(rows * cols);
      for (let a = 0; a < rows; a++) {
        for (let b = 0; b < cols; b++) m[a * cols + b] = operandCost(resultLayoutOf(producer, a), node.candidates.alternatives[b]!.operands[k]!);
      }
      addEdge(st, s.node, node.index, { rows, cols, m });
    });
  }
  return st;
}

interface Counters {
  r0: number;
  r1: number;
  r2: number;
  branchings: number;
}

/** Reduces `st` completely; fills `selection` for every node alive in `st`; returns the cost. */
function reduce(st: State, selection: number[], counters: Counters): number {
  const steps: Step[] = [];
  for (;;) {
    let pick = -1;
    let pickDegree = Infinity;
    let live = 0;
    let branchNode = -1;
    let branchDegree = -1;
    for (let i = 0; i < st.alive.length; i++) {
      if (!st.alive[i]) continue;
      live++;
      const d = st.adj[i]!.size;
      if (d < pickDegree) {
        pickDegree = d;
        pick = i;
      }
      if (d > branchDegree) {
        branchDegree = d;
        branchNode = i;
      }
    }
    if (live === 0) break;
    if (pickDegree <= 2) {
      const i = pick;
      const u = st.unary[i]!;
      const li = st.labels[i]!;
      const neighbours = [...st.adj[i]!.entries()];
      if (neighbours.length === 0) {
        const a = argmin(li, (x) => u[x]!);
        st.constant += u[a]!;
        steps.push({ kind: 'r0', i, u });
        counters.r0++;
      } else if (neighbours.length === 1) {
        const [j, mij] = neighbours[0]!;
        const uj = st.unary[j]!;
        for (let b = 0; b < st.labels[j]!; b++) {
          let best = Infinity;
          for (let a = 0; a < li; a++) best = Math.min(best, u[a]! + at(mij, a, b));
          uj[b] = uj[b]! + best;
        }
        steps.push({ kind: 'r1', i, u, j, mij });
        counters.r1++;
      } else {
        const [j, mij] = neighbours[0]!;
        const [k, mik] = neighbours[1]!;
        const lj = st.labels[j]!;
        const lk = st.labels[k]!;
        const m = new Float64Array(lj * lk);
        for (let b = 0; b < lj; b++) {
          for (let c = 0; c < lk; c++) {
            let best = Infinity;
            for (let a = 0; a < li; a++) best = Math.min(best, u[a]! + at(mij, a, b) + at(mik, a, c));
            m[b * lk + c] = best;
          }
        }
        steps.push({ kind: 'r2', i, u, j, mij, k, mik });
        removeNode(st, i);
        addEdge(st, j, k, { rows: lj, cols: lk, m });
        counters.r2++;
        continue;
      }
      removeNode(st, i);
      continue;
    }
    // Only degree >= 3 remains: branch on the labels of the most connected node.
    if (++counters.branchings > EXACT_BRANCHING_BUDGET) throw new BranchingBudgetExceeded();
    const i = branchNode;
    let bestCost = Infinity;
    let bestSelection: number[] | undefined;
    for (let a = 0; a < st.labels[i]!; a++) {
      const branch = cloneState(st);
      branch.constant += branch.unary[i]![a]!;
      for (const [j, e] of branch.adj[i]!) {
        const uj = branch.unary[j]!;
        for (let b = 0; b < branch.labels[j]!; b++) uj[b] = uj[b]! + at(e, a, b);
      }
      removeNode(branch, i);
      const sel = [...selection];
      sel[i] = a;
      const cost = reduce(branch, sel, counters);
      // An infeasible problem (every labelling infinite) still gets a labelling; the planner reports it.
      if (!bestSelection || cost < bestCost) {
        bestCost = cost;
        bestSelection = sel;
      }
    }
    if (!bestSelection) throw new Error('internal error: a plan without alternatives');
    for (let x = 0; x < selection.length; x++) selection[x] = bestSelection[x]!;
    st.constant = bestCost;
    break;
  }
  // Back-propagation, last reduction first.
  for (let s = steps.length - 1; s >= 0; s--) {
    const step = steps[s]!;
    const li = st.labels[step.i]!;
    if (step.kind === 'r0') selection[step.i] = argmin(li, (a) => step.u[a]!);
    else if (step.kind === 'r1') selection[step.i] = argmin(li, (a) => step.u[a]! + at(step.mij, a, selection[step.j]!));
    else selection[step.i] = argmin(li, (a) => step.u[a]! + at(step.mij, a, selection[step.j]!) + at(step.mik, a, selection[step.k]!));
  }
  return st.constant;
}

/**
 * Solves `problem` exactly (minimum {@link labellingCost}); undefined when the graph needs more
 * than {@link EXACT_BRANCHING_BUDGET} branchings (the caller reports it and falls back).
 */
export function solveExact(problem: LayoutProblem): ExactResult | undefined {
  const st = buildState(problem);
  const selection = new Array<number>(problem.nodes.length).fill(0);
  const counters: Counters = { r0: 0, r1: 0, r2: 0, branchings: 0 };
  try {
    const cost = reduce(st, selection, counters);
    return { selection, cost, reductions: counters };
  } catch (e) {
    if (e instanceof BranchingBudgetExceeded) return undefined;
    throw e;
  }
}
