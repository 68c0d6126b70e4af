/**
 * The instruction set as a typed discriminated union (pim-isa.md §3-§5, §7).
 *
 * One interface per opcode, discriminated by `op` (the mnemonic). Each interface carries
 * exactly the operand fields the instruction uses; field names follow the ISA (JSON keys of
 * §7 in camelCase):
 *
 * | TypeScript field | JSON key (§7)                  | meaning |
 * |------------------|--------------------------------|---------|
 * | `rd`, `rs1`, `rs2` | `rd`, `rs1`, `rs2`           | register indices 0..31 |
 * | `imm`            | `imm`                          | int32 immediate |
 * | `offsetSelect`   | `offset.offset_select`         | 3-bit select: bit0 rd, bit1 rs1, bit2 rs2 |
 * | `offsetValue`    | `offset.offset_value` (scalar `sld`: top-level `offset_value`) | int32 offset |
 * | `len`            | `len`                          | vector: elements; `lldi`/`lmv`: bytes |
 * | `size`           | `size`                         | `ld`/`st`/`send`/`recv`: bytes |
 * | `core`           | `core`                         | peer core / switch id |
 * | `mbiw`, `relu`, `group` | same                    | `mvmul` operands |
 * | `ibiw`, `obiw`   | same                           | `setbw` operands (bits) |
 * | `eventRegister`  | `event_register`               | event register 0..31 |
 * | `waitValue`      | `wait_value`                   | `wait` count |
 *
 * Fields that an instruction does not use are absent from its interface even when PIMB has a
 * slot for them (for example `recv` has no `rs1`): the decoder reports a warning when such a
 * slot holds a non-zero value and drops it (see `decodePimb`).
 */
import type { Mnemonic } from './opcodes';

/** A register index (0..31 when valid; the validator checks the range). */
export type Register = number;

/** Fields shared by vector and transfer instructions that take an address offset. */
export interface OffsetFields {
  /** 3-bit select: bit0 applies the offset to rd, bit1 to rs1, bit2 to rs2 (ISA reading). */
  offsetSelect: number;
  /** Offset: in elements for vector ops (scaled by the byte width), in bytes for transfers. */
  offsetValue: number;
}

/** `nop`: does nothing (crashes pimsim-nn; never emitted by codegen). */
export interface NopInstruction {
  op: 'nop';
}

/** `sldi rd, imm`: rd = imm. */
export interface SldiInstruction {
  op: 'sldi';
  rd: Register;
  imm: number;
}

/** `sld rd, rs1, offset`: rd = 4-byte GMem[pair(rs1) + offsetValue] (a no-op in pimsim-nn). */
export interface SldInstruction {
  op: 'sld';
  rd: Register;
  rs1: Register;
  offsetValue: number;
}

/** `sadd`/`ssub`/`smul rd, rs1, rs2`: 32-bit wrap-around rd = rs1 op rs2 (rs2 is lost in PIMB). */
export interface ScalarRegisterInstruction<M extends 'sadd' | 'ssub' | 'smul'> {
  op: M;
  rd: Register;
  rs1: Register;
  rs2: Register;
}
/** `sadd rd, rs1, rs2`. */
export type SaddInstruction = ScalarRegisterInstruction<'sadd'>;
/** `ssub rd, rs1, rs2`. */
export type SsubInstruction = ScalarRegisterInstruction<'ssub'>;
/** `smul rd, rs1, rs2`. */
export type SmulInstruction = ScalarRegisterInstruction<'smul'>;

/** `saddi`/`smuli rd, rs1, imm`: rd = rs1 + imm / rs1 · imm. */
export interface ScalarImmediateInstruction<M extends 'saddi' | 'smuli'> {
  op: M;
  rd: Register;
  rs1: Register;
  imm: number;
}
/** `saddi rd, rs1, imm`. */
export type SaddiInstruction = ScalarImmediateInstruction<'saddi'>;
/** `smuli rd, rs1, imm`. */
export type SmuliInstruction = ScalarImmediateInstruction<'smuli'>;

