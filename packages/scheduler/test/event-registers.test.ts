/**
 * Event-register allocation: overlapping lifetimes on one core never share a register, roles
 * never share one, registers stay under the limit, and a register passes to a later request
 * (telling it which request held it before) once the earlier wait is over. Unit cases and a
 * fast-check property over random interval sets; the host-slot schedules that use it are
 * checked end to end (spat-verify-communication and the interpreter) in lowered-models.test.ts.
 */
import fc from 'fast-check';
import { allocateEventRegisters, assignEventRegisters, type EventRegisterRequest } from '@raptor-pim/scheduler';

const req = (key: string, start: number, end: number, role: 'ready' | 'free' = 'ready', core = 0): EventRegisterRequest => ({ core, role, start, end, key });

describe('assignEventRegisters', () => {
  it('reuses a register after the last wait and names the previous holder', () => {
    const a = assignEventRegisters([req('a', 0, 3), req('b', 4, 9), req('c', 5, 6)], 32);
    expect(a.get('a')).toEqual({ register: 0 });
    expect(a.get('b')).toEqual({ register: 0, after: 'a' });
    expect(a.get('c')).toEqual({ register: 1 });
  });

  it('never shares a register between overlapping lifetimes, touching ends included', () => {
    const a = assignEventRegisters([req('a', 0, 4), req('b', 4, 9)], 32);
    expect(a.get('a')!.register).not.toBe(a.get('b')!.register);
  });

  it('keeps READY and FREE roles on separate registers', () => {
    const a = assignEventRegisters([req('free', -1, 2, 'free'), req('ready', 3, 5, 'ready')], 32);
    expect(a.get('free')!.register).not.toBe(a.get('ready')!.register);
  });

  it('allocates per core', () => {
    const a = allocateEventRegisters([req('a', 0, 9, 'ready', 0), req('b', 0, 9, 'ready', 1)], 32);
    expect([a.get('a'), a.get('b')]).toEqual([0, 0]);
  });

  it('leaves out what does not fit the limit (the caller falls back)', () => {
    const a = assignEventRegisters([req('a', 0, 9), req('b', 1, 9), req('c', 2, 9)], 2);
    expect([...a.keys()]).toEqual(['a', 'b']);
  });

  it('never-ending lifetimes (FREE registers) are never shared', () => {
    const a = allocateEventRegisters([req('a', -1, Infinity, 'free'), req('b', 5, Infinity, 'free')], 32);
    expect(a.get('a')).not.toBe(a.get('b'));
  });
});

describe('assignEventRegisters (property)', () => {
  it('overlaps never share, roles never mix, the limit holds, hand-overs follow each other', () => {
    const interval = fc.record({
      core: fc.integer({ min: 0, max: 2 }),
      role: fc.constantFrom('ready' as const, 'free' as const),
      start: fc.integer({ min: 0, max: 40 }),
      length: fc.integer({ min: 0, max: 12 }),
    });
    fc.assert(
      fc.property(fc.array(interval, { maxLength: 40 }), fc.integer({ min: 1, max: 8 }), (list, limit) => {
        const requests = list.map((x, i) => req(`k${i}`, x.start, x.start + x.length, x.role, x.core));
        const out = assignEventRegisters(requests, limit);
        const byKey = new Map(requests.map((r) => [r.key, r]));
        for (const [k, a] of out) {
          const r = byKey.get(k)!;
          expect(a.register).toBeGreaterThanOrEqual(0);
          expect(a.register).toBeLessThan(limit);
          if (a.after !== undefined) {
            const prev = byKey.get(a.after)!;
            expect(out.get(a.after)!.register).toBe(a.register);
            expect(prev.core).toBe(r.core);
            expect(prev.end).toBeLessThan(r.start);
          }
          for (const [k2, b] of out) {
            if (k2 === k || b.register !== a.register) continue;
            const s = byKey.get(k2)!;
            if (s.core !== r.core) continue;
            expect(s.role).toBe(r.role);
            expect(s.end < r.start || r.end < s.start).toBe(true);
          }
        }
        // Deterministic.
        expect([...assignEventRegisters(requests, limit)]).toEqual([...out]);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
