/**
 * The bundle validator: checks a {@link ProgramBundle} against the ISA, its target
 * configuration and pimsim-nn's limits.
 *
 * - **Errors** make the bundle unusable for our simulator (or crash/reject it in pimsim-nn):
 *   register or event indices ≥ 32, array groups that do not exist or exceed the crossbar
 *   budget, `mvmul` with mbiw ≤ 0, peers that do not exist, negative sizes, `vsoftmax` when
 *   the target forbids it, more cores than the target has, bad weights and tensors, sends and
 *   recvs that do not pair up (count or size), waits that consume more events than are synced.
 * - **Compatibility warnings** (codes starting with `pimsim-`) flag programs that only
 *   pimsim-nn cannot run or times differently (pim-isa.md §16): no `setbw` first, a scalar or
 *   `setbw` last (never finishes), `nop` (crash), `sld` (no-op), `sadd`/`ssub`/`smul` with
 *   rs2 ≠ r0 (lost in PIMB), address offsets (offset bug), send with rd ≠ rs1, odd register
 *   pairs, `vsoftmax` (rejected).
 */
import { Messages, type Message } from '../diagnostics';
import type { Severity, TargetDiagnostic } from '../target-diagnostic';
import type { Target } from '../config/hardware-config';
import { getField, OPERAND_FIELDS, type Instruction } from '../isa/instruction';
import { EVENT_REGISTER_COUNT, INSTRUCTION_CLASS, REGISTER_COUNT } from '../isa/opcodes';
import { BUNDLE_FILES, ELEMENT_SIZE, coreFileName, tensorByteSize, type ProgramBundle } from './bundle';

/** Options of {@link validateBundle}. */
export interface ValidateBundleOptions {
  /**
   * The target to check against. Default: the bundle's own target (from its manifest). With
   * neither, checks that need a target (core count, crossbar budget, memory capacity) are
   * skipped.
   */
  target?: Target;
}

/** The result of {@link validateBundle}. */
export interface BundleValidation {
  /** Every problem found, core by core, in instruction order. */
  diagnostics: TargetDiagnostic[];
  /** Number of errors. */
  errorCount: number;
  /** True when there is no error and no `pimsim-*` compatibility warning. */
  pimsimCompatible: boolean;
}

/** Whether a diagnostic is a pimsim-nn compatibility problem. */
export function isPimsimCompatibilityDiagnostic(d: TargetDiagnostic): boolean {
  return d.code.startsWith('pimsim-');
}

class Collector {
  readonly diagnostics: TargetDiagnostic[] = [];
  add(severity: Severity, msg: Message, file: string, instruction?: number, path?: string): void {
    const d: TargetDiagnostic = { severity, code: msg.code, message: msg.message, file };
    if (instruction !== undefined) d.instruction = instruction;
    if (path !== undefined) d.path = path;
    this.diagnostics.push(d);
  }
}

function validateInstruction(
  ins: Instruction,
  index: number,
  core: number,
  file: string,
  bundle: ProgramBundle,
  target: Target | undefined,
  c: Collector,
): void {
  const fields = OPERAND_FIELDS[ins.op];
  for (const field of ['rd', 'rs1', 'rs2'] as const) {
    if (!fields.includes(field)) continue;
    const r = getField(ins, field);
    if (!Number.isInteger(r) || r < 0 || r >= REGISTER_COUNT) c.add('error', Messages.badRegister(field, r), file, index);
  }
  for (const field of ['len', 'size'] as const) {
    if (fields.includes(field) && getField(ins, field) < 0) c.add('error', Messages.negativeCount(field, getField(ins, field)), file, index);
  }
  if (fields.includes('offsetSelect') && (getField(ins, 'offsetSelect') !== 0 || getField(ins, 'offsetValue') !== 0)) {
    c.add('warning', Messages.pimsimOffset(ins.op), file, index);
  }
  switch (ins.op) {
    case 'nop':
      c.add('warning', Messages.pimsimNop(), file, index);
      break;
    case 'sld':
      c.add('warning', Messages.pimsimSld(), file, index);
      if (ins.offsetValue !== 0) c.add('warning', Messages.pimsimOffset(ins.op), file, index);
      break;
    case 'sadd':
    case 'ssub':
    case 'smul':
      if (ins.rs2 !== 0) c.add('warning', Messages.pimsimLossyRs2(ins.op, ins.rs2), file, index);
      break;
    case 'setbw':
      if (!(ins.ibiw >= 1 && ins.ibiw <= 64)) c.add('error', Messages.badBitWidth('ibiw', ins.ibiw), file, index);
      if (!(ins.obiw >= 1 && ins.obiw <= 64)) c.add('error', Messages.badBitWidth('obiw', ins.obiw), file, index);
      break;
    case 'mvmul': {
      if (ins.mbiw <= 0) c.add('error', Messages.badMbiw(ins.mbiw), file, index);
      const groups = bundle.arrayGroupMap[core]?.length ?? 0;
      if (!(ins.group >= 0 && ins.group < groups)) c.add('error', Messages.badGroup(ins.group, core, groups), file, index);
      break;
    }
    case 'vsoftmax':
      if (target && !target.config.raptor_config.allow_vsoftmax) c.add('error', Messages.vsoftmaxNotAllowed(), file, index);
      c.add('warning', Messages.pimsimVsoftmax(), file, index);
      break;
    case 'ld':
      if (ins.rs1 % 2 !== 0) c.add('warning', Messages.pimsimOddPair('ld', 'rs1', ins.rs1), file, index);
      break;
    case 'st':
      if (ins.rd % 2 !== 0) c.add('warning', Messages.pimsimOddPair('st', 'rd', ins.rd), file, index);
      break;
    case 'send':
      if (ins.rd !== ins.rs1) c.add('warning', Messages.pimsimSendRegisters(ins.rd, ins.rs1), file, index);
      break;
    case 'wait':
    case 'sync':
      if (!(ins.eventRegister >= 0 && ins.eventRegister < EVENT_REGISTER_COUNT)) {
        c.add('error', Messages.badEventRegister(ins.eventRegister), file, index);
      }
      if (ins.op === 'wait' && ins.waitValue < 0) c.add('error', Messages.negativeCount('wait_value', ins.waitValue), file, index);
      break;
    default:
      break;
  }
  if (ins.op === 'send' || ins.op === 'recv' || ins.op === 'sync') {
    if (!(ins.core >= 0 && ins.core < bundle.coreCount)) c.add('error', Messages.badPeerCore(ins.op, ins.core, bundle.coreCount), file, index);
    else if (ins.core === core) c.add('warning', Messages.pimsimSelfMessage(ins.op, core), file, index);
  }
}

