/**
 * Numbers the simulator derives once from a hardware configuration: latencies, energies and
 * the dense NoC tables, so the hot loops read plain fields instead of nested objects.
 */
import type { HardwareConfig, NetworkTable } from '@raptor-pim/pim-target';

/** One memory port's parameters (pimsim-nn MemoryConfig). */
export interface MemoryParams {
  /** Capacity in bytes (bounds checks). */
  readonly size: number;
  /** Bytes per beat. */
  readonly dataWidth: number;
  /** ns per read beat (cycles × period). */
  readonly readNs: number;
  /** ns per write beat. */
  readonly writeNs: number;
  /** pJ per read beat. */
  readonly readPj: number;
  /** pJ per write beat. */
  readonly writePj: number;
  /** Static power in mW. */
  readonly staticMw: number;
}

/** Everything the simulator needs from the configuration, flattened. */
export interface SimParams {
  /** Number of cores the chip provides (`chip_config.core_cnt`). */
  readonly chipCores: number;
  /** Core clock period in ns. */
  readonly period: number;
  /** Reorder-buffer entries. */
  readonly robSize: number;
  /** Elements per vector step. */
  readonly vectorWidth: number;
  /** ns per vector step. */
  readonly vectorLatency: number;
  /** pJ per vector step (ALU + 2 register reads + 1 register write). */
  readonly vectorStepPj: number;
  /** Local memory (one per core). */
  readonly local: MemoryParams;
  /** Global memory. */
  readonly global: MemoryParams;
  /** Crossbar rows (mvmul input length). */
  readonly xbarRows: number;
  /** Crossbar columns. */
  readonly xbarCols: number;
  /** Bits per cell. */
  readonly cellPrecision: number;
  /** Crossbars per core (limit of an array-group map's sum). */
  readonly xbarsPerCore: number;
  /** MVM compute time in ns for an input width of `ibiw` bits (pim-isa.md §12.4). */
  mvmNs(ibiw: number): number;
  /** MVM dynamic energy per crossbar in pJ for an input width of `ibiw` bits (§13). */
  mvmPjPerXbar(ibiw: number): number;
  /** Bytes per flit. */
  readonly busWidth: number;
  /** Switch id of the global memory. */
  readonly globalSwitchId: number;
  /** Static power of one core in mW (fetch, decode, register file, scalar, vector, transfer, local memory). */
  readonly coreStaticMw: number;
  /** Dynamic power terms in mW, charged as period × power per event. */
  readonly fetchMw: number;
  /** See {@link SimParams.fetchMw}. */
  readonly decodeMw: number;
  /** See {@link SimParams.fetchMw}. */
  readonly regReadMw: number;
  /** See {@link SimParams.fetchMw}. */
  readonly regWriteMw: number;
  /** See {@link SimParams.fetchMw}. */
  readonly scalarMw: number;
  /** Latency mode (true) or throughput mode. */
  readonly latencyMode: boolean;
  /** Throughput-mode duration in ns. */
  readonly simTimeNs: number;
  /** Latency-mode budget in ns. */
  readonly timeoutNs: number;
  /** `wait` semantics. */
  readonly waitSemantics: 'tokens' | 'equal-reset';
  /** Whether vsoftmax may run. */
  readonly allowVsoftmax: boolean;
  /** Minimum ns between two mvmul issues on one core (Raptor's `mvm_issue_interval_ns`; 0 = none, as pimsim-nn). */
  readonly mvmIssueIntervalNs: number;
}

/**
 * The NoC table as dense arrays over switch indices: cores 0..n-1 are indices 0..n-1 and the
 * global memory is index n. `latency[s * (n + 1) + d]` is ns per flit, `energy` pJ per flit.
 */
export interface DenseNetwork {
  /** Number of core switches (n). */
  readonly cores: number;
  /** ns per flit, row-major (n+1)×(n+1). */
  readonly latency: Float64Array;
  /** pJ per flit, row-major (n+1)×(n+1). */
  readonly energy: Float64Array;
}

function memoryParams(m: HardwareConfig['chip_config']['global_memory_config']): MemoryParams {
  return {
    size: m.memory_size,
    dataWidth: m.data_width,
    readNs: m.read_latency_cycle * m.period,
    writeNs: m.write_latency_cycle * m.period,
    readPj: m.read_dynamic_energy,
    writePj: m.write_dynamic_energy,
    staticMw: m.static_power,
  };
}

/** pimsim-nn's `divideWithCeiling`, which truncates for positive operands (pim-isa.md §12.4). */
function pimsimDivide(a: number, b: number): number {
  if (b === 0) return 0;
  return Math.trunc(a / b);
}

