/**
 * `pickByReplay`: the strategies' choice among their best plans by replay (hand-made candidates
 * and replays), and on mnist-8 the `throughput` strategy's plan against the estimate's first.
 */
import { pickByReplay, REPLAY_RANKING_CANDIDATES, REPLAY_RANKING_LANES, type PlanContext, type RankedPlan, type SchedulePlan, type ScheduleReplay } from '@raptor-pim/scheduler';
import { scheduleWith } from './helpers';
import { lowerShared } from './models';

/** A distinct stand-in plan (only its identity matters here). */
function plan(id: number): SchedulePlan {
  return { strategy: `p${id}`, placements: [], transfer: 'channel', pipelined: true } as unknown as SchedulePlan;
}

function replayOf(periodNs: number, latencyNs = periodNs): ScheduleReplay {
  return { latencyNs, periodNs, throughput: 1e9 / periodNs, inferences: 3, steps: 1 };
}

/** A context whose workload has `lanes` lanes and whose replays come from `replays` (by plan). */
function context(lanes: number, replays: Map<SchedulePlan, ScheduleReplay | undefined>, asked: SchedulePlan[]): PlanContext {
  return {
    workload: { nodes: [{ lanes }] },
    replayPlan: (p: SchedulePlan) => {
      asked.push(p);
      return replays.get(p);
    },
  } as unknown as PlanContext;
}

describe('pickByReplay', () => {
  const a = plan(0);
  const b = plan(1);
  const c = plan(2);
  const far = plan(3);
  const candidates: RankedPlan[] = [
    { plan: a, estimateNs: 100 },
    { plan: b, estimateNs: 110 },
    { plan: c, estimateNs: 120 },
    { plan: far, estimateNs: 1000 },
  ];

  it('takes the shortest replayed period among the best estimates (not the plans far behind)', () => {
    const asked: SchedulePlan[] = [];
    const replays = new Map([
      [a, replayOf(150)],
      [b, replayOf(130)],
      [c, replayOf(140)],
      [far, replayOf(10)],
    ]);
    expect(pickByReplay(context(100, replays, asked), candidates, 'period')).toBe(b);
    expect(asked).toEqual([a, b, c]);
  });

  it('ranks by latency when asked', () => {
    const replays = new Map([
      [a, replayOf(100, 300)],
      [b, replayOf(200, 250)],
      [c, replayOf(50, 260)],
    ]);
    expect(pickByReplay(context(100, replays, []), candidates, 'latency')).toBe(b);
  });

  it('keeps the best estimate on large workloads, without a driver, or when nothing replays', () => {
    const asked: SchedulePlan[] = [];
    const replays = new Map([[b, replayOf(1)]]);
    expect(pickByReplay(context(REPLAY_RANKING_LANES + 1, replays, asked), candidates, 'period')).toBe(a);
    expect(asked).toEqual([]);
    expect(pickByReplay({ workload: { nodes: [{ lanes: 1 }] } } as unknown as PlanContext, candidates, 'period')).toBe(a);
    expect(pickByReplay(context(100, new Map(), []), candidates, 'period')).toBe(a);
    expect(pickByReplay(context(100, new Map(), []), [], 'period')).toBeUndefined();
  });

  it('replays each distinct plan once, at most REPLAY_RANKING_CANDIDATES of them', () => {
    const asked: SchedulePlan[] = [];
    const many: RankedPlan[] = Array.from({ length: 10 }, (_, i) => ({ plan: plan(10 + (i % 6)), estimateNs: 100 + i }));
    pickByReplay(context(100, new Map(), asked), many, 'period');
    expect(asked).toHaveLength(REPLAY_RANKING_CANDIDATES);
    expect(new Set(asked.map((p) => JSON.stringify(p))).size).toBe(asked.length);
  });

  it('the first of equal estimates is the estimate choice (a later one must be better by more than 0.01%)', () => {
    const x = plan(20);
    const y = plan(21);
    /** The estimate's choice between x (100 ns) and y (`yNs`), with no replay. */
    const chosen = (yNs: number): SchedulePlan | undefined =>
      pickByReplay(
        context(REPLAY_RANKING_LANES + 1, new Map(), []),
        [
          { plan: x, estimateNs: 100 },
          { plan: y, estimateNs: yNs },
        ],
        'period',
      );
    expect(chosen(99.999)).toBe(x);
    expect(chosen(99)).toBe(y);
  });

  it('mnist-8 throughput: the replayed choice is faster than the plan the estimate ranks first', () => {
    const { module } = lowerShared('mnist-8')!;
    const { report, errors } = scheduleWith(module, 'throughput');
    expect(errors).toEqual([]);
    const f = report!.functions[0]!;
    // The estimate's first choice replays at ~110 us per inference (pim-sim 109.4 us); the
    // replayed choice at ~96 us (pim-sim 97.0 us).
    expect(f.periodNs).toBeLessThan(100_000);
  });
});
