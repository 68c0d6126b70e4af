/**
 * The bundle reader: a directory (or a map of file names to bytes) to a {@link ProgramBundle}.
 * It follows pimsim-nn's directory-mode rules (pim-isa.md §9.2) and reads Raptor's extra
 * files. It never throws and never hangs: every problem is a diagnostic naming the file and,
 * where it applies, the instruction index or byte offset; work and allocation are bounded by
 * the sizes of the files actually present.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Messages, type Message } from '../diagnostics';
import type { Result, Severity, TargetDiagnostic } from '../target-diagnostic';
import { resolveTarget } from '../config/architecture-file';
import { pimsimDefaultConfig } from '../config/defaults';
import { validateHardwareConfig } from '../config/validate';
import { parseJsonText, programFromJson } from '../encoding/json-form';
import { decodePimb } from '../encoding/pimb';
import { instructionsEqual, type Instruction } from '../isa/instruction';
import {
  BUNDLE_FILES,
  ELEMENT_SIZE,
  MANIFEST_FORMAT,
  MANIFEST_VERSION,
  isElementType,
  type ProgramBundle,
  type TensorLocation,
  type WeightBlock,
} from './bundle';

/** A bundle's files: name (no directory) → contents. */
export type BundleFiles = ReadonlyMap<string, Uint8Array>;

const CORE_FILE = /^core_([0-9]+)\.(json|pim)$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Reporter {
  readonly diagnostics: TargetDiagnostic[] = [];
  add(severity: Severity, msg: Message, file?: string, extra: Partial<TargetDiagnostic> = {}): void {
    const d: TargetDiagnostic = { severity, code: msg.code, message: msg.message };
    if (file !== undefined) d.file = file;
    Object.assign(d, extra);
    this.diagnostics.push(d);
  }
  addAll(ds: readonly TargetDiagnostic[]): void {
    this.diagnostics.push(...ds);
  }
  get failed(): boolean {
    return this.diagnostics.some((d) => d.severity === 'error');
  }
}

const decoder = new TextDecoder('utf-8', { fatal: false });
function text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

function isNonNegInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
function isPosInt(v: unknown): v is number {
  return isNonNegInt(v) && v > 0;
}

/** Reads `config.json`: core count and array-group map. */
function readConfig(bytes: Uint8Array, r: Reporter): { coreCount: number; arrayGroupMap: number[][] } | undefined {
  const file = BUNDLE_FILES.config;
  const parsed = parseJsonText(text(bytes), file);
  if (parsed.value === undefined) {
    r.addAll(parsed.diagnostics);
    return undefined;
  }
  const value = parsed.value;
  if (!isObject(value)) {
    r.add('error', Messages.configNotObject('(root)', value), file);
    return undefined;
  }
  if (!isPosInt(value.core_cnt)) {
    r.add('error', Messages.bundleBadCoreCount(value.core_cnt), file, { path: 'core_cnt' });
    return undefined;
  }
  const coreCount = value.core_cnt;
  const map = value.array_group_map;
  const arrayGroupMap: number[][] = [];
  if (!isObject(map)) {
    r.add('error', Messages.bundleMissingAgMap(), file, { path: 'array_group_map' });
    return { coreCount, arrayGroupMap };
  }
  const seen = new Set<number>();
  for (const [key, entry] of Object.entries(map)) {
    const match = /^core([0-9]+)$/.exec(key);
    const id = match ? Number(match[1]) : -1;
    if (!match || id >= coreCount) {
      r.add('error', Messages.bundleAgMapKey(key), file, { path: `array_group_map.${key}` });
      continue;
    }
    if (!Array.isArray(entry) || !entry.every(isPosInt)) {
      r.add('error', Messages.bundleBadAgMapEntry(key, entry), file, { path: `array_group_map.${key}` });
      continue;
    }
    seen.add(id);
    arrayGroupMap[id] = (entry as number[]).slice();
  }
  // Cap the work by the core count only after the map was validated (core_cnt may be huge).
  const missing: number[] = [];
  for (let id = 0; id < coreCount && missing.length <= 8; id++) if (!seen.has(id)) missing.push(id);
  for (const id of missing.slice(0, 8)) r.add('error', Messages.bundleAgMapMissingCore(id), file, { path: 'array_group_map' });
  return { coreCount, arrayGroupMap };
}

