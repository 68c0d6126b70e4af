/**
 * The reference planner's local search (spatial-layouts.md, "Selection and
 * materialization"): every plan starts at its dense alternative; a plan's score for an
 * alternative is its intrinsic cost + operand layout mismatches (against what the producers
 * currently supply) + downstream inability (uses that cannot take the result layout at all).
 * A strictly cheaper alternative replaces the current one, ties keep it. Rounds alternate
 * forward and reverse program order, at most `2 x plan_count + 1`; a round without a change
 * ends the search.
 */
import type { PhysicalLayoutName } from '@raptor-pim/spatial-dialect';
import { getLayoutAlternatives } from './layout-capabilities';
import { operandCost, sinkAccepts, suppliedLayouts, type LayoutProblem, type PlanNode, type Selection } from './layout-problem';

/** The score of one offered alternative at one visit. */
export interface AlternativeScore {
  /** Candidate index. */
  readonly index: number;
  /** Intrinsic cost. */
  readonly intrinsic: number;
  /** Operand mismatches. */
  readonly mismatches: number;
  /** Uses that cannot take the result layout. */
  readonly downstream: number;
  /** intrinsic + mismatches + downstream. */
  readonly total: number;
}

/** What happened at the last visit of a plan (for `debug-layouts`). */
export interface PlanDecision {
  /** Scores of the offered alternatives, in candidate order. */
  readonly scores: readonly AlternativeScore[];
  /** The selection before the visit. */
  readonly previous: number;
  /** The selection after the visit. */
  readonly selected: number;
  /** The round of the visit (0-based). */
  readonly round: number;
}

/** The outcome of {@link runLocalSearch}. */
export interface LocalSearchResult {
  /** The selection (candidate index per node). */
  readonly selection: Selection;
  /** True when a round made no change within the round limit. */
  readonly converged: boolean;
  /** Rounds run. */
  readonly rounds: number;
  /** The round limit, `2 x plan_count + 1`. */
  readonly maxRounds: number;
  /** The last decision per node. */
  readonly decisions: readonly PlanDecision[];
}

/** Scores every alternative `node` offers for the layouts its producers supply under `selection`. */
export function scoreAlternatives(problem: LayoutProblem, node: PlanNode, selection: Selection): AlternativeScore[] {
  const supplied = suppliedLayouts(problem, node, selection);
  return getLayoutAlternatives(node.candidates, supplied).map(({ candidate }) => {
    let mismatches = 0;
    candidate.operands.forEach((req, k) => {
      mismatches += operandCost(supplied[k]!, req);
    });
    const downstream = countInability(problem, node, candidate.resultLayout);
    return { index: candidate.index, intrinsic: candidate.intrinsicCost, mismatches, downstream, total: candidate.intrinsicCost + mismatches + downstream };
  });
}

function countInability(problem: LayoutProblem, node: PlanNode, layout: PhysicalLayoutName): number {
  let n = 0;
  for (const sink of node.sinks) if (!sinkAccepts(problem, sink, layout)) n++;
  return n;
}

/** Runs the local search on `problem`. */
export function runLocalSearch(problem: LayoutProblem): LocalSearchResult {
  const count = problem.nodes.length;
  const selection = new Array<number>(count).fill(0);
  const decisions: PlanDecision[] = problem.nodes.map(() => ({ scores: [], previous: 0, selected: 0, round: -1 }));
  const maxRounds = 2 * count + 1;
  let rounds = 0;
  let converged = false;
  while (rounds < maxRounds) {
    const forward = rounds % 2 === 0;
    let changed = false;
    for (let i = 0; i < count; i++) {
      const node = problem.nodes[forward ? i : count - 1 - i]!;
      const scores = scoreAlternatives(problem, node, selection);
      const previous = selection[node.index]!;
      const current = scores.find((s) => s.index === previous)?.total ?? Infinity;
      let best = current;
      let winner = previous;
      for (const s of scores) {
        if (s.total < best) {
          best = s.total;
          winner = s.index;
        }
      }
      if (winner !== previous) {
        selection[node.index] = winner;
        changed = true;
      }
      decisions[node.index] = { scores, previous, selected: winner, round: rounds };
    }
    rounds++;
    if (!changed) {
      converged = true;
      break;
    }
  }
  return { selection, converged, rounds, maxRounds, decisions };
}
