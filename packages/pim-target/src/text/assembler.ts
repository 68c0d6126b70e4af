/**
 * The assembler: parses the text syntax (see `syntax.ts` and the README) into instructions.
 *
 * Grammar, per line:
 * ```
 * line     := [ mnemonic [ operand { "," operand } ] ] [ comment ]
 * operand  := register | integer | keyword "=" ( register | integer )
 * register := "r" decimal                      (r0..r255; the validator checks r0..r31)
 * integer  := [ "-" | "+" ] ( decimal | "0x" hex | "0b" binary )   (32-bit; >= 2^31 wraps)
 * comment  := ( "#" | ";" | "//" ) any text to the end of the line
 * ```
 * Mnemonics and keywords are case-insensitive. Errors carry line and column; the assembler
 * never throws and keeps going after an error to report every bad line.
 */
import { Messages, type Message } from '../diagnostics';
import type { TargetDiagnostic } from '../target-diagnostic';
import { OPERAND_FIELDS, makeInstruction, type Instruction, type OperandField } from '../isa/instruction';
import { isMnemonic } from '../isa/opcodes';
import { KEYWORD, KEYWORD_ALIASES, isOptional, isPositional } from './syntax';

/** Options of {@link assemble}. */
export interface AssembleOptions {
  /** File name put on diagnostics. */
  file?: string;
}

/** The result of {@link assemble}. */
export interface AssembleResult {
  /** The instructions of every line that parsed. */
  instructions: Instruction[];
  /** 1-based source line of each instruction (parallel to `instructions`). */
  lines: number[];
  /** Errors with line and column. */
  diagnostics: TargetDiagnostic[];
}

type TokenKind = 'ident' | 'int' | 'comma' | 'equals' | 'end' | 'bad';
interface Token {
  kind: TokenKind;
  text: string;
  column: number;
}

const CH_SPACE = 32;
const CH_TAB = 9;
const CH_CR = 13;
const CH_HASH = 35;
const CH_SEMI = 59;
const CH_SLASH = 47;
const CH_COMMA = 44;
const CH_EQ = 61;
const CH_MINUS = 45;
const CH_PLUS = 43;

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 46;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Splits one line into tokens (comments dropped). */
function scanLine(line: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (c === CH_SPACE || c === CH_TAB || c === CH_CR) {
      i++;
      continue;
    }
    if (c === CH_HASH || c === CH_SEMI || (c === CH_SLASH && line.charCodeAt(i + 1) === CH_SLASH)) break;
    const start = i;
    if (c === CH_COMMA) {
      tokens.push({ kind: 'comma', text: ',', column: start + 1 });
      i++;
    } else if (c === CH_EQ) {
      tokens.push({ kind: 'equals', text: '=', column: start + 1 });
      i++;
    } else if (isIdentStart(c)) {
      while (i < n && isIdentPart(line.charCodeAt(i))) i++;
      tokens.push({ kind: 'ident', text: line.slice(start, i), column: start + 1 });
    } else if (isDigit(c) || ((c === CH_MINUS || c === CH_PLUS) && isDigit(line.charCodeAt(i + 1)))) {
      i++;
      while (i < n && isIdentPart(line.charCodeAt(i))) i++;
      tokens.push({ kind: 'int', text: line.slice(start, i), column: start + 1 });
    } else {
      tokens.push({ kind: 'bad', text: line[i]!, column: start + 1 });
      i++;
    }
  }
  tokens.push({ kind: 'end', text: 'end of line', column: n + 1 });
  return tokens;
}

/** Parses an integer literal; `undefined` when malformed. */
function parseInteger(text: string): number | undefined {
  const match = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)$/.exec(text);
  if (!match) return undefined;
  const body = match[2]!;
  let magnitude: number;
  if (body.length > 2 && (body[1] === 'x' || body[1] === 'X')) magnitude = parseInt(body.slice(2), 16);
  else if (body.length > 2 && (body[1] === 'b' || body[1] === 'B')) magnitude = parseInt(body.slice(2), 2);
  else magnitude = parseInt(body, 10);
  return match[1] === '-' ? -magnitude : magnitude;
}

function describe(token: Token): string {
  return token.kind === 'end' ? 'end of line' : `'${token.text}'`;
}

/** The syntax summary of one mnemonic, for error messages. */
export function syntaxOf(op: string): string {
  if (!isMnemonic(op)) return op;
  const parts = OPERAND_FIELDS[op].map((field) => {
    if (isPositional(field)) return field === 'imm' ? 'imm' : field;
    const text = `${KEYWORD[field]}=N`;
    return isOptional(field) ? `[${text}]` : text;
  });
  return parts.length ? `${op} ${parts.join(', ')}` : op;
}

/**
 * Assembles program text into instructions.
 *
 * @example
 * ```ts
 * const { instructions, diagnostics } = assemble('setbw ibiw=8, obiw=8\nvvadd r3, r1, r2, len=16\n');
 * ```
 */
