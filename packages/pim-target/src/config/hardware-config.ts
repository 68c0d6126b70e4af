/**
 * The hardware configuration: one description of the machine shared by the compiler, our
 * simulator and pimsim-nn.
 *
 * The object has the exact shape and key names of pimsim-nn's architecture JSON
 * (pim-isa.md §10), so importing and exporting is a key-for-key copy with the same meaning
 * and units. Raptor's own settings live in the extra top-level section `raptor_config`,
 * which pimsim-nn ignores.
 */

/** A memory (`local_memory_config`, `global_memory_config`), pimsim-nn's MemoryConfig. */
export interface MemoryConfig {
  /** Capacity in bytes (unused by pimsim-nn; our simulator bounds-checks against it). */
  memory_size: number;
  /** Bytes per access beat: an access of n bytes takes ceil(n / data_width) beats. */
  data_width: number;
  /** Clock period in ns. */
  period: number;
  /** Static power in mW (pimsim-nn default 1). */
  static_power: number;
  /** Cycles per read beat. */
  read_latency_cycle: number;
  /** Cycles per write beat. */
  write_latency_cycle: number;
  /** pJ per read beat. */
  read_dynamic_energy: number;
  /** pJ per write beat. */
  write_dynamic_energy: number;
}

/** The crossbar matrix unit of a core (pimsim-nn's MatrixUnitConfig). */
export interface MatrixConfig {
  /** Crossbars per core: the limit for the sum of a core's array-group sizes. */
  xbar_array_count: number;
  /** Matrix clock period in ns (for the MVM formula). */
  period: number;
  /** Pipelined (true) or serial MVM latency formula. */
  pipeline_mode: boolean;
  /** Input bits per DAC pass. */
  dac_resolution: number;
  /** DAC latency in matrix cycles. */
  dac_latency_cycle: number;
  /** DACs per crossbar. */
  dac_count: number;
  /** mW (unused by pimsim-nn). */
  dac_static_power: number;
  /** mW. */
  dac_dynamic_power: number;
  /** [rows, cols] cells of one crossbar. */
  xbar_size: [number, number];
  /** Bits per cell. */
  cell_precision: number;
  /** Analog read latency in ns. */
  xbar_latency: number;
  /** mW during an analog read. */
  xbar_read_power: number;
  /** Sample-and-hold latency in matrix cycles. */
  sample_hold_latency_cycle: number;
  /** mW (unused by pimsim-nn). */
  sample_hold_static_power: number;
  /** mW. */
  sample_hold_dynamic_power: number;
  /** ADC resolution in bits (unused by pimsim-nn). */
  adc_resolution: number;
  /** ADC latency in matrix cycles. */
  adc_latency_cycle: number;
  /** ADCs per crossbar. */
  adc_count: number;
  /** mW (unused by pimsim-nn). */
  adc_static_power: number;
  /** mW. */
  adc_dynamic_power: number;
  /** Shift-and-add latency in matrix cycles. */
  shift_adder_latency_cycle: number;
  /** mW (unused by pimsim-nn). */
  shift_adder_static_power: number;
  /** mW. */
  shift_adder_dynamic_power: number;
  /** Output buffer latency in matrix cycles. */
  output_buffer_latency_cycle: number;
  /** mW (unused by pimsim-nn). */
  output_buffer_static_power: number;
  /** mW. */
  output_buffer_dynamic_power: number;
  /** mW (unused by pimsim-nn). */
  input_buffer_static_power: number;
  /** mW (multiplied by an input-buffer latency that pimsim-nn fixes at 0). */
  input_buffer_dynamic_power: number;
}

