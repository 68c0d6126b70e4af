/**
 * Property: for random multi-core pipelines (a chain of cores, each loading or receiving a row,
 * applying a random sequence of vector and matrix ops, then sending it on or storing it), the
 * emitted bundle validates with no pimsim-nn warning, and pim-sim computes exactly what the
 * pim interpreter computes on the module.
 */
import * as fc from 'fast-check';
import { defaultTarget, validateBundle } from '@raptor-pim/pim-target';
import { emitBundle } from '../src';
import { expectClose, interpret, parseModule, randomValues, simulate } from './helpers';

type Step = { kind: 'unary'; op: 'vrelu' | 'vtanh' | 'vsigm' } | { kind: 'binary'; op: 'vvadd' | 'vvsub' | 'vvmul' | 'vvmax' } | { kind: 'vmm'; cols: number; seed: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('unary' as const), op: fc.constantFrom('vrelu' as const, 'vtanh' as const, 'vsigm' as const) }),
  fc.record({ kind: fc.constant('binary' as const), op: fc.constantFrom('vvadd' as const, 'vvsub' as const, 'vvmul' as const, 'vvmax' as const) }),
  fc.record({ kind: fc.constant('vmm' as const), cols: fc.integer({ min: 1, max: 160 }), seed: fc.integer({ min: 1, max: 1000 }) }),
);

const programArb = fc.record({
  width: fc.integer({ min: 1, max: 40 }),
  cores: fc.array(fc.array(stepArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
  firstCore: fc.integer({ min: 0, max: 8 }),
});

function row(n: number): string {
  return `memref<1x${n}xf32>`;
}

/** The MLIR text of a generated pipeline and its input/output widths. */
function generate(p: { width: number; cores: Step[][]; firstCore: number }): { text: string; inWidth: number; outWidth: number } {
  const globals: string[] = [];
  const cores: string[] = [];
  let width = p.width;
  const inWidth = width;
  p.cores.forEach((steps, k) => {
    const core = p.firstCore + k;
    const lines: string[] = ['%c0 = arith.constant 0 : index'];
    const weights: { name: string; type: string }[] = [];
    let next = 0;
    const alloc = (n: number): string => {
      const name = `%b${next}`;
      lines.push(`${name} = memref.alloc() {pim.address = ${next * 4096} : i64} : ${row(n)}`);
      next++;
      return name;
    };
    let cur = alloc(width);
    if (k === 0) lines.push(`%in = pim.memcp_hd[%c0, %c0](${cur}, %x) {size = ${width * 4} : i32} : ${row(width)}, ${row(width)} -> ${row(width)}`);
    else {
      lines.push(`%src = arith.constant ${core - 1} : index`);
      lines.push(`%in = pim.receive[%c0](${cur}, %src) {size = ${width * 4} : i32} : ${row(width)} -> ${row(width)}`);
    }
    steps.forEach((s, i) => {
      if (s.kind === 'unary') {
        const d = alloc(width);
        lines.push(`%s${i} = pim.${s.op}(${cur}, ${d}) : (${row(width)}, ${row(width)}) -> ${row(width)}`);
        cur = d;
      } else if (s.kind === 'binary') {
        const d = alloc(width);
        lines.push(`%s${i} = pim.${s.op}(${cur}, ${cur}, ${d}) : (${row(width)}, ${row(width)}, ${row(width)}) -> ${row(width)}`);
        cur = d;
      } else {
        const rows = Math.min(width, 128);
        if (rows !== width) return;
        const w = randomValues(rows * s.cols, s.seed);
        const name = `%w${k}_${i}`;
        const type = `tensor<${rows}x${s.cols}xf32>`;
        const values = Array.from({ length: rows }, (_, r) => `[${Array.from(w.subarray(r * s.cols, (r + 1) * s.cols), (v) => v.toExponential(8)).join(', ')}]`);
        globals.push(`${name} = arith.constant dense<[${values.join(', ')}]> : ${type}`);
        weights.push({ name, type });
        const d = alloc(s.cols);
        lines.push(`%s${i} = pim.vmm[%a${weights.length - 1}](${cur}, ${d}) : (${type}, ${row(width)}, ${row(s.cols)}) -> ${row(s.cols)}`);
        cur = d;
        width = s.cols;
      }
    });
    if (k === p.cores.length - 1) lines.push(`%out = pim.memcp_dh[%c0, %c0](%y, ${cur}) {size = ${width * 4} : i32} : ${row(width)}, ${row(width)} -> ${row(width)}`);
    else {
      lines.push(`%dst = arith.constant ${core + 1} : index`);
      lines.push(`pim.send(${cur}, %dst) {size = ${width * 4} : i32} : ${row(width)} -> ()`);
    }
    lines.push('pim.halt');
    const args = weights.map((_, j) => `%a${j}`).join(', ');
    const vals = weights.map((w) => w.name).join(', ');
    const types = weights.map((w) => w.type).join(', ');
    cores.push(
      `  pim.core [${args}] = [${vals}] coreId ${core} attributes {pim.local_memory_size = ${next * 4096} : i32} : [${types}] -> () {\n${lines.map((l) => `    ${l}`).join('\n')}\n  }`,
    );
  });
  const text = `func.func @main(%x: ${row(inWidth)}, %y: ${row(width)}) {\n${globals.map((g) => `  ${g}`).join('\n')}\n${cores.join('\n')}\n  return\n}\n`;
  return { text, inWidth, outWidth: width };
}

it('random multi-core pipelines: valid bundles, pim-sim == interpreter', () => {
  fc.assert(
    fc.property(programArb, fc.integer({ min: 1, max: 1 << 20 }), (p, seed) => {
      const { text, inWidth } = generate(p);
      const r = emitBundle(parseModule(text), defaultTarget());
      if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n') + '\n' + text);
      const v = validateBundle(r.bundle);
      expect(v.pimsimCompatible).toBe(true);
      const x = randomValues(inWidth, seed);
      const expected = interpret(parseModule(text), new Map([[0, x]]))[1]!;
      const got = simulate(r.bundle, { input_0: x }).outputs.get('output_0')!;
      expectClose(got, expected);
    }),
    { numRuns: 40, seed: 20261201 },
  );
});
