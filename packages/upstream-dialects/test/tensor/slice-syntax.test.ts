/**
 * Random slice ops (mixed static/dynamic offsets, sizes and strides; rank-reducing results):
 * our custom form is a fixed point through our generic form, and equals what mlir-opt 22 prints
 * for the same input (one mlir-opt call for the whole random module, when installed).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as fc from 'fast-check';
import { printOperation } from '@raptor-pim/ir-core';
import { parseVerified } from './helpers';

const mlirOpt = process.env.MLIR_OPT ?? '/usr/lib/llvm-22/bin/mlir-opt';

interface Entry {
  readonly dyn: boolean;
  readonly value: number;
}
interface Dim {
  readonly extent: number;
  readonly offset: Entry;
  readonly size: Entry;
  readonly stride: Entry;
}

const dimArb: fc.Arbitrary<Dim> = fc
  .integer({ min: 1, max: 9 })
  .chain((extent) =>
    fc
      .tuple(fc.integer({ min: 0, max: extent - 1 }), fc.integer({ min: 1, max: 3 }))
      .chain(([off, st]) =>
        fc.record({
          extent: fc.constant(extent),
          offset: fc.record({ dyn: fc.boolean(), value: fc.constant(off) }),
          size: fc.record({ dyn: fc.boolean(), value: fc.integer({ min: 1, max: Math.floor((extent - 1 - off) / st) + 1 }) }),
          stride: fc.record({ dyn: fc.boolean(), value: fc.constant(st) }),
        }),
      ),
  );

const caseArb = fc.record({ dims: fc.array(dimArb, { minLength: 1, maxLength: 4 }), insert: fc.boolean(), dropUnit: fc.boolean() });

function fn(name: string, c: { dims: Dim[]; insert: boolean; dropUnit: boolean }): string {
  const shape = c.dims.map((d) => d.extent);
  const t = `tensor<${shape.join('x')}xf32>`;
  const sizes = c.dims.map((d) => (d.size.dyn ? -1 : d.size.value));
  const kept = sizes.filter((s) => !(c.dropUnit && s === 1));
  const st = `tensor<${kept.map((s) => (s < 0 ? '?' : String(s))).join('x')}${kept.length ? 'x' : ''}f32>`;
  let k = 0;
  const args: string[] = [];
  const list = (pick: (d: Dim) => Entry) =>
    '[' +
    c.dims
      .map((d) => {
        const e = pick(d);
        if (!e.dyn) return String(e.value);
        args.push(`%i${k}: index`);
        return `%i${k++}`;
      })
      .join(', ') +
    ']';
  const lists = `${list((d) => d.offset)} ${list((d) => d.size)} ${list((d) => d.stride)}`;
  const body = c.insert
    ? `%r = tensor.insert_slice %s into %t${lists} : ${st} into ${t}`
    : `%r = tensor.extract_slice %t${lists} : ${t} to ${st}`;
  return `func.func @${name}(%t: ${t}, %s: ${st}${args.length ? ', ' + args.join(', ') : ''}) {\n  ${body}\n  return\n}`;
}

describe('random slice syntax', () => {
  const cases = fc.sample(caseArb, { numRuns: 60, seed: 20261130 });
  const text = cases.map((c, i) => fn(`f${i}`, c)).join('\n');

  it('custom -> generic -> custom is a fixed point', () => {
    const m = parseVerified(text);
    const custom = printOperation(m);
    expect(printOperation(parseVerified(printOperation(m, { generic: true })))).toBe(custom);
    expect(printOperation(parseVerified(custom))).toBe(custom);
  });

  (fs.existsSync(mlirOpt) ? it : it.skip)('our custom and generic forms equal mlir-opt 22 output for the same input', () => {
    const m = parseVerified(text);
    const theirs = execFileSync(mlirOpt, ['-'], { input: text, encoding: 'utf8' });
    expect(printOperation(m) + '\n').toBe(theirs);
    const theirsGeneric = execFileSync(mlirOpt, ['--mlir-print-op-generic', '-'], { input: text, encoding: 'utf8' });
    expect(printOperation(m, { generic: true }) + '\n').toBe(theirsGeneric);
  });
});
