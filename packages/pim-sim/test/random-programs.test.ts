/**
 * Property tests on random deadlock-free programs: the timing pass must finish every core
 * (no lost wake-up shows up as a false deadlock), deterministically, with the same timing
 * whether or not the functional pass ran, and with finish times that respect simple bounds.
 */
import fc from 'fast-check';
import { createBundle } from '@raptor-pim/pim-target';
import type { Instruction, ProgramBundle } from '@raptor-pim/pim-target';
import { simulateBundle } from '@raptor-pim/pim-sim';
import { testTarget } from './helpers';

type Step =
  | { kind: 'vector'; core: number; op: 'vvadd' | 'vvmul' | 'vrelu' | 'vtanh'; dst: number; a: number; b: number; len: number }
  | { kind: 'mvmul'; core: number; group: number; dst: number; src: number }
  | { kind: 'local'; core: number; op: 'lldi' | 'lmv'; dst: number; src: number; len: number }
  | { kind: 'global'; core: number; op: 'ld' | 'st'; local: number; global: number; size: number }
  | { kind: 'scalar'; core: number; reg: number; value: number }
  | { kind: 'message'; from: number; to: number; local: number; size: number }
  | { kind: 'event'; from: number; to: number; ev: number };

const CORES = 3;
const slot = fc.integer({ min: 0, max: 7 }).map((k) => k * 1024); // 8 aligned 1 KiB buffers

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('vector' as const),
    core: fc.integer({ min: 0, max: CORES - 1 }),
    op: fc.constantFrom('vvadd' as const, 'vvmul' as const, 'vrelu' as const, 'vtanh' as const),
    dst: slot,
    a: slot,
    b: slot,
    len: fc.integer({ min: 1, max: 64 }),
  }),
  fc.record({ kind: fc.constant('mvmul' as const), core: fc.integer({ min: 0, max: CORES - 1 }), group: fc.integer({ min: 0, max: 1 }), dst: slot, src: slot }),
  fc.record({
    kind: fc.constant('local' as const),
    core: fc.integer({ min: 0, max: CORES - 1 }),
    op: fc.constantFrom('lldi' as const, 'lmv' as const),
    dst: slot,
    src: slot,
    len: fc.integer({ min: 0, max: 256 }),
  }),
  fc.record({
    kind: fc.constant('global' as const),
    core: fc.integer({ min: 0, max: CORES - 1 }),
    op: fc.constantFrom('ld' as const, 'st' as const),
    local: slot,
    global: fc.integer({ min: 0, max: 15 }).map((k) => k * 1024),
    size: fc.integer({ min: 1, max: 512 }),
  }),
  fc.record({ kind: fc.constant('scalar' as const), core: fc.integer({ min: 0, max: CORES - 1 }), reg: fc.integer({ min: 20, max: 25 }), value: fc.integer({ min: 0, max: 100 }) }),
  fc
    .record({ kind: fc.constant('message' as const), from: fc.integer({ min: 0, max: CORES - 1 }), to: fc.integer({ min: 0, max: CORES - 1 }), local: slot, size: fc.integer({ min: 1, max: 512 }) })
    .filter((m) => m.from !== m.to),
  fc
    .record({ kind: fc.constant('event' as const), from: fc.integer({ min: 0, max: CORES - 1 }), to: fc.integer({ min: 0, max: CORES - 1 }), ev: fc.integer({ min: 0, max: 3 }) })
    .filter((m) => m.from !== m.to),
);

const off = { offsetSelect: 0, offsetValue: 0 };