export function assemble(text: string, options: AssembleOptions = {}): AssembleResult {
  const result: AssembleResult = { instructions: [], lines: [], diagnostics: [] };
  const lines = text.split('\n');
  for (let l = 0; l < lines.length; l++) {
    const instruction = assembleLine(lines[l]!, l + 1, options.file, result.diagnostics);
    if (instruction) {
      result.instructions.push(instruction);
      result.lines.push(l + 1);
    }
  }
  return result;
}

function assembleLine(
  line: string,
  lineNumber: number,
  file: string | undefined,
  diagnostics: TargetDiagnostic[],
): Instruction | undefined {
  const tokens = scanLine(line);
  let p = 0;
  const error = (msg: Message, token: Token): undefined => {
    const d: TargetDiagnostic = { severity: 'error', code: msg.code, message: msg.message, line: lineNumber, column: token.column };
    if (file !== undefined) d.file = file;
    diagnostics.push(d);
    return undefined;
  };
  const first = tokens[p]!;
  if (first.kind === 'end') return undefined;
  if (first.kind === 'bad') return error(Messages.asmUnexpectedChar(first.text), first);
  if (first.kind !== 'ident') return error(Messages.asmExpectedMnemonic(describe(first)), first);
  const name = first.text.toLowerCase();
  if (!isMnemonic(name)) return error(Messages.asmUnknownMnemonic(first.text), first);
  const op = name;
  p++;
  const fields = OPERAND_FIELDS[op];
  const positional = fields.filter(isPositional);
  const values = new Map<OperandField, number>();
  let nextPositional = 0;

  const readValue = (field: OperandField, token: Token): number | undefined => {
    const isReg = field === 'rd' || field === 'rs1' || field === 'rs2';
    if (isReg) {
      const match = token.kind === 'ident' ? /^[rR]([0-9]{1,3})$/.exec(token.text) : null;
      const index = match ? Number(match[1]) : NaN;
      if (!match || index > 255) return error(Messages.asmExpectedRegister(KEYWORD[field], describe(token)), token);
      return index;
    }
    if (token.kind !== 'int') return error(Messages.asmExpectedInteger(KEYWORD[field], describe(token)), token);
    const value = parseInteger(token.text);
    if (value === undefined) return error(Messages.asmExpectedInteger(KEYWORD[field], describe(token)), token);
    if (value < -2147483648 || value > 4294967295) return error(Messages.asmIntegerRange(token.text), token);
    if (field === 'relu' && value !== 0 && value !== 1) return error(Messages.asmBadRelu(token.text), token);
    return value | 0;
  };

  if (tokens[p]!.kind !== 'end') {
    for (;;) {
      const token = tokens[p]!;
      let field: OperandField | undefined;
      let valueToken: Token;
      if (token.kind === 'ident' && tokens[p + 1]!.kind === 'equals') {
        const alias = KEYWORD_ALIASES[token.text.toLowerCase()];
        if (alias === undefined || !fields.includes(alias)) {
          const allowed = fields.map((f) => KEYWORD[f]).join(', ') || 'none';
          return error(Messages.asmUnknownKey(op, token.text, allowed), token);
        }
        field = alias;
        valueToken = tokens[p + 2]!;
        p += 3;
      } else if (token.kind === 'ident' || token.kind === 'int') {
        if (nextPositional >= positional.length) return error(Messages.asmTooManyPositional(op, positional.length), token);
        // Skip positional fields already given by keyword.
        while (nextPositional < positional.length && values.has(positional[nextPositional]!)) nextPositional++;
        if (nextPositional >= positional.length) return error(Messages.asmTooManyPositional(op, positional.length), token);
        field = positional[nextPositional++]!;
        valueToken = token;
        p += 1;
      } else {
        return error(
          token.kind === 'bad' ? Messages.asmUnexpectedChar(token.text) : Messages.asmExpectedOperand(describe(token)),
          token,
        );
      }
      if (values.has(field)) return error(Messages.asmDuplicateOperand(KEYWORD[field]), token);
      const value = readValue(field, valueToken);
      if (value === undefined) return undefined;
      values.set(field, value);
      const next = tokens[p]!;
      if (next.kind === 'end') break;
      if (next.kind !== 'comma') return error(Messages.asmExpectedComma(describe(next)), next);
      p++;
    }
  }
  for (const field of fields) {
    if (!values.has(field) && !isOptional(field)) {
      return error(Messages.asmMissingOperand(op, KEYWORD[field], syntaxOf(op)), tokens[tokens.length - 1]!);
    }
  }
  const record: Record<string, number | boolean> = {};
  for (const [field, value] of values) record[field] = field === 'relu' ? value !== 0 : value;
  return makeInstruction(op, record as Partial<Omit<Instruction, 'op'>>);
}
