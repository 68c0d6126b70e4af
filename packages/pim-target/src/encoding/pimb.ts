/**
 * PIMB v1, the per-core binary program format pimsim-nn reads (pim-isa.md §8).
 *
 * Layout: a 12-byte header (`"PIMB"`, u32 LE version 1, u32 LE record count N) followed by N
 * little-endian 20-byte records `{u8 opcode, u8 rd, u8 rs1, u8 flags, i32 r2_or_imm,
 * i32 generic1, i32 generic2, i32 generic3}`. Which operand goes into which slot depends on
 * the instruction (§8.3, table {@link PIMB_SLOTS}).
 *
 * Lossy round trips (§8.4), represented faithfully:
 * - `sadd`/`ssub`/`smul` have no rs2 slot: encoding warns when rs2 ≠ r0, decoding yields r0.
 * - A slot the instruction does not use (e.g. `recv`'s rs1 byte, `sync`'s generic2) is written
 *   as 0; when a file holds a non-zero value there, decoding drops it with a warning.
 * - The flags byte is written 0 and ignored on read (with a warning when non-zero).
 * - Bytes after the N records are ignored (warning), as pimsim-nn does.
 * Encoding a decoded program therefore reproduces the file byte for byte exactly when the
 * decoder reported no warning.
 */
import { Messages, type Message } from '../diagnostics';
import type { Severity, TargetDiagnostic } from '../target-diagnostic';
import { OPERAND_FIELDS, type Instruction, type OperandField, getField } from '../isa/instruction';
import { Opcode, isMnemonic, mnemonicOfOpcode, type Mnemonic } from '../isa/opcodes';

/** Size of the PIMB header in bytes. */
export const PIMB_HEADER_SIZE = 12;
/** Size of one PIMB record in bytes. */
export const PIMB_RECORD_SIZE = 20;
/** The PIMB format version this package reads and writes. */
export const PIMB_VERSION = 1;
/** The magic bytes `"PIMB"`. */
export const PIMB_MAGIC: readonly number[] = [0x50, 0x49, 0x4d, 0x42];

/** A storage slot of a PIMB record. */
export type PimbSlot = 'rd' | 'rs1' | 'r2OrImm' | 'generic1' | 'generic2' | 'generic3';

/** The slots of a record, in on-disk order. */
export const PIMB_SLOT_ORDER: readonly PimbSlot[] = ['rd', 'rs1', 'r2OrImm', 'generic1', 'generic2', 'generic3'];

/** One raw PIMB record (all slots as stored). */
export interface PimbRecord {
  /** Binary opcode. */
  opcode: number;
  /** u8 rd byte. */
  rd: number;
  /** u8 rs1 byte. */
  rs1: number;
  /** u8 flags byte (always 0 when written). */
  flags: number;
  /** i32 r2_or_imm slot. */
  r2OrImm: number;
  /** i32 generic1 slot. */
  generic1: number;
  /** i32 generic2 slot. */
  generic2: number;
  /** i32 generic3 slot. */
  generic3: number;
}

type SlotMap = Partial<Record<PimbSlot, OperandField>>;

const SCALAR_SLOTS = (fields: readonly OperandField[]): SlotMap => {
  const map: SlotMap = {};
  if (fields.includes('rd')) map.rd = 'rd';
  if (fields.includes('rs1')) map.rs1 = 'rs1';
  if (fields.includes('imm')) map.r2OrImm = 'imm';
  if (fields.includes('offsetValue')) map.generic2 = 'offsetValue';
  return map;
};
const VECTOR_BINARY_SLOTS: SlotMap = {
  rd: 'rd',
  rs1: 'rs1',
  r2OrImm: 'rs2',
  generic1: 'offsetSelect',
  generic2: 'offsetValue',
  generic3: 'len',
};
const VECTOR_UNARY_SLOTS: SlotMap = { rd: 'rd', rs1: 'rs1', generic1: 'offsetSelect', generic2: 'offsetValue', generic3: 'len' };

/**
 * Which operand field every mnemonic stores in which PIMB slot (pim-isa.md §8.3). A slot
 * absent from an entry is written as 0. Fields absent from every slot (only scalar `rs2`)
 * are lost.
 */