/** Builds programs from a global sequence of steps (a valid sequential interleaving exists). */
function build(steps: readonly Step[], robSize: number): ProgramBundle {
  const programs: Instruction[][] = Array.from({ length: CORES }, () => [{ op: 'setbw', ibiw: 32, obiw: 32 }]);
  const addr = (core: number, reg: number, value: number): void => void programs[core].push({ op: 'sldi', rd: reg, imm: value });
  for (const s of steps) {
    switch (s.kind) {
      case 'vector': {
        const p = programs[s.core];
        addr(s.core, 1, s.a);
        addr(s.core, 2, s.b);
        addr(s.core, 3, s.dst);
        if (s.op === 'vrelu' || s.op === 'vtanh') p.push({ op: s.op, rd: 3, rs1: 1, len: s.len, ...off });
        else p.push({ op: s.op, rd: 3, rs1: 1, rs2: 2, len: s.len, ...off });
        break;
      }
      case 'mvmul':
        addr(s.core, 1, s.src);
        addr(s.core, 3, s.dst);
        programs[s.core].push({ op: 'mvmul', rd: 3, rs1: 1, mbiw: 8, relu: false, group: s.group });
        break;
      case 'local':
        addr(s.core, 1, s.src);
        addr(s.core, 3, s.dst);
        if (s.op === 'lldi') programs[s.core].push({ op: 'lldi', rd: 3, imm: 5, len: s.len, ...off });
        else programs[s.core].push({ op: 'lmv', rd: 3, rs1: 1, len: s.len, ...off });
        break;
      case 'global':
        addr(s.core, 1, s.local);
        addr(s.core, 10, 0);
        addr(s.core, 11, s.global);
        if (s.op === 'ld') programs[s.core].push({ op: 'ld', rd: 1, rs1: 10, size: s.size, ...off });
        else programs[s.core].push({ op: 'st', rd: 10, rs1: 1, size: s.size, ...off });
        break;
      case 'scalar':
        addr(s.core, s.reg, s.value);
        break;
      case 'message':
        addr(s.from, 4, s.local);
        programs[s.from].push({ op: 'send', rd: 4, rs1: 4, core: s.to, size: s.size, ...off });
        addr(s.to, 5, (s.local + 1024) % 8192);
        programs[s.to].push({ op: 'recv', rd: 5, core: s.from, size: s.size, ...off });
        break;
      case 'event':
        programs[s.from].push({ op: 'sync', eventRegister: s.ev, core: s.to });
        programs[s.to].push({ op: 'wait', eventRegister: s.ev, waitValue: 1 });
        break;
    }
  }
  // End every core with a non-scalar instruction (pimsim-nn's termination rule).
  for (let c = 0; c < CORES; c++) programs[c].push({ op: 'lldi', rd: 0, imm: 0, len: 4, ...off });
  const bundle = createBundle(CORES);
  bundle.programs = programs;
  bundle.arrayGroupMap = Array.from({ length: CORES }, () => [1, 1]);
  bundle.target = testTarget((t) => {
    t.config.chip_config.core_config.rob_size = robSize;
    t.config.chip_config.core_config.local_memory_config.memory_size = 16384;
    t.config.chip_config.global_memory_config.memory_size = 32768;
    t.config.chip_config.core_config.matrix_config.cell_precision = 2; // 32 outputs per crossbar at mbiw 8
  });
  return bundle;
}

test('random deadlock-free programs finish, deterministically, whatever the ROB size', () => {
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 6 }), (steps, robSize) => {
      const bundle = build(steps, robSize);
      const r = simulateBundle(bundle);
      if (r.error) throw new Error(`${r.error.kind}: ${r.error.message}`);
      const again = simulateBundle(bundle, { timingOnly: true });
      expect(again.error).toBeUndefined();
      expect(again.timing!.cores.map((c) => c.finishNs)).toEqual(r.timing!.cores.map((c) => c.finishNs));
      expect(again.timing!.energyPj).toBe(r.timing!.energyPj);
      for (const c of r.timing!.cores) {
        // At least one cycle per instruction after the first fetch.
        expect(c.finishNs).toBeGreaterThanOrEqual(c.programLength);
        expect(c.issued).toBe(c.programLength);
      }
      expect(r.timing!.latencyNs).toBe(Math.max(...r.timing!.cores.map((c) => c.finishNs)));
    }),
    { numRuns: 150 },
  );
});

test('a larger ROB never makes a single-core program slower', () => {
  fc.assert(
    fc.property(fc.array(step.filter((s) => s.kind !== 'message' && s.kind !== 'event'), { minLength: 1, maxLength: 40 }), (steps) => {
      const one = steps.map((s) => ({ ...s, core: 0 }) as Step);
      const t1 = simulateBundle(build(one, 1), { timingOnly: true }).timing!.cores[0].finishNs;
      const t4 = simulateBundle(build(one, 4), { timingOnly: true }).timing!.cores[0].finishNs;
      // Out-of-order overlap may reorder memory-port requests; allow a few cycles of slack.
      expect(t4).toBeLessThanOrEqual(t1 + 3);
    }),
    { numRuns: 100 },
  );
});
