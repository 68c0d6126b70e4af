/** Emission of hand-written bufferized programs: golden disassembly, validation, differential runs. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultTarget, disassemble, validateBundle } from '@raptor-pim/pim-target';
import { emitBundle } from '../src';
import { FIXTURES, fixture, interpret, parseModule, randomValues, simulate } from './helpers';

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

describe('one core: vmm + vrelu', () => {
  const text = fixture('programs/one-core-vmm.mlir');

  it('emits the golden program, validates, and matches the interpreter in pim-sim', () => {
    const module = parseModule(text);
    const r = emitBundle(module, defaultTarget());
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    golden('one-core-vmm.pim.txt', disassembly(r.bundle));
    const v = validateBundle(r.bundle);
    expect(v.errorCount).toBe(0);
    expect(v.pimsimCompatible).toBe(true);
    const x = randomValues(4, 7);
    const expected = interpret(parseModule(text), new Map([[0, x]]))[1]!;
    const sim = simulate(r.bundle, { input_0: x });
    expect(Array.from(sim.outputs.get('output_0')!)).toEqual(Array.from(expected));
  });
});