/**
 * Static communication checks (programs have no branches, so they are exact): for every
 * ordered core pair the sends and the recvs must pair up one by one (matching is in program
 * order per pair) with equal sizes; for every (core, event register) the waits must not
 * consume more events than all syncs produce (error) and should consume exactly that many
 * (warning otherwise: the two `wait` semantics then differ).
 */
function checkCommunication(bundle: ProgramBundle, c: Collector): void {
  type Side = { size: number; index: number }[];
  const sends = new Map<string, Side>();
  const recvs = new Map<string, Side>();
  const syncs = new Map<string, number>();
  const waits = new Map<string, { total: number; index: number; core: number }>();
  const push = (map: Map<string, Side>, key: string, item: { size: number; index: number }): void => {
    const list = map.get(key);
    if (list) list.push(item);
    else map.set(key, [item]);
  };
  for (let core = 0; core < bundle.coreCount; core++) {
    (bundle.programs[core] ?? []).forEach((ins, index) => {
      if (ins.op === 'send') push(sends, `${core}>${ins.core}`, { size: ins.size, index });
      else if (ins.op === 'recv') push(recvs, `${ins.core}>${core}`, { size: ins.size, index });
      else if (ins.op === 'sync') syncs.set(`${ins.core}/${ins.eventRegister}`, (syncs.get(`${ins.core}/${ins.eventRegister}`) ?? 0) + 1);
      else if (ins.op === 'wait') {
        const key = `${core}/${ins.eventRegister}`;
        const entry = waits.get(key) ?? { total: 0, index, core };
        entry.total += ins.waitValue;
        waits.set(key, entry);
      }
    });
  }
  const fileOf = (core: number): string => bundle.sources?.[core] ?? coreFileName(core, 'pim');
  const pairs = [...new Set([...sends.keys(), ...recvs.keys()])].sort();
  for (const key of pairs) {
    const [sender, receiver] = key.split('>').map(Number) as [number, number];
    if (!(sender >= 0 && sender < bundle.coreCount && receiver >= 0 && receiver < bundle.coreCount)) continue;
    const s = sends.get(key) ?? [];
    const r = recvs.get(key) ?? [];
    const n = Math.min(s.length, r.length);
    for (let k = 0; k < n; k++) {
      if (s[k]!.size !== r[k]!.size) {
        c.add('error', Messages.transferSizeMismatch(k, sender, receiver, s[k]!.size, r[k]!.size, fileOf(receiver), r[k]!.index), fileOf(sender), s[k]!.index);
      }
    }
    if (s.length !== r.length) {
      const at = s.length > r.length ? { core: sender, index: s[n]!.index } : { core: receiver, index: r[n]!.index };
      c.add('error', Messages.unmatchedTransfers(sender, receiver, s.length, r.length), fileOf(at.core), at.index);
    }
  }
  for (const key of [...new Set([...waits.keys(), ...syncs.keys()])].sort()) {
    const [core, ev] = key.split('/').map(Number) as [number, number];
    if (!(core >= 0 && core < bundle.coreCount && ev >= 0 && ev < EVENT_REGISTER_COUNT)) continue;
    const waited = waits.get(key);
    const synced = syncs.get(key) ?? 0;
    const total = waited?.total ?? 0;
    if (total > synced) c.add('error', Messages.waitsExceedSyncs(core, ev, total, synced), fileOf(core), waited!.index);
    else if (total < synced) c.add('warning', Messages.syncsExceedWaits(core, ev, total, synced), fileOf(core), waited?.index);
  }
}

