/**
 * Reading a bundle for simulation without holding every instruction as an object.
 *
 * pim-target's reader decodes every core into `Instruction` objects, about 110 bytes each:
 * for a 1M-instruction bundle that is most of the process's memory, while the simulator
 * only needs its compiled form (48 bytes an instruction, typed arrays). When every program
 * file is PIMB (`core_<id>.pim`, no JSON twin), this module lets pim-target read the bundle
 * with empty program files (configuration, manifest, weights, memory image: everything but
 * the programs), then decodes one core at a time with pim-target's PIMB decoder and keeps
 * only the compiled program. The bundle's `programs` become read-only views that rebuild an
 * instruction object when one is read, so pim-target's validator sees
 * the same instructions without all of them existing at once. Anything unusual (JSON
 * programs, duplicate files, a decoding error) falls back to pim-target's reader, so
 * diagnostics for bad bundles are exactly the reader's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  PIMB_HEADER_SIZE,
  PIMB_MAGIC,
  PIMB_VERSION,
  Messages,
  decodePimb,
  mnemonicOfOpcode,
  readBundleFiles,
} from '@raptor-pim/pim-target';
import type { BundleFiles, Instruction, Mnemonic, ProgramBundle, Result, TargetDiagnostic } from '@raptor-pim/pim-target';
import type { CompiledProgram } from './program';
import { F_OP, OPERAND_SLOTS, STRIDE, compileProgram } from './program';

/** A bundle read for simulation, with its compiled programs when they were decoded here. */
export interface BundleForSimulation {
  /** The bundle (its programs possibly views over `compiled`) and the reader's diagnostics. */
  read: Result<ProgramBundle>;
  /** Compiled programs by core, when the streaming path was taken. */
  compiled?: CompiledProgram[];
}

const CORE_PIM = /^core_[0-9]+\.pim$/;

/** A valid PIMB v1 file with no records. */
function emptyPimb(): Uint8Array {
  const bytes = new Uint8Array(PIMB_HEADER_SIZE);
  bytes.set(PIMB_MAGIC, 0);
  new DataView(bytes.buffer).setUint32(4, PIMB_VERSION, true);
  return bytes;
}

/**
 * Rebuilds instruction `pc` of a compiled program as the PIMB decoder produced it: `op`, then
 * the operand fields in OPERAND_FIELDS order from their slots (checked against the decoder for
 * every mnemonic in test/bundle-stream.test.ts).
 */
export function instructionAt(program: CompiledProgram, pc: number): Instruction {
  const c = program.code;
  const b = pc * STRIDE;
  const opcode = c[b + F_OP]!;
  const r: Record<string, string | number | boolean> = { op: mnemonicOfOpcode(opcode) as Mnemonic };
  const { fields, slots } = OPERAND_SLOTS[opcode]!;
  for (let k = 0; k < fields.length; k++) {
    const field = fields[k]!;
    const value = c[b + slots[k]!]!;
    r[field] = field === 'relu' ? value !== 0 : value;
  }
  return r as unknown as Instruction;
}

function indexOf(key: string | symbol): number {
  if (typeof key !== 'string' || key.length === 0 || key.length > 10) return -1;
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57 || (c === 48 && key.length > 1)) return -1;
  const n = Number(key);
  return Number.isInteger(n) ? n : -1;
}

/**
 * A read-only `Instruction[]` over a compiled program: reading an element rebuilds it, so no
 * instruction outlives its reader. Writes are refused (the simulator never writes programs).
 */
export function programView(program: CompiledProgram): Instruction[] {
  const length = program.length;
  return new Proxy<Instruction[]>([], {
    get(target, key, receiver) {
      if (key === 'length') return length;
      const i = indexOf(key);
      if (i >= 0) return i < length ? instructionAt(program, i) : undefined;
      return Reflect.get(target, key, receiver) as unknown;
    },
    has(target, key) {
      const i = indexOf(key);
      if (i >= 0) return i < length;
      return Reflect.has(target, key);
    },
    set() {
      return false;
    },
    deleteProperty() {
      return false;
    },
    getOwnPropertyDescriptor(target, key) {
      const i = indexOf(key);
      if (i >= 0 && i < length) return { value: instructionAt(program, i), writable: false, enumerable: true, configurable: true };
      if (key === 'length') return { value: length, writable: false, enumerable: false, configurable: false };
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys() {
      return [...Array.from({ length }, (_, i) => String(i)), 'length'];
    },
  });
}

/**
 * Reads bundle files for simulation (see the module documentation). The result's bundle is
 * what pim-target's `readBundleFiles` gives, except that its programs may be views.
 */
export function readForSimulation(files: BundleFiles): BundleForSimulation {
  const coreFiles = [...files.keys()].filter((n) => n.startsWith('core_'));
  if (coreFiles.length === 0 || !coreFiles.every((n) => CORE_PIM.test(n))) return { read: readBundleFiles(files) };
  const withoutPrograms = new Map(files);
  const empty = emptyPimb();
  for (const name of coreFiles) withoutPrograms.set(name, empty);
  const read = readBundleFiles(withoutPrograms);
  const bundle = read.value;
  if (!bundle || read.diagnostics.some((d) => d.severity === 'error')) return { read: readBundleFiles(files) };
  const decoded: TargetDiagnostic[] = [];
  const compiled: CompiledProgram[] = [];
  for (let id = 0; id < bundle.coreCount; id++) {
    const name = bundle.sources?.[id] ?? `core_${id}.pim`;
    const bytes = files.get(name);
    if (bytes === undefined) return { read: readBundleFiles(files) };
    const program = decodePimb(bytes, { file: name });
    if (program.instructions === undefined || program.diagnostics.some((d) => d.severity === 'error')) return { read: readBundleFiles(files) };
    decoded.push(...program.diagnostics);
    compiled.push(compileProgram(program.instructions));
  }
  bundle.programs = compiled.map(programView);
  return { read: { value: bundle, diagnostics: [...read.diagnostics, ...decoded] }, compiled };
}

function isRegularFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Reads a bundle directory's files as pim-target's `readBundle` does (regular files and
 * links to regular files; unreadable entries are errors), then {@link readForSimulation}.
 */
export function readDirectoryForSimulation(directory: string): BundleForSimulation {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    const msg = Messages.fileRead(directory, error instanceof Error ? error.message : String(error));
    return { read: { value: undefined, diagnostics: [{ severity: 'error', code: msg.code, message: msg.message, file: directory }] } };
  }
  const files = new Map<string, Uint8Array>();
  const diagnostics: TargetDiagnostic[] = [];
  for (const entry of entries) {
    if (!entry.isFile() && !(entry.isSymbolicLink() && isRegularFile(path.join(directory, entry.name)))) continue;
    try {
      files.set(entry.name, new Uint8Array(fs.readFileSync(path.join(directory, entry.name))));
    } catch (error) {
      const msg = Messages.fileRead(entry.name, error instanceof Error ? error.message : String(error));
      diagnostics.push({ severity: 'error', code: msg.code, message: msg.message, file: entry.name });
    }
  }
  if (diagnostics.length > 0) {
    const read = readBundleFiles(files);
    return { read: { value: read.value, diagnostics: [...diagnostics, ...read.diagnostics] } };
  }
  return readForSimulation(files);
}
