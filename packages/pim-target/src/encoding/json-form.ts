/**
 * The JSON instruction form (pim-isa.md §7): what pimsim-nn reads from `core_<id>.json` and
 * PIMCOMP-NN writes.
 *
 * Reading follows pimsim-nn: `"op"` is required; every other key read by the instruction's
 * class defaults to 0 when absent; a present key of the wrong type is an error; keys outside
 * the class are ignored. A class key the instruction does not use (e.g. `"rs1"` on `recv`)
 * is dropped, with a warning when its value is not 0.
 *
 * Writing is canonical and deterministic: only the instruction's own fields, in a fixed order
 * (`op`, `event_register`, `rd`, `rs1`, `rs2`, `imm`, `ibiw`, `obiw`, `mbiw`, `relu`, `group`,
 * `core`, `len`, `size`, `wait_value`, `offset_value` (sld), `offset`), and programs are
 * printed like PIMCOMP/pimsim-nn's examples (`JSON.stringify(program, null, 1)`).
 */
import { Messages, type Message } from '../diagnostics';
import { findJsonErrorOffset } from './json-error-position';
import type { Severity, TargetDiagnostic } from '../target-diagnostic';
import { makeInstruction, OPERAND_FIELDS, getField, type Instruction, type OperandField } from '../isa/instruction';
import { INSTRUCTION_CLASS, isMnemonic, type InstructionClass, type Mnemonic } from '../isa/opcodes';

/** A JSON value as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An instruction in the JSON form (§7). */
export interface JsonInstruction {
  [key: string]: JsonValue;
  op: string;
}

/** Where a JSON key lives: top level, or inside the `offset` object. */
interface KeySpec {
  key: string;
  nested: boolean;
}

/** The JSON key of an operand field (`sld`'s offset is a top-level `offset_value`). */
function keyOf(op: Mnemonic, field: OperandField): KeySpec {
  switch (field) {
    case 'offsetSelect':
      return { key: 'offset_select', nested: true };
    case 'offsetValue':
      return { key: 'offset_value', nested: INSTRUCTION_CLASS[op] !== 'scalar' };
    case 'eventRegister':
      return { key: 'event_register', nested: false };
    case 'waitValue':
      return { key: 'wait_value', nested: false };
    default:
      return { key: field, nested: false };
  }
}

/** Keys pimsim-nn reads for each class (§7), as operand fields. */
const CLASS_FIELDS: Record<InstructionClass, readonly OperandField[]> = {
  nop: [],
  scalar: ['rd', 'rs1', 'rs2', 'imm', 'offsetValue'],
  setbw: ['rd', 'rs1', 'rs2', 'mbiw', 'group', 'relu', 'ibiw', 'obiw'],
  matrix: ['rd', 'rs1', 'rs2', 'mbiw', 'group', 'relu', 'ibiw', 'obiw'],
  vector: ['rd', 'rs1', 'rs2', 'len', 'offsetSelect', 'offsetValue'],
  transfer: ['rd', 'rs1', 'rs2', 'size', 'imm', 'len', 'core', 'offsetSelect', 'offsetValue', 'waitValue', 'eventRegister'],
};

/** Canonical output order of JSON keys. */
const WRITE_ORDER: readonly OperandField[] = [
  'eventRegister',
  'rd',
  'rs1',
  'rs2',
  'imm',
  'ibiw',
  'obiw',
  'mbiw',
  'relu',
  'group',
  'core',
  'len',
  'size',
  'waitValue',
];

/** Options of the JSON readers. */
export interface JsonReadOptions {
  /** File name put on diagnostics. */
  file?: string;
}

