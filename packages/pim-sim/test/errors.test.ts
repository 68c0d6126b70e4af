import { compileProgram, runFunctional, simulateBundle } from '@raptor-pim/pim-sim';
import { asm, f32Bytes, image, makeBundle, tensor, testTarget, loadPrologue } from './helpers';

describe('checks pimsim-nn does not make', () => {
  test('out-of-bounds access names core, pc and instruction', () => {
    const r = simulateBundle(
      makeBundle({
        cores: [
          `
          ${loadPrologue(1024, { local: 65000 })}
        `,
        ],
      }),
    );
    expect(r.ok).toBe(false);
    expect(r.error).toMatchObject({ kind: 'out-of-bounds', core: 0, pc: 4 });
    expect(r.error!.message).toBe(
      'core 0, pc 4 (ld r2, r0, size=1024): local memory access [65000, 66024) is out of bounds (memory size 65536 bytes)',
    );
    expect(r.timing).toBeUndefined();
  });

  test('misaligned element access', () => {
    const r = simulateBundle(
      makeBundle({
        cores: [
          `
          setbw ibiw=32, obiw=32
          sldi r1, 2
          sldi r2, 64
          vvadd r3, r1, r2, len=4
        `,
        ],
      }),
    );
    expect(r.error).toMatchObject({ kind: 'misaligned', core: 0, pc: 3 });
    expect(r.error!.message).toContain('address 2 is not aligned to the element width of 4 bytes');
  });

  test('send/recv size mismatch (runtime check of the functional pass)', () => {
    const programs = [
      compileProgram(asm('setbw ibiw=32, obiw=32\nsend r0, r0, core=1, size=16')),
      compileProgram(asm('setbw ibiw=32, obiw=32\nrecv r0, core=0, size=32')),
    ];
    const r = runFunctional(
      { xbarRows: 128, xbarCols: 128, cellPrecision: 8, localSize: 1024, globalSize: 1024, elementType: 'f32' },
      { programs, groups: [[1], [1]] },
    );
    expect(r.error).toMatchObject({ kind: 'size-mismatch', core: 0, pc: 1 });
    expect(r.error!.message).toBe(
      'send/recv size mismatch: core 0, pc 1 (send r0, r0, core=1, size=16) sends to core 1, whose matching core 1, pc 1 (recv r0, core=0, size=32) expects a different byte count',
    );
  });

  test('send/recv size mismatch in a bundle is rejected before running', () => {
    const r = simulateBundle(
      makeBundle({
        cores: ['setbw ibiw=32, obiw=32\nsend r0, r0, core=1, size=16', 'setbw ibiw=32, obiw=32\nrecv r0, core=0, size=32'],
      }),
    );
    expect(r.error?.kind).toBe('invalid-bundle');
    expect(r.timing).toBeUndefined();
  });

  test('a wait that would overshoot its count (equal-reset semantics)', () => {
    const target = testTarget((t) => {
      t.config.raptor_config.wait_semantics = 'equal-reset';
    });
    const r = simulateBundle(
      makeBundle({
        target,
        cores: [
          `
          setbw ibiw=8, obiw=8
          sync ev=0, core=1
          sync ev=0, core=1
        `,
          `
          setbw ibiw=8, obiw=8
          sldi r1, 0
          sldi r2, 4096
          sldi r3, 8192
          vvadd r3, r1, r2, len=1600
          wait ev=0, value=1
        `,
        ],
      }),
    );
    expect(r.error).toMatchObject({ kind: 'wait-overshoot', core: 1, pc: 5 });
    expect(r.error!.message).toContain('event register holds 2 tokens, more than the 1 this wait expects');
  });

  test('token-counting semantics accept the same program', () => {
    const r = simulateBundle(
      makeBundle({
        cores: [
          `
          setbw ibiw=8, obiw=8
          sync ev=0, core=1
          sync ev=0, core=1
        `,
          `
          setbw ibiw=8, obiw=8
          wait ev=0, value=1
          wait ev=0, value=1
        `,
        ],
      }),
    );
    expect(r.error).toBeUndefined();
  });

  test('deadlock prints every core and what it waits on', () => {
    const r = simulateBundle(
      makeBundle({
        cores: [
          `
          setbw ibiw=8, obiw=8
          recv r0, core=1, size=16
          send r0, r0, core=1, size=16
          sync ev=2, core=2
        `,
          `
          setbw ibiw=8, obiw=8
          recv r0, core=0, size=16
          send r0, r0, core=0, size=16
        `,
          `
          setbw ibiw=8, obiw=8
          wait ev=2, value=1
        `,
        ],
      }),
    );
    expect(r.error?.kind).toBe('deadlock');
    expect(r.error!.message).toBe(
      [
        'deadlock: every unfinished core is blocked',
        '  core 0, pc 1 (recv r0, core=1, size=16) waits for data from core 1',
        '  core 1, pc 1 (recv r0, core=0, size=16) waits for data from core 0',
        '  core 2, pc 1 (wait ev=2, value=1) waits on event register 2 (0 of 1 tokens)',
      ].join('\n'),
    );
  });

  test('crossed sends deadlock (send waits for the matching recv)', () => {
    const r = simulateBundle(
      makeBundle({
        cores: [
          `
          setbw ibiw=8, obiw=8
          send r0, r0, core=1, size=16
          recv r0, core=1, size=16
        `,
          `
          setbw ibiw=8, obiw=8
          send r0, r0, core=0, size=16
          recv r0, core=0, size=16
        `,
        ],
      }),
    );
    expect(r.error?.kind).toBe('deadlock');
    expect(r.error!.message).toContain('core 0, pc 1 (send r0, r0, core=1, size=16) waits for core 1 to post a matching recv');
  });

  test('mvmul whose weights do not fit its array group', () => {
    const w = new Float32Array(128 * 128);
    const r = simulateBundle(
      makeBundle({
        cores: [
          `
          setbw ibiw=32, obiw=32
          sldi r1, 4096
          mvmul r1, r0, mbiw=16, relu=0, group=0
        `,
        ],
        weights: [{ core: 0, group: 0, rows: 128, cols: 128, elementType: 'f32', data: f32Bytes(w) }],
      }),
    );
    expect(r.error).toMatchObject({ kind: 'mvmul-shape', core: 0, pc: 2 });
    expect(r.error!.message).toContain('array group 0 holds a 128x128 weight matrix, but this mvmul reads at most 128 inputs and writes at most 64 outputs');
  });

  test('a run past its cycle budget', () => {
    const r = simulateBundle(
      makeBundle({
        cores: [
          `
          setbw ibiw=8, obiw=8
          sldi r2, 4096
          vvadd r0, r0, r2, len=1600
        `,
        ],
      }),
      { budgetNs: 100 },
    );
    expect(r.error?.kind).toBe('cycle-budget');
    expect(r.error!.message).toContain('simulation ran past its cycle budget of 100 ns');
    expect(r.error!.message).toContain('core 0, pc 2 (vvadd r0, r0, r2, len=1600) is blocked');
  });

  test('invalid bundles are rejected by validation before running', () => {
    const r = simulateBundle(makeBundle({ cores: ['setbw ibiw=8, obiw=8\nvvadd r40, r0, r0, len=4'] }));
    expect(r.error?.kind).toBe('invalid-bundle');
    expect(r.error!.message).toContain('error');
  });

  test('outputs are read back only on success', () => {
    const r = simulateBundle(
      makeBundle({
        cores: ['setbw ibiw=32, obiw=32\nsldi r1, 0\nsldi r2, 1\nld r2, r0, size=4'],
        memory: image(64, [[0, f32Bytes([1])]]),
        outputs: [tensor('y', 0, [1])],
      }),
    );
    expect(r.ok).toBe(true);
    expect(r.outputs).toHaveLength(1);
  });
});

test('memories larger than the simulator allocates are refused, not a crash', () => {
  const r = simulateBundle(
    makeBundle({
      cores: ['setbw ibiw=8, obiw=8\nlldi r0, 0, len=4'],
      target: testTarget((t) => {
        t.config.chip_config.global_memory_config.memory_size = 2 ** 40;
      }),
    }),
  );
  expect(r.error?.kind).toBe('unsupported');
  expect(r.error!.message).toContain('use --timing-only or a smaller memory_size');
});
