/**
 * The two default sets of the hardware configuration:
 *
 * - {@link pimsimDefaultConfig}: what pimsim-nn assumes for a key that is absent from an
 *   architecture JSON (pim-isa.md §10). Importing an architecture file fills missing keys from
 *   these, so a file means the same thing to us as to pimsim-nn.
 * - {@link defaultHardwareConfig}: Raptor's proposed machine (hardware-defaults.md): 64 cores
 *   of 64 crossbars of 128×128 2-bit cells, PIMCOMP-NN's timing numbers (MVM 2601 ns at 16-bit
 *   inputs, 1305 ns at 8-bit), 64 KiB local and 4 MiB global memory.
 *
 * Exports always write every key, so pimsim-nn's own defaults never matter for our files.
 */
import type { HardwareConfig, MatrixConfig, MemoryConfig, RaptorConfig, Target } from './hardware-config';
import { meshNetworkTable } from './network';

function pimsimMemory(): MemoryConfig {
  return {
    memory_size: 1048576,
    data_width: 16,
    period: 1,
    static_power: 1,
    read_latency_cycle: 8,
    write_latency_cycle: 10,
    read_dynamic_energy: 0,
    write_dynamic_energy: 0,
  };
}

function pimsimMatrix(): MatrixConfig {
  return {
    xbar_array_count: 1,
    period: 1 / 1.28,
    pipeline_mode: true,
    dac_resolution: 1,
    dac_latency_cycle: 1,
    dac_count: 128,
    dac_static_power: 0,
    dac_dynamic_power: 0,
    xbar_size: [128, 128],
    cell_precision: 2,
    xbar_latency: 30,
    xbar_read_power: 0,
    sample_hold_latency_cycle: 1,
    sample_hold_static_power: 0,
    sample_hold_dynamic_power: 0,
    adc_resolution: 1,
    adc_latency_cycle: 1,
    adc_count: 1,
    adc_static_power: 0,
    adc_dynamic_power: 0,
    shift_adder_latency_cycle: 1,
    shift_adder_static_power: 0,
    shift_adder_dynamic_power: 0,
    output_buffer_latency_cycle: 1,
    output_buffer_static_power: 0,
    output_buffer_dynamic_power: 0,
    input_buffer_static_power: 0,
    input_buffer_dynamic_power: 0,
  };
}

/** Raptor's own settings with their defaults. */
export function defaultRaptorConfig(): RaptorConfig {
  return {
    allow_vsoftmax: false,
    input_bits: 16,
    weight_bits: 16,
    output_bits: 16,
    mvm_issue_interval_ns: 0,
    local_memory_alignment: 4,
    wait_semantics: 'tokens',
  };
}

/**
 * A fresh configuration holding pimsim-nn's defaults for every key (pim-isa.md §10) and
 * Raptor's defaults for `raptor_config`. This is the base onto which an imported architecture
 * JSON is merged.
 */
export function pimsimDefaultConfig(): HardwareConfig {
  return {
    chip_config: {
      core_config: {
        period: 1,
        rob_size: 1,
        controller_static_power: 0,
        controller_dynamic_power: 0,
        inst_fetch_static_power: 0,
        inst_fetch_dynamic_power: 0,
        inst_decode_static_power: 0,
        inst_decode_offset_static_power: 0,
        inst_decode_dynamic_power: 0,
        inst_decode_offset_dynamic_power: 0,
        reg_file_static_power: 0,
        reg_file_read_dynamic_power: 0,
        reg_file_write_dynamic_power: 0,
        scalar_static_power: 0,
        scalar_dynamic_power: 0,
        vector_width: 16,
        vector_latency_cycle: 8,
        vector_alu_static_power: 0,
        vector_alu_dynamic_energy: 0,
        vector_reg_static_power: 0,
        vector_reg_read_dynamic_energy: 0,
        vector_reg_write_dynamic_energy: 0,
        transfer_static_power: 0,
        transfer_dynamic_power: 0,
        global_memory_switch_id: -10,
        local_memory_config: pimsimMemory(),
        matrix_config: pimsimMatrix(),
      },
      global_memory_config: pimsimMemory(),
      network_config: {
        bus_topology: 'mesh',
        bus_width: 16,
        layout: [0, 0],
        net_config_file_path: '',
      },
      core_cnt: 1,
      global_memory_switch_id: -10,
    },
    sim_config: {
      sim_mode: 0,
      sim_time: 1,
      latency_timeout_ms: 60000,
      report_verbose_level: 0,
    },
    raptor_config: defaultRaptorConfig(),
  };
}

