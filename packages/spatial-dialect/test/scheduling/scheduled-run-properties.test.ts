// Property tests of the multi-core run (ScheduledRun): a random ring pipeline over N placed cores
// (core k receives the running sum from core k-1, adds its own input, sends it on; the last
// core returns the sum), written in a random program order and optionally with host-routed
// hops, always computes the same sum; removing one send always stops with a diagnostic.
import fc from 'fast-check';
import { ShapedValue, type MLIRContext } from '@raptor-pim/ir-core';
import { makeContext, parse, run, tensor } from './support/context';

const T = 'tensor<1x4xf32>';

interface Ring {
  readonly cores: number;
  readonly order: readonly number[];
  readonly viaHost: readonly boolean[];
  readonly dropSendOf?: number;
}

/** The function text of a ring (core k's stage; hop k -> k+1 via channel or host slot). */
function ringProgram(r: Ring): string {
  const consts = new Set<number>([...Array.from({ length: r.cores + 1 }, (_, k) => k), ...Array.from({ length: r.cores + 1 }, (_, k) => 16 * k)]);
  const lines = [...consts].sort((a, b) => a - b).map((c) => `  %c${c} = arith.constant ${c} : index`);
  const args = Array.from({ length: r.cores }, (_, k) => `%x${k}: ${T}`).join(', ');
  const stage = (k: number): string => {
    const last = k === r.cores - 1;
    const body: string[] = [];
    let acc = '%in';
    if (k > 0) {
      const host = r.viaHost[k - 1];
      body.push(
        host
          ? `    %got = spat.host_wait_load from %c${k - 1} to %c${k} host_offset %c${16 * k} event %c0 count %c1 : ${T}`
          : `    %got = spat.channel_receive channel %c0 from %c${k - 1} to %c${k} : ${T}`,
      );
      body.push(`    %sum = spat.vadd %got, %in : (${T}, ${T}) -> ${T}`);
      acc = '%sum';
    }
    if (!last && r.dropSendOf !== k) {
      body.push(
        r.viaHost[k]
          ? `    spat.host_store_sync ${acc} from %c${k} to %c${k + 1} host_offset %c${16 * (k + 1)} event %c0 : ${T}`
          : `    spat.channel_send ${acc} channel %c0 from %c${k} to %c${k + 1} : ${T}`,
      );
    }
    if (!last && r.dropSendOf === k) body.push(`    "test.keep"(${acc}) : (${T}) -> ()`);
    body.push(last ? `    spat.yield ${acc} : ${T}` : '    spat.yield');
    const res = last ? '%out = ' : '';
    return `  ${res}spat.scheduled_compute [] = [] (%in) = (%x${k}) coreId ${k} crossbarWeights 0 : [] (${T}) -> ${last ? T : '()'} {\n${body.join('\n')}\n  }`;
  };
  for (const k of r.order) lines.push(stage(k));
  lines.push(`  return %out : ${T}`);
  return `func.func @main(${args}) -> ${T} {\n${lines.join('\n')}\n}`;
}

const ringArb = fc.integer({ min: 2, max: 5 }).chain((cores) =>
  fc.record({
    cores: fc.constant(cores),
    order: fc.shuffledSubarray(Array.from({ length: cores }, (_, k) => k), { minLength: cores, maxLength: cores }),
    viaHost: fc.array(fc.boolean(), { minLength: cores, maxLength: cores }),
    data: fc.array(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 4, maxLength: 4 }), { minLength: cores, maxLength: cores }),
  }),
);

function inputs(ctx: MLIRContext, data: readonly (readonly number[])[]): ShapedValue[] {
  return data.map((d) => tensor(ctx, [1, 4], [...d]));
}

describe('multi-core run properties', () => {
  it('a ring computes the same sum in any program order, over channels or host slots', () => {
    fc.assert(
      fc.property(ringArb, ({ cores, order, viaHost, data }) => {
        const ctx = makeContext();
        const { module, errors } = parse(ctx, ringProgram({ cores, order, viaHost }));
        expect(errors).toEqual([]);
        const r = run(module!, 'main', inputs(ctx, data));
        if (!r.ok) throw new Error(r.diagnostic.message);
        const want = [0, 1, 2, 3].map((j) => data.reduce((s, d) => s + d[j]!, 0));
        expect(Array.from((r.values[0] as ShapedValue).toContiguousArray() as Float32Array)).toEqual(want);
      }),
      { numRuns: 40 },
    );
  });

  it('dropping one hop always stops the run with a diagnostic naming the starved op', () => {
    fc.assert(
      fc.property(ringArb, fc.nat(), ({ cores, order, viaHost, data }, pick) => {
        const drop = pick % (cores - 1);
        const ctx = makeContext();
        const { module, errors } = parse(ctx, ringProgram({ cores, order, viaHost, dropSendOf: drop }));
        expect(errors).toEqual([]);
        const r = run(module!, 'main', inputs(ctx, data));
        expect(r.ok).toBe(false);
        if (r.ok) return;
        if (viaHost[drop]) {
          // the starved reader waits forever: a deadlock whose notes name its host_wait_load
          expect(r.diagnostic.message).toMatch(/^all cores blocked \(deadlock\): /);
          expect(r.diagnostic.message).toContain(`core ${drop + 1} at op 1 of 'spat.scheduled_compute' ('spat.host_wait_load'): waits for event register 0`);
          expect(r.diagnostic.notes.map((n) => n.message)).toContain(
            `core ${drop + 1} blocked: waits for event register 0 on core ${drop + 1} to reach 1 (has 0)`,
          );
        } else {
          expect(r.op.name).toBe('spat.channel_receive');
          expect(r.diagnostic.message).toBe(`receive on channel 0 from core ${drop} to core ${drop + 1} has no sender: no remaining spat.channel_send can match it`);
        }
      }),
      { numRuns: 40 },
    );
  });
});
