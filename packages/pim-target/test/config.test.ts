import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  defaultHardwareConfig,
  defaultTarget,
  exportArchitectureJson,
  formatDiagnostic,
  formatNetworkTable,
  loadTarget,
  meshNetworkTable,
  networkCost,
  parseArchitectureJson,
  parseNetworkTable,
  pimsimDefaultConfig,
  saveTarget,
  validateHardwareConfig,
  type HardwareConfig,
} from '@raptor-pim/pim-target';
import { BENCH_DIR, EXAMPLE_DIR, describeShared } from './helpers';

/** pimsim-nn's MVM latency formula (pim-isa.md §12.4), to check the defaults' meaning. */
function mvmLatencyNs(config: HardwareConfig, ibiw: number): number {
  const m = config.chip_config.core_config.matrix_config;
  const input = Math.floor(ibiw / m.dac_resolution);
  const dac = Math.floor(m.xbar_size[0] / m.dac_count);
  const adc = Math.floor(m.xbar_size[1] / m.adc_count);
  const front = m.dac_latency_cycle + Math.ceil(m.xbar_latency / m.period) + m.sample_hold_latency_cycle;
  const pipeB = Math.max(m.adc_latency_cycle, m.shift_adder_latency_cycle + m.output_buffer_latency_cycle);
  const back = m.adc_latency_cycle + m.shift_adder_latency_cycle + m.output_buffer_latency_cycle + (adc - 1) * pipeB;
  return (front + back + (input * dac - 1) * Math.max(front, back)) * m.period;
}

/** The error lines of validating `input` merged onto Raptor's defaults. */
function errorsOf(input: unknown): string[] {
  return validateHardwareConfig(input, { base: defaultHardwareConfig() })
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => d.message);
}

