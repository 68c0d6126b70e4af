/** Emission of hand-written bufferized programs: golden disassembly, validation, differential runs. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultTarget, disassemble, validateBundle } from '@raptor-pim/pim-target';
import { emitBundle } from '../src';
import { FIXTURES, expectClose, fixture, interpret, parseModule, randomValues, simulate } from './helpers';

function golden(name: string, text: string): void {
  const file = path.join(FIXTURES, 'golden', name);
  if (process.env.UPDATE_GOLDEN === '1' || !fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  expect(text).toBe(fs.readFileSync(file, 'utf8'));
}

function disassembly(bundle: { programs: Parameters<typeof disassemble>[0][]; arrayGroupMap: number[][] }): string {
  return bundle.programs
    .map((p, core) => `# core ${core}: array groups [${bundle.arrayGroupMap[core]!.join(', ')}]\n${disassemble(p)}`)
    .join('\n');
}

interface Case {
  readonly file: string;
  /** Argument indices of the model inputs (random data), in order. */
  readonly inputs: readonly number[];
  /** Argument indices of the model outputs, in order. */
  readonly outputs: readonly number[];
}

const CASES: readonly Case[] = [
  { file: 'one-core-vmm', inputs: [0], outputs: [1] },
  { file: 'two-core-send-recv', inputs: [0, 1], outputs: [2] },
  { file: 'host-sync-wait', inputs: [0], outputs: [1] },
  { file: 'data-movement', inputs: [0], outputs: [1, 2] },
];

describe.each(CASES)('$file', ({ file, inputs, outputs }) => {
  const text = fixture(`programs/${file}.mlir`);

  it('emits the golden program; pim-target validates it with no pimsim-nn warning', () => {
    const r = emitBundle(parseModule(text), defaultTarget());
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    golden(`${file}.pim.txt`, disassembly(r.bundle));
    const v = validateBundle(r.bundle);
    expect(v.diagnostics).toEqual([]);
    expect(v.pimsimCompatible).toBe(true);
  });

  it('pim-sim on the bundle gives the interpreter\'s outputs', () => {
    const module = parseModule(text);
    const r = emitBundle(module, defaultTarget());
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    expect(r.bundle.inputs.map((t) => t.name)).toEqual(inputs.map((_, k) => `input_${k}`));
    expect(r.bundle.outputs.map((t) => t.name)).toEqual(outputs.map((_, k) => `output_${k}`));
    const data = new Map(inputs.map((arg, k) => [arg, randomValues(r.bundle.inputs[k]!.shape.reduce((a, b) => a * b, 1), 11 + arg)] as const));
    const finals = interpret(parseModule(text), data);
    const byName: Record<string, Float32Array> = {};
    r.bundle.inputs.forEach((t, k) => (byName[t.name] = data.get(inputs[k]!)!));
    const sim = simulate(r.bundle, byName);
    r.bundle.outputs.forEach((t, k) => {
      const expected = finals[outputs[k]!]!;
      expect(expected.some((v) => v !== 0)).toBe(true);
      expectClose(sim.outputs.get(t.name)!, expected);
    });
  });
});
