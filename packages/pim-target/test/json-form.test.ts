import fc from 'fast-check';
import {
  MNEMONICS,
  formatDiagnostic,
  formatProgramJson,
  instructionFromJson,
  instructionToJson,
  makeInstruction,
  parseJsonText,
  parseProgramJson,
} from '@raptor-pim/pim-target';
import { everyOpcodeSample, instructionArb } from './helpers';

describe('JSON instruction form', () => {
  test.each(MNEMONICS.map((op) => [op]))('%s: JSON -> instruction -> JSON round trip', (op) => {
    fc.assert(
      fc.property(instructionArb(op), (ins) => {
        const json = instructionToJson(ins);
        const back = instructionFromJson(JSON.parse(JSON.stringify(json)));
        expect(back.diagnostics).toEqual([]);
        expect(back.instruction).toEqual(ins);
        expect(instructionToJson(back.instruction!)).toEqual(json);
      }),
      { numRuns: 30 },
    );
  });

  test('canonical JSON follows PIMCOMP/pimsim-nn key names and order', () => {
    const lines = everyOpcodeSample()
      .filter((i) => ['sld', 'setbw', 'mvmul', 'vvadd', 'send', 'recv', 'wait', 'sync', 'lldi'].includes(i.op))
      .map((i) => JSON.stringify(instructionToJson(i)));
    expect(lines).toEqual([
      '{"op":"sld","rd":2,"rs1":3,"offset_value":17}',
      '{"op":"setbw","ibiw":57,"obiw":58}',
      '{"op":"mvmul","rd":9,"rs1":10,"mbiw":66,"relu":1,"group":68}',
      '{"op":"vvadd","rd":10,"rs1":11,"rs2":12,"len":74,"offset":{"offset_select":6,"offset_value":76}}',
      '{"op":"lldi","rd":27,"imm":191,"len":192,"offset":{"offset_select":6,"offset_value":194}}',
      '{"op":"send","rd":29,"rs1":30,"core":206,"size":207,"offset":{"offset_select":1,"offset_value":209}}',
      '{"op":"recv","rd":30,"core":212,"size":213,"offset":{"offset_select":1,"offset_value":215}}',
      '{"op":"wait","event_register":31,"wait_value":219}',
      '{"op":"sync","event_register":0,"core":226}',
    ]);
  });

  test('pimsim-nn reading rules: absent keys are 0, unknown keys ignored, relu may be a boolean', () => {
    expect(instructionFromJson({ op: 'vvadd', comment: 'x' }).instruction).toEqual(makeInstruction('vvadd'));
    expect(instructionFromJson({ op: 'mvmul', relu: true, mbiw: 8 }).instruction).toEqual(
      makeInstruction('mvmul', { relu: true, mbiw: 8 }),
    );
    // PIMCOMP writes "rs1": 0 on recv: accepted silently; a non-zero unused key is a warning.
    expect(instructionFromJson({ op: 'recv', rd: 0, rs1: 0, core: 1, size: 4 }).diagnostics).toEqual([]);
    const unused = instructionFromJson({ op: 'ld', rd: 1, rs1: 2, size: 4, len: 9 }, 3, { file: 'core_0.json' });
    expect(unused.instruction).toEqual(makeInstruction('ld', { rd: 1, rs1: 2, size: 4 }));
    expect(unused.diagnostics.map(formatDiagnostic)).toEqual([
      `core_0.json:instruction 3: warning: 'ld' does not use "len", which is 9; the value is dropped`,
    ]);
  });

  test('errors: unknown op, missing op, mistyped key, not an object, not an array, bad JSON', () => {
    const program = parseProgramJson('[{"op":"vfoo"},{"rd":1},{"op":"sldi","imm":"x"},3,{"op":"vvadd","offset":[1]},{"op":"mvmul","relu":2}]', {
      file: 'core_0.json',
    });
    expect(program.instructions).toEqual([]);
    expect(program.diagnostics.map(formatDiagnostic)).toEqual([
      'core_0.json:instruction 0: error: unknown opcode "vfoo" (pimsim-nn: Opcode::_from_string: invalid argument)',
      'core_0.json:instruction 1: error: instruction has no "op" key',
      'core_0.json:instruction 2: error: "imm" must be an integer, got "x"',
      'core_0.json:instruction 3: error: an instruction must be a JSON object, got 3',
      'core_0.json:instruction 4: error: "offset" must be an object {"offset_select", "offset_value"}, got an array of 1 elements',
      'core_0.json:instruction 5: error: mvmul relu is 2, expected 0 or 1',
    ]);
    expect(parseProgramJson('{"op":"nop"}').diagnostics[0]!.code).toBe('json-not-array');
    const bad = parseProgramJson('[\n {"op": }\n]', { file: 'c.json' });
    expect(bad.diagnostics[0]!.code).toBe('json-syntax');
    expect(bad.diagnostics[0]!.line).toBe(2);
  });

  test('JSON syntax errors are located (agrees with JSON.parse on validity)', () => {
    const located = (text: string): boolean => parseJsonText(text).diagnostics[0]?.line !== undefined;
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string({ maxLength: 40 }), fc.json().map((t) => t.slice(0, -1))), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(parseJsonText(text).value === undefined).toBe(!valid);
        if (!valid) expect(located(text)).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(parseJsonText('{"a": 1,\n  "b": tru}').diagnostics[0]).toMatchObject({ line: 2, column: 8 });
  });

  test('programs print like the pimsim-nn examples (one-space indentation)', () => {
    const text = formatProgramJson([makeInstruction('sldi', { rd: 0, imm: 4 }), makeInstruction('wait', { eventRegister: 1, waitValue: 1 })]);
    expect(text).toBe('[\n {\n  "op": "sldi",\n  "rd": 0,\n  "imm": 4\n },\n {\n  "op": "wait",\n  "event_register": 1,\n  "wait_value": 1\n }\n]');
  });
});
