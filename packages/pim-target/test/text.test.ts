import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  MNEMONICS,
  assemble,
  decodePimb,
  disassemble,
  dumpPimb,
  formatInstruction,
  makeInstruction,
  type Instruction,
} from '@raptor-pim/pim-target';
import { EXAMPLE_DIR, anyInstructionArb, describeShared, everyOpcodeSample, instructionArb } from './helpers';

describe('disassembler / assembler', () => {
  test('the syntax of every opcode (golden)', () => {
    const text = disassemble(everyOpcodeSample());
    const golden = path.join(__dirname, 'fixtures', 'every-opcode.s');
    if (process.env.UPDATE_GOLDEN) fs.writeFileSync(golden, text);
    expect(text).toBe(fs.readFileSync(golden, 'utf8'));
  });

  test.each(MNEMONICS.map((op) => [op]))('%s: disassemble -> assemble round trip', (op) => {
    fc.assert(
      fc.property(instructionArb(op), (ins) => {
        const text = formatInstruction(ins);
        const back = assemble(text);
        expect(back.diagnostics).toEqual([]);
        expect(back.instructions).toEqual([ins]);
      }),
      { numRuns: 30 },
    );
  });

  test('whole programs round trip, with comments and blank lines ignored', () => {
    fc.assert(
      fc.property(fc.array(anyInstructionArb, { maxLength: 30 }), (program) => {
        const text = `# header comment\n\n${disassemble(program, { indexComments: true })}; trailer\n`;
        const back = assemble(text);
        expect(back.diagnostics).toEqual([]);
        expect(back.instructions).toEqual(program);
        expect(back.lines).toEqual(program.map((_, i) => i + 3));
      }),
      { numRuns: 50 },
    );
  });

  test('pleasant forms: keyword registers, hex/binary immediates, case-insensitive, // comments, aliases', () => {
    const { instructions, diagnostics } = assemble(
      [
        'SLDI r1, 0x10   // sixteen',
        'vvadd rd=r3, rs1=r1, rs2=r2, len=0b100',
        'ld r2, r0, size=128, offset_select=1, offset_value=-4',
        'wait event_register=1, wait_value=2',
        'sldi r2, 0xffffffff',
      ].join('\n'),
    );
    expect(diagnostics).toEqual([]);
    expect(instructions).toEqual<Instruction[]>([
      makeInstruction('sldi', { rd: 1, imm: 16 }),
      makeInstruction('vvadd', { rd: 3, rs1: 1, rs2: 2, len: 4 }),
      makeInstruction('ld', { rd: 2, rs1: 0, size: 128, offsetSelect: 1, offsetValue: -4 }),
      makeInstruction('wait', { eventRegister: 1, waitValue: 2 }),
      makeInstruction('sldi', { rd: 2, imm: -1 }),
    ]);
  });

  test('invalid input reports line:col and message (fixtures/asm-invalid.s)', () => {
    const source = fs.readFileSync(path.join(__dirname, 'fixtures', 'asm-invalid.s'), 'utf8');
    const cases = source.split(/^# -----$/m);
    expect(cases.length).toBeGreaterThan(10);
    for (const chunk of cases) {
      const lines = chunk.split('\n');
      const expected: { line: number; column: number; message: string }[] = [];
      lines.forEach((line, i) => {
        const m = /expected-error@\+(\d+):(\d+) \{\{(.*)\}\}/.exec(line);
        if (m) expected.push({ line: i + 1 + Number(m[1]), column: Number(m[2]), message: m[3]! });
      });
      const result = assemble(chunk, { file: 'case.s' });
      expect(result.diagnostics.map((d) => ({ line: d.line, column: d.column, message: d.message }))).toEqual(expected);
    }
  });

  test('every bad line is reported, the good ones still assemble', () => {
    const result = assemble('sldi r1, 1\nbogus\nsldi r2, 2\nvvadd r1\n');
    expect(result.instructions).toHaveLength(2);
    expect(result.diagnostics.map((d) => d.line)).toEqual([2, 4]);
  });

  test('arbitrary text never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const result = assemble(text);
        for (const d of result.diagnostics) expect(d.line).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

describeShared('disassembly of the pimsim-nn example', () => {
  test('dumpPimb lists records with offsets and raw slots, and the listing assembles back (golden)', () => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(EXAMPLE_DIR, 'prog-pim', 'core_0.pim')));
    const dump = dumpPimb(bytes, { file: 'core_0.pim' });
    expect(dump.diagnostics).toEqual([]);
    const golden = path.join(__dirname, 'fixtures', 'example-core_0.dump');
    if (process.env.UPDATE_GOLDEN) fs.writeFileSync(golden, dump.text);
    expect(dump.text).toBe(fs.readFileSync(golden, 'utf8'));
    expect(assemble(dump.text).instructions).toEqual(decodePimb(bytes).instructions);
    const broken = bytes.slice(0, 12 + 40);
    broken[12 + 20] = 99;
    expect(dumpPimb(broken).text).toBe(
      '# PIMB v1, 2 records\nsetbw ibiw=8, obiw=8  # [0] @12: op=8 rd=0 rs1=0 flags=0 r2=0 g1=8 g2=8 g3=0\n# [1] @32: op=99 rd=0 rs1=0 flags=0 r2=0 g1=0 g2=0 g3=0 (not decodable)\n',
    );
    expect(dumpPimb(new Uint8Array(3)).text).toBe('# not a readable PIMB v1 file\n');
  });

  test('core_1.pim disassembles as documented', () => {
    const decoded = decodePimb(new Uint8Array(fs.readFileSync(path.join(EXAMPLE_DIR, 'prog-pim', 'core_1.pim'))));
    expect(disassemble(decoded.instructions!)).toBe(
      [
        'setbw ibiw=8, obiw=8',
        'sldi r0, 0',
        'recv r0, core=0, size=128',
        'wait ev=0, value=1',
        'sldi r1, 1024',
        'mvmul r1, r0, mbiw=8, relu=0, group=0',
        'sldi r2, 0',
        'sldi r3, 4096',
        'st r2, r1, size=256',
        'sync ev=1, core=0',
        '',
      ].join('\n'),
    );
  });
});