/** Decodes one core file (PIMB or JSON). */
function readProgram(name: string, bytes: Uint8Array, r: Reporter): Instruction[] | undefined {
  if (name.endsWith('.pim')) {
    const decoded = decodePimb(bytes, { file: name });
    r.addAll(decoded.diagnostics);
    return decoded.instructions;
  }
  const parsed = parseJsonText(text(bytes), name);
  if (parsed.value === undefined) {
    r.addAll(parsed.diagnostics);
    return undefined;
  }
  const program = programFromJson(parsed.value, { file: name });
  r.addAll(program.diagnostics);
  return program.instructions;
}

function readTensor(value: unknown, where: string, r: Reporter): TensorLocation | undefined {
  const file = BUNDLE_FILES.manifest;
  if (!isObject(value)) {
    r.add('error', Messages.manifestBad(where, 'an object {name, address, element_type, shape}', value), file, { path: where });
    return undefined;
  }
  let ok = true;
  const need = (cond: boolean, key: string, what: string): void => {
    if (!cond) {
      ok = false;
      r.add('error', Messages.manifestBad(`${where}.${key}`, what, value[key]), file, { path: `${where}.${key}` });
    }
  };
  need(typeof value.name === 'string', 'name', 'a string');
  need(isNonNegInt(value.address), 'address', 'a non-negative integer');
  need(isElementType(value.element_type), 'element_type', `one of ${Object.keys(ELEMENT_SIZE).join(', ')}`);
  need(Array.isArray(value.shape) && value.shape.length <= 16 && value.shape.every(isNonNegInt), 'shape', 'an array of non-negative integers');
  if (!ok) return undefined;
  return {
    name: value.name as string,
    address: value.address as number,
    elementType: value.element_type as TensorLocation['elementType'],
    shape: (value.shape as number[]).slice(),
  };
}

interface WeightIndexEntry {
  core: number;
  group: number;
  rows: number;
  cols: number;
  elementType: WeightBlock['elementType'];
  offset: number;
  size: number;
}

function readWeightEntry(value: unknown, where: string, r: Reporter): WeightIndexEntry | undefined {
  const file = BUNDLE_FILES.manifest;
  if (!isObject(value)) {
    r.add('error', Messages.manifestBad(where, 'an object {core, group, rows, cols, element_type, offset, size}', value), file, { path: where });
    return undefined;
  }
  let ok = true;
  for (const key of ['core', 'group', 'rows', 'cols', 'offset', 'size']) {
    if (!isNonNegInt(value[key])) {
      ok = false;
      r.add('error', Messages.manifestBad(`${where}.${key}`, 'a non-negative integer', value[key]), file, { path: `${where}.${key}` });
    }
  }
  if (!isElementType(value.element_type)) {
    ok = false;
    r.add('error', Messages.manifestBad(`${where}.element_type`, `one of ${Object.keys(ELEMENT_SIZE).join(', ')}`, value.element_type), file, {
      path: `${where}.element_type`,
    });
  }
  if (!ok) return undefined;
  return {
    core: value.core as number,
    group: value.group as number,
    rows: value.rows as number,
    cols: value.cols as number,
    elementType: value.element_type as WeightBlock['elementType'],
    offset: value.offset as number,
    size: value.size as number,
  };
}

