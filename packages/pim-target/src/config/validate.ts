/**
 * Validation and import of hardware configurations: a JSON value (complete or partial) is
 * merged key by key onto a base configuration (pimsim-nn's defaults for an architecture file,
 * so a missing key means what it means to pimsim-nn), and every bad field gets one error
 * naming its JSON path.
 */
import { Messages, describeSpec, type Message } from '../diagnostics';
import type { Result, Severity, TargetDiagnostic } from '../target-diagnostic';
import { pimsimDefaultConfig } from './defaults';
import type { HardwareConfig } from './hardware-config';
import { HARDWARE_SCHEMA, type FieldSpec, type SchemaFields } from './schema';

/** Options of {@link validateHardwareConfig}. */
export interface ValidateConfigOptions {
  /** Configuration that absent keys take their value from. Default: pimsim-nn's defaults. */
  base?: HardwareConfig;
  /** File name put on diagnostics. */
  file?: string;
  /** Warn about keys the schema does not know. Default true. */
  warnUnknownKeys?: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep copy of a plain JSON-like configuration value. */
export function cloneConfig<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function checkScalar(spec: FieldSpec, value: unknown): boolean {
  switch (spec.kind) {
    case 'int':
      return (
        typeof value === 'number' &&
        Number.isInteger(value) &&
        (spec.min === undefined || value >= spec.min) &&
        (spec.max === undefined || value <= spec.max)
      );
    case 'number':
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (spec.positive !== true || value > 0) &&
        (spec.min === undefined || value >= spec.min)
      );
    case 'bool':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value);
    default:
      return false;
  }
}

class Walker {
  readonly diagnostics: TargetDiagnostic[] = [];
  constructor(
    private readonly file: string | undefined,
    private readonly warnUnknown: boolean,
  ) {}

  report(severity: Severity, msg: Message, path: string): void {
    const d: TargetDiagnostic = { severity, code: msg.code, message: msg.message, path };
    if (this.file !== undefined) d.file = this.file;
    this.diagnostics.push(d);
  }

  /** Merges `input` (user JSON) into `target` (a copy of the base) following `fields`. */
  mergeObject(fields: SchemaFields, input: unknown, target: Record<string, unknown>, path: string): void {
    if (!isObject(input)) {
      this.report('error', Messages.configNotObject(path || '(root)', input), path);
      return;
    }
    for (const key of Object.keys(input)) {
      const childPath = path ? `${path}.${key}` : key;
      const spec = fields[key];
      const value = input[key];
      if (spec === undefined) {
        if (key === 'input_buffer_latency_cycle') this.report('warning', Messages.configInputBufferLatency(childPath), childPath);
        else if (this.warnUnknown) this.report('warning', Messages.configUnknownKey(childPath), childPath);
        continue;
      }
      if (spec.kind === 'object') {
        const child = target[key];
        this.mergeObject(spec.fields, value, isObject(child) ? child : (target[key] = {}), childPath);
      } else if (spec.kind === 'pair') {
        if (!Array.isArray(value) || value.length !== 2) {
          this.report('error', Messages.configExpected(childPath, describeSpec(spec), value), childPath);
          continue;
        }
        let ok = true;
        value.forEach((element: unknown, i: number) => {
          const elementSpec: FieldSpec = { kind: 'int', min: spec.min };
          if (!checkScalar(elementSpec, element)) {
            ok = false;
            this.report('error', Messages.configExpected(`${childPath}[${i}]`, describeSpec(elementSpec), element), `${childPath}[${i}]`);
          }
        });
        if (ok) target[key] = [value[0], value[1]];
      } else if (checkScalar(spec, value)) {
        target[key] = value;
      } else {
        this.report('error', Messages.configExpected(childPath, describeSpec(spec), value), childPath);
      }
    }
  }
}

/** Cross-field rules and pimsim-nn compatibility warnings of a merged configuration. */
function checkConsistency(config: HardwareConfig, walker: Walker): void {
  const chip = config.chip_config;
  if (chip.core_config.global_memory_switch_id !== chip.global_memory_switch_id) {
    walker.report(
      'error',
      Messages.configSwitchIdMismatch(chip.core_config.global_memory_switch_id, chip.global_memory_switch_id),
      'chip_config.core_config.global_memory_switch_id',
    );
  }
  if (chip.global_memory_switch_id >= 0 && chip.global_memory_switch_id < chip.core_cnt) {
    walker.report('error', Messages.configSwitchIdCollides(chip.global_memory_switch_id, chip.core_cnt), 'chip_config.global_memory_switch_id');
  }
  const layout = chip.network_config.layout;
  if (!(layout[0] > 0 && layout[1] > 0)) {
    walker.report('warning', Messages.configLayoutPimsim(layout), 'chip_config.network_config.layout');
  }
  if (config.sim_config.report_verbose_level >= 2) {
    walker.report('warning', Messages.configVerboseCrash(config.sim_config.report_verbose_level), 'sim_config.report_verbose_level');
  }
}

/**
 * Validates a configuration given as a JSON value (complete or partial) and merges it onto
 * `options.base` (default: pimsim-nn's defaults). Never throws.
 *
 * Every bad field gives one error whose message starts with its JSON path, e.g.
 * `chip_config.core_config.matrix_config.xbar_size[0]: expected a positive integer, got -3`.
 * Unknown keys give warnings (pimsim-nn ignores them). `value` is the merged configuration,
 * or `undefined` when there is an error.
 *
 * @example
 * ```ts
 * const { value, diagnostics } = validateHardwareConfig({ chip_config: { core_cnt: 4 } }, { base: defaultHardwareConfig() });
 * ```
 */
export function validateHardwareConfig(input: unknown, options: ValidateConfigOptions = {}): Result<HardwareConfig> {
  const walker = new Walker(options.file, options.warnUnknownKeys ?? true);
  const merged = cloneConfig(options.base ?? pimsimDefaultConfig());
  walker.mergeObject(HARDWARE_SCHEMA, input, merged as unknown as Record<string, unknown>, '');
  if (!walker.diagnostics.some((d) => d.severity === 'error')) checkConsistency(merged, walker);
  const failed = walker.diagnostics.some((d) => d.severity === 'error');
  return { value: failed ? undefined : merged, diagnostics: walker.diagnostics };
}

/** Writes `value` following `fields` in canonical key order (unknown keys dropped). */
function ordered(fields: SchemaFields, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(fields)) {
    const v = value[key];
    if (v === undefined) continue;
    out[key] = spec.kind === 'object' && isObject(v) ? ordered(spec.fields, v) : spec.kind === 'pair' && Array.isArray(v) ? [v[0], v[1]] : v;
  }
  return out;
}

/** Options of {@link exportArchitectureJson}. */
export interface ExportArchitectureOptions {
  /** Include the `raptor_config` section (pimsim-nn ignores it). Default true. */
  includeRaptorConfig?: boolean;
}

/**
 * Prints a configuration as pimsim-nn's architecture JSON: every key written explicitly (so
 * pimsim-nn's own defaults never apply), in canonical order, two-space indentation and a final
 * newline. Deterministic.
 */
export function exportArchitectureJson(config: HardwareConfig, options: ExportArchitectureOptions = {}): string {
  const out = ordered(HARDWARE_SCHEMA, config as unknown as Record<string, unknown>);
  if (options.includeRaptorConfig === false) delete out.raptor_config;
  return `${JSON.stringify(out, null, 2)}\n`;
}
