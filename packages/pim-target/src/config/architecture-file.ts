/**
 * Import and export of pimsim-nn's architecture JSON files together with the NoC table file
 * they name (`chip_config.network_config.net_config_file_path`, resolved relative to the
 * architecture file's directory, as pimsim-nn does).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Messages } from '../diagnostics';
import type { Result, TargetDiagnostic } from '../target-diagnostic';
import { parseJsonText } from '../encoding/json-form';
import type { HardwareConfig, Target } from './hardware-config';
import { emptyNetworkTable, formatNetworkTable, parseNetworkTable } from './network';
import { exportArchitectureJson, validateHardwareConfig, type ValidateConfigOptions } from './validate';

/**
 * Reads an architecture JSON text: keys absent from the file take pimsim-nn's defaults
 * (unless `options.base` says otherwise), so the result means what the file means to
 * pimsim-nn. Never throws.
 */
export function parseArchitectureJson(text: string, options: ValidateConfigOptions = {}): Result<HardwareConfig> {
  const parsed = parseJsonText(text, options.file);
  if (parsed.value === undefined) return { value: undefined, diagnostics: parsed.diagnostics };
  return validateHardwareConfig(parsed.value, options);
}

/**
 * Resolves the NoC table a configuration names, reading it through `readText` (a path
 * relative to the configuration's directory → its text, or `undefined` when absent). An empty
 * `net_config_file_path` gives an empty table.
 */
export function resolveTarget(
  config: HardwareConfig,
  readText: (relativePath: string) => string | undefined,
  file?: string,
): Result<Target> {
  const netPath = config.chip_config.network_config.net_config_file_path;
  if (netPath === '') return { value: { config, network: emptyNetworkTable() }, diagnostics: [] };
  const text = readText(netPath);
  if (text === undefined) {
    const msg = Messages.configNetFileMissing(netPath, 'no such file');
    const d: TargetDiagnostic = { severity: 'error', code: msg.code, message: msg.message, path: 'chip_config.network_config.net_config_file_path' };
    if (file !== undefined) d.file = file;
    return { value: undefined, diagnostics: [d] };
  }
  const table = parseNetworkTable(text, netPath);
  return { value: table.value ? { config, network: table.value } : undefined, diagnostics: table.diagnostics };
}

/** Reads a file as UTF-8 text, or `undefined` (never throws). */
function readTextFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Loads an architecture JSON file and its NoC table (relative to the file's directory).
 *
 * @example
 * ```ts
 * const { value: target, diagnostics } = loadTarget('arch/latency_config.json');
 * ```
 */
export function loadTarget(architecturePath: string, options: Omit<ValidateConfigOptions, 'file'> = {}): Result<Target> {
  const text = readTextFile(architecturePath);
  const file = path.basename(architecturePath);
  if (text === undefined) {
    const msg = Messages.fileRead(architecturePath, 'no such file or not readable');
    return { value: undefined, diagnostics: [{ severity: 'error', code: msg.code, message: msg.message, file }] };
  }
  const config = parseArchitectureJson(text, { ...options, file });
  if (config.value === undefined) return { value: undefined, diagnostics: config.diagnostics };
  const dir = path.dirname(architecturePath);
  const target = resolveTarget(config.value, (rel) => readTextFile(path.resolve(dir, rel)), file);
  return { value: target.value, diagnostics: [...config.diagnostics, ...target.diagnostics] };
}

/**
 * Writes a target as an architecture JSON file plus, when the NoC table is not empty, the
 * table file beside it (named by the configuration's `net_config_file_path`, or
 * `network.json` when that is empty). Returns the files written.
 */
export function saveTarget(target: Target, architecturePath: string): string[] {
  const config: HardwareConfig = JSON.parse(JSON.stringify(target.config)) as HardwareConfig;
  const written: string[] = [];
  const hasTable = target.network.latency.size > 0 || target.network.energy.size > 0;
  if (hasTable && config.chip_config.network_config.net_config_file_path === '') {
    config.chip_config.network_config.net_config_file_path = 'network.json';
  }
  fs.mkdirSync(path.dirname(architecturePath), { recursive: true });
  fs.writeFileSync(architecturePath, exportArchitectureJson(config));
  written.push(architecturePath);
  if (hasTable) {
    const netFile = path.resolve(path.dirname(architecturePath), config.chip_config.network_config.net_config_file_path);
    fs.writeFileSync(netFile, formatNetworkTable(target.network));
    written.push(netFile);
  }
  return written;
}