export const PIMB_SLOTS: { readonly [M in Mnemonic]: Readonly<SlotMap> } = {
  nop: {},
  sldi: SCALAR_SLOTS(['rd', 'imm']),
  sld: SCALAR_SLOTS(['rd', 'rs1', 'offsetValue']),
  sadd: SCALAR_SLOTS(['rd', 'rs1']),
  ssub: SCALAR_SLOTS(['rd', 'rs1']),
  smul: SCALAR_SLOTS(['rd', 'rs1']),
  saddi: SCALAR_SLOTS(['rd', 'rs1', 'imm']),
  smuli: SCALAR_SLOTS(['rd', 'rs1', 'imm']),
  setbw: { generic1: 'ibiw', generic2: 'obiw' },
  mvmul: { rd: 'rd', rs1: 'rs1', r2OrImm: 'mbiw', generic1: 'relu', generic2: 'group' },
  vvadd: VECTOR_BINARY_SLOTS,
  vvsub: VECTOR_BINARY_SLOTS,
  vvmul: VECTOR_BINARY_SLOTS,
  vvdmul: VECTOR_BINARY_SLOTS,
  vvmax: VECTOR_BINARY_SLOTS,
  vvsll: VECTOR_BINARY_SLOTS,
  vvsra: VECTOR_BINARY_SLOTS,
  vavg: VECTOR_BINARY_SLOTS,
  vrelu: VECTOR_UNARY_SLOTS,
  vtanh: VECTOR_UNARY_SLOTS,
  vsigm: VECTOR_UNARY_SLOTS,
  vsoftmax: VECTOR_UNARY_SLOTS,
  vmv: VECTOR_BINARY_SLOTS,
  vrsu: VECTOR_BINARY_SLOTS,
  vrsl: VECTOR_BINARY_SLOTS,
  ld: { rd: 'rd', rs1: 'rs1', generic1: 'offsetSelect', generic2: 'offsetValue', generic3: 'size' },
  st: { rd: 'rd', rs1: 'rs1', generic1: 'offsetSelect', generic2: 'offsetValue', generic3: 'size' },
  lldi: { rd: 'rd', r2OrImm: 'imm', generic1: 'offsetSelect', generic2: 'offsetValue', generic3: 'len' },
  lmv: { rd: 'rd', rs1: 'rs1', generic1: 'offsetSelect', generic2: 'offsetValue', generic3: 'len' },
  send: { rd: 'rd', rs1: 'rs1', r2OrImm: 'core', generic1: 'offsetSelect', generic2: 'offsetValue', generic3: 'size' },
  recv: { rd: 'rd', r2OrImm: 'core', generic1: 'offsetSelect', generic2: 'offsetValue', generic3: 'size' },
  wait: { generic1: 'eventRegister', generic2: 'waitValue' },
  sync: { r2OrImm: 'core', generic1: 'eventRegister' },
};

const SLOT_LABEL: Record<PimbSlot, string> = {
  rd: 'rd byte',
  rs1: 'rs1 byte',
  r2OrImm: 'r2_or_imm',
  generic1: 'generic1',
  generic2: 'generic2',
  generic3: 'generic3',
};

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Options of {@link encodePimb} and {@link decodePimb}. */
export interface PimbOptions {
  /** File name put on diagnostics. */
  file?: string;
}

/** The result of {@link encodePimb}. */
export interface PimbEncoding {
  /** The file bytes, or `undefined` when an instruction could not be encoded. */
  bytes: Uint8Array | undefined;
  /** Errors (unencodable values) and warnings (lossy fields). */
  diagnostics: TargetDiagnostic[];
}

/** The result of {@link decodePimb}. */
export interface PimbDecoding {
  /** The decoded instructions (records with an unknown opcode are skipped), or `undefined` for a bad header. */
  instructions: Instruction[] | undefined;
  /** Errors and warnings, each with the instruction index and byte offset. */
  diagnostics: TargetDiagnostic[];
}

function diag(
  severity: Severity,
  msg: Message,
  file: string | undefined,
  instruction?: number,
  offset?: number,
): TargetDiagnostic {
  const d: TargetDiagnostic = { severity, code: msg.code, message: msg.message };
  if (file !== undefined) d.file = file;
  if (instruction !== undefined) d.instruction = instruction;
  if (offset !== undefined) d.offset = offset;
  return d;
}

/**
 * Converts one instruction to its raw record. Returns diagnostics for values that do not fit
 * (errors) and for operands PIMB cannot store (warnings: scalar rs2).
 */
