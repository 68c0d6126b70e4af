// fast-check differential test of pim-bufferize (with its size reductions) + pim-plan-memory +
// pim-verify-memory: random streams of host loads, byte copies at random offsets (partial
// rows, whole-buffer copies between equal and reshaped types), in-place and aliasing
// element-wise ops and host stores compute the same host output in the PIM interpreter on
// memrefs as on tensors, and their plans verify.
import fc from 'fast-check';
import { PimBufferizePass, type BufferizeReport } from '../src';
import { parseOk, randomInputs, runPim, runPipeline } from './support/harness';

/** Buffer types of the generated streams (the 64-byte ones are reshapes of each other). */
const TYPES = ['tensor<1x16xf32>', 'tensor<4x4xf32>', 'tensor<16xf32>', 'tensor<2x4xf32>', 'tensor<1x8xf32>'];
const BYTES = [64, 64, 64, 32, 32];

type Step =
  | { kind: 'load'; buffer: number; at: number; from: number; words: number }
  | { kind: 'copy'; dst: number; src: number; at: number; from: number; words: number }
  | { kind: 'whole'; dst: number; src: number }
  | { kind: 'relu'; dst: number; src: number }
  | { kind: 'store'; buffer: number; at: number; from: number; words: number };

const buffersArb = fc.array(fc.integer({ min: 0, max: TYPES.length - 1 }), { minLength: 2, maxLength: 5 });

function stepArb(n: number): fc.Arbitrary<Step> {
  const b = fc.integer({ min: 0, max: n - 1 });
  const w = fc.integer({ min: 0, max: 15 });
  return fc.oneof(
    fc.record({ kind: fc.constant('load' as const), buffer: b, at: w, from: w, words: fc.integer({ min: 1, max: 16 }) }),
    fc.record({ kind: fc.constant('copy' as const), dst: b, src: b, at: w, from: w, words: fc.integer({ min: 1, max: 16 }) }),
    fc.record({ kind: fc.constant('whole' as const), dst: b, src: b }),
    fc.record({ kind: fc.constant('relu' as const), dst: b, src: b }),
    fc.record({ kind: fc.constant('store' as const), buffer: b, at: w, from: w, words: fc.integer({ min: 1, max: 16 }) }),
  );
}

const programArb = buffersArb.chain((types) => fc.tuple(fc.constant(types), fc.array(stepArb(types.length), { minLength: 1, maxLength: 30 })));

/** The stream on tensors; byte ranges are clipped into their buffers (steps that do not fit are skipped). */
function programOf(types: readonly number[], steps: readonly Step[]): string {
  const body: string[] = [];
  const constants = new Set<number>();
  const c = (n: number): string => {
    constants.add(n);
    return `%c${n}_i`;
  };
  const cur = types.map((t, k) => {
    body.push(`      %e${k} = tensor.empty() : ${TYPES[t]}`);
    return `%e${k}`;
  });
  let v = 0;
  const clip = (bytes: number, at: number, from: number, words: number, srcBytes: number): [number, number, number] | undefined => {
    const a = (at * 4) % bytes;
    const f = (from * 4) % srcBytes;
    const size = Math.min(words * 4, bytes - a, srcBytes - f);
    return size > 0 ? [a, f, size] : undefined;
  };
  for (const s of steps) {
    if (s.kind === 'load' || s.kind === 'store') {
      const t = types[s.buffer]!;
      const r = s.kind === 'load' ? clip(BYTES[t]!, s.at, s.from, s.words, 256) : clip(256, s.at, s.from, s.words, BYTES[t]!);
      if (!r) continue;
      const [a, f, size] = r;
      if (s.kind === 'load') {
        body.push(`      %v${v} = pim.memcp_hd[${c(a)}, ${c(f)}](${cur[s.buffer]}, %arg0) {size = ${size} : i32} : ${TYPES[t]}, memref<1x64xf32> -> ${TYPES[t]}`);
        cur[s.buffer] = `%v${v++}`;
      } else body.push(`      %s${v++} = pim.memcp_dh[${c(a)}, ${c(f)}](%out, ${cur[s.buffer]}) {size = ${size} : i32} : memref<1x64xf32>, ${TYPES[t]} -> memref<1x64xf32>`);
      continue;
    }
    const td = types[s.dst]!;
    const ts = types[s.src]!;
    if (s.kind === 'copy') {
      const r = clip(BYTES[td]!, s.at, s.from, s.words, BYTES[ts]!);
      if (!r) continue;
      const [a, f, size] = r;
      body.push(`      %v${v} = pim.memcp[${c(a)}, ${c(f)}](${cur[s.dst]}, ${cur[s.src]}) {size = ${size} : i32} : ${TYPES[td]}, ${TYPES[ts]} -> ${TYPES[td]}`);
    } else if (s.kind === 'whole') {
      if (BYTES[td] !== BYTES[ts] || s.dst === s.src) continue;
      body.push(`      %v${v} = pim.memcp[${c(0)}, ${c(0)}](${cur[s.dst]}, ${cur[s.src]}) {size = ${BYTES[td]} : i32} : ${TYPES[td]}, ${TYPES[ts]} -> ${TYPES[td]}`);
    } else {
      if (td !== ts) continue;
      body.push(`      %v${v} = pim.vrelu(${cur[s.src]}, ${cur[s.dst]}) : (${TYPES[ts]}, ${TYPES[td]}) -> ${TYPES[td]}`);
    }
    cur[s.dst] = `%v${v++}`;
  }
  return [
    'func.func @main(%arg0: memref<1x64xf32>) -> memref<1x64xf32> {',
    '  %out = memref.alloc() : memref<1x64xf32>',
    '  pim.core [] = [] coreId 2 : [] -> () {',
    ...[...constants].sort((x, y) => x - y).map((n) => `      %c${n}_i = arith.constant ${n} : index`),
    ...body,
    '      pim.halt',
    '  }',
    '  return %out : memref<1x64xf32>',
    '}',
  ].join('\n');
}

describe('pim-bufferize preserves meaning', () => {
  it('random streams compute the same host output on memrefs as on tensors, and their plans verify', () => {
    let shrunk = 0;
    let forwarded = 0;
    fc.assert(
      fc.property(programArb, ([types, steps]) => {
        const module = parseOk(programOf(types, steps));
        const inputs = randomInputs(module, steps.length);
        const expected = runPim(module, inputs);
        let report: BufferizeReport | undefined;
        const r = runPipeline(module, 'pim-bufferize,pim-plan-memory,pim-verify-memory', [() => new PimBufferizePass({ onReport: (x) => (report = x) })]);
        expect(r.diagnostics.map((d) => d.message)).toEqual([]);
        expect(runPim(module, inputs)).toEqual(expected);
        shrunk += report!.shrunk;
        forwarded += report!.forwarded;
      }),
      { numRuns: 60 },
    );
    // The generator reaches both size reductions.
    expect(shrunk).toBeGreaterThan(0);
    expect(forwarded).toBeGreaterThan(0);
  });
});
