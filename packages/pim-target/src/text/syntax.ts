/**
 * The text syntax shared by the disassembler and the assembler.
 *
 * One instruction per line: `mnemonic operand, operand, ...`. Registers (`rd`, `rs1`, `rs2`)
 * and the immediate of `sldi`/`saddi`/`smuli`/`lldi` are positional, in that order; every
 * other operand is `key=value`. Examples:
 *
 * ```
 * setbw ibiw=8, obiw=8
 * sldi r0, 4096
 * saddi r3, r1, -4
 * mvmul r1, r0, mbiw=8, relu=0, group=0
 * vvadd r3, r1, r2, len=16
 * vrelu r7, r6, len=128, sel=1, off=4
 * ld r2, r0, size=128
 * send r7, r7, core=1, size=128
 * wait ev=1, value=1
 * ```
 */
import type { OperandField } from '../isa/instruction';

/** The keyword printed for each operand field (positional fields also accept it). */
export const KEYWORD: Readonly<Record<OperandField, string>> = {
  rd: 'rd',
  rs1: 'rs1',
  rs2: 'rs2',
  imm: 'imm',
  offsetSelect: 'sel',
  offsetValue: 'off',
  len: 'len',
  size: 'size',
  core: 'core',
  mbiw: 'mbiw',
  relu: 'relu',
  group: 'group',
  ibiw: 'ibiw',
  obiw: 'obiw',
  eventRegister: 'ev',
  waitValue: 'value',
};

/** Every keyword the assembler accepts, with the field it sets (aliases spell the JSON keys). */
export const KEYWORD_ALIASES: Readonly<Record<string, OperandField>> = {
  rd: 'rd',
  rs1: 'rs1',
  rs2: 'rs2',
  imm: 'imm',
  sel: 'offsetSelect',
  offset_select: 'offsetSelect',
  off: 'offsetValue',
  offset: 'offsetValue',
  offset_value: 'offsetValue',
  len: 'len',
  size: 'size',
  core: 'core',
  mbiw: 'mbiw',
  relu: 'relu',
  group: 'group',
  ibiw: 'ibiw',
  obiw: 'obiw',
  ev: 'eventRegister',
  event_register: 'eventRegister',
  value: 'waitValue',
  wait_value: 'waitValue',
};

/** Whether a field is written positionally (registers, and the immediate). */
export function isPositional(field: OperandField): boolean {
  return field === 'rd' || field === 'rs1' || field === 'rs2' || field === 'imm';
}

/** Whether a field may be omitted (defaults to 0): the offsets and `relu`. */
export function isOptional(field: OperandField): boolean {
  return field === 'offsetSelect' || field === 'offsetValue' || field === 'relu';
}