/**
 * Validates a bundle. Never throws. See the module documentation for what is an error and
 * what is a compatibility warning.
 *
 * @example
 * ```ts
 * const { value: bundle } = readBundle(dir);
 * const { diagnostics, pimsimCompatible } = validateBundle(bundle!);
 * ```
 */
export function validateBundle(bundle: ProgramBundle, options: ValidateBundleOptions = {}): BundleValidation {
  const c = new Collector();
  const target = options.target ?? bundle.target;
  const configFile = BUNDLE_FILES.config;
  const matrix = target?.config.chip_config.core_config.matrix_config;
  if (target && bundle.coreCount > target.config.chip_config.core_cnt) {
    c.add('error', Messages.bundleCoreCountTooLarge(bundle.coreCount, target.config.chip_config.core_cnt), configFile, undefined, 'core_cnt');
  }
  for (let core = 0; core < bundle.coreCount; core++) {
    const groups = bundle.arrayGroupMap[core] ?? [];
    if (matrix) {
      const total = groups.reduce((a, b) => a + b, 0);
      if (total > matrix.xbar_array_count) {
        c.add('error', Messages.bundleAgMapTooBig(core, total, matrix.xbar_array_count), configFile, undefined, `array_group_map.core${core}`);
      }
    }
    const program = bundle.programs[core] ?? [];
    const file = bundle.sources?.[core] ?? coreFileName(core, 'pim');
    program.forEach((ins, index) => validateInstruction(ins, index, core, file, bundle, target, c));
    if (program.length > 0) {
      if (program[0]!.op !== 'setbw') c.add('warning', Messages.pimsimNoSetbw(), file, 0);
      const last = program[program.length - 1]!;
      const cls = INSTRUCTION_CLASS[last.op];
      if (cls === 'scalar' || cls === 'setbw' || cls === 'nop') c.add('warning', Messages.pimsimScalarLast(last.op), file, program.length - 1);
    }
  }
  checkCommunication(bundle, c);
  // Weights: the group must exist and the block must fit it.
  const seen = new Set<string>();
  bundle.weights.forEach((block, i) => {
    const where = `weights.entries[${i}]`;
    const groups = bundle.arrayGroupMap[block.core];
    if (!groups || !(block.group >= 0 && block.group < groups.length)) {
      c.add('error', Messages.weightsNoGroup(i, block.core, block.group, groups?.length ?? 0), BUNDLE_FILES.manifest, undefined, where);
      return;
    }
    const key = `${block.core}/${block.group}`;
    if (seen.has(key)) c.add('error', Messages.weightsDuplicate(i, block.core, block.group), BUNDLE_FILES.manifest, undefined, where);
    seen.add(key);
    if (block.data.length !== block.rows * block.cols * ELEMENT_SIZE[block.elementType]) {
      c.add(
        'error',
        Messages.weightsSizeMismatch(i, block.data.length, block.rows * block.cols * ELEMENT_SIZE[block.elementType]),
        BUNDLE_FILES.manifest,
        undefined,
        where,
      );
    }
    if (matrix) {
      const maxRows = matrix.xbar_size[0];
      const maxCols = groups[block.group]! * matrix.xbar_size[1];
      if (block.rows > maxRows || block.cols > maxCols) {
        c.add('error', Messages.weightsTooBig(i, block.rows, block.cols, maxRows, maxCols), BUNDLE_FILES.manifest, undefined, where);
      }
    }
  });
  // Tensors and the memory image must fit in global memory.
  const capacity = target?.config.chip_config.global_memory_config.memory_size;
  if (capacity !== undefined && bundle.memoryImage && bundle.memoryImage.length > capacity) {
    c.add('error', Messages.memoryImageTooLarge(bundle.memoryImage.length, capacity), BUNDLE_FILES.memory);
  }
  for (const [kind, list] of [
    ['inputs', bundle.inputs],
    ['outputs', bundle.outputs],
  ] as const) {
    list.forEach((tensor, i) => {
      const end = tensor.address + tensorByteSize(tensor);
      if (capacity !== undefined && end > capacity) {
        c.add('error', Messages.tensorOutOfMemory(tensor.name, end, capacity), BUNDLE_FILES.manifest, undefined, `${kind}[${i}]`);
      }
    });
  }
  const errorCount = c.diagnostics.filter((d) => d.severity === 'error').length;
  return {
    diagnostics: c.diagnostics,
    errorCount,
    pimsimCompatible: errorCount === 0 && !c.diagnostics.some(isPimsimCompatibilityDiagnostic),
  };
}
