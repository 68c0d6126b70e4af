/**
 * TimedWaitHeap against pimsim-nn: N cores whose first `ld` request waits 15 ns on its switch
 * (inserted at t = 10 in core order, after the clock's entry for t = 11) reach the global
 * memory at t = 25 in the order pimsim-nn's SystemC kernel ran them (measured with a build
 * of the fork on programs from tools/bench/pim-sim/generate.ts).
 */
import fc from 'fast-check';
import { CLOCK_ENTRY, TimedWaitHeap } from '../src/timing/timed-wait-heap';

const MEASURED: Record<number, number[]> = {
  4: [0, 2, 1, 3],
  8: [2, 6, 5, 4, 3, 0, 1, 7],
  16: [6, 14, 13, 12, 11, 10, 9, 8, 7, 2, 5, 4, 3, 0, 1, 15],
  32: [2, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 0, 13, 12, 11, 10, 9, 8, 7, 31, 5, 4, 3, 14, 1, 6],
  64: [
    30, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 14, 29,
    28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 6, 13, 12, 11, 10, 9, 8, 7, 2, 5, 4, 3, 0, 1, 63,
  ],
};

/** Runs the clock edge by edge: each step pops every entry due, then re-inserts the clock. */
function arrivalOrder(cores: number, start: number, latency: number): number[] {
  const heap = new TimedWaitHeap();
  heap.insert(start + 1, CLOCK_ENTRY);
  for (let c = 0; c < cores; c++) heap.insert(start + latency, c);
  const order: number[] = [];
  while (heap.size > 1 || heap.topCode() !== CLOCK_ENTRY) {
    const t = heap.topTime();
    const batch: number[] = [];
    while (heap.size > 0 && heap.topTime() === t) {
      batch.push(heap.topCode());
      heap.extractTop();
    }
    for (const code of batch) {
      if (code === CLOCK_ENTRY) heap.insert(t + 1, CLOCK_ENTRY);
      else order.push(code);
    }
  }
  return order;
}

describe('TimedWaitHeap', () => {
  test.each(Object.keys(MEASURED).map(Number))('%i simultaneous ld requests: pimsim-nn order', (n) => {
    expect(arrivalOrder(n, 10, 15)).toEqual(MEASURED[n]);
  });

  test('distinct times come out in time order', () => {
    const heap = new TimedWaitHeap();
    const times = [50, 3, 17, 3.5, 99, 0.25, 42, 8, 8.5, 64, 1, 2];
    times.forEach((t, i) => heap.insert(t, i));
    const out: number[] = [];
    while (heap.size > 0) {
      out.push(heap.topTime());
      heap.extractTop();
    }
    expect(out).toEqual([...times].sort((a, b) => a - b));
  });

  test('equal times without a clock: the first inserted, then the rest from the last', () => {
    const heap = new TimedWaitHeap();
    for (let c = 0; c < 6; c++) heap.insert(5, c);
    const out: number[] = [];
    while (heap.size > 0) {
      out.push(heap.topCode());
      heap.extractTop();
    }
    expect(out).toEqual([0, 5, 4, 3, 2, 1]);
  });

  test('advanceClock(k) equals k single clock edges', () => {
    const state = (h: TimedWaitHeap): string => {
      const out: string[] = [];
      const copy = h as unknown as { time: Float64Array; code: Int32Array };
      for (let p = 1; p <= h.size; p++) out.push(`${copy.code[p]}@${copy.time[p]}`);
      return out.join(' ');
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 20, max: 40 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 15 }), (times, k) => {
        const build = () => {
          const h = new TimedWaitHeap();
          h.insert(1, CLOCK_ENTRY);
          times.forEach((t, i) => h.insert(t, i));
          return h;
        };
        const a = build();
        const b = build();
        const steps = Math.min(k, Math.ceil(a.secondTime() - 1) - 1);
        a.advanceClock(steps, 1);
        for (let i = 0; i < steps; i++) {
          const t = b.topTime();
          b.extractTop();
          b.insert(t + 1, CLOCK_ENTRY);
        }
        return state(a) === state(b);
      }),
      { numRuns: 200 },
    );
  });
});
