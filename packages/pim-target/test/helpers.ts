import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  assemble,
  createBundle,
  defaultHardwareConfig,
  meshNetworkTable,
  type ProgramBundle,
  MNEMONICS,
  OPERAND_FIELDS,
  makeInstruction,
  type Instruction,
  type Mnemonic,
  type OperandField,
} from '@raptor-pim/pim-target';

/** The `shared/` folder beside the repository checkout (or $RAPTOR_SHARED). */
export const SHARED_DIR = process.env.RAPTOR_SHARED ?? path.resolve(__dirname, '../../../../shared');
export const SPEC_DIR = path.join(SHARED_DIR, 'spec');
export const EXAMPLE_DIR = path.join(SPEC_DIR, 'pimsim-nn-example');
export const BENCH_DIR = path.join(SPEC_DIR, 'pimsim-nn-bench');
export const HAVE_SHARED = fs.existsSync(EXAMPLE_DIR) && fs.existsSync(BENCH_DIR);
if (!HAVE_SHARED) {
  // eslint-disable-next-line no-console
  console.log(`pim-target: skipping tests on pimsim-nn data: ${SPEC_DIR} not found (set RAPTOR_SHARED)`);
}
/** `describe` that is skipped when the shared test data is absent. */
export const describeShared = HAVE_SHARED ? describe : describe.skip;

const INT32 = fc.integer({ min: -2147483648, max: 2147483647 });
const REG = fc.integer({ min: 0, max: 31 });

function fieldArb(field: OperandField): fc.Arbitrary<number | boolean> {
  switch (field) {
    case 'rd':
    case 'rs1':
    case 'rs2':
      return REG;
    case 'relu':
      return fc.boolean();
    case 'eventRegister':
      return fc.integer({ min: 0, max: 31 });
    case 'offsetSelect':
      return fc.integer({ min: 0, max: 7 });
    default:
      return INT32;
  }
}

/** An arbitrary instruction of mnemonic `op` (any field values a valid encoding can hold). */
export function instructionArb(op: Mnemonic): fc.Arbitrary<Instruction> {
  const record: Record<string, fc.Arbitrary<number | boolean>> = {};
  for (const field of OPERAND_FIELDS[op]) record[field] = fieldArb(field);
  return fc.record(record).map((fields) => makeInstruction(op, fields as never));
}

/** An arbitrary instruction of any mnemonic. */
export const anyInstructionArb: fc.Arbitrary<Instruction> = fc.constantFrom(...MNEMONICS).chain(instructionArb);

/** One hand-picked instance of every opcode, in opcode order. */
export function everyOpcodeSample(): Instruction[] {
  return MNEMONICS.map((op, i) => {
    const fields: Record<string, number | boolean> = {};
    OPERAND_FIELDS[op].forEach((field, k) => {
      fields[field] =
        field === 'relu'
          ? true
          : field === 'offsetSelect'
            ? (i + k) % 8
            : field === 'rd' || field === 'rs1' || field === 'rs2' || field === 'eventRegister'
              ? (i + k) % 32
              : i * 7 + k + 1;
    });
    return makeInstruction(op, fields as never);
  });
}

/** Reads every regular file of a directory into a name -> bytes map. */
export function readDirFiles(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) files.set(entry.name, new Uint8Array(fs.readFileSync(path.join(dir, entry.name))));
  }
  return files;
}

export function program(source: string) {
  const result = assemble(source);
  expect(result.diagnostics).toEqual([]);
  return result.instructions;
}

/** A small complete bundle: two cores, a target, tensors, memory image and weights. */
export function sampleBundle(): ProgramBundle {
  const bundle = createBundle(2);
  bundle.arrayGroupMap = [[1], [2, 1]];
  bundle.programs[0] = program('setbw ibiw=8, obiw=8\nsldi r0, 0\nsldi r1, 0\nsldi r2, 0\nld r2, r0, size=128\nsend r2, r2, core=1, size=128\nwait ev=0, value=1\n');
  bundle.programs[1] = program('setbw ibiw=8, obiw=8\nsldi r0, 0\nrecv r0, core=0, size=128\nsldi r1, 1024\nmvmul r1, r0, mbiw=8, relu=1, group=1\nsync ev=0, core=0\n');
  const config = defaultHardwareConfig();
  config.chip_config.core_cnt = 4;
  bundle.target = {
    config,
    network: meshNetworkTable({ layout: [2, 2], hopLatency: 2, hopEnergy: 3, memoryLatency: 15, memoryEnergy: 46 }),
  };
  bundle.inputs = [{ name: 'x', address: 0, elementType: 'f32', shape: [1, 32] }];
  bundle.outputs = [{ name: 'y', address: 4096, elementType: 'f32', shape: [1, 32] }];
  bundle.memoryImage = Uint8Array.from({ length: 128 }, (_, i) => i);
  bundle.weights = [
    { core: 1, group: 1, rows: 4, cols: 2, elementType: 'f32', data: new Uint8Array(new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]).buffer) },
    { core: 0, group: 0, rows: 3, cols: 1, elementType: 'i8', data: Uint8Array.from([1, 2, 3]) },
  ];
  bundle.producer = 'pim-target test';
  return bundle;
}