export function instructionToRecord(
  instruction: Instruction,
  index = 0,
  options: PimbOptions = {},
): { record: PimbRecord | undefined; diagnostics: TargetDiagnostic[] } {
  const diagnostics: TargetDiagnostic[] = [];
  const op: unknown = (instruction as { op?: unknown }).op;
  if (typeof op !== 'string' || !isMnemonic(op)) {
    diagnostics.push(diag('error', Messages.encodeUnknownOp(op), options.file, index));
    return { record: undefined, diagnostics };
  }
  const record: PimbRecord = { opcode: Opcode[op], rd: 0, rs1: 0, flags: 0, r2OrImm: 0, generic1: 0, generic2: 0, generic3: 0 };
  const slots = PIMB_SLOTS[op];
  let ok = true;
  for (const slot of PIMB_SLOT_ORDER) {
    const field = slots[slot];
    if (field === undefined) continue;
    const raw = (instruction as unknown as Record<string, unknown>)[field];
    const value = typeof raw === 'boolean' ? (raw ? 1 : 0) : raw === undefined ? 0 : raw;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      diagnostics.push(diag('error', Messages.encodeNotInteger(field, raw), options.file, index));
      ok = false;
      continue;
    }
    const isByte = slot === 'rd' || slot === 'rs1';
    const min = isByte ? 0 : INT32_MIN;
    const max = isByte ? 255 : INT32_MAX;
    if (value < min || value > max) {
      diagnostics.push(diag('error', Messages.encodeOutOfRange(field, value, min, max), options.file, index));
      ok = false;
      continue;
    }
    record[slot] = value;
  }
  if ((op === 'sadd' || op === 'ssub' || op === 'smul') && getField(instruction, 'rs2') !== 0) {
    diagnostics.push(diag('warning', Messages.pimbLossyScalarRs2(op, getField(instruction, 'rs2')), options.file, index));
  }
  return { record: ok ? record : undefined, diagnostics };
}

/** Per mnemonic: each operand field with its slot (undefined = not stored), and the unused slots. */
const DECODE_PLAN: { readonly [M in Mnemonic]: { fields: [OperandField, PimbSlot | undefined][]; unused: PimbSlot[] } } =
  Object.fromEntries(
    (Object.keys(PIMB_SLOTS) as Mnemonic[]).map((op) => {
      const slots = PIMB_SLOTS[op];
      const slotOf = new Map<OperandField, PimbSlot>();
      for (const slot of PIMB_SLOT_ORDER) if (slots[slot] !== undefined) slotOf.set(slots[slot]!, slot);
      return [
        op,
        {
          fields: OPERAND_FIELDS[op].map((field): [OperandField, PimbSlot | undefined] => [field, slotOf.get(field)]),
          unused: PIMB_SLOT_ORDER.filter((slot) => slots[slot] === undefined),
        },
      ];
    }),
  ) as never;

/** Decodes one record, pushing diagnostics into `out` (the shared fast path of the decoder). */
function decodeRecordInto(
  record: PimbRecord,
  index: number,
  file: string | undefined,
  at: number | undefined,
  out: TargetDiagnostic[],
): Instruction | undefined {
  const op = mnemonicOfOpcode(record.opcode);
  if (op === undefined) {
    out.push(diag('error', Messages.pimbUnknownOpcode(record.opcode), file, index, at));
    return undefined;
  }
  if (record.flags !== 0) out.push(diag('warning', Messages.pimbFlagsIgnored(record.flags), file, index, at));
  const plan = DECODE_PLAN[op];
  for (const slot of plan.unused) {
    const value = record[slot];
    if (value !== 0) out.push(diag('warning', Messages.pimbUnusedSlot(op, SLOT_LABEL[slot], value), file, index, at));
  }
  const instruction: Record<string, string | number | boolean> = { op };
  for (const [field, slot] of plan.fields) {
    const value = slot === undefined ? 0 : record[slot];
    if (field === 'relu') {
      if (value !== 0 && value !== 1) out.push(diag('error', Messages.pimbBadRelu(value), file, index, at));
      instruction.relu = value !== 0;
    } else instruction[field] = value;
  }
  return instruction as unknown as Instruction;
}

/**
 * Converts a raw record to an instruction. Unknown opcodes give an error and no instruction;
 * non-zero values in slots the instruction does not use give warnings and are dropped.
 */
export function recordToInstruction(
  record: PimbRecord,
  index = 0,
  options: PimbOptions & { offset?: number } = {},
): { instruction: Instruction | undefined; diagnostics: TargetDiagnostic[] } {
  const diagnostics: TargetDiagnostic[] = [];
  const instruction = decodeRecordInto(record, index, options.file, options.offset, diagnostics);
  return { instruction, diagnostics };
}

/**
 * Encodes a core program as a PIMB v1 file (deterministic: same instructions, same bytes).
 *
 * @example
 * ```ts
 * const { bytes } = encodePimb([makeInstruction('setbw', { ibiw: 8, obiw: 8 })]);
 * ```
 */
