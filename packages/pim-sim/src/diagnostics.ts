/**
 * Every message text the simulator emits, in one place. Runtime errors name the core, the
 * program counter and the instruction; load errors name the file or field.
 */

/** Kinds of simulation errors (stable identifiers for tests and JSON reports). */
export type SimErrorKind =
  | 'out-of-bounds'
  | 'misaligned'
  | 'size-mismatch'
  | 'wait-overshoot'
  | 'deadlock'
  | 'mvmul-shape'
  | 'cycle-budget'
  | 'bad-operand'
  | 'unsupported'
  | 'invalid-bundle'
  | 'invalid-input';

/** A simulation error: what went wrong, where, and the message to print. */
export interface SimError {
  /** Stable kind. */
  readonly kind: SimErrorKind;
  /** Core where it happened (-1 when not tied to one core). */
  readonly core: number;
  /** Program counter (-1 when not tied to one instruction). */
  readonly pc: number;
  /** The instruction in assembler-like text ('' when none). */
  readonly instruction: string;
  /** The full message. */
  readonly message: string;
}

const at = (core: number, pc: number, inst: string): string => `core ${core}, pc ${pc} (${inst})`;

/** Message catalogue of the simulator. */
export const SIM_MESSAGES = {
  outOfBounds: (core: number, pc: number, inst: string, memory: string, start: number, bytes: number, size: number) =>
    `${at(core, pc, inst)}: ${memory} access [${start}, ${start + bytes}) is out of bounds (memory size ${size} bytes)`,
  misaligned: (core: number, pc: number, inst: string, address: number, width: number) =>
    `${at(core, pc, inst)}: address ${address} is not aligned to the element width of ${width} bytes`,
  sizeMismatch: (sender: number, sendPc: number, sendInst: string, receiver: number, recvPc: number, recvInst: string) =>
    `send/recv size mismatch: ${at(sender, sendPc, sendInst)} sends to core ${receiver}, whose matching ${at(receiver, recvPc, recvInst)} expects a different byte count`,
  waitOvershoot: (core: number, pc: number, inst: string, count: number, value: number) =>
    `${at(core, pc, inst)}: event register holds ${count} tokens, more than the ${value} this wait expects (equal-reset wait semantics would never release)`,
  deadlock: (lines: readonly string[]) =>
    `deadlock: every unfinished core is blocked\n${lines.map((l) => `  ${l}`).join('\n')}`,
  blockedOnRecv: (core: number, pc: number, inst: string, from: number) =>
    `${at(core, pc, inst)} waits for data from core ${from}`,
  blockedOnSend: (core: number, pc: number, inst: string, to: number) =>
    `${at(core, pc, inst)} waits for core ${to} to post a matching recv`,
  blockedOnWait: (core: number, pc: number, inst: string, ev: number, have: number, need: number) =>
    `${at(core, pc, inst)} waits on event register ${ev} (${have} of ${need} tokens)`,
  blockedOther: (core: number, pc: number, inst: string) => `${at(core, pc, inst)} is blocked`,
  mvmulShape: (core: number, pc: number, inst: string, what: string) =>
    `${at(core, pc, inst)}: ${what}`,
  cycleBudget: (budgetNs: number, lines: readonly string[]) =>
    `simulation ran past its cycle budget of ${budgetNs} ns; unfinished cores:\n${lines.map((l) => `  ${l}`).join('\n')}`,
  unfinishedCore: (core: number, pc: number, length: number) => `core ${core} at pc ${pc} of ${length}`,
  badOperand: (core: number, pc: number, inst: string, what: string) => `${at(core, pc, inst)}: ${what}`,
  unsupported: (core: number, pc: number, inst: string, what: string) => `${at(core, pc, inst)}: ${what}`,
  badPeer: (peer: number, cores: number) => `core ${peer} does not exist (the bundle has ${cores} cores)`,
  badEventRegister: (ev: number) => `event register ${ev} is out of range 0..31`,
  badRegister: (r: number) => `register r${r} is out of range r0..r31`,
  badGroup: (group: number, groups: number) => `array group ${group} is outside this core's ${groups} groups`,
  mbiwZero: () => `mvmul with mbiw = 0 has no output length (pimsim-nn crashes with SIGFPE)`,
  elementWidth: (bits: number) =>
    `element width of ${bits} bits is not supported for values (use 8, 16 or 32 bits)`,
  vsoftmaxDisabled: () => `vsoftmax is disabled by the target configuration (raptor_config.allow_vsoftmax)`,
  nopInstruction: () => `nop crashes pimsim-nn; the bundle must not contain it`,
  groupSizeMismatch: (group: number, weightsRows: number, weightsCols: number, inLen: number, outLen: number) =>
    `array group ${group} holds a ${weightsRows}x${weightsCols} weight matrix, but this mvmul reads at most ${inLen} inputs and writes at most ${outLen} outputs (xbar rows; crossbars x floor(cols x cell_precision / mbiw))`,
  agMapTooBig: (core: number, total: number, limit: number) =>
    `array_group_map.core${core} assigns ${total} crossbars, but the hardware provides ${limit}`,
  agMapMissing: (core: number) => `array_group_map has no entry for core${core}`,
  tooManyCores: (cores: number, limit: number) =>
    `the program has ${cores} cores, but the hardware configuration provides ${limit}`,
  // Compatibility notes (pimsim-nn would reject, crash or never finish).
  incompatScalarLast: (core: number) =>
    `core ${core} ends with a scalar or setbw instruction: pimsim-nn would never finish it (latency timeout)`,
  incompatNop: (core: number, pc: number) => `core ${core}, pc ${pc}: nop crashes pimsim-nn (SIGSEGV)`,
  incompatVsoftmax: (core: number, pc: number) => `core ${core}, pc ${pc}: pimsim-nn rejects opcode vsoftmax`,
  incompatNoSetbw: (core: number) =>
    `core ${core} does not begin with setbw: pimsim-nn then moves 0-byte elements`,
  incompatVerbose: (level: number) => `report_verbose_level ${level} crashes pimsim-nn at report time`,
  // Input/output errors.
  inputUnknown: (name: string, known: readonly string[]) =>
    `no model input named '${name}' (the manifest lists: ${known.join(', ') || 'none'})`,
  inputShape: (name: string, got: readonly number[], want: readonly number[]) =>
    `input '${name}' has shape [${got.join(', ')}], expected [${want.join(', ')}]`,
  inputDtype: (name: string, got: string, want: string) => `input '${name}' has dtype ${got}, expected ${want}`,
  npyInvalid: (what: string) => `invalid .npy file: ${what}`,
  internal: (what: string) => `internal simulator error: ${what}`,
  memoryTooLarge: (bytes: number, limit: number) =>
    `the target's memories total ${bytes} bytes (local memory_size x cores + global memory_size), more than the ${limit} bytes the simulator allocates; use --timing-only or a smaller memory_size`,
  noSemantics: (op: number) => `opcode ${op} has no functional semantics`,
  unknownEvent: (kind: number) => `unknown event kind ${kind}`,
  bundleUnreadable: () => 'bundle could not be read',
} as const;
