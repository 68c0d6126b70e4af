/**
 * Choosing among a strategy's best plans by replaying them. The plan estimate
 * ({@link estimateSchedule}) is fast enough to rank every candidate a strategy finds, but it
 * misses part of the coupling between cores (see `schedule-replay.ts`); on small workloads the
 * few best candidates are materialized on a scratch copy and replayed, and the fastest replay
 * wins. On mnist-8 the `throughput` strategy's estimate ranked first a plan of 110 us per
 * inference (pim-sim 109.4 us); the replay picks one of 96.2 us (pim-sim 97.0 us).
 */
import type { PlanContext } from '../scheduler';
import type { SchedulePlan } from './schedule-plan';

/** Workloads of at most this many graph lanes (all nodes) are re-ranked by replay. */
export const REPLAY_RANKING_LANES = 1500;
/** At most this many candidates are replayed. */
export const REPLAY_RANKING_CANDIDATES = 4;
/** Candidates whose estimate is within this factor of the best are replayed. */
export const REPLAY_RANKING_SPREAD = 1.5;

/** A plan and its estimated cost (period or latency, ns: lower is better). */
export interface RankedPlan {
  readonly plan: SchedulePlan;
  readonly estimateNs: number;
}

/**
 * The plan to take among `candidates`: the best by estimate, unless the workload is small
 * (at most {@link REPLAY_RANKING_LANES} lanes) and the driver can replay plans: then the
 * distinct candidates within {@link REPLAY_RANKING_SPREAD} of the best estimate (at most
 * {@link REPLAY_RANKING_CANDIDATES}, best estimates first) are replayed and the one with the
 * shortest replayed `objective` is taken (ties: the better estimate). Deterministic (the sort
 * is stable: equal estimates keep the candidates' order).
 */
export function pickByReplay(context: PlanContext, candidates: readonly RankedPlan[], objective: 'period' | 'latency'): SchedulePlan | undefined {
  if (!candidates.length) return undefined;
  // The best estimate: the first candidate unless a later one is better by more than 0.01%.
  let first = candidates[0]!;
  for (const c of candidates) if (c.estimateNs * 1.0001 < first.estimateNs) first = c;
  const sorted = [first, ...candidates.filter((c) => c !== first).sort((a, b) => a.estimateNs - b.estimateNs)];
  const lanes = context.workload.nodes.reduce((a, n) => a + n.lanes, 0);
  if (!context.replayPlan || lanes > REPLAY_RANKING_LANES) return first.plan;
  const seen = new Set<string>();
  const shortlist: RankedPlan[] = [];
  for (const c of sorted) {
    if (c.estimateNs > first.estimateNs * REPLAY_RANKING_SPREAD || shortlist.length >= REPLAY_RANKING_CANDIDATES) break;
    const key = JSON.stringify(c.plan);
    if (seen.has(key)) continue;
    seen.add(key);
    shortlist.push(c);
  }
  if (shortlist.length < 2) return first.plan;
  let best: { plan: SchedulePlan; ns: number } | undefined;
  for (const c of shortlist) {
    const r = context.replayPlan(c.plan);
    if (!r) continue;
    const ns = objective === 'period' ? r.periodNs : r.latencyNs;
    if (!best || ns < best.ns * 0.999) best = { plan: c.plan, ns };
  }
  return best?.plan ?? first.plan;
}
