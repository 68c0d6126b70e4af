/**
 * Assembler-like text of a pre-decoded instruction, for messages and traces.
 */
import {
  STRIDE,
  F_OP,
  F_RD,
  F_RS1,
  F_RS2,
  F_IMM,
  F_LEN,
  F_OSEL,
  F_OVAL,
  F_CORE,
  F_A,
  F_B,
  F_C,
  OP,
  OP_NAMES,
} from './program';

/**
 * Formats instruction `pc` of a compiled program, e.g. `vvadd r6, r2, r3, len=128`.
 */
export function formatInstruction(code: Int32Array, pc: number): string {
  const b = pc * STRIDE;
  if (b < 0 || b + STRIDE > code.length) return '?';
  const op = code[b + F_OP];
  const name = OP_NAMES[op] ?? `op${op}`;
  const r = (slot: number): string => `r${code[b + slot]}`;
  const off = (): string =>
    code[b + F_OSEL] !== 0 || code[b + F_OVAL] !== 0 ? `, offset=${code[b + F_OSEL]}/${code[b + F_OVAL]}` : '';
  switch (op) {
    case OP.nop:
      return name;
    case OP.sldi:
      return `${name} ${r(F_RD)}, ${code[b + F_IMM]}`;
    case OP.sld:
      return `${name} ${r(F_RD)}, ${r(F_RS1)}, ${code[b + F_IMM]}`;
    case OP.sadd:
    case OP.ssub:
    case OP.smul:
      return `${name} ${r(F_RD)}, ${r(F_RS1)}, ${r(F_RS2)}`;
    case OP.saddi:
    case OP.smuli:
      return `${name} ${r(F_RD)}, ${r(F_RS1)}, ${code[b + F_IMM]}`;
    case OP.setbw:
      return `${name} ibiw=${code[b + F_A]}, obiw=${code[b + F_B]}`;
    case OP.mvmul:
      return `${name} ${r(F_RD)}, ${r(F_RS1)}, mbiw=${code[b + F_B]}, relu=${code[b + F_C]}, group=${code[b + F_A]}`;
    case OP.vrelu:
    case OP.vtanh:
    case OP.vsigm:
    case OP.vsoftmax:
      return `${name} ${r(F_RD)}, ${r(F_RS1)}, len=${code[b + F_LEN]}${off()}`;
    case OP.ld:
    case OP.st:
      return `${name} ${r(F_RD)}, ${r(F_RS1)}, size=${code[b + F_LEN]}${off()}`;
    case OP.lldi:
      return `${name} ${r(F_RD)}, ${code[b + F_IMM]}, len=${code[b + F_LEN]}${off()}`;
    case OP.lmv:
      return `${name} ${r(F_RD)}, ${r(F_RS1)}, len=${code[b + F_LEN]}${off()}`;
    case OP.send:
      return `${name} ${r(F_RD)}, ${r(F_RS1)}, core=${code[b + F_CORE]}, size=${code[b + F_LEN]}${off()}`;
    case OP.recv:
      return `${name} ${r(F_RD)}, core=${code[b + F_CORE]}, size=${code[b + F_LEN]}${off()}`;
    case OP.wait:
      return `${name} ev=${code[b + F_A]}, value=${code[b + F_B]}`;
    case OP.sync:
      return `${name} ev=${code[b + F_A]}, core=${code[b + F_CORE]}`;
    default:
      return `${name} ${r(F_RD)}, ${r(F_RS1)}, ${r(F_RS2)}, len=${code[b + F_LEN]}${off()}`;
  }
}