/** `setbw ibiw, obiw`: set the input/output element widths in bits. */
export interface SetbwInstruction {
  op: 'setbw';
  ibiw: number;
  obiw: number;
}

/** `mvmul rd, rs1, mbiw, relu, group`: LMem[rd] = LMem[rs1] × weights of array group `group`. */
export interface MvmulInstruction {
  op: 'mvmul';
  rd: Register;
  rs1: Register;
  /** Weight bits per element (> 0; 0 crashes pimsim-nn). */
  mbiw: number;
  /** Apply ReLU to the result (0 or 1 in JSON/PIMB). */
  relu: boolean;
  /** Index into `array_group_map[core]`. */
  group: number;
}

/** Mnemonics of the two-operand element-wise vector ops (`rd[i] = rs1[i] op rs2[i]`). */
export type VectorBinaryMnemonic = 'vvadd' | 'vvsub' | 'vvmul' | 'vvdmul' | 'vvmax' | 'vvsll' | 'vvsra';
/** Mnemonics of the vector ops whose rs2 holds a value (stride or bound), not an address. */
export type VectorValueMnemonic = 'vavg' | 'vmv' | 'vrsu' | 'vrsl';
/** Mnemonics of the one-operand vector ops. */
export type VectorUnaryMnemonic = 'vrelu' | 'vtanh' | 'vsigm' | 'vsoftmax';

/** A two-operand vector op: `vvadd rd, rs1, rs2, len` etc. */
export interface VectorBinaryInstruction<M extends VectorBinaryMnemonic = VectorBinaryMnemonic>
  extends OffsetFields {
  op: M;
  rd: Register;
  rs1: Register;
  rs2: Register;
  /** Element count. */
  len: number;
}
/** `vvadd`. */ export type VvaddInstruction = VectorBinaryInstruction<'vvadd'>;
/** `vvsub`. */ export type VvsubInstruction = VectorBinaryInstruction<'vvsub'>;
/** `vvmul`. */ export type VvmulInstruction = VectorBinaryInstruction<'vvmul'>;
/** `vvdmul` (dot product: one output element). */ export type VvdmulInstruction = VectorBinaryInstruction<'vvdmul'>;
/** `vvmax`. */ export type VvmaxInstruction = VectorBinaryInstruction<'vvmax'>;
/** `vvsll`. */ export type VvsllInstruction = VectorBinaryInstruction<'vvsll'>;
/** `vvsra`. */ export type VvsraInstruction = VectorBinaryInstruction<'vvsra'>;

/**
 * A vector op whose rs2 register holds a value: `vavg` (stride), `vmv` (stride),
 * `vrsu`/`vrsl` (bound).
 */
export interface VectorValueInstruction<M extends VectorValueMnemonic = VectorValueMnemonic>
  extends OffsetFields {
  op: M;
  rd: Register;
  rs1: Register;
  /** Register holding the stride (vavg, vmv) or the bound (vrsu, vrsl). */
  rs2: Register;
  /** Element count. */
  len: number;
}
/** `vavg`. */ export type VavgInstruction = VectorValueInstruction<'vavg'>;
/** `vmv`. */ export type VmvInstruction = VectorValueInstruction<'vmv'>;
/** `vrsu`. */ export type VrsuInstruction = VectorValueInstruction<'vrsu'>;
/** `vrsl`. */ export type VrslInstruction = VectorValueInstruction<'vrsl'>;

/** A one-operand vector op: `vrelu rd, rs1, len` etc. `vsoftmax` is a Raptor extension (opcode 21). */
export interface VectorUnaryInstruction<M extends VectorUnaryMnemonic = VectorUnaryMnemonic>
  extends OffsetFields {
  op: M;
  rd: Register;
  rs1: Register;
  /** Element count. */
  len: number;
}
/** `vrelu`. */ export type VreluInstruction = VectorUnaryInstruction<'vrelu'>;
/** `vtanh`. */ export type VtanhInstruction = VectorUnaryInstruction<'vtanh'>;
/** `vsigm`. */ export type VsigmInstruction = VectorUnaryInstruction<'vsigm'>;
/** `vsoftmax` (reserved opcode 21; rejected by pimsim-nn). */ export type VsoftmaxInstruction = VectorUnaryInstruction<'vsoftmax'>;