/** One core (pimsim-nn's CoreConfig). */
export interface CoreConfig {
  /** Core clock period in ns; the single clock of the chip and the duration of `sync`. */
  period: number;
  /** Reorder-buffer entries for non-scalar instructions. */
  rob_size: number;
  /** mW (unused by pimsim-nn). */
  controller_static_power: number;
  /** mW (unused by pimsim-nn). */
  controller_dynamic_power: number;
  /** mW. */
  inst_fetch_static_power: number;
  /** mW; period × power per fetch. */
  inst_fetch_dynamic_power: number;
  /** mW. */
  inst_decode_static_power: number;
  /** mW. */
  inst_decode_offset_static_power: number;
  /** mW; period × power per decode. */
  inst_decode_dynamic_power: number;
  /** mW; period × power per decode. */
  inst_decode_offset_dynamic_power: number;
  /** mW. */
  reg_file_static_power: number;
  /** mW; period × power per read event. */
  reg_file_read_dynamic_power: number;
  /** mW; period × power per write event. */
  reg_file_write_dynamic_power: number;
  /** mW. */
  scalar_static_power: number;
  /** mW; period × power per scalar op. */
  scalar_dynamic_power: number;
  /** Elements per vector step. */
  vector_width: number;
  /** ns per vector step (used as ns, not multiplied by the period). */
  vector_latency_cycle: number;
  /** mW. */
  vector_alu_static_power: number;
  /** pJ per step. */
  vector_alu_dynamic_energy: number;
  /** mW. */
  vector_reg_static_power: number;
  /** pJ per step (charged twice per step). */
  vector_reg_read_dynamic_energy: number;
  /** pJ per step. */
  vector_reg_write_dynamic_energy: number;
  /** mW. */
  transfer_static_power: number;
  /** mW (unused by pimsim-nn). */
  transfer_dynamic_power: number;
  /** Switch id that this core's ld/st go to; must equal `chip_config.global_memory_switch_id`. */
  global_memory_switch_id: number;
  /** The core's local memory. */
  local_memory_config: MemoryConfig;
  /** The core's crossbars. */
  matrix_config: MatrixConfig;
}

/** The network (pimsim-nn's BusConfig). */
export interface NetworkConfig {
  /** Topology name (unused by pimsim-nn). */
  bus_topology: string;
  /** Bytes per flit. */
  bus_width: number;
  /** [rows, cols] of the core mesh (only validated by pimsim-nn). */
  layout: [number, number];
  /** NoC latency/energy table file, relative to the architecture file's directory ("" = none). */
  net_config_file_path: string;
}

/** The chip (pimsim-nn's ChipConfig). */
export interface ChipConfig {
  /** Configuration of every core (all cores are identical). */
  core_config: CoreConfig;
  /** The shared global (host) memory. */
  global_memory_config: MemoryConfig;
  /** The network. */
  network_config: NetworkConfig;
  /** Number of cores. */
  core_cnt: number;
  /** Switch id of the global memory. */
  global_memory_switch_id: number;
}

/** pimsim-nn's simulation settings. */
export interface SimConfig {
  /** 0 = throughput mode, 1 = latency mode. */
  sim_mode: number;
  /** Throughput-mode duration in ms. */
  sim_time: number;
  /** Latency-mode limit in simulated ms. */
  latency_timeout_ms: number;
  /** Report verbosity (>= 2 crashes pimsim-nn). */
  report_verbose_level: number;
}

/** Semantics of `wait`: the fork's token counting or the ISA document's equality/reset. */
export type WaitSemantics = 'tokens' | 'equal-reset';

/** Raptor-specific settings (a top-level `raptor_config` section that pimsim-nn ignores). */
export interface RaptorConfig {
  /** Whether codegen may emit `vsoftmax` (opcode 21, which pimsim-nn rejects). */
  allow_vsoftmax: boolean;
  /** Default input/activation element width in bits (what codegen passes to `setbw` ibiw). */
  input_bits: number;
  /** Default weight width in bits (`mvmul` mbiw). */
  weight_bits: number;
  /** Default output width in bits (`setbw` obiw). */
  output_bits: number;
  /** Minimum interval between two `mvmul` issues on one core, in ns (0 = none). */
  mvm_issue_interval_ns: number;
  /** Local-memory allocation alignment in bytes. */
  local_memory_alignment: number;
  /** Which `wait` semantics our simulator uses. */
  wait_semantics: WaitSemantics;
}

/** The whole hardware configuration (pimsim-nn's architecture JSON plus `raptor_config`). */
export interface HardwareConfig {
  /** The chip. */
  chip_config: ChipConfig;
  /** pimsim-nn's simulation settings. */
  sim_config: SimConfig;
  /** Raptor-specific settings. */
  raptor_config: RaptorConfig;
}

/**
 * The NoC table (pim-isa.md §11): per directed (source switch, destination switch) pair, the
 * latency in ns per flit and the energy in pJ per flit. Missing pairs cost 0.
 */
export interface NetworkTable {
  /** latency.get(src)?.get(dst): ns per flit. */
  latency: Map<number, Map<number, number>>;
  /** energy.get(src)?.get(dst): pJ per flit. */
  energy: Map<number, Map<number, number>>;
}

/** A hardware configuration together with its resolved NoC table. */
export interface Target {
  /** The configuration. */
  config: HardwareConfig;
  /** The NoC table that `config.chip_config.network_config.net_config_file_path` names (empty when none). */
  network: NetworkTable;
}

/** Recursively optional version of a configuration object (what users may write). */
export type PartialConfig<T> = {
  [K in keyof T]?: T[K] extends [number, number] ? T[K] : T[K] extends object ? PartialConfig<T[K]> : T[K];
};