/** Reads `manifest.json` and the files it names into `bundle`. */
function readManifest(files: BundleFiles, bundle: ProgramBundle, r: Reporter): void {
  const file = BUNDLE_FILES.manifest;
  const parsed = parseJsonText(text(files.get(file)!), file);
  if (parsed.value === undefined) {
    r.addAll(parsed.diagnostics);
    return;
  }
  const m = parsed.value;
  if (!isObject(m)) {
    r.add('error', Messages.configNotObject('(root)', m), file);
    return;
  }
  if (m.format !== MANIFEST_FORMAT) {
    r.add('error', Messages.manifestBad('format', JSON.stringify(MANIFEST_FORMAT), m.format), file, { path: 'format' });
    return;
  }
  if (m.format_version !== MANIFEST_VERSION) {
    r.add('error', Messages.manifestVersion(m.format_version), file, { path: 'format_version' });
    return;
  }
  if (typeof m.producer === 'string') bundle.producer = m.producer;
  if (m.target !== undefined) {
    const config = validateHardwareConfig(m.target, { base: pimsimDefaultConfig(), file });
    for (const d of config.diagnostics) r.diagnostics.push({ ...d, ...(d.path !== undefined ? { path: `target.${d.path}` } : {}) });
    if (config.value) {
      const target = resolveTarget(
        config.value,
        (rel) => {
          const bytes = files.get(rel);
          return bytes === undefined ? undefined : text(bytes);
        },
        file,
      );
      r.addAll(target.diagnostics);
      if (target.value) bundle.target = target.value;
    }
  }
  for (const key of ['inputs', 'outputs'] as const) {
    const list = m[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      r.add('error', Messages.manifestBad(key, 'an array', list), file, { path: key });
      continue;
    }
    list.forEach((item: unknown, i: number) => {
      const tensor = readTensor(item, `${key}[${i}]`, r);
      if (tensor) bundle[key].push(tensor);
    });
  }
  const memory = m.memory;
  if (memory !== undefined) {
    if (!isObject(memory) || typeof memory.file !== 'string') {
      r.add('error', Messages.manifestBad('memory', 'an object {file}', memory), file, { path: 'memory' });
    } else {
      const bytes = files.get(memory.file);
      if (bytes === undefined) r.add('error', Messages.manifestMissingFile(memory.file), file, { path: 'memory.file' });
      else bundle.memoryImage = bytes;
    }
  }
  const weights = m.weights;
  if (weights !== undefined) {
    if (!isObject(weights) || typeof weights.file !== 'string' || !Array.isArray(weights.entries)) {
      r.add('error', Messages.manifestBad('weights', 'an object {file, entries}', weights), file, { path: 'weights' });
      return;
    }
    const data = files.get(weights.file);
    if (data === undefined) {
      r.add('error', Messages.manifestMissingFile(weights.file), file, { path: 'weights.file' });
      return;
    }
    weights.entries.forEach((item: unknown, i: number) => {
      const entry = readWeightEntry(item, `weights.entries[${i}]`, r);
      if (!entry) return;
      const expected = entry.rows * entry.cols * ELEMENT_SIZE[entry.elementType];
      if (entry.size !== expected) {
        r.add('error', Messages.weightsSizeMismatch(i, entry.size, expected), file, { path: `weights.entries[${i}].size` });
        return;
      }
      if (entry.offset + entry.size > data.length) {
        r.add('error', Messages.weightsOutOfFile(i, entry.offset + entry.size, data.length), weights.file as string, { offset: entry.offset });
        return;
      }
      bundle.weights.push({
        core: entry.core,
        group: entry.group,
        rows: entry.rows,
        cols: entry.cols,
        elementType: entry.elementType,
        data: data.subarray(entry.offset, entry.offset + entry.size),
      });
    });
  }
}

/**
 * Reads a bundle from its files (name → bytes). Pure and total: never throws, never touches
 * the file system. `value` is the bundle (possibly with empty programs for unreadable cores),
 * or `undefined` when `config.json` is missing or unusable.
 *
 * pimsim-nn's directory rules apply: only names starting with `core_` are program files and
 * must match `core_<id>.json|pim`; every core `0..core_cnt-1` needs one; `.pim` wins over
 * `.json` (when both exist they are compared and a difference is a warning).
 */