describe('hardware configuration defaults', () => {
  test('Raptor defaults are valid and mean what hardware-defaults.md says', () => {
    const config = defaultHardwareConfig();
    expect(validateHardwareConfig(config, { base: pimsimDefaultConfig() }).diagnostics).toEqual([]);
    expect(config.chip_config.core_cnt).toBe(64);
    expect(config.chip_config.core_config.matrix_config.xbar_array_count).toBe(64);
    expect(config.chip_config.core_config.matrix_config.xbar_size).toEqual([128, 128]);
    expect(config.chip_config.core_config.local_memory_config.memory_size).toBe(65536);
    expect(config.chip_config.global_memory_config.memory_size).toBe(4 * 1024 * 1024);
    expect(mvmLatencyNs(config, 16)).toBe(2601);
    expect(mvmLatencyNs(config, 8)).toBe(1305);
  });

  test('an empty architecture file means pimsim-nn defaults (section 10)', () => {
    const config = parseArchitectureJson('{}').value!;
    expect(config).toEqual(pimsimDefaultConfig());
    expect(config.chip_config.core_config.vector_latency_cycle).toBe(8);
    expect(config.chip_config.core_config.matrix_config.period).toBeCloseTo(1 / 1.28);
    expect(config.chip_config.global_memory_config.static_power).toBe(1);
    expect(config.sim_config.latency_timeout_ms).toBe(60000);
  });

  test('defaultTarget: an 8x8 XY mesh, 4 ns per 32-byte flit per hop', () => {
    const { config, network } = defaultTarget();
    expect(config.chip_config.network_config.net_config_file_path).toBe('network.json');
    expect(network.latency.get(0)!.get(63)).toBe(56);
    expect(network.latency.get(9)!.get(10)).toBe(4);
    expect(network.latency.get(-10)!.get(5)).toBe(4);
    expect(networkCost(network, 0, 1, Math.ceil(128 / config.chip_config.network_config.bus_width))).toEqual({ latency: 16, energy: 0 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-target-'));
    try {
      saveTarget({ config, network }, path.join(dir, 'arch.json'));
      expect(loadTarget(path.join(dir, 'arch.json')).value).toEqual({ config, network });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('defaults are fresh copies', () => {
    defaultHardwareConfig().chip_config.core_cnt = 3;
    expect(defaultHardwareConfig().chip_config.core_cnt).toBe(64);
  });
});

describe('hardware configuration validation: one error per bad field, with its JSON path', () => {
  test('negative element of a pair', () => {
    expect(errorsOf({ chip_config: { core_config: { matrix_config: { xbar_size: [-3, 128] } } } })).toEqual([
      'chip_config.core_config.matrix_config.xbar_size[0]: expected a positive integer, got -3',
    ]);
  });
  test('pair of the wrong length', () => {
    expect(errorsOf({ chip_config: { network_config: { layout: [8] } } })).toEqual([
      'chip_config.network_config.layout: expected an array of 2 non-negative integers, got an array of 1 elements',
    ]);
  });
  test('wrong type', () => {
    expect(errorsOf({ chip_config: { core_cnt: '64' } })).toEqual(['chip_config.core_cnt: expected a positive integer, got "64"']);
  });
  test('non-integer count', () => {
    expect(errorsOf({ chip_config: { core_config: { rob_size: 1.5 } } })).toEqual([
      'chip_config.core_config.rob_size: expected a positive integer, got 1.5',
    ]);
  });
  test('negative power', () => {
    expect(errorsOf({ chip_config: { global_memory_config: { static_power: -1 } } })).toEqual([
      'chip_config.global_memory_config.static_power: expected a non-negative number, got -1',
    ]);
  });
  test('zero period', () => {
    expect(errorsOf({ chip_config: { core_config: { matrix_config: { period: 0 } } } })).toEqual([
      'chip_config.core_config.matrix_config.period: expected a positive number, got 0',
    ]);
  });
  test('boolean expected', () => {
    expect(errorsOf({ chip_config: { core_config: { matrix_config: { pipeline_mode: 1 } } } })).toEqual([
      'chip_config.core_config.matrix_config.pipeline_mode: expected a boolean, got 1',
    ]);
  });
  test('integer out of range', () => {
    expect(errorsOf({ sim_config: { sim_mode: 2 }, raptor_config: { input_bits: 0 } })).toEqual([
      'sim_config.sim_mode: expected an integer in 0..1, got 2',
      'raptor_config.input_bits: expected an integer in 1..64, got 0',
    ]);
  });
  test('enum', () => {
    expect(errorsOf({ raptor_config: { wait_semantics: 'sometimes' } })).toEqual([
      'raptor_config.wait_semantics: expected one of "tokens", "equal-reset", got "sometimes"',
    ]);
  });
  test('section that is not an object, and a root that is not an object', () => {
    expect(errorsOf({ chip_config: { core_config: { matrix_config: 5 } } })).toEqual([
      'chip_config.core_config.matrix_config: expected an object, got 5',
    ]);
    expect(errorsOf([1])).toEqual(['(root): expected an object, got an array of 1 elements']);
  });
  test('several bad fields give several errors, and no value', () => {
    const result = validateHardwareConfig({ chip_config: { core_cnt: 0, network_config: { bus_width: null } } });
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => d.path)).toEqual(['chip_config.core_cnt', 'chip_config.network_config.bus_width']);
  });
  test('cross-field rules: switch ids', () => {
    expect(errorsOf({ chip_config: { core_config: { global_memory_switch_id: -3 } } })).toEqual([
      'chip_config.core_config.global_memory_switch_id: is -3 but chip_config.global_memory_switch_id is -10; they must be equal',
    ]);
    expect(errorsOf({ chip_config: { global_memory_switch_id: 5, core_config: { global_memory_switch_id: 5 } } })).toEqual([
      'chip_config.global_memory_switch_id: 5 is also the switch id of a core (0..63); use a negative id such as -10',
    ]);
  });
  test('warnings: unknown keys, input_buffer_latency_cycle, report_verbose_level >= 2, non-positive layout', () => {
    const result = validateHardwareConfig(
      {
        chip_config: { core_config: { matrix_config: { input_buffer_latency_cycle: 3, xbar_sise: [1, 1] } } },
        sim_config: { report_verbose_level: 2 },
      },
      { file: 'arch.json' },
    );
    expect(result.value).toBeDefined();
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'arch.json: warning: chip_config.core_config.matrix_config.input_buffer_latency_cycle: pimsim-nn cannot read this key (it is missing from its JSON macro) and always uses 0',
      'arch.json: warning: chip_config.core_config.matrix_config.xbar_sise: unknown key (ignored; pimsim-nn ignores it too)',
      "arch.json: warning: chip_config.network_config.layout: [0, 0] is not positive; pimsim-nn's checkValid rejects it (the value is otherwise unused)",
      'arch.json: warning: sim_config.report_verbose_level: 2 makes pimsim-nn abort at report time ("invalid format string"); use 0 or 1',
    ]);
  });
  test('JSON syntax errors carry a line', () => {
    const result = parseArchitectureJson('{\n  "chip_config": {,\n}', { file: 'arch.json' });
    expect(result.diagnostics[0]).toMatchObject({ code: 'json-syntax', line: 2, file: 'arch.json' });
  });
});

describe('architecture JSON export', () => {
  test('writes every key; import -> export -> import is identical; export is deterministic', () => {
    const config = defaultHardwareConfig();
    const text = exportArchitectureJson(config);
    const back = parseArchitectureJson(text);
    expect(back.diagnostics).toEqual([]);
    expect(back.value).toEqual(config);
    expect(exportArchitectureJson(back.value!)).toBe(text);
    expect(text).toContain('"input_buffer_dynamic_power": 0');
    expect(JSON.parse(exportArchitectureJson(config, { includeRaptorConfig: false })).raptor_config).toBeUndefined();
  });
});

describe('NoC table', () => {
  test('format -> parse round trip, mesh distances, cost rule (truncated ns, missing pair = 0)', () => {
    const table = meshNetworkTable({ layout: [2, 3], hopLatency: 2.5, hopEnergy: 1, memoryLatency: 15, memoryEnergy: 46 });
    expect(table.latency.get(0)!.get(5)).toBe(7.5); // (0,0) -> (1,2): 3 hops
    expect(table.latency.get(-10)!.get(4)).toBe(15);
    const text = formatNetworkTable(table);
    const back = parseNetworkTable(text);
    expect(back.value).toEqual(table);
    expect(formatNetworkTable(back.value!)).toBe(text);
    expect(networkCost(table, 0, 5, 3)).toEqual({ latency: 22, energy: 9 });
    expect(networkCost(table, 0, 99, 3)).toEqual({ latency: 0, energy: 0 });
  });
  test('bad keys and values are reported with their path', () => {
    const result = parseNetworkTable('{"latency": {"a": {"1": 2}, "0": {"1": -1, "x": 3}}, "energy": []}', 'net.json');
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'latency.0.1: expected a non-negative number, got -1',
      'latency.0: switch id "x" is not a decimal integer',
      'latency: switch id "a" is not a decimal integer',
      'energy: expected an object, got an array of 0 elements',
    ]);
  });
  test('saveTarget -> loadTarget resolves the table relative to the architecture file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-target-'));
    try {
      const config = defaultHardwareConfig();
      const network = meshNetworkTable({ layout: [8, 8], hopLatency: 1, hopEnergy: 2, memoryLatency: 15, memoryEnergy: 46 });
      const written = saveTarget({ config, network }, path.join(dir, 'sub', 'arch.json'));
      expect(written.map((f) => path.basename(f))).toEqual(['arch.json', 'network.json']);
      const loaded = loadTarget(path.join(dir, 'sub', 'arch.json'));
      expect(loaded.diagnostics).toEqual([]);
      expect(loaded.value!.network).toEqual(network);
      expect(loaded.value!.config.chip_config.network_config.net_config_file_path).toBe('network.json');
      fs.rmSync(path.join(dir, 'sub', 'network.json'));
      const missing = loadTarget(path.join(dir, 'sub', 'arch.json'));
      expect(missing.value).toBeUndefined();
      expect(formatDiagnostic(missing.diagnostics[0]!)).toBe("arch.json: error: cannot read the NoC table file 'network.json': no such file");
      expect(loadTarget(path.join(dir, 'nothing.json')).diagnostics[0]!.code).toBe('file-read');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeShared('pimsim-nn architecture files', () => {
  test('the example latency config and its 64-core mesh table', () => {
    const target = loadTarget(path.join(EXAMPLE_DIR, 'arch', 'latency_config.json'));
    expect(target.diagnostics).toEqual([]);
    const { config, network } = target.value!;
    expect(config.chip_config.core_config.matrix_config.cell_precision).toBe(8);
    expect(config.chip_config.core_config.local_memory_config.data_width).toBe(64);
    expect(config.chip_config.core_config.local_memory_config.static_power).toBe(1); // pimsim-nn default
    expect(network.latency.get(0)!.get(1)).toBe(4);
    expect(network.latency.get(1)!.get(0)).toBe(9);
    expect(network.latency.get(-10)!.get(63)).toBe(15);
    expect(network.energy.get(0)!.get(1)).toBe(46);
    expect(mvmLatencyNs(config, 8)).toBe(5168);
  });

  test('all bench architectures import; import -> export -> import is identical', () => {
    const cases = fs.readdirSync(BENCH_DIR).filter((c) => fs.existsSync(path.join(BENCH_DIR, c, 'arch.json')));
    expect(cases.length).toBe(185);
    for (const c of cases) {
      const target = loadTarget(path.join(BENCH_DIR, c, 'arch.json'));
      const errors = target.diagnostics.filter((d) => d.severity !== 'warning' || c !== 'verbose2');
      expect({ c, errors }).toEqual({ c, errors: [] });
      const text = exportArchitectureJson(target.value!.config);
      const again = parseArchitectureJson(text);
      expect(again.value).toEqual(target.value!.config);
      expect(exportArchitectureJson(again.value!)).toBe(text);
    }
    const verbose = loadTarget(path.join(BENCH_DIR, 'verbose2', 'arch.json'));
    expect(verbose.diagnostics.map((d) => d.code)).toEqual(['pimsim-verbose-crash']);
  });
});
