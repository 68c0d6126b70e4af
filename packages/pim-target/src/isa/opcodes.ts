/**
 * The opcode table of the crossbar-PIM ISA (pim-isa.md §3): mnemonics, PIMB v1 binary opcode
 * numbers and the execution class of every instruction.
 *
 * The binary numbers are the ones pimsim-nn's `decodeBinaryOpcode`/`encodeBinaryOpcode` use;
 * they differ from pimsim-nn's internal enum ordinals from `vmv` on, because binary 21 is
 * reserved for `vsoftmax`.
 */

/** Every mnemonic of the ISA, in binary-opcode order (index = PIMB opcode). */
export const MNEMONICS = [
  'nop',
  'sldi',
  'sld',
  'sadd',
  'ssub',
  'smul',
  'saddi',
  'smuli',
  'setbw',
  'mvmul',
  'vvadd',
  'vvsub',
  'vvmul',
  'vvdmul',
  'vvmax',
  'vvsll',
  'vvsra',
  'vavg',
  'vrelu',
  'vtanh',
  'vsigm',
  'vsoftmax',
  'vmv',
  'vrsu',
  'vrsl',
  'ld',
  'st',
  'lldi',
  'lmv',
  'send',
  'recv',
  'wait',
  'sync',
] as const;

/** An instruction mnemonic (`'vvadd'`, `'mvmul'`, ...). */
export type Mnemonic = (typeof MNEMONICS)[number];

/**
 * PIMB v1 binary opcode numbers by mnemonic (pim-isa.md §3, column "Bin").
 *
 * @example `Opcode.vsoftmax === 21`, `Opcode.sync === 32`.
 */
export const Opcode: { readonly [M in Mnemonic]: number } = {
  nop: 0,
  sldi: 1,
  sld: 2,
  sadd: 3,
  ssub: 4,
  smul: 5,
  saddi: 6,
  smuli: 7,
  setbw: 8,
  mvmul: 9,
  vvadd: 10,
  vvsub: 11,
  vvmul: 12,
  vvdmul: 13,
  vvmax: 14,
  vvsll: 15,
  vvsra: 16,
  vavg: 17,
  vrelu: 18,
  vtanh: 19,
  vsigm: 20,
  vsoftmax: 21,
  vmv: 22,
  vrsu: 23,
  vrsl: 24,
  ld: 25,
  st: 26,
  lldi: 27,
  lmv: 28,
  send: 29,
  recv: 30,
  wait: 31,
  sync: 32,
};

/** The largest binary opcode number PIMB v1 defines. */
export const MAX_OPCODE = 32;

/**
 * Execution class of an instruction, which also selects its PIMB field mapping (§8.3):
 * `nop`; `scalar` (scalar unit, never enters the ROB); `setbw` (matrix class, executed in
 * decode); `matrix` (`mvmul`, one array group); `vector`; `transfer`.
 */
export type InstructionClass = 'nop' | 'scalar' | 'setbw' | 'matrix' | 'vector' | 'transfer';

/** Execution class of every mnemonic. */
export const INSTRUCTION_CLASS: { readonly [M in Mnemonic]: InstructionClass } = {
  nop: 'nop',
  sldi: 'scalar',
  sld: 'scalar',
  sadd: 'scalar',
  ssub: 'scalar',
  smul: 'scalar',
  saddi: 'scalar',
  smuli: 'scalar',
  setbw: 'setbw',
  mvmul: 'matrix',
  vvadd: 'vector',
  vvsub: 'vector',
  vvmul: 'vector',
  vvdmul: 'vector',
  vvmax: 'vector',
  vvsll: 'vector',
  vvsra: 'vector',
  vavg: 'vector',
  vrelu: 'vector',
  vtanh: 'vector',
  vsigm: 'vector',
  vsoftmax: 'vector',
  vmv: 'vector',
  vrsu: 'vector',
  vrsl: 'vector',
  ld: 'transfer',
  st: 'transfer',
  lldi: 'transfer',
  lmv: 'transfer',
  send: 'transfer',
  recv: 'transfer',
  wait: 'transfer',
  sync: 'transfer',
};

/** Number of general registers per core (`r0`..`r31`). */
export const REGISTER_COUNT = 32;

/** Number of event registers per core (used by `sync`/`wait`). */
export const EVENT_REGISTER_COUNT = 32;

/** Returns the mnemonic of a PIMB binary opcode, or `undefined` when it is not one (> 32). */
export function mnemonicOfOpcode(opcode: number): Mnemonic | undefined {
  return Number.isInteger(opcode) && opcode >= 0 && opcode <= MAX_OPCODE ? MNEMONICS[opcode] : undefined;
}

/** Whether `name` is a mnemonic of the ISA (case-sensitive, as pimsim-nn's JSON reader). */
export function isMnemonic(name: string): name is Mnemonic {
  return Object.prototype.hasOwnProperty.call(Opcode, name);
}