/** `ld rd, rs1, size`: LMem[R[rd]] ← GMem[pair(rs1)], `size` bytes. */
export interface LdInstruction extends OffsetFields {
  op: 'ld';
  /** Local address register. */
  rd: Register;
  /** First register of the global address pair (high word). */
  rs1: Register;
  /** Byte count. */
  size: number;
}

/** `st rd, rs1, size`: GMem[pair(rd)] ← LMem[R[rs1]], `size` bytes. */
export interface StInstruction extends OffsetFields {
  op: 'st';
  /** First register of the global address pair (high word). */
  rd: Register;
  /** Local address register. */
  rs1: Register;
  /** Byte count. */
  size: number;
}

/** `lldi rd, imm, len`: memset(LMem[R[rd]], imm (one byte), len bytes). */
export interface LldiInstruction extends OffsetFields {
  op: 'lldi';
  rd: Register;
  imm: number;
  /** Byte count. */
  len: number;
}

/** `lmv rd, rs1, len`: memcpy(LMem[R[rd]], LMem[R[rs1]], len bytes). */
export interface LmvInstruction extends OffsetFields {
  op: 'lmv';
  rd: Register;
  rs1: Register;
  /** Byte count. */
  len: number;
}

/**
 * `send rd, rs1, core, size`: copy `size` bytes of local memory to core `core`.
 * pimsim-nn reads the source address from `rd` and uses `rs1` for hazards: put the same
 * register in both.
 */
export interface SendInstruction extends OffsetFields {
  op: 'send';
  rd: Register;
  rs1: Register;
  /** Destination core. */
  core: number;
  /** Byte count. */
  size: number;
}

/** `recv rd, core, size`: receive `size` bytes from core `core` into LMem[R[rd]]. */
export interface RecvInstruction extends OffsetFields {
  op: 'recv';
  rd: Register;
  /** Source core. */
  core: number;
  /** Byte count. */
  size: number;
}

/** `wait ev, value`: block until event register `ev` reaches `value` (see the wait semantics). */
export interface WaitInstruction {
  op: 'wait';
  eventRegister: number;
  waitValue: number;
}

/** `sync ev, core`: increment event register `ev` of core `core`. */
export interface SyncInstruction {
  op: 'sync';
  eventRegister: number;
  /** Target core. */
  core: number;
}

/** Any instruction of the ISA, discriminated by `op`. */
export type Instruction =
  | NopInstruction
  | SldiInstruction
  | SldInstruction
  | SaddInstruction
  | SsubInstruction
  | SmulInstruction
  | SaddiInstruction
  | SmuliInstruction
  | SetbwInstruction
  | MvmulInstruction
  | VvaddInstruction
  | VvsubInstruction
  | VvmulInstruction
  | VvdmulInstruction
  | VvmaxInstruction
  | VvsllInstruction
  | VvsraInstruction
  | VavgInstruction
  | VreluInstruction
  | VtanhInstruction
  | VsigmInstruction
  | VsoftmaxInstruction
  | VmvInstruction
  | VrsuInstruction
  | VrslInstruction
  | LdInstruction
  | StInstruction
  | LldiInstruction
  | LmvInstruction
  | SendInstruction
  | RecvInstruction
  | WaitInstruction
  | SyncInstruction;

/** The instruction interface of one mnemonic: `InstructionOf<'vvadd'>` is `VvaddInstruction`. */
export type InstructionOf<M extends Mnemonic> = Extract<Instruction, { op: M }>;

/** Name of an operand field of some instruction (every key of {@link Instruction} but `op`). */
export type OperandField =
  | 'rd'
  | 'rs1'
  | 'rs2'
  | 'imm'
  | 'offsetSelect'
  | 'offsetValue'
  | 'len'
  | 'size'
  | 'core'
  | 'mbiw'
  | 'relu'
  | 'group'
  | 'ibiw'
  | 'obiw'
  | 'eventRegister'
  | 'waitValue';

