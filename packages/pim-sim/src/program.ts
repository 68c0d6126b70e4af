/**
 * The pre-decoded program form the simulator's hot loops read: one `Int32Array` per core with
 * a fixed number of slots per instruction, so neither pass allocates or dispatches on strings
 * per instruction.
 */
import type { Instruction, InstructionClass, Mnemonic, OperandField } from '@raptor-pim/pim-target';
import { INSTRUCTION_CLASS, MNEMONICS, OPERAND_FIELDS, Opcode } from '@raptor-pim/pim-target';

/** Slots per instruction in {@link CompiledProgram.code}. */
export const STRIDE = 12;
/** Slot: PIMB binary opcode. */
export const F_OP = 0;
/** Slot: rd register index. */
export const F_RD = 1;
/** Slot: rs1 register index. */
export const F_RS1 = 2;
/** Slot: rs2 register index. */
export const F_RS2 = 3;
/** Slot: immediate (sldi/saddi/smuli/lldi) or scalar `sld` offset. */
export const F_IMM = 4;
/** Slot: element count (vector) or byte count (ld/st/send/recv size, lldi/lmv len). */
export const F_LEN = 5;
/** Slot: 3-bit offset select. */
export const F_OSEL = 6;
/** Slot: offset value (elements for vector ops, bytes for transfers). */
export const F_OVAL = 7;
/** Slot: peer core (send/recv/sync). */
export const F_CORE = 8;
/** Slot: `mvmul` group, `wait`/`sync` event register, `setbw` ibiw. */
export const F_A = 9;
/** Slot: `mvmul` mbiw, `wait` value, `setbw` obiw. */
export const F_B = 10;
/** Slot: `mvmul` relu flag (0/1). */
export const F_C = 11;

/**
 * Opcode numbers for `switch` statements in the hot loops: pim-target's {@link Opcode} table
 * (pim-isa.md §3), the one source of the binary numbers.
 */
export const OP: { readonly [M in Mnemonic]: number } = Opcode;

/** Mnemonics by opcode number (for messages and traces). */
export const OP_NAMES: readonly string[] = MNEMONICS;

/** Execution unit of an opcode: 0 scalar, 1 setbw, 2 matrix, 3 vector, 4 transfer, 5 nop. */
export const UNIT_SCALAR = 0;
/** See {@link UNIT_SCALAR}. */
export const UNIT_SETBW = 1;
/** See {@link UNIT_SCALAR}. */
export const UNIT_MATRIX = 2;
/** See {@link UNIT_SCALAR}. */
export const UNIT_VECTOR = 3;
/** See {@link UNIT_SCALAR}. */
export const UNIT_TRANSFER = 4;
/** See {@link UNIT_SCALAR}. */
export const UNIT_NOP = 5;

const UNIT_OF_CLASS: { readonly [C in InstructionClass]: number } = {
  nop: UNIT_NOP,
  scalar: UNIT_SCALAR,
  setbw: UNIT_SETBW,
  matrix: UNIT_MATRIX,
  vector: UNIT_VECTOR,
  transfer: UNIT_TRANSFER,
};

/** Unit of every opcode number (index = opcode), from pim-target's {@link INSTRUCTION_CLASS}. */
export const UNIT_OF_OP: Uint8Array = Uint8Array.from(MNEMONICS, (m) => UNIT_OF_CLASS[INSTRUCTION_CLASS[m]]);

/** One core's program in pre-decoded form. */
export interface CompiledProgram {
  /** Number of instructions. */
  readonly length: number;
  /** `length * STRIDE` slots; see the `F_*` constants. */
  readonly code: Int32Array;
}

/** The slot each operand field is stored in (`sld`'s offset goes to {@link F_IMM}, see {@link slotOf}). */
const SLOT_OF_FIELD: { readonly [F in OperandField]: number } = {
  rd: F_RD,
  rs1: F_RS1,
  rs2: F_RS2,
  imm: F_IMM,
  len: F_LEN,
  size: F_LEN,
  offsetSelect: F_OSEL,
  offsetValue: F_OVAL,
  core: F_CORE,
  group: F_A,
  eventRegister: F_A,
  ibiw: F_A,
  mbiw: F_B,
  waitValue: F_B,
  obiw: F_B,
  relu: F_C,
};

/** The slot of operand `field` of mnemonic `op`. */
function slotOf(op: Mnemonic, field: OperandField): number {
  return op === 'sld' && field === 'offsetValue' ? F_IMM : SLOT_OF_FIELD[field];
}

/**
 * Per opcode number, the operand fields of the mnemonic (pim-target's OPERAND_FIELDS order)
 * and the slot of each: the one layout both {@link compileProgram} and `instructionAt` (bundle-stream.ts)
 * follow.
 */
export const OPERAND_SLOTS: readonly { readonly fields: readonly OperandField[]; readonly slots: Int32Array }[] = MNEMONICS.map((op) => ({
  fields: OPERAND_FIELDS[op],
  slots: Int32Array.from(OPERAND_FIELDS[op], (field) => slotOf(op, field)),
}));

function num(v: unknown): number {
  return typeof v === 'number' ? v | 0 : typeof v === 'boolean' ? (v ? 1 : 0) : 0;
}

/**
 * Pre-decodes a core's instruction list (pim-target's typed union) into the compact form:
 * each operand field of the instruction into its slot ({@link OPERAND_SLOTS}).
 *
 * @example `compileProgram([{ op: 'setbw', ibiw: 8, obiw: 8 }]).length === 1`
 */
export function compileProgram(instructions: readonly Instruction[]): CompiledProgram {
  const n = instructions.length;
  const code = new Int32Array(n * STRIDE);
  for (let i = 0; i < n; i++) {
    const inst = instructions[i] as unknown as { readonly op: Mnemonic } & { readonly [F in OperandField]?: number | boolean };
    const base = i * STRIDE;
    const opcode = Opcode[inst.op];
    code[base + F_OP] = opcode;
    const { fields, slots } = OPERAND_SLOTS[opcode]!;
    for (let k = 0; k < fields.length; k++) code[base + slots[k]!] = num(inst[fields[k]!]);
  }
  return { length: n, code };
}