function diag(severity: Severity, msg: Message, file: string | undefined, instruction?: number): TargetDiagnostic {
  const d: TargetDiagnostic = { severity, code: msg.code, message: msg.message };
  if (file !== undefined) d.file = file;
  if (instruction !== undefined) d.instruction = instruction;
  return d;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Converts an instruction to its canonical JSON object.
 *
 * @example `instructionToJson(makeInstruction('sync', { eventRegister: 0, core: 1 }))`
 *   is `{"op":"sync","event_register":0,"core":1}`.
 */
export function instructionToJson(instruction: Instruction): JsonInstruction {
  const op = instruction.op;
  const fields = OPERAND_FIELDS[op];
  const out: JsonInstruction = { op };
  for (const field of WRITE_ORDER) {
    if (fields.includes(field)) out[keyOf(op, field).key] = getField(instruction, field);
  }
  if (fields.includes('offsetValue') && !fields.includes('offsetSelect')) {
    out.offset_value = getField(instruction, 'offsetValue');
  }
  if (fields.includes('offsetSelect')) {
    out.offset = {
      offset_select: getField(instruction, 'offsetSelect'),
      offset_value: getField(instruction, 'offsetValue'),
    };
  }
  return out;
}

/**
 * Reads one instruction of the JSON form with pimsim-nn's rules. Never throws; returns
 * `instruction: undefined` with an error for a missing/unknown op or a mistyped key.
 */
export function instructionFromJson(
  value: unknown,
  index = 0,
  options: JsonReadOptions = {},
): { instruction: Instruction | undefined; diagnostics: TargetDiagnostic[] } {
  const diagnostics: TargetDiagnostic[] = [];
  const file = options.file;
  if (!isObject(value)) {
    diagnostics.push(diag('error', Messages.jsonInstructionNotObject(value), file, index));
    return { instruction: undefined, diagnostics };
  }
  const opValue = value.op;
  if (opValue === undefined) {
    diagnostics.push(diag('error', Messages.jsonMissingOp(), file, index));
    return { instruction: undefined, diagnostics };
  }
  if (typeof opValue !== 'string') {
    diagnostics.push(diag('error', Messages.jsonOpNotString(opValue), file, index));
    return { instruction: undefined, diagnostics };
  }
  if (!isMnemonic(opValue)) {
    diagnostics.push(diag('error', Messages.jsonUnknownOp(opValue), file, index));
    return { instruction: undefined, diagnostics };
  }
  const op = opValue;
  const own = OPERAND_FIELDS[op];
  const offsetObject = value.offset;
  let ok = true;
  if (offsetObject !== undefined && !isObject(offsetObject) && CLASS_FIELDS[INSTRUCTION_CLASS[op]].includes('offsetSelect')) {
    diagnostics.push(diag('error', Messages.jsonOffsetType(offsetObject), file, index));
    ok = false;
  }
  const fields: Record<string, number | boolean> = {};
  for (const field of CLASS_FIELDS[INSTRUCTION_CLASS[op]]) {
    // sld reads its offset from the top level; vector/transfer from the offset object.
    const spec = field === 'offsetValue' && INSTRUCTION_CLASS[op] === 'scalar' ? { key: 'offset_value', nested: false } : keyOf(op, field);
    const container = spec.nested ? (isObject(offsetObject) ? offsetObject : undefined) : value;
    const raw = container?.[spec.key];
    if (raw === undefined) continue;
    let number: number;
    if (typeof raw === 'number' && Number.isInteger(raw)) number = raw;
    else if (field === 'relu' && typeof raw === 'boolean') number = raw ? 1 : 0;
    else {
      diagnostics.push(diag('error', Messages.jsonFieldType(spec.nested ? `offset.${spec.key}` : spec.key, raw), file, index));
      ok = false;
      continue;
    }
    if (field === 'relu' && own.includes(field) && number !== 0 && number !== 1) {
      diagnostics.push(diag('error', Messages.pimbBadRelu(number), file, index));
      ok = false;
    } else if (own.includes(field)) {
      fields[field] = field === 'relu' ? number !== 0 : number;
    } else if (number !== 0) {
      diagnostics.push(diag('warning', Messages.jsonUnusedKey(op, spec.nested ? `offset.${spec.key}` : spec.key, number), file, index));
    }
  }
  if (!ok) return { instruction: undefined, diagnostics };
  return { instruction: makeInstruction(op, fields as Partial<Omit<Instruction, 'op'>>), diagnostics };
}

/** Position of a `JSON.parse` error as 1-based line and column, when the message names one. */
function errorPosition(text: string, message: string): { line: number; column: number } | undefined {
  const match = /position (\d+)/.exec(message);
  const found = match ? Number(match[1]) : findJsonErrorOffset(text);
  if (found === undefined) return undefined;
  const position = Math.min(found, text.length);
  let line = 1;
  let column = 1;
  for (let i = 0; i < position; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column };
}

/**
 * Parses JSON text without throwing: returns the value, or a `json-syntax` diagnostic with
 * the line and column when the text is not JSON.
 */
export function parseJsonText(
  text: string,
  file?: string,
): { value: JsonValue | undefined; diagnostics: TargetDiagnostic[] } {
  try {
    return { value: JSON.parse(text) as JsonValue, diagnostics: [] };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const d = diag('error', Messages.jsonSyntax(message), file);
    const at = errorPosition(text, message);
    if (at) {
      d.line = at.line;
      d.column = at.column;
    }
    return { value: undefined, diagnostics: [d] };
  }
}

/**
 * Reads a core program in the JSON form (a JSON array of instructions). Never throws;
 * instructions that cannot be read are skipped and reported with their index.
 */
export function parseProgramJson(
  text: string,
  options: JsonReadOptions = {},
): { instructions: Instruction[] | undefined; diagnostics: TargetDiagnostic[] } {
  const parsed = parseJsonText(text, options.file);
  if (parsed.value === undefined) return { instructions: undefined, diagnostics: parsed.diagnostics };
  return programFromJson(parsed.value, options);
}

/** Reads an already parsed JSON program (an array of instruction objects). */
export function programFromJson(
  value: unknown,
  options: JsonReadOptions = {},
): { instructions: Instruction[] | undefined; diagnostics: TargetDiagnostic[] } {
  const diagnostics: TargetDiagnostic[] = [];
  if (!Array.isArray(value)) {
    diagnostics.push(diag('error', Messages.jsonProgramNotArray(value), options.file));
    return { instructions: undefined, diagnostics };
  }
  const instructions: Instruction[] = [];
  value.forEach((item: unknown, index: number) => {
    const { instruction, diagnostics: ds } = instructionFromJson(item, index, options);
    diagnostics.push(...ds);
    if (instruction) instructions.push(instruction);
  });
  return { instructions, diagnostics };
}

/**
 * Prints a core program in the JSON form, deterministically, with one-space indentation like
 * PIMCOMP-NN and the pimsim-nn examples (no trailing newline).
 */
export function formatProgramJson(instructions: readonly Instruction[]): string {
  return JSON.stringify(instructions.map(instructionToJson), null, 1);
}
