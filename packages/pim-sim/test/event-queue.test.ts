import fc from 'fast-check';
import { EventQueue } from '../src/timing/event-queue';

test('events come out ordered by time, priority class, then insertion (property)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 4 }), fc.boolean()), { maxLength: 3000 }),
      (ops) => {
        const q = new EventQueue();
        const model: [number, number, number][] = [];
        let id = 0;
        for (const [time, prio, popNow] of ops) {
          q.push(time / 2, prio, id, prio, 0);
          model.push([time / 2, prio, id++]);
          if (popNow) {
            model.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
            const want = model.shift()!;
            expect(q.pop()).toBe(true);
            expect([q.lastTime, q.lastA, q.lastKind]).toEqual(want);
          }
        }
        model.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
        for (const want of model) {
          expect(q.peekTime()).toBe(want[0]);
          expect(q.pop()).toBe(true);
          expect([q.lastTime, q.lastA, q.lastKind]).toEqual(want);
        }
        expect(q.pop()).toBe(false);
        expect(q.length).toBe(0);
      },
    ),
    { numRuns: 100 },
  );
});