export function encodePimb(instructions: readonly Instruction[], options: PimbOptions = {}): PimbEncoding {
  const diagnostics: TargetDiagnostic[] = [];
  const bytes = new Uint8Array(PIMB_HEADER_SIZE + PIMB_RECORD_SIZE * instructions.length);
  const view = new DataView(bytes.buffer);
  bytes.set(PIMB_MAGIC, 0);
  view.setUint32(4, PIMB_VERSION, true);
  view.setUint32(8, instructions.length, true);
  let ok = true;
  for (let i = 0; i < instructions.length; i++) {
    const { record, diagnostics: ds } = instructionToRecord(instructions[i]!, i, options);
    diagnostics.push(...ds);
    if (record === undefined) {
      ok = false;
      continue;
    }
    const at = PIMB_HEADER_SIZE + i * PIMB_RECORD_SIZE;
    view.setUint8(at, record.opcode);
    view.setUint8(at + 1, record.rd);
    view.setUint8(at + 2, record.rs1);
    view.setUint8(at + 3, 0);
    view.setInt32(at + 4, record.r2OrImm, true);
    view.setInt32(at + 8, record.generic1, true);
    view.setInt32(at + 12, record.generic2, true);
    view.setInt32(at + 16, record.generic3, true);
  }
  return { bytes: ok ? bytes : undefined, diagnostics };
}

/** Reads the raw record at `index` of a PIMB file whose records are known to be complete. */
function readRecord(view: DataView, index: number): PimbRecord {
  const at = PIMB_HEADER_SIZE + index * PIMB_RECORD_SIZE;
  return {
    opcode: view.getUint8(at),
    rd: view.getUint8(at + 1),
    rs1: view.getUint8(at + 2),
    flags: view.getUint8(at + 3),
    r2OrImm: view.getInt32(at + 4, true),
    generic1: view.getInt32(at + 8, true),
    generic2: view.getInt32(at + 12, true),
    generic3: view.getInt32(at + 16, true),
  };
}

/** The result of {@link readPimbRecords}. */
export interface PimbRecords {
  /** The complete records, or `undefined` for a bad header. */
  records: PimbRecord[] | undefined;
  /** Header, truncation and trailing-byte diagnostics. */
  diagnostics: TargetDiagnostic[];
}

/**
 * Reads the raw records of a PIMB v1 file without interpreting them (for dumps and tools).
 * Never throws; work is bounded by the file size, whatever the header's count says.
 */
export function readPimbRecords(bytes: Uint8Array, options: PimbOptions = {}): PimbRecords {
  const diagnostics: TargetDiagnostic[] = [];
  const file = options.file;
  if (bytes.length < PIMB_HEADER_SIZE) {
    diagnostics.push(diag('error', Messages.pimbTruncatedHeader(bytes.length), file, undefined, 0));
    return { records: undefined, diagnostics };
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!PIMB_MAGIC.every((b, i) => bytes[i] === b)) {
    const shown = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    diagnostics.push(diag('error', Messages.pimbBadMagic(shown), file, undefined, 0));
    return { records: undefined, diagnostics };
  }
  const version = view.getUint32(4, true);
  if (version !== PIMB_VERSION) {
    diagnostics.push(diag('error', Messages.pimbBadVersion(version), file, undefined, 4));
    return { records: undefined, diagnostics };
  }
  const count = view.getUint32(8, true);
  const available = Math.floor((bytes.length - PIMB_HEADER_SIZE) / PIMB_RECORD_SIZE);
  const complete = Math.min(count, available);
  if (count > available) {
    const trailing = (bytes.length - PIMB_HEADER_SIZE) % PIMB_RECORD_SIZE;
    diagnostics.push(
      diag('error', Messages.pimbTruncatedRecords(count, available, trailing), file, available, PIMB_HEADER_SIZE + available * PIMB_RECORD_SIZE),
    );
  } else {
    const extra = bytes.length - PIMB_HEADER_SIZE - count * PIMB_RECORD_SIZE;
    if (extra > 0) diagnostics.push(diag('warning', Messages.pimbTrailingBytes(extra), file, undefined, bytes.length - extra));
  }
  const records: PimbRecord[] = [];
  for (let i = 0; i < complete; i++) records.push(readRecord(view, i));
  return { records, diagnostics };
}

/**
 * Decodes a PIMB v1 file. Never throws: a bad header gives `instructions: undefined`; a
 * truncated file gives an error and the complete records; bad records give diagnostics with
 * their index and byte offset. Work is bounded by the file size, whatever the header says.
 */
export function decodePimb(bytes: Uint8Array, options: PimbOptions = {}): PimbDecoding {
  const file = options.file;
  const { records, diagnostics } = readPimbRecords(bytes, options);
  if (records === undefined) return { instructions: undefined, diagnostics };
  const instructions: Instruction[] = [];
  for (let i = 0; i < records.length; i++) {
    const instruction = decodeRecordInto(records[i]!, i, file, PIMB_HEADER_SIZE + i * PIMB_RECORD_SIZE, diagnostics);
    if (instruction !== undefined) instructions.push(instruction);
  }
  return { instructions, diagnostics };
}

/** Whether `bytes` starts with the PIMB magic (a cheap format sniff). */
export function isPimb(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && PIMB_MAGIC.every((b, i) => bytes[i] === b);
}
