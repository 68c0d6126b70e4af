// The offset planner as a pure function: random interval sets are planned, then checked by a
// brute-force overlap test; the peak is never below the lower bound and never worse than
// greedy-by-size alone; hand-checked small cases.
import fc from 'fast-check';
import { alignUp, liveBytesLowerBound, planMemory, type LiveBuffer, type PlannedBuffer } from '../src';

const buffersArb = fc
  .array(
    fc.record({ size: fc.integer({ min: 1, max: 400 }), start: fc.integer({ min: 0, max: 60 }), len: fc.integer({ min: 0, max: 20 }) }),
    { maxLength: 40 },
  )
  .map((xs): LiveBuffer[] => xs.map((x, id) => ({ id, size: x.size, start: x.start, end: x.start + x.len })));

function bruteForceOverlaps(bs: readonly PlannedBuffer[], alignment: number): string[] {
  const bad: string[] = [];
  for (let i = 0; i < bs.length; i++)
    for (let j = i + 1; j < bs.length; j++) {
      const a = bs[i]!;
      const b = bs[j]!;
      let liveTogether = false;
      for (let t = Math.max(a.start, b.start); t <= Math.min(a.end, b.end); t++) liveTogether = true;
      if (!liveTogether) continue;
      for (let byte = a.offset; byte < a.offset + alignUp(a.size, alignment); byte++) {
        if (byte >= b.offset && byte < b.offset + alignUp(b.size, alignment)) {
          bad.push(`${a.id}/${b.id}@${byte}`);
          break;
        }
      }
    }
  return bad;
}

function bruteForceBound(bs: readonly LiveBuffer[], alignment: number): number {
  let best = 0;
  const last = bs.reduce((m, b) => Math.max(m, b.end), 0);
  for (let t = 0; t <= last; t++) best = Math.max(best, bs.filter((b) => b.start <= t && t <= b.end).reduce((s, b) => s + alignUp(b.size, alignment), 0));
  return best;
}

describe('planMemory', () => {
  it('never overlaps simultaneously live buffers (brute force), aligns, and is bounded below', () => {
    fc.assert(
      fc.property(buffersArb, fc.constantFrom(1, 4, 8), (bs, alignment) => {
        const plan = planMemory(bs, alignment);
        expect(bruteForceOverlaps(plan.buffers, alignment)).toEqual([]);
        for (const b of plan.buffers) {
          expect(b.offset % alignment).toBe(0);
          expect(b.offset).toBeGreaterThanOrEqual(0);
          expect(b.offset + alignUp(b.size, alignment)).toBeLessThanOrEqual(plan.peak);
        }
        expect(plan.lowerBound).toBe(bruteForceBound(bs, alignment));
        expect(plan.peak).toBeGreaterThanOrEqual(plan.lowerBound);
        expect(plan.peak).toBeLessThanOrEqual(planMemory(bs, alignment, 'greedy-by-size').peak);
      }),
      { numRuns: 300 },
    );
  });

  it('reuses the bytes of dead buffers', () => {
    const plan = planMemory(
      [
        { id: 0, size: 16, start: 0, end: 1 },
        { id: 1, size: 16, start: 2, end: 3 },
        { id: 2, size: 8, start: 1, end: 2 },
      ],
      4,
    );
    expect(plan.peak).toBe(24);
    expect(plan.lowerBound).toBe(24);
  });

  it('aligns sizes to the alignment (a 3-byte buffer takes 4 bytes)', () => {
    const plan = planMemory(
      [
        { id: 0, size: 3, start: 0, end: 0 },
        { id: 1, size: 3, start: 0, end: 0 },
      ],
      4,
    );
    expect(plan.buffers.map((b) => b.offset).sort()).toEqual([0, 4]);
    expect(liveBytesLowerBound(plan.buffers, 4).bytes).toBe(8);
  });

  it('plans nothing for no buffers', () => {
    expect(planMemory([], 4)).toMatchObject({ peak: 0, lowerBound: 0, buffers: [] });
  });
});

it('plan quality: on 100 seeded random sets of 200 buffers the mean peak/bound is <= 1.02 and at most 5% exceed 1.05', () => {
  let seed = 12345;
  const rnd = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const ratios: number[] = [];
  for (let t = 0; t < 100; t++) {
    const bs = Array.from({ length: 200 }, (_, id) => {
      const start = Math.floor(rnd() * 400);
      return { id, size: [512, 256, 128, 64, 1024][Math.floor(rnd() * 5)]! * (1 + Math.floor(rnd() * 3)), start, end: start + Math.floor(rnd() * 30) };
    });
    const p = planMemory(bs, 4);
    ratios.push(p.peak / p.lowerBound);
  }
  const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
  expect(mean).toBeLessThanOrEqual(1.02);
  expect(ratios.filter((r) => r > 1.05).length).toBeLessThanOrEqual(5);
});
