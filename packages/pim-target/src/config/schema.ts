/**
 * The schema of the hardware configuration: for every key of pimsim-nn's architecture JSON
 * (pim-isa.md §10) and of `raptor_config`, its type and range. It drives validation, import
 * (key by key onto the defaults) and export (canonical key order).
 */

/** The type and range of one configuration value. */
export type FieldSpec =
  | { kind: 'int'; min?: number; max?: number }
  | { kind: 'number'; min?: number; positive?: boolean }
  | { kind: 'bool' }
  | { kind: 'string' }
  | { kind: 'pair'; min: number }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'object'; fields: SchemaFields };

/** Fields of an object section, in canonical (export) order. */
export type SchemaFields = { readonly [key: string]: FieldSpec };

const posInt: FieldSpec = { kind: 'int', min: 1 };
const nonNegInt: FieldSpec = { kind: 'int', min: 0 };
const anyInt: FieldSpec = { kind: 'int' };
const nonNeg: FieldSpec = { kind: 'number', min: 0 };
const positive: FieldSpec = { kind: 'number', positive: true };

/** Schema of MemoryConfig. */
export const MEMORY_SCHEMA: SchemaFields = {
  memory_size: posInt,
  data_width: posInt,
  period: positive,
  static_power: nonNeg,
  read_latency_cycle: nonNeg,
  write_latency_cycle: nonNeg,
  read_dynamic_energy: nonNeg,
  write_dynamic_energy: nonNeg,
};

/** Schema of MatrixConfig. */
export const MATRIX_SCHEMA: SchemaFields = {
  xbar_array_count: nonNegInt,
  period: positive,
  pipeline_mode: { kind: 'bool' },
  dac_resolution: posInt,
  dac_latency_cycle: nonNeg,
  dac_count: posInt,
  dac_static_power: nonNeg,
  dac_dynamic_power: nonNeg,
  xbar_size: { kind: 'pair', min: 1 },
  cell_precision: posInt,
  xbar_latency: nonNeg,
  xbar_read_power: nonNeg,
  sample_hold_latency_cycle: nonNeg,
  sample_hold_static_power: nonNeg,
  sample_hold_dynamic_power: nonNeg,
  adc_resolution: nonNegInt,
  adc_latency_cycle: nonNeg,
  adc_count: posInt,
  adc_static_power: nonNeg,
  adc_dynamic_power: nonNeg,
  shift_adder_latency_cycle: nonNeg,
  shift_adder_static_power: nonNeg,
  shift_adder_dynamic_power: nonNeg,
  output_buffer_latency_cycle: nonNeg,
  output_buffer_static_power: nonNeg,
  output_buffer_dynamic_power: nonNeg,
  input_buffer_static_power: nonNeg,
  input_buffer_dynamic_power: nonNeg,
};

/** Schema of CoreConfig. */
export const CORE_SCHEMA: SchemaFields = {
  period: positive,
  rob_size: posInt,
  controller_static_power: nonNeg,
  controller_dynamic_power: nonNeg,
  inst_fetch_static_power: nonNeg,
  inst_fetch_dynamic_power: nonNeg,
  inst_decode_static_power: nonNeg,
  inst_decode_offset_static_power: nonNeg,
  inst_decode_dynamic_power: nonNeg,
  inst_decode_offset_dynamic_power: nonNeg,
  reg_file_static_power: nonNeg,
  reg_file_read_dynamic_power: nonNeg,
  reg_file_write_dynamic_power: nonNeg,
  scalar_static_power: nonNeg,
  scalar_dynamic_power: nonNeg,
  vector_width: posInt,
  vector_latency_cycle: nonNeg,
  vector_alu_static_power: nonNeg,
  vector_alu_dynamic_energy: nonNeg,
  vector_reg_static_power: nonNeg,
  vector_reg_read_dynamic_energy: nonNeg,
  vector_reg_write_dynamic_energy: nonNeg,
  transfer_static_power: nonNeg,
  transfer_dynamic_power: nonNeg,
  global_memory_switch_id: anyInt,
  local_memory_config: { kind: 'object', fields: MEMORY_SCHEMA },
  matrix_config: { kind: 'object', fields: MATRIX_SCHEMA },
};

/** Schema of NetworkConfig. */
export const NETWORK_SCHEMA: SchemaFields = {
  bus_topology: { kind: 'string' },
  bus_width: posInt,
  layout: { kind: 'pair', min: 0 },
  net_config_file_path: { kind: 'string' },
};

/** Schema of ChipConfig. */
export const CHIP_SCHEMA: SchemaFields = {
  core_config: { kind: 'object', fields: CORE_SCHEMA },
  global_memory_config: { kind: 'object', fields: MEMORY_SCHEMA },
  network_config: { kind: 'object', fields: NETWORK_SCHEMA },
  core_cnt: posInt,
  global_memory_switch_id: anyInt,
};

/** Schema of SimConfig. */
export const SIM_SCHEMA: SchemaFields = {
  sim_mode: { kind: 'int', min: 0, max: 1 },
  sim_time: positive,
  latency_timeout_ms: positive,
  report_verbose_level: nonNegInt,
};

/** Schema of RaptorConfig. */
export const RAPTOR_SCHEMA: SchemaFields = {
  allow_vsoftmax: { kind: 'bool' },
  input_bits: { kind: 'int', min: 1, max: 64 },
  weight_bits: { kind: 'int', min: 1, max: 64 },
  output_bits: { kind: 'int', min: 1, max: 64 },
  mvm_issue_interval_ns: nonNeg,
  local_memory_alignment: posInt,
  wait_semantics: { kind: 'enum', values: ['tokens', 'equal-reset'] },
};

/** Schema of the whole configuration. */
export const HARDWARE_SCHEMA: SchemaFields = {
  chip_config: { kind: 'object', fields: CHIP_SCHEMA },
  sim_config: { kind: 'object', fields: SIM_SCHEMA },
  raptor_config: { kind: 'object', fields: RAPTOR_SCHEMA },
};
