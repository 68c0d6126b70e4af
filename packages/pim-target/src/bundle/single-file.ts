/**
 * pimsim-nn's single-file program form (pim-isa.md §9.1), which PIMCOMP-NN writes:
 * `{"config": {"core_cnt": N, "array_group_map": {...}}, "core0": [...], "core1": [...]}`.
 * Core keys have no underscore; absent cores are not instantiated by pimsim-nn (here: an empty
 * program). Reading it gives a {@link ProgramBundle} without target or data.
 */
import { Messages } from '../diagnostics';
import type { Result, TargetDiagnostic } from '../target-diagnostic';
import { parseJsonText, programFromJson, instructionToJson } from '../encoding/json-form';
import type { Instruction } from '../isa/instruction';
import type { ProgramBundle } from './bundle';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a single-file program. Never throws. A missing `array_group_map` (PIMCOMP-NN omits it)
 * is a `pimsim-*` warning and gives every core no array group; `core<i>` keys with
 * i ≥ core_cnt are errors.
 */
export function parseSingleFileProgram(text: string, file = 'program.json'): Result<ProgramBundle> {
  const diagnostics: TargetDiagnostic[] = [];
  const add = (severity: 'error' | 'warning', msg: { code: string; message: string }, extra: Partial<TargetDiagnostic> = {}): void => {
    diagnostics.push({ severity, code: msg.code, message: msg.message, file, ...extra });
  };
  const parsed = parseJsonText(text, file);
  if (parsed.value === undefined) return { value: undefined, diagnostics: parsed.diagnostics };
  const root = parsed.value;
  if (!isObject(root)) {
    add('error', Messages.configNotObject('(root)', root));
    return { value: undefined, diagnostics };
  }
  const config = root.config;
  if (!isObject(config)) {
    add('error', Messages.configNotObject('config', config), { path: 'config' });
    return { value: undefined, diagnostics };
  }
  const count = config.core_cnt;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1 || count > Object.keys(root).length + 1024) {
    add('error', Messages.bundleBadCoreCount(count), { path: 'config.core_cnt' });
    return { value: undefined, diagnostics };
  }
  const arrayGroupMap: number[][] = Array.from({ length: count }, () => []);
  const map = config.array_group_map;
  if (map === undefined) add('warning', Messages.singleFileNoAgMap(), { path: 'config.array_group_map' });
  else if (!isObject(map)) add('error', Messages.bundleMissingAgMap(), { path: 'config.array_group_map' });
  else {
    for (const [key, entry] of Object.entries(map)) {
      const match = /^core([0-9]+)$/.exec(key);
      const id = match ? Number(match[1]) : -1;
      if (!match || id >= count) add('error', Messages.bundleAgMapKey(key), { path: `config.array_group_map.${key}` });
      else if (!Array.isArray(entry) || !entry.every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n > 0)) {
        add('error', Messages.bundleBadAgMapEntry(key, entry), { path: `config.array_group_map.${key}` });
      } else arrayGroupMap[id] = (entry as number[]).slice();
    }
  }
  const programs: Instruction[][] = Array.from({ length: count }, () => []);
  let present = 0;
  for (const [key, value] of Object.entries(root)) {
    if (key === 'config') continue;
    const match = /^core([0-9]+)$/.exec(key);
    if (!match) continue; // pimsim-nn ignores other keys
    const id = Number(match[1]);
    if (id >= count) {
      add('error', Messages.singleFileCoreIdTooLarge(key, count), { path: key });
      continue;
    }
    present++;
    const program = programFromJson(value, { file: `${file}#${key}` });
    diagnostics.push(...program.diagnostics);
    programs[id] = program.instructions ?? [];
  }
  if (present === 0) add('error', Messages.singleFileNoCore());
  return { value: { coreCount: count, arrayGroupMap, programs, inputs: [], outputs: [], weights: [] }, diagnostics };
}

/**
 * Prints a bundle's programs in the single-file form (deterministic; one-space indentation as
 * PIMCOMP-NN and the pimsim-nn examples).
 */
export function formatSingleFileProgram(bundle: Pick<ProgramBundle, 'coreCount' | 'arrayGroupMap' | 'programs'>): string {
  const root: Record<string, unknown> = {
    config: {
      core_cnt: bundle.coreCount,
      array_group_map: Object.fromEntries(
        Array.from({ length: bundle.coreCount }, (_, id) => [`core${id}`, (bundle.arrayGroupMap[id] ?? []).slice()]),
      ),
    },
  };
  for (let id = 0; id < bundle.coreCount; id++) root[`core${id}`] = (bundle.programs[id] ?? []).map(instructionToJson);
  return JSON.stringify(root, null, 1);
}