const VECTOR_BINARY = ['rd', 'rs1', 'rs2', 'len', 'offsetSelect', 'offsetValue'] as const;
const VECTOR_UNARY = ['rd', 'rs1', 'len', 'offsetSelect', 'offsetValue'] as const;

/**
 * The operand fields of every mnemonic, in canonical order (the order the disassembler prints
 * them and the order of positional operands in the assembler).
 */
export const OPERAND_FIELDS: { readonly [M in Mnemonic]: readonly OperandField[] } = {
  nop: [],
  sldi: ['rd', 'imm'],
  sld: ['rd', 'rs1', 'offsetValue'],
  sadd: ['rd', 'rs1', 'rs2'],
  ssub: ['rd', 'rs1', 'rs2'],
  smul: ['rd', 'rs1', 'rs2'],
  saddi: ['rd', 'rs1', 'imm'],
  smuli: ['rd', 'rs1', 'imm'],
  setbw: ['ibiw', 'obiw'],
  mvmul: ['rd', 'rs1', 'mbiw', 'relu', 'group'],
  vvadd: VECTOR_BINARY,
  vvsub: VECTOR_BINARY,
  vvmul: VECTOR_BINARY,
  vvdmul: VECTOR_BINARY,
  vvmax: VECTOR_BINARY,
  vvsll: VECTOR_BINARY,
  vvsra: VECTOR_BINARY,
  vavg: VECTOR_BINARY,
  vrelu: VECTOR_UNARY,
  vtanh: VECTOR_UNARY,
  vsigm: VECTOR_UNARY,
  vsoftmax: VECTOR_UNARY,
  vmv: VECTOR_BINARY,
  vrsu: VECTOR_BINARY,
  vrsl: VECTOR_BINARY,
  ld: ['rd', 'rs1', 'size', 'offsetSelect', 'offsetValue'],
  st: ['rd', 'rs1', 'size', 'offsetSelect', 'offsetValue'],
  lldi: ['rd', 'imm', 'len', 'offsetSelect', 'offsetValue'],
  lmv: ['rd', 'rs1', 'len', 'offsetSelect', 'offsetValue'],
  send: ['rd', 'rs1', 'core', 'size', 'offsetSelect', 'offsetValue'],
  recv: ['rd', 'core', 'size', 'offsetSelect', 'offsetValue'],
  wait: ['eventRegister', 'waitValue'],
  sync: ['eventRegister', 'core'],
};

/** Whether `field` names a general register (`rd`, `rs1`, `rs2`). */
export function isRegisterField(field: OperandField): field is 'rd' | 'rs1' | 'rs2' {
  return field === 'rd' || field === 'rs1' || field === 'rs2';
}

/**
 * Builds an instruction of mnemonic `op` from a partial set of fields; absent fields are 0
 * (`relu` false), as pimsim-nn's JSON reader does.
 *
 * @example `makeInstruction('vvadd', { rd: 3, rs1: 1, rs2: 2, len: 16 })`
 */
export function makeInstruction<M extends Mnemonic>(
  op: M,
  fields: Partial<Omit<InstructionOf<M>, 'op'>> = {},
): InstructionOf<M> {
  const record: Record<string, number | boolean | string> = { op };
  const given = fields as Partial<Record<OperandField, number | boolean>>;
  for (const field of OPERAND_FIELDS[op]) {
    const value = given[field];
    record[field] = field === 'relu' ? value === true || value === 1 : typeof value === 'number' ? value : 0;
  }
  return record as unknown as InstructionOf<M>;
}

/** Reads an operand field of any instruction as a number (`relu` as 0/1); 0 when absent. */
export function getField(instruction: Instruction, field: OperandField): number {
  const value = (instruction as unknown as Partial<Record<OperandField, number | boolean>>)[field];
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'number' ? value : 0;
}

/** Structural equality of two instructions (same op, same operand fields). */
export function instructionsEqual(a: Instruction, b: Instruction): boolean {
  if (a.op !== b.op) return false;
  for (const field of OPERAND_FIELDS[a.op]) {
    if (getField(a, field) !== getField(b, field)) return false;
  }
  return true;
}
