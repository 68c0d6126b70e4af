/**
 * The disassembler: instructions to the text syntax of `syntax.ts`, one per line. The
 * assembler parses the output back to the same instructions.
 */
import type { TargetDiagnostic } from '../target-diagnostic';
import { PIMB_HEADER_SIZE, PIMB_RECORD_SIZE, readPimbRecords, recordToInstruction, type PimbOptions } from '../encoding/pimb';
import { OPERAND_FIELDS, getField, type Instruction } from '../isa/instruction';
import { KEYWORD, isPositional } from './syntax';

/** Options of {@link disassemble}. */
export interface DisassembleOptions {
  /** Append `# <index>` to every line. Default false. */
  indexComments?: boolean;
}

/**
 * Prints one instruction.
 *
 * @example `formatInstruction(makeInstruction('vvadd', { rd: 3, rs1: 1, rs2: 2, len: 16 }))`
 *   is `vvadd r3, r1, r2, len=16`.
 */
export function formatInstruction(instruction: Instruction): string {
  const op = instruction.op;
  const fields = OPERAND_FIELDS[op];
  const parts: string[] = [];
  const hasOffset = getField(instruction, 'offsetSelect') !== 0 || getField(instruction, 'offsetValue') !== 0;
  for (const field of fields) {
    const value = getField(instruction, field);
    if (isPositional(field)) {
      parts.push(field === 'imm' ? String(value) : `r${value}`);
      continue;
    }
    if ((field === 'offsetSelect' || field === 'offsetValue') && !hasOffset) continue;
    parts.push(`${KEYWORD[field]}=${value}`);
  }
  return parts.length > 0 ? `${op} ${parts.join(', ')}` : op;
}

/**
 * Prints a program, one instruction per line, each line ending with `\n` (deterministic).
 */
export function disassemble(instructions: readonly Instruction[], options: DisassembleOptions = {}): string {
  let out = '';
  instructions.forEach((instruction, index) => {
    out += formatInstruction(instruction);
    if (options.indexComments) out += `  # ${index}`;
    out += '\n';
  });
  return out;
}

/** The result of {@link dumpPimb}. */
export interface PimbDump {
  /** The listing: one line per record, each still valid assembler input. */
  text: string;
  /** Decoder diagnostics (header, truncation, unknown opcodes, dropped slots). */
  diagnostics: TargetDiagnostic[];
}

/**
 * Lists a PIMB file record by record for debugging: the disassembly followed by a comment with
 * the record index, its byte offset and the raw slots. Records that do not decode become
 * comment lines, so the listing always assembles.
 *
 * @example
 * ```
 * # PIMB v1, 2 records
 * setbw ibiw=8, obiw=8  # [0] @12: op=8 rd=0 rs1=0 flags=0 r2=0 g1=8 g2=8 g3=0
 * sldi r0, 4096  # [1] @32: op=1 rd=0 rs1=0 flags=0 r2=4096 g1=0 g2=0 g3=0
 * ```
 */
export function dumpPimb(bytes: Uint8Array, options: PimbOptions = {}): PimbDump {
  const { records, diagnostics } = readPimbRecords(bytes, options);
  if (records === undefined) return { text: '# not a readable PIMB v1 file\n', diagnostics };
  let text = `# PIMB v1, ${records.length} records\n`;
  records.forEach((record, index) => {
    const offset = PIMB_HEADER_SIZE + index * PIMB_RECORD_SIZE;
    const raw =
      `[${index}] @${offset}: op=${record.opcode} rd=${record.rd} rs1=${record.rs1} flags=${record.flags} ` +
      `r2=${record.r2OrImm} g1=${record.generic1} g2=${record.generic2} g3=${record.generic3}`;
    const decoded = recordToInstruction(record, index, { ...options, offset });
    diagnostics.push(...decoded.diagnostics);
    text += decoded.instruction ? `${formatInstruction(decoded.instruction)}  # ${raw}\n` : `# ${raw} (not decodable)\n`;
  });
  return { text, diagnostics };
}
