/**
 * The pre-decoded program form the simulator's hot loops read: one `Int32Array` per core with
 * a fixed number of slots per instruction, so neither pass allocates or dispatches on strings
 * per instruction.
 */
import type { Instruction, InstructionClass, Mnemonic } from '@raptor-pim/pim-target';
import { INSTRUCTION_CLASS, MNEMONICS, Opcode } from '@raptor-pim/pim-target';

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

function num(v: unknown): number {
  return typeof v === 'number' ? v | 0 : typeof v === 'boolean' ? (v ? 1 : 0) : 0;
}

/**
 * Pre-decodes a core's instruction list (pim-target's typed union) into the compact form.
 * Only the fields an instruction has are read (the union's objects have many shapes, so every
 * property read is a slow, megamorphic one).
 *
 * @example `compileProgram([{ op: 'setbw', ibiw: 8, obiw: 8 }]).length === 1`
 */
export function compileProgram(instructions: readonly Instruction[]): CompiledProgram {
  const n = instructions.length;
  const code = new Int32Array(n * STRIDE);
  for (let i = 0; i < n; i++) {
    const inst = instructions[i];
    const base = i * STRIDE;
    code[base + F_OP] = Opcode[inst.op];
    switch (inst.op) {
      case 'nop':
        break;
      case 'sldi':
        code[base + F_RD] = num(inst.rd);
        code[base + F_IMM] = num(inst.imm);
        break;
      case 'sld':
        code[base + F_RD] = num(inst.rd);
        code[base + F_RS1] = num(inst.rs1);
        code[base + F_IMM] = num(inst.offsetValue);
        break;
      case 'sadd':
      case 'ssub':
      case 'smul':
        code[base + F_RD] = num(inst.rd);
        code[base + F_RS1] = num(inst.rs1);
        code[base + F_RS2] = num(inst.rs2);
        break;
      case 'saddi':
      case 'smuli':
        code[base + F_RD] = num(inst.rd);
        code[base + F_RS1] = num(inst.rs1);
        code[base + F_IMM] = num(inst.imm);
        break;
      case 'setbw':
        code[base + F_A] = num(inst.ibiw);
        code[base + F_B] = num(inst.obiw);
        break;
      case 'mvmul':
        code[base + F_RD] = num(inst.rd);
        code[base + F_RS1] = num(inst.rs1);
        code[base + F_A] = num(inst.group);
        code[base + F_B] = num(inst.mbiw);
        code[base + F_C] = num(inst.relu);
        break;
      case 'vrelu':
      case 'vtanh':
      case 'vsigm':
      case 'vsoftmax':
        code[base + F_RD] = num(inst.rd);
        code[base + F_RS1] = num(inst.rs1);
        code[base + F_LEN] = num(inst.len);
        code[base + F_OSEL] = num(inst.offsetSelect);
        code[base + F_OVAL] = num(inst.offsetValue);
        break;
      case 'ld':
      case 'st':
        code[base + F_RD] = num(inst.rd);
        code[base + F_RS1] = num(inst.rs1);
        code[base + F_LEN] = num(inst.size);
        code[base + F_OSEL] = num(inst.offsetSelect);
        code[base + F_OVAL] = num(inst.offsetValue);
        break;
      case 'lldi':
        code[base + F_RD] = num(inst.rd);
        code[base + F_IMM] = num(inst.imm);
        code[base + F_LEN] = num(inst.len);
        code[base + F_OSEL] = num(inst.offsetSelect);
        code[base + F_OVAL] = num(inst.offsetValue);
        break;
      case 'lmv':
        code[base + F_RD] = num(inst.rd);
        code[base + F_RS1] = num(inst.rs1);
        code[base + F_LEN] = num(inst.len);
        code[base + F_OSEL] = num(inst.offsetSelect);
        code[base + F_OVAL] = num(inst.offsetValue);
        break;
      case 'send':
        code[base + F_RD] = num(inst.rd);
        code[base + F_RS1] = num(inst.rs1);
        code[base + F_CORE] = num(inst.core);
        code[base + F_LEN] = num(inst.size);
        code[base + F_OSEL] = num(inst.offsetSelect);
        code[base + F_OVAL] = num(inst.offsetValue);
        break;
      case 'recv':
        code[base + F_RD] = num(inst.rd);
        code[base + F_CORE] = num(inst.core);
        code[base + F_LEN] = num(inst.size);
        code[base + F_OSEL] = num(inst.offsetSelect);
        code[base + F_OVAL] = num(inst.offsetValue);
        break;
      case 'wait':
        code[base + F_A] = num(inst.eventRegister);
        code[base + F_B] = num(inst.waitValue);
        break;
      case 'sync':
        code[base + F_A] = num(inst.eventRegister);
        code[base + F_CORE] = num(inst.core);
        break;
      default:
        // Vector ops with rs2 (two-operand, and vavg/vmv/vrsu/vrsl whose rs2 holds a value).
        code[base + F_RD] = num(inst.rd);
        code[base + F_RS1] = num(inst.rs1);
        code[base + F_RS2] = num(inst.rs2);
        code[base + F_LEN] = num(inst.len);
        code[base + F_OSEL] = num(inst.offsetSelect);
        code[base + F_OVAL] = num(inst.offsetValue);
    }
  }
  return { length: n, code };
}