/**
 * A fresh copy of Raptor's default machine (hardware-defaults.md). Every call returns a new
 * object that the caller may modify.
 *
 * With these numbers the pimsim-nn MVM formula gives 2601 ns at ibiw 16 and 1305 ns at ibiw 8.
 * The default has no NoC table file (`net_config_file_path` = ""), so every message costs
 * 0 ns in pimsim-nn: write one with `meshNetworkTable` and set the path to get NoC costs.
 *
 * @example
 * ```ts
 * const config = defaultHardwareConfig();
 * config.chip_config.core_cnt = 16;
 * ```
 */
export function defaultHardwareConfig(): HardwareConfig {
  const config = pimsimDefaultConfig();
  const core = config.chip_config.core_config;
  core.vector_width = 32;
  core.vector_latency_cycle = 4;
  core.local_memory_config = {
    ...core.local_memory_config,
    memory_size: 64 * 1024,
    data_width: 64,
    read_latency_cycle: 20,
    write_latency_cycle: 30,
  };
  core.matrix_config = {
    ...core.matrix_config,
    xbar_array_count: 64,
    period: 1,
    xbar_size: [128, 128],
    cell_precision: 2,
    xbar_latency: 7,
    xbar_read_power: 22.24,
    adc_resolution: 8,
    adc_latency_cycle: 20,
    adc_count: 16,
    adc_static_power: 0.322,
    adc_dynamic_power: 1.135,
  };
  config.chip_config.global_memory_config = {
    ...config.chip_config.global_memory_config,
    memory_size: 4 * 1024 * 1024,
    data_width: 32,
    read_latency_cycle: 40,
    write_latency_cycle: 50,
  };
  config.chip_config.network_config = {
    bus_topology: 'mesh',
    bus_width: 32,
    layout: [8, 8],
    net_config_file_path: '',
  };
  config.chip_config.core_cnt = 64;
  config.sim_config = { sim_mode: 1, sim_time: 1, latency_timeout_ms: 60000, report_verbose_level: 1 };
  config.raptor_config.mvm_issue_interval_ns = 200;
  return config;
}

/**
 * Raptor's default machine with a NoC table: {@link defaultHardwareConfig} plus an XY mesh of
 * `network_config.layout` (8 × 8) where a 32-byte flit costs 4 ns per hop (32 B over an
 * 8 GB/s link, hardware-defaults.md) and 4 ns to or from the global memory (one hop). Energies
 * are 0 (no per-flit figure is given). The configuration's `net_config_file_path` is
 * `network.json`, the name `saveTarget` and bundles use.
 */
export function defaultTarget(): Target {
  const config = defaultHardwareConfig();
  const network = config.chip_config.network_config;
  network.net_config_file_path = 'network.json';
  const flitNs = network.bus_width / 8; // bytes per flit / (8 bytes per ns = 8 GB/s)
  return {
    config,
    network: meshNetworkTable({
      layout: network.layout,
      cores: config.chip_config.core_cnt,
      hopLatency: flitNs,
      hopEnergy: 0,
      memorySwitchId: config.chip_config.global_memory_switch_id,
      memoryLatency: flitNs,
      memoryEnergy: 0,
    }),
  };
}
