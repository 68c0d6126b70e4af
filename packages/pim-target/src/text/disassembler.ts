/**
 * The disassembler: instructions to the text syntax of `syntax.ts`, one per line. The
 * assembler parses the output back to the same instructions.
 */
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