export function readBundleFiles(files: BundleFiles): Result<ProgramBundle> {
  const r = new Reporter();
  const configBytes = files.get(BUNDLE_FILES.config);
  if (configBytes === undefined) {
    r.add('error', Messages.bundleMissingConfig(), BUNDLE_FILES.config);
    return { value: undefined, diagnostics: r.diagnostics };
  }
  const config = readConfig(configBytes, r);
  if (!config) return { value: undefined, diagnostics: r.diagnostics };
  const { coreCount } = config;

  // Group program files by core id (sorted names, as pimsim-nn sorts directory entries).
  const byCore = new Map<number, { pim: string[]; json: string[] }>();
  for (const name of [...files.keys()].sort()) {
    if (!name.startsWith('core_')) continue;
    const match = CORE_FILE.exec(name);
    if (!match) {
      r.add('error', Messages.bundleBadCoreFileName(name), name);
      continue;
    }
    const id = Number(match[1]);
    if (id >= coreCount) {
      r.add('error', Messages.bundleCoreIdTooLarge(name, id, coreCount), name);
      continue;
    }
    const slot = byCore.get(id) ?? { pim: [], json: [] };
    slot[match[2] as 'pim' | 'json'].push(name);
    byCore.set(id, slot);
  }
  // core_cnt may be huge in a malformed config.json: refuse before allocating per-core state.
  if (coreCount > files.size + 1024) {
    let first = 0;
    while (byCore.has(first)) first++;
    r.add('error', Messages.bundleMissingCoreFile(first), `core_${first}.pim`);
    return { value: undefined, diagnostics: r.diagnostics };
  }
  const programs: Instruction[][] = [];
  const sources: string[] = [];
  let missingReported = 0;
  const ids = Array.from({ length: coreCount }, (_, i) => i);
  for (const id of ids) {
    const slot = byCore.get(id);
    if (!slot) {
      if (missingReported++ < 16) r.add('error', Messages.bundleMissingCoreFile(id), `core_${id}.pim`);
      programs[id] = [];
      sources[id] = `core_${id}.pim`;
      continue;
    }
    const chosen = slot.pim[0] ?? slot.json[0]!;
    sources[id] = chosen;
    const program = readProgram(chosen, files.get(chosen)!, r) ?? [];
    programs[id] = program;
    for (const other of [...slot.pim, ...slot.json]) {
      if (other === chosen) continue;
      if (chosen.endsWith('.pim') && other.endsWith('.json') && other === `core_${id}.json`) {
        const sub = new Reporter();
        const alt = readProgram(other, files.get(other)!, sub);
        r.addAll(sub.diagnostics);
        if (alt) {
          const n = Math.max(alt.length, program.length);
          for (let i = 0; i < n; i++) {
            const a = alt[i];
            const b = program[i];
            if (!a || !b || !instructionsEqual(a, b)) {
              r.add('warning', Messages.bundleJsonPimMismatch(other, chosen, i), other, { instruction: i });
              break;
            }
          }
        }
      } else {
        r.add('warning', Messages.bundleDuplicateCoreFile(other, chosen), other);
      }
    }
  }
  const arrayGroupMap: number[][] = [];
  for (const id of ids) arrayGroupMap[id] = config.arrayGroupMap[id] ?? [];
  const bundle: ProgramBundle = {
    coreCount,
    arrayGroupMap,
    programs,
    sources,
    inputs: [],
    outputs: [],
    weights: [],
  };
  if (files.has(BUNDLE_FILES.manifest)) readManifest(files, bundle, r);
  return { value: bundle, diagnostics: r.diagnostics };
}

function isRegularFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Reads a bundle directory. Only regular files are read (sub-directories and other entries
 * are ignored, as pimsim-nn does). Never throws: an unreadable directory or file is a
 * diagnostic.
 *
 * @example
 * ```ts
 * const { value: bundle, diagnostics } = readBundle('out/mnist.bundle');
 * ```
 */
export function readBundle(directory: string): Result<ProgramBundle> {
  const files = new Map<string, Uint8Array>();
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    const msg = Messages.fileRead(directory, error instanceof Error ? error.message : String(error));
    return { value: undefined, diagnostics: [{ severity: 'error', code: msg.code, message: msg.message, file: directory }] };
  }
  const diagnostics: TargetDiagnostic[] = [];
  for (const entry of entries) {
    // Regular files, and symbolic links to regular files (pimsim-nn's is_regular_file follows links).
    if (!entry.isFile() && !(entry.isSymbolicLink() && isRegularFile(path.join(directory, entry.name)))) continue;
    try {
      files.set(entry.name, new Uint8Array(fs.readFileSync(path.join(directory, entry.name))));
    } catch (error) {
      const msg = Messages.fileRead(entry.name, error instanceof Error ? error.message : String(error));
      diagnostics.push({ severity: 'error', code: msg.code, message: msg.message, file: entry.name });
    }
  }
  const result = readBundleFiles(files);
  return { value: result.value, diagnostics: [...diagnostics, ...result.diagnostics] };
}
