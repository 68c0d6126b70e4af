/**
 * Every message text this package emits, in one place. Each entry returns the stable `code`
 * and the `message`; callers add the severity and the location.
 */
import type { FieldSpec } from './config/schema';

/** A message of the catalog: a stable code and the text. */
export interface Message {
  /** Stable identifier of the kind of problem. */
  code: string;
  /** The text. */
  message: string;
}

function m(code: string, message: string): Message {
  return { code, message };
}

/** Renders a JSON value briefly for "got ..." parts of messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `an array of ${value.length} elements`;
  return 'an object';
}

/** The phrase "expected ..." for a spec, used in messages. */
export function describeSpec(spec: FieldSpec): string {
  switch (spec.kind) {
    case 'int':
      if (spec.min === 1 && spec.max === undefined) return 'a positive integer';
      if (spec.min === 0 && spec.max === undefined) return 'a non-negative integer';
      if (spec.min !== undefined && spec.max !== undefined) return `an integer in ${spec.min}..${spec.max}`;
      return 'an integer';
    case 'number':
      return spec.positive ? 'a positive number' : spec.min === 0 ? 'a non-negative number' : 'a number';
    case 'bool':
      return 'a boolean';
    case 'string':
      return 'a string';
    case 'pair':
      return `an array of 2 ${spec.min >= 1 ? 'positive' : 'non-negative'} integers`;
    case 'enum':
      return `one of ${spec.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'object':
      return 'an object';
  }
}

/** The message catalog. */
export const Messages = {
  // ---- PIMB v1 (pim-isa.md §8) ----
  pimbTruncatedHeader: (size: number) =>
    m('pimb-truncated-header', `file is ${size} bytes, shorter than the 12-byte PIMB header`),
  pimbBadMagic: (bytes: string) =>
    m('pimb-bad-magic', `invalid PIM binary magic ${bytes}, expected "PIMB" (50 49 4d 42)`),
  pimbBadVersion: (version: number) =>
    m('pimb-bad-version', `unsupported PIM binary version ${version}, expected 1`),
  pimbTruncatedRecords: (count: number, complete: number, trailing: number) =>
    m(
      'pimb-truncated-record',
      `header announces ${count} records but the file holds only ${complete} complete 20-byte records` +
        (trailing > 0 ? ` and ${trailing} bytes of a truncated one` : ''),
    ),
  pimbTrailingBytes: (bytes: number) =>
    m('pimb-trailing-bytes', `${bytes} bytes after the last record are ignored (pimsim-nn ignores them too)`),
  pimbUnknownOpcode: (opcode: number) =>
    m('pimb-unknown-opcode', `unknown opcode ${opcode}, expected 0..32 (pim-isa.md §3)`),
  pimbFlagsIgnored: (flags: number) =>
    m('pimb-flags-ignored', `flags byte is ${flags}, expected 0 (ignored on read)`),
  pimbUnusedSlot: (op: string, slot: string, value: number) =>
    m('pimb-unused-slot', `'${op}' does not use the ${slot} slot, which holds ${value}; the value is dropped`),
  pimbBadRelu: (value: number) => m('pimb-bad-relu', `mvmul relu is ${value}, expected 0 or 1`),
  pimbLossyScalarRs2: (op: string, rs2: number) =>
    m(
      'pimb-lossy-rs2',
      `'${op}' rs2 = r${rs2} cannot be stored in PIMB (the scalar class has no rs2 slot); it decodes as r0 (pim-isa.md §8.4a)`,
    ),
  encodeNotInteger: (field: string, value: unknown) =>
    m('encode-not-integer', `field '${field}' is ${describeValue(value)}, expected an integer`),
  encodeOutOfRange: (field: string, value: number, min: number, max: number) =>
    m('encode-out-of-range', `field '${field}' = ${value} does not fit its PIMB slot (${min}..${max})`),
  encodeUnknownOp: (op: unknown) => m('encode-unknown-op', `unknown instruction op ${describeValue(op)}`),

  // ---- JSON instruction form (§7) ----
  jsonSyntax: (detail: string) => m('json-syntax', `invalid JSON: ${detail}`),
  jsonProgramNotArray: (got: unknown) =>
    m('json-not-array', `a core program must be a JSON array of instructions, got ${describeValue(got)}`),
  jsonInstructionNotObject: (got: unknown) =>
    m('json-instruction-not-object', `an instruction must be a JSON object, got ${describeValue(got)}`),
  jsonMissingOp: () => m('json-missing-op', `instruction has no "op" key`),
  jsonOpNotString: (got: unknown) => m('json-op-not-string', `"op" must be a string, got ${describeValue(got)}`),
  jsonUnknownOp: (op: string) =>
    m('json-unknown-op', `unknown opcode "${op}" (pimsim-nn: Opcode::_from_string: invalid argument)`),
  jsonFieldType: (key: string, got: unknown) =>
    m('json-field-type', `"${key}" must be an integer, got ${describeValue(got)}`),
  jsonOffsetType: (got: unknown) =>
    m('json-field-type', `"offset" must be an object {"offset_select", "offset_value"}, got ${describeValue(got)}`),
  jsonUnusedKey: (op: string, key: string, value: number) =>
    m('json-unused-key', `'${op}' does not use "${key}", which is ${value}; the value is dropped`),

  // ---- text assembler ----
  asmExpectedMnemonic: (got: string) => m('asm-expected-mnemonic', `expected an instruction mnemonic, got ${got}`),
  asmUnknownMnemonic: (name: string) => m('asm-unknown-mnemonic', `unknown mnemonic '${name}'`),
  asmUnexpectedChar: (ch: string) => m('asm-unexpected-char', `unexpected character '${ch}'`),
  asmExpectedOperand: (got: string) =>
    m('asm-expected-operand', `expected an operand (register rN, integer or key=value), got ${got}`),
  asmExpectedComma: (got: string) => m('asm-expected-comma', `expected ',' or end of line, got ${got}`),
  asmTooManyPositional: (op: string, expected: number) =>
    m('asm-too-many-operands', `'${op}' takes ${expected} positional operand(s)`),
  asmUnknownKey: (op: string, key: string, allowed: string) =>
    m('asm-unknown-key', `'${op}' has no operand '${key}' (operands: ${allowed})`),
  asmDuplicateOperand: (key: string) => m('asm-duplicate-operand', `operand '${key}' is given twice`),
  asmMissingOperand: (op: string, key: string, syntax: string) =>
    m('asm-missing-operand', `'${op}' needs operand '${key}' (syntax: ${syntax})`),
  asmExpectedRegister: (key: string, got: string) =>
    m('asm-expected-register', `operand '${key}' must be a register r0..r255, got ${got}`),
  asmExpectedInteger: (key: string, got: string) =>
    m('asm-expected-integer', `operand '${key}' must be an integer, got ${got}`),
  asmIntegerRange: (text: string) =>
    m('asm-integer-range', `integer ${text} does not fit in 32 bits (-2147483648..4294967295)`),
  asmBadRelu: (got: string) => m('asm-bad-relu', `operand 'relu' must be 0 or 1, got ${got}`),

  // ---- hardware configuration (§10, §11) ----
  configNotObject: (path: string, got: unknown) =>
    m('config-not-object', `${path}: expected an object, got ${describeValue(got)}`),
  configExpected: (path: string, what: string, got: unknown) =>
    m('config-bad-field', `${path}: expected ${what}, got ${describeValue(got)}`),
  configUnknownKey: (path: string) =>
    m('config-unknown-key', `${path}: unknown key (ignored; pimsim-nn ignores it too)`),
  configInputBufferLatency: (path: string) =>
    m(
      'config-input-buffer-latency',
      `${path}: pimsim-nn cannot read this key (it is missing from its JSON macro) and always uses 0`,
    ),
  configSwitchIdMismatch: (core: number, chip: number) =>
    m(
      'config-switch-id-mismatch',
      `chip_config.core_config.global_memory_switch_id: is ${core} but chip_config.global_memory_switch_id is ${chip}; they must be equal`,
    ),
  configSwitchIdCollides: (id: number, cores: number) =>
    m(
      'config-switch-id-collides',
      `chip_config.global_memory_switch_id: ${id} is also the switch id of a core (0..${cores - 1}); use a negative id such as -10`,
    ),
  configLayoutPimsim: (layout: readonly number[]) =>
    m(
      'pimsim-layout',
      `chip_config.network_config.layout: [${layout.join(', ')}] is not positive; pimsim-nn's checkValid rejects it (the value is otherwise unused)`,
    ),
  configVerboseCrash: (level: number) =>
    m(
      'pimsim-verbose-crash',
      `sim_config.report_verbose_level: ${level} makes pimsim-nn abort at report time ("invalid format string"); use 0 or 1`,
    ),
  configNetFileMissing: (path: string, detail: string) =>
    m('config-net-file', `cannot read the NoC table file '${path}': ${detail}`),
  networkBadKey: (path: string, key: string) =>
    m('network-bad-key', `${path}: switch id "${key}" is not a decimal integer`),
  networkBadValue: (path: string, got: unknown) =>
    m('network-bad-value', `${path}: expected a non-negative number, got ${describeValue(got)}`),
  fileRead: (file: string, detail: string) => m('file-read', `cannot read '${file}': ${detail}`),

  // ---- program bundle (decision 1, §9) ----
  bundleMissingConfig: () => m('bundle-missing-config', `missing config.json (core_cnt, array_group_map)`),
  bundleBadCoreCount: (got: unknown) =>
    m('bundle-bad-core-cnt', `core_cnt: expected a positive integer, got ${describeValue(got)}`),
  bundleCoreCountTooLarge: (count: number, max: number) =>
    m('bundle-core-cnt-too-large', `core_cnt is ${count}, but the target has only ${max} cores (chip_config.core_cnt)`),
  bundleMissingAgMap: () => m('bundle-missing-agmap', `array_group_map: missing (an object "core<id>": [crossbars per group])`),
  bundleBadAgMapEntry: (key: string, got: unknown) =>
    m('bundle-bad-agmap', `array_group_map.${key}: expected an array of positive integers, got ${describeValue(got)}`),
  bundleAgMapKey: (key: string) =>
    m('bundle-agmap-key', `array_group_map.${key}: key must be "core<id>" with 0 <= id < core_cnt`),
  bundleAgMapMissingCore: (core: number) =>
    m('bundle-agmap-missing-core', `array_group_map has no entry "core${core}" for core ${core}`),
  bundleAgMapTooBig: (core: number, total: number, budget: number) =>
    m(
      'bundle-agmap-too-big',
      `array_group_map.core${core} assigns ${total} crossbars, but the hardware provides ${budget} per core (matrix_config.xbar_array_count)`,
    ),
  bundleBadCoreFileName: (name: string) =>
    m('bundle-bad-core-file', `file name must match core_<id>.json or core_<id>.pim (pimsim-nn rejects '${name}')`),
  bundleCoreIdTooLarge: (name: string, id: number, count: number) =>
    m('bundle-core-id-too-large', `'${name}' is for core ${id}, but core_cnt is ${count}`),
  bundleMissingCoreFile: (core: number) =>
    m('bundle-missing-core-file', `missing core_${core}.pim or core_${core}.json for core ${core}`),
  bundleDuplicateCoreFile: (name: string, kept: string) =>
    m('bundle-duplicate-core-file', `'${name}' is ignored: '${kept}' is the program of the same core`),
  singleFileNoAgMap: () =>
    m(
      'pimsim-no-agmap',
      `config.array_group_map is missing (PIMCOMP-NN omits it); pimsim-nn requires it, and every core gets no array group`,
    ),
  singleFileCoreIdTooLarge: (key: string, count: number) =>
    m('single-file-core-id', `"${key}" is beyond config.core_cnt (${count})`),
  singleFileNoCore: () => m('single-file-no-core', `the file has no "core<id>" program; pimsim-nn needs at least one`),
  bundleJsonPimMismatch: (jsonFile: string, pimFile: string, index: number) =>
    m(
      'bundle-json-pim-mismatch',
      `${jsonFile} differs from ${pimFile} at instruction ${index}; pimsim-nn and our reader use the .pim file`,
    ),
  manifestBad: (path: string, what: string, got: unknown) =>
    m('manifest-bad-field', `${path}: expected ${what}, got ${describeValue(got)}`),
  manifestVersion: (got: unknown) =>
    m('manifest-version', `format_version ${describeValue(got)} is not supported, expected 1`),
  manifestMissingFile: (file: string) => m('manifest-missing-file', `manifest names '${file}', which is missing`),
  memoryImageTooLarge: (size: number, capacity: number) =>
    m(
      'memory-image-too-large',
      `memory.bin is ${size} bytes, larger than the global memory (${capacity} bytes, global_memory_config.memory_size)`,
    ),
  tensorOutOfMemory: (name: string, end: number, capacity: number) =>
    m('tensor-out-of-memory', `tensor '${name}' ends at byte ${end}, beyond the global memory (${capacity} bytes)`),
  weightsOutOfFile: (index: number, end: number, size: number) =>
    m('weights-out-of-file', `weights entry ${index} ends at byte ${end}, beyond weights.bin (${size} bytes)`),
  weightsSizeMismatch: (index: number, size: number, expected: number) =>
    m('weights-size-mismatch', `weights entry ${index} has size ${size} bytes, but rows x cols x element size is ${expected}`),
  weightsNoGroup: (index: number, core: number, group: number, groups: number) =>
    m(
      'weights-no-group',
      `weights entry ${index} is for core ${core} array group ${group}, which does not exist (the core has ${groups} groups)`,
    ),
  weightsTooBig: (index: number, rows: number, cols: number, maxRows: number, maxCols: number) =>
    m(
      'weights-too-big',
      `weights entry ${index} is ${rows}x${cols}, larger than its array group (${maxRows}x${maxCols}: xbar rows x crossbars·xbar cols)`,
    ),
  weightsDuplicate: (index: number, core: number, group: number) =>
    m('weights-duplicate', `weights entry ${index} repeats core ${core} array group ${group}`),

  // ---- instruction validation ----
  badRegister: (field: string, value: number) =>
    m('bad-register', `${field} = r${value} does not exist (registers are r0..r31)`),
  badEventRegister: (value: number) =>
    m('bad-event-register', `event register ${value} does not exist (event registers are 0..31)`),
  badGroup: (group: number, core: number, groups: number) =>
    m(
      'bad-group',
      `mvmul references array group ${group}, but array_group_map.core${core} has ${groups} group(s) (pimsim-nn rejects it)`,
    ),
  badMbiw: (mbiw: number) => m('bad-mbiw', `mvmul mbiw = ${mbiw}, expected > 0 (0 crashes pimsim-nn with SIGFPE)`),
  badBitWidth: (field: string, value: number) => m('bad-bit-width', `setbw ${field} = ${value}, expected 1..64`),
  negativeCount: (field: string, value: number) => m('negative-count', `${field} = ${value}, expected >= 0`),
  badPeerCore: (op: string, core: number, count: number) =>
    m('bad-peer-core', `${op} targets core ${core}, which does not exist (core_cnt ${count}; pimsim-nn dereferences a null switch)`),
  unmatchedTransfers: (sender: number, receiver: number, sends: number, recvs: number) =>
    m(
      'unmatched-send-recv',
      `core ${sender} sends ${sends} message(s) to core ${receiver}, which receives ${recvs} from core ${sender}; the unmatched ${sends > recvs ? 'send' : 'recv'} blocks forever`,
    ),
  transferSizeMismatch: (k: number, sender: number, receiver: number, sendSize: number, recvSize: number, recvFile: string, recvIndex: number) =>
    m(
      'send-recv-size-mismatch',
      `send #${k} from core ${sender} to core ${receiver} has size ${sendSize}, but the matching recv (${recvFile} instruction ${recvIndex}) has size ${recvSize}`,
    ),
  waitsExceedSyncs: (core: number, ev: number, waited: number, synced: number) =>
    m(
      'wait-exceeds-sync',
      `core ${core} waits for ${waited} event(s) on event register ${ev} in total, but all cores sync it only ${synced} time(s); a wait blocks forever`,
    ),
  syncsExceedWaits: (core: number, ev: number, waited: number, synced: number) =>
    m(
      'sync-exceeds-wait',
      `event register ${ev} of core ${core} receives ${synced} sync(s) but its waits consume ${waited}; the ISA's ==/reset wait and the fork's >=/subtract wait may disagree`,
    ),
  vsoftmaxNotAllowed: () =>
    m('vsoftmax-not-allowed', `vsoftmax (opcode 21) is not allowed by the target (raptor_config.allow_vsoftmax is false)`),
  pimsimVsoftmax: () => m('pimsim-vsoftmax', `pimsim-nn does not support opcode vsoftmax`),
  pimsimNop: () => m('pimsim-nop', `nop crashes pimsim-nn (SIGSEGV); remove it`),
  pimsimSld: () => m('pimsim-sld', `sld loads nothing in pimsim-nn and clobbers r0 with 0; avoid it`),
  pimsimNoSetbw: () =>
    m('pimsim-no-setbw', `program does not begin with setbw: pimsim-nn starts with 0-bit widths (0-byte transfers)`),
  pimsimScalarLast: (op: string) =>
    m(
      'pimsim-scalar-last',
      `program ends with '${op}', which never enters the ROB: pimsim-nn never finishes this core (latency timeout); end with a vector, matrix or transfer instruction`,
    ),
  pimsimLossyRs2: (op: string, rs2: number) =>
    m('pimsim-lossy-rs2', `'${op}' rs2 = r${rs2} is lost in PIMB (decodes as r0); use saddi/smuli or r0 as the second operand`),
  pimsimOffset: (op: string) =>
    m(
      'pimsim-offset',
      `'${op}' uses an address offset: pimsim-nn tests offset_value bits instead of offset_select for rs1/rs2 (fact 5); use offset-free addressing`,
    ),
  pimsimSendRegisters: (rd: number, rs1: number) =>
    m(
      'pimsim-send-registers',
      `send reads its source from rd (r${rd}) in pimsim-nn but from rs1 (r${rs1}) in the ISA; put the same register in both`,
    ),
  pimsimOddPair: (op: string, field: string, value: number) =>
    m('pimsim-odd-pair', `'${op}' ${field} = r${value} starts a global-address register pair at an odd register`),
  pimsimSelfMessage: (op: string, core: number) =>
    m('pimsim-self-message', `${op} targets its own core ${core}`),

  // ---- NumPy .npy files (io/npy.ts) ----
  npyBadMagic: () => m('npy-bad-magic', 'missing the \\x93NUMPY magic'),
  npyBadVersion: (major: number) => m('npy-bad-version', `unsupported version ${major}`),
  npyTruncatedHeaderLength: () => m('npy-truncated-header-length', 'truncated header'),
  npyTruncatedHeader: () => m('npy-truncated-header', 'truncated header'),
  npyMalformedHeader: () => m('npy-malformed-header', 'malformed header dictionary'),
  npyFortranOrder: () => m('npy-fortran-order', 'Fortran-order arrays are not supported'),
  npyUnsupportedDtype: (descr: string) => m('npy-unsupported-dtype', `unsupported dtype '${descr}'`),
  npyBadDimension: (text: string) => m('npy-bad-dimension', `bad dimension '${text}'`),
  npyShortData: (have: number, need: number) =>
    m('npy-short-data', `data holds ${have} bytes, the shape needs ${need}`),
} as const;