/** Derives {@link SimParams} from a hardware configuration. */
export function deriveParams(config: HardwareConfig): SimParams {
  const chip = config.chip_config;
  const core = chip.core_config;
  const mx = core.matrix_config;
  const rows = mx.xbar_size[0];
  const cols = mx.xbar_size[1];
  const pm = mx.period;
  const xbarCycles = Math.ceil(mx.xbar_latency / pm);
  const inputBufferCycles = 0; // not readable from pimsim-nn's JSON; always 0
  const front = inputBufferCycles + mx.dac_latency_cycle + xbarCycles + mx.sample_hold_latency_cycle;
  const adcTimes = pimsimDivide(cols, mx.adc_count);
  const dacTimes = pimsimDivide(rows, mx.dac_count);
  const pipeB = Math.max(mx.adc_latency_cycle, mx.shift_adder_latency_cycle + mx.output_buffer_latency_cycle);
  const back =
    mx.adc_latency_cycle + mx.shift_adder_latency_cycle + mx.output_buffer_latency_cycle + (adcTimes - 1) * pipeB;
  const eFront =
    pm *
      (mx.input_buffer_dynamic_power * inputBufferCycles +
        mx.dac_dynamic_power * mx.dac_latency_cycle * mx.dac_count +
        mx.sample_hold_dynamic_power * mx.sample_hold_latency_cycle * cols) +
    mx.xbar_read_power * mx.xbar_latency;
  const eBack =
    adcTimes *
    pm *
    (mx.adc_dynamic_power * mx.adc_latency_cycle * mx.adc_count +
      mx.shift_adder_dynamic_power * mx.shift_adder_latency_cycle +
      mx.output_buffer_dynamic_power * mx.output_buffer_latency_cycle);
  const mvmNs = (ibiw: number): number => {
    const passes = pimsimDivide(ibiw, mx.dac_resolution) * dacTimes;
    const cycles = mx.pipeline_mode ? front + back + (passes - 1) * Math.max(front, back) : (front + back) * passes;
    return cycles * pm;
  };
  const mvmPjPerXbar = (ibiw: number): number => {
    const passes = pimsimDivide(ibiw, mx.dac_resolution) * dacTimes;
    return passes * (eFront + eBack);
  };
  const local = memoryParams(core.local_memory_config);
  const global = memoryParams(chip.global_memory_config);
  const coreStaticMw =
    core.inst_fetch_static_power +
    core.inst_decode_static_power +
    core.inst_decode_offset_static_power +
    core.reg_file_static_power +
    core.scalar_static_power +
    core.vector_reg_static_power +
    core.vector_alu_static_power +
    core.transfer_static_power +
    local.staticMw;
  return {
    chipCores: chip.core_cnt,
    period: core.period,
    robSize: Math.max(1, core.rob_size),
    vectorWidth: core.vector_width,
    vectorLatency: core.vector_latency_cycle,
    vectorStepPj:
      core.vector_alu_dynamic_energy + 2 * core.vector_reg_read_dynamic_energy + core.vector_reg_write_dynamic_energy,
    local,
    global,
    xbarRows: rows,
    xbarCols: cols,
    cellPrecision: mx.cell_precision,
    xbarsPerCore: mx.xbar_array_count,
    mvmNs,
    mvmPjPerXbar,
    busWidth: chip.network_config.bus_width,
    globalSwitchId: chip.global_memory_switch_id,
    coreStaticMw,
    fetchMw: core.inst_fetch_dynamic_power,
    decodeMw: core.inst_decode_dynamic_power + core.inst_decode_offset_dynamic_power,
    regReadMw: core.reg_file_read_dynamic_power,
    regWriteMw: core.reg_file_write_dynamic_power,
    scalarMw: core.scalar_dynamic_power,
    latencyMode: config.sim_config.sim_mode === 1,
    simTimeNs: config.sim_config.sim_time * 1e6,
    timeoutNs: config.sim_config.latency_timeout_ms * 1e6,
    waitSemantics: config.raptor_config.wait_semantics,
    allowVsoftmax: config.raptor_config.allow_vsoftmax,
    mvmIssueIntervalNs: config.raptor_config.mvm_issue_interval_ns ?? 0,
  };
}

/** Builds the dense NoC table for `cores` core switches plus the global memory switch. */
export function denseNetwork(table: NetworkTable, cores: number, globalSwitchId: number): DenseNetwork {
  const n1 = cores + 1;
  const latency = new Float64Array(n1 * n1);
  const energy = new Float64Array(n1 * n1);
  const index = (id: number): number => (id === globalSwitchId ? cores : id >= 0 && id < cores ? id : -1);
  for (const [kind, out] of [
    [table.latency, latency],
    [table.energy, energy],
  ] as const) {
    for (const [src, row] of kind) {
      const s = index(src);
      if (s < 0) continue;
      for (const [dst, v] of row) {
        const d = index(dst);
        if (d < 0) continue;
        out[s * n1 + d] = v;
      }
    }
  }
  return { cores, latency, energy };
}
