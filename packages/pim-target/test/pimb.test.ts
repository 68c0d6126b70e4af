import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  MNEMONICS,
  Opcode,
  decodePimb,
  encodePimb,
  formatDiagnostic,
  makeInstruction,
  parseProgramJson,
  type Instruction,
} from '@raptor-pim/pim-target';
import { EXAMPLE_DIR, describeShared, everyOpcodeSample, instructionArb } from './helpers';

/** What PIMB can carry: scalar rs2 is lost (decodes as r0). */
function pimbImage(ins: Instruction): Instruction {
  return ins.op === 'sadd' || ins.op === 'ssub' || ins.op === 'smul' ? { ...ins, rs2: 0 } : ins;
}

function header(count: number): number[] {
  return [0x50, 0x49, 0x4d, 0x42, 1, 0, 0, 0, count & 255, (count >> 8) & 255, (count >> 16) & 255, count >>> 24];
}

describe('PIMB v1 encoding', () => {
  test('opcode numbers follow pim-isa.md section 3 (vsoftmax = 21, vmv = 22, sync = 32)', () => {
    expect(Opcode.vsoftmax).toBe(21);
    expect(Opcode.vmv).toBe(22);
    expect(Opcode.sync).toBe(32);
    MNEMONICS.forEach((op, i) => expect(Opcode[op]).toBe(i));
  });

  test.each(MNEMONICS.map((op) => [op]))('%s: encode -> decode -> encode round trip', (op) => {
    fc.assert(
      fc.property(instructionArb(op), (ins) => {
        const first = encodePimb([ins]);
        expect(first.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const decoded = decodePimb(first.bytes!);
        expect(decoded.diagnostics).toEqual([]);
        expect(decoded.instructions).toEqual([pimbImage(ins)]);
        expect(encodePimb(decoded.instructions!).bytes).toEqual(first.bytes);
        expect(first.bytes![12]).toBe(Opcode[op]);
      }),
      { numRuns: 40 },
    );
  });

  test('any record: decode -> encode is byte-identical exactly when decoding gave no diagnostic', () => {
    const recordArb = fc.record({
      opcode: fc.integer({ min: 0, max: 32 }),
      rd: fc.integer({ min: 0, max: 255 }),
      rs1: fc.integer({ min: 0, max: 255 }),
      flags: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 255 })),
      slots: fc.array(fc.oneof(fc.constant(0), fc.constant(1), fc.integer({ min: -2147483648, max: 2147483647 })), { minLength: 4, maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 8 }), (records) => {
        const bytes = new Uint8Array(header(records.length).concat(new Array(20 * records.length).fill(0)));
        const view = new DataView(bytes.buffer);
        records.forEach((r, i) => {
          const at = 12 + 20 * i;
          bytes.set([r.opcode, r.rd, r.rs1, r.flags], at);
          r.slots.forEach((v, k) => view.setInt32(at + 4 + 4 * k, v, true));
        });
        const decoded = decodePimb(bytes);
        const reencoded = encodePimb(decoded.instructions!);
        expect(reencoded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(decodePimb(reencoded.bytes!).instructions).toEqual(decoded.instructions);
        const identical = Buffer.from(reencoded.bytes!).equals(Buffer.from(bytes));
        const clean = decoded.diagnostics.length === 0;
        expect(identical).toBe(clean);
      }),
      { numRuns: 300 },
    );
  });

  test('a program of every opcode has the documented size and decodes to itself', () => {
    const program = everyOpcodeSample().map(pimbImage);
    const { bytes, diagnostics } = encodePimb(program);
    expect(diagnostics).toEqual([]);
    expect(bytes!.length).toBe(12 + 20 * program.length);
    expect(decodePimb(bytes!).instructions).toEqual(program);
  });

  test('field mapping of section 8.3 (sync: event_register in generic1, core in r2_or_imm)', () => {
    const { bytes } = encodePimb([makeInstruction('sync', { eventRegister: 3, core: 7 })]);
    const view = new DataView(bytes!.buffer);
    expect(view.getInt32(12 + 4, true)).toBe(7);
    expect(view.getInt32(12 + 8, true)).toBe(3);
    const wait = encodePimb([makeInstruction('wait', { eventRegister: 2, waitValue: 9 })]).bytes!;
    const wv = new DataView(wait.buffer);
    expect([wv.getInt32(16, true), wv.getInt32(20, true), wv.getInt32(24, true), wv.getInt32(28, true)]).toEqual([0, 2, 9, 0]);
    const ld = new DataView(encodePimb([makeInstruction('ld', { rd: 2, rs1: 4, size: 128 })]).bytes!.buffer);
    expect(ld.getInt32(12 + 16, true)).toBe(128);
  });

  test('lossy: sadd rs2 is not stored (warning on encode, r0 on decode)', () => {
    const { bytes, diagnostics } = encodePimb([makeInstruction('sadd', { rd: 5, rs1: 6, rs2: 7 })], { file: 'core_0.pim' });
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      "core_0.pim:instruction 0: warning: 'sadd' rs2 = r7 cannot be stored in PIMB (the scalar class has no rs2 slot); it decodes as r0 (pim-isa.md §8.4a)",
    ]);
    expect(decodePimb(bytes!).instructions).toEqual([makeInstruction('sadd', { rd: 5, rs1: 6, rs2: 0 })]);
  });

  test('lossy: unused slots, flags and trailing bytes are dropped with warnings', () => {
    const { bytes } = encodePimb([makeInstruction('recv', { rd: 1, core: 2, size: 16 })]);
    const changed = new Uint8Array([...bytes!, 0xaa, 0xbb]);
    changed[12 + 2] = 9; // rs1 byte, unused by recv
    changed[12 + 3] = 1; // flags
    const decoded = decodePimb(changed, { file: 'core_1.pim' });
    expect(decoded.instructions).toEqual([makeInstruction('recv', { rd: 1, core: 2, size: 16 })]);
    expect(decoded.diagnostics.map(formatDiagnostic)).toEqual([
      'core_1.pim:byte 32: warning: 2 bytes after the last record are ignored (pimsim-nn ignores them too)',
      'core_1.pim:instruction 0:byte 12: warning: flags byte is 1, expected 0 (ignored on read)',
      "core_1.pim:instruction 0:byte 12: warning: 'recv' does not use the rs1 byte slot, which holds 9; the value is dropped",
    ]);
  });

  test('unencodable values are errors, not throws', () => {
    const bad = encodePimb([makeInstruction('vvadd', { rd: 300, rs1: 1, rs2: 2, len: 1.5 })], { file: 'x.pim' });
    expect(bad.bytes).toBeUndefined();
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['encode-out-of-range', 'encode-not-integer']);
    const unknown = encodePimb([{ op: 'vfoo' } as unknown as Instruction]);
    expect(unknown.diagnostics[0]!.code).toBe('encode-unknown-op');
  });

  test('header errors: short file, bad magic, bad version, truncated records, unknown opcode', () => {
    expect(decodePimb(new Uint8Array([0x50, 0x49])).diagnostics[0]!.code).toBe('pimb-truncated-header');
    expect(decodePimb(new Uint8Array([...'PIMX'].map((c) => c.charCodeAt(0)).concat(header(0).slice(4)))).diagnostics[0]!.message).toBe(
      'invalid PIM binary magic 50 49 4d 58, expected "PIMB" (50 49 4d 42)',
    );
    const v2 = new Uint8Array(header(0));
    v2[4] = 2;
    expect(decodePimb(v2).diagnostics[0]!.message).toBe('unsupported PIM binary version 2, expected 1');
    const truncated = decodePimb(new Uint8Array([...header(3), ...new Array(20 + 7).fill(0)]), { file: 'core_0.pim' });
    expect(truncated.instructions).toHaveLength(1);
    expect(formatDiagnostic(truncated.diagnostics[0]!)).toBe(
      'core_0.pim:instruction 1:byte 32: error: header announces 3 records but the file holds only 1 complete 20-byte records and 7 bytes of a truncated one',
    );
    const unknown = decodePimb(new Uint8Array([...header(1), 33, ...new Array(19).fill(0)]), { file: 'core_0.pim' });
    expect(formatDiagnostic(unknown.diagnostics[0]!)).toBe('core_0.pim:instruction 0:byte 12: error: unknown opcode 33, expected 0..32 (pim-isa.md §3)');
  });

  test('a huge record count in the header costs nothing (bounded by the file size)', () => {
    const started = Date.now();
    const decoded = decodePimb(new Uint8Array(header(0xffffffff)));
    expect(decoded.instructions).toEqual([]);
    expect(decoded.diagnostics[0]!.code).toBe('pimb-truncated-record');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describeShared('pimsim-nn example (prog-pim vs prog-json)', () => {
  for (const core of ['core_0', 'core_1']) {
    test(`${core}.pim decodes to the instructions of ${core}.json and re-encodes byte-identically`, () => {
      const pim = new Uint8Array(fs.readFileSync(path.join(EXAMPLE_DIR, 'prog-pim', `${core}.pim`)));
      const json = fs.readFileSync(path.join(EXAMPLE_DIR, 'prog-json', `${core}.json`), 'utf8');
      const decoded = decodePimb(pim, { file: `${core}.pim` });
      expect(decoded.diagnostics).toEqual([]);
      const fromJson = parseProgramJson(json, { file: `${core}.json` });
      expect(fromJson.diagnostics).toEqual([]);
      expect(decoded.instructions).toEqual(fromJson.instructions);
      const reencoded = encodePimb(decoded.instructions!);
      expect(reencoded.diagnostics).toEqual([]);
      expect(Buffer.from(reencoded.bytes!).equals(Buffer.from(pim))).toBe(true);
      expect(Buffer.from(encodePimb(fromJson.instructions!).bytes!).equals(Buffer.from(pim))).toBe(true);
    });
  }
});
