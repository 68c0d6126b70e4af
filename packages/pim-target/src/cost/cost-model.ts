/**
 * The analytic cost model of one machine (hardware-defaults.md, "Cost of one inference"):
 * MVM, vector, local copy, host load/store, NoC transfer and sync, all derived from one
 * {@link HardwareConfig} (and its NoC table when one is given). The scheduler's estimates use
 * it; the simulator's timing can derive the same numbers, so the two cannot drift apart.
 *
 * Every duration is in ns.
 */
import { ELEMENT_SIZE } from '../bundle/bundle';
import type { HardwareConfig, NetworkTable, Target } from '../config/hardware-config';

/**
 * The element width, in bits, at which compiled programs run: code generation emits
 * `setbw ibiw=32, obiw=32` (values are f32), so MVMs, vector ops and copies are timed at
 * 4-byte elements whatever the configured `raptor_config.input_bits` (the hardware's input
 * width, which the lower bounds use).
 */
export const PROGRAM_ELEMENT_BITS = ELEMENT_SIZE.f32 * 8;

/** pimsim-nn's `divideWithCeiling`, which truncates for positive operands (pim-isa.md §12.4). */
function pimsimDivide(a: number, b: number): number {
  return b === 0 ? 0 : Math.trunc(a / b);
}

/**
 * The MVM latency of one array group in ns at an input width of `inputBits`, with the
 * pipelined (or serial) formula of pimsim-nn's `XbarArray` (pim-isa.md §12.4). All crossbars
 * of an array group work in parallel, so this is independent of the group's size.
 *
 * @example mvmLatencyNs(defaultHardwareConfig(), 16) // 2601
 */
export function mvmLatencyNs(config: HardwareConfig, inputBits: number): number {
  const mx = config.chip_config.core_config.matrix_config;
  const [rows, cols] = mx.xbar_size;
  const pm = mx.period;
  const xbarCycles = Math.ceil(mx.xbar_latency / pm);
  const front = mx.dac_latency_cycle + xbarCycles + mx.sample_hold_latency_cycle;
  const adcTimes = pimsimDivide(cols, mx.adc_count);
  const pipeB = Math.max(mx.adc_latency_cycle, mx.shift_adder_latency_cycle + mx.output_buffer_latency_cycle);
  const back = mx.adc_latency_cycle + mx.shift_adder_latency_cycle + mx.output_buffer_latency_cycle + (adcTimes - 1) * pipeB;
  const passes = pimsimDivide(inputBits, mx.dac_resolution) * pimsimDivide(rows, mx.dac_count);
  const cycles = mx.pipeline_mode ? front + back + (passes - 1) * Math.max(front, back) : (front + back) * passes;
  return cycles * pm;
}

/**
 * The cost functions of one target. Build it with {@link createCostModel}; every field is a
 * plain number or a pure function so estimates are cheap to evaluate in inner loops.
 */
export interface CostModel {
  /** Rows of one crossbar (the input length of one array group). */
  readonly crossbarRows: number;
  /** Columns of one crossbar. */
  readonly crossbarCols: number;
  /** Crossbars per core. */
  readonly crossbarsPerCore: number;
  /** Number of cores. */
  readonly cores: number;
  /** Total crossbars of the chip (cores x crossbars per core). */
  readonly crossbars: number;
  /** Local memory per core in bytes. */
  readonly localMemoryBytes: number;
  /** Local memory allocation alignment in bytes. */
  readonly localAlignment: number;
  /** Host (global) memory in bytes. */
  readonly hostMemoryBytes: number;
  /** Bytes of one activation element (the configured input width, rounded up to bytes). */
  readonly activationBytes: number;
  /** Latency of one MVM on an array group at the configured input width (`raptor_config.input_bits`; the bounds use it). */
  readonly mvmNs: number;
  /** The element width programs run at ({@link PROGRAM_ELEMENT_BITS}). */
  readonly programElementBits: number;
  /** Bytes of one element at {@link CostModel.programElementBits}. */
  readonly programElementBytes: number;
  /** The crossbar compute time of one MVM at the program element width (pim-isa.md §12.4's T_mvm). */
  readonly programMvmNs: number;
  /** Minimum interval between two MVM issues on one core (0: none). */
  readonly mvmIssueNs: number;
  /** Elements per vector step. */
  readonly vectorWidth: number;
  /** Latency of one vector step. */
  readonly vectorStepNs: number;
  /** Bytes per NoC flit. */
  readonly flitBytes: number;
  /** Shared host bandwidth in bytes per ns (global memory width per clock period). */
  readonly hostBytesPerNs: number;
  /** Mesh rows and columns of the cores. */
  readonly meshLayout: readonly [number, number];
  /**
   * `count` MVMs issued back to back on one core (each on a resident array group): the first
   * takes the full latency, each further one adds the issue interval (or the full latency when
   * the core issues one at a time).
   */
  mvmSequenceNs(count: number): number;
  /** A vector op of `elements` elements: ceil(n / width) x step latency (the ALU steps alone). */
  vectorNs(elements: number): number;
  /**
   * How long an `mvmul` on an array group of `crossbars` crossbars occupies the group, as
   * pimsim-nn times it (pim-isa.md §12.4) at the program element width: the input read from
   * local memory (rows x element bytes x 8, pimsim-nn's count), T_mvm, and the write of
   * `crossbars` x columns output elements.
   */
  mvmUnitNs(crossbars: number): number;
  /** The local memory reads of one `mvmul` (part of {@link CostModel.mvmUnitNs}; the core's memory port is busy for it). */
  mvmInputReadNs(): number;
  /**
   * A vector instruction of `elements` program elements with `inputs` (1 or 2) source vectors,
   * as pimsim-nn times it (pim-isa.md §12.3): each input read from local memory, the ALU
   * steps, the result written back.
   */
  vectorOpNs(elements: number, inputs: number): number;
  /** A local copy (`lmv`) of `bytes` bytes: ceil(b / width) x (read + write latency). */
  localCopyNs(bytes: number): number;
  /** A local fill (`lldi`) of `bytes` bytes: one local write. */
  localFillNs(bytes: number): number;
  /**
   * An `ld` of `bytes` bytes by core `core` when the global memory is free: the 1-flit request,
   * the global memory read, the local write (pim-isa.md §12.5).
   */
  hostLoadNs(bytes: number, core?: number): number;
  /** An `st` of `bytes` bytes by core `core`: the local read, the data flits, the global memory write. */
  hostStoreNs(bytes: number, core?: number): number;
  /**
   * How long the global memory's single port (shared by every core, FIFO) is occupied by a
   * load (`write` false) or store of `bytes` bytes: ceil(b / width) x latency. Loads of many
   * cores at once queue for it.
   */
  hostPortNs(bytes: number, write: boolean): number;
  /**
   * A `send` of `bytes` bytes from `a` to `b` when the receiver is already in its `recv`: the
   * sender-ready and receiver-ready messages and the local read (pim-isa.md §12.5).
   */
  sendNs(bytes: number, a: number, b: number): number;
  /** After the send completes: the data flits from `a` to `b` and the receiver's local write. */
  deliverNs(bytes: number, a: number, b: number): number;
  /** Mesh hops between two physical cores (Manhattan distance, XY routing). */
  hops(a: number, b: number): number;
  /**
   * A send/receive of `bytes` bytes from core `a` to core `b`: the NoC table's latency per
   * flit when a table is given, else flits x per-hop latency x hops.
   */
  transferNs(bytes: number, a: number, b: number): number;
  /** A `sync`/`wait` pair: one NoC message between the two cores (at least one core cycle). */
  syncNs(a: number, b: number): number;
}

/** Per-hop latency of one flit when no NoC table is given: a flit over an 8-byte-per-cycle link. */
function defaultHopNs(config: HardwareConfig): number {
  const core = config.chip_config.core_config;
  return (config.chip_config.network_config.bus_width / 8) * core.period;
}

/**
 * Derives the {@link CostModel} of a configuration (or of a {@link Target}, whose NoC table then
 * prices transfers).
 *
 * @example
 * const cost = createCostModel(defaultTarget());
 * cost.mvmNs; // 2601
 * cost.transferNs(512, 0, 9); // 16 flits x 4 ns x 2 hops = 128
 */
export function createCostModel(target: HardwareConfig | Target): CostModel {
  const config = 'config' in target ? target.config : target;
  const table: NetworkTable | undefined = 'config' in target ? target.network : undefined;
  const chip = config.chip_config;
  const core = chip.core_config;
  const mx = core.matrix_config;
  const local = core.local_memory_config;
  const global = chip.global_memory_config;
  const [meshRows, meshCols] = chip.network_config.layout;
  const cols = Math.max(1, meshCols);
  const mvmNs = mvmLatencyNs(config, config.raptor_config.input_bits);
  const eb = PROGRAM_ELEMENT_BITS / 8;
  const programMvmNs = mvmLatencyNs(config, PROGRAM_ELEMENT_BITS);
  const gmId = chip.global_memory_switch_id;
  const issue = config.raptor_config.mvm_issue_interval_ns;
  const flit = chip.network_config.bus_width;
  const hopNs = defaultHopNs(config);
  const hasTable = table !== undefined && table.latency.size > 0;
  const hops = (a: number, b: number): number =>
    Math.abs(Math.floor(a / cols) - Math.floor(b / cols)) + Math.abs((a % cols) - (b % cols));
  const beats = (bytes: number, width: number): number => (bytes > 0 ? Math.ceil(bytes / width) : 0);
  const localRead = (bytes: number): number => beats(bytes, local.data_width) * local.read_latency_cycle * local.period;
  const localWrite = (bytes: number): number => beats(bytes, local.data_width) * local.write_latency_cycle * local.period;
  // pimsim-nn's L(s, d, n) = (int)(ceil(n / bus) x lat[s][d]) (pim-isa.md §12.5); the global memory is `gmId`.
  const linkNs = (bytes: number, a: number, b: number): number => {
    if (a === b) return 0;
    const flits = Math.max(1, beats(bytes, flit));
    if (hasTable) return Math.trunc(flits * (table!.latency.get(a)?.get(b) ?? 0));
    const h = a === gmId || b === gmId ? 1 : hops(a, b);
    return flits * hopNs * h;
  };
  const mvmInputReadNs = (): number => localRead(mx.xbar_size[0] * eb * 8);
  // pimsim-nn writes floor(cols x cell_precision / mbiw) elements per crossbar; code generation's mbiw is the cell precision.
  const mvmOutputColumns = mx.xbar_size[1];
  const transferNs = (bytes: number, a: number, b: number): number => {
    if (a === b || bytes <= 0) return 0;
    const flits = beats(bytes, flit);
    if (hasTable) return flits * (table!.latency.get(a)?.get(b) ?? 0);
    return flits * hopNs * hops(a, b);
  };
  return {
    crossbarRows: mx.xbar_size[0],
    crossbarCols: mx.xbar_size[1],
    crossbarsPerCore: mx.xbar_array_count,
    cores: chip.core_cnt,
    crossbars: chip.core_cnt * mx.xbar_array_count,
    localMemoryBytes: local.memory_size,
    localAlignment: Math.max(1, config.raptor_config.local_memory_alignment),
    hostMemoryBytes: global.memory_size,
    activationBytes: Math.max(1, Math.ceil(config.raptor_config.input_bits / 8)),
    mvmNs,
    programElementBits: PROGRAM_ELEMENT_BITS,
    programElementBytes: eb,
    programMvmNs,
    mvmIssueNs: issue,
    vectorWidth: core.vector_width,
    vectorStepNs: core.vector_latency_cycle,
    flitBytes: flit,
    hostBytesPerNs: global.data_width / global.period,
    meshLayout: [meshRows, meshCols],
    mvmSequenceNs: (count) => (count <= 0 ? 0 : mvmNs + (count - 1) * (issue > 0 ? issue : mvmNs)),
    vectorNs: (elements) => beats(elements, core.vector_width) * core.vector_latency_cycle,
    mvmUnitNs: (crossbars) => mvmInputReadNs() + programMvmNs + localWrite(crossbars * mvmOutputColumns * eb),
    mvmInputReadNs,
    vectorOpNs: (elements, inputs) =>
      inputs * localRead(elements * eb) + beats(elements, core.vector_width) * core.vector_latency_cycle * core.period + localWrite(elements * eb),
    localCopyNs: (bytes) => localRead(bytes) + localWrite(bytes),
    localFillNs: (bytes) => localWrite(bytes),
    hostLoadNs: (bytes, c = 0) => (bytes > 0 ? linkNs(1, c, gmId) + beats(bytes, global.data_width) * global.read_latency_cycle * global.period + localWrite(bytes) : 0),
    hostStoreNs: (bytes, c = 0) => (bytes > 0 ? localRead(bytes) + linkNs(bytes, c, gmId) + beats(bytes, global.data_width) * global.write_latency_cycle * global.period : 0),
    hostPortNs: (bytes, write) => beats(bytes, global.data_width) * (write ? global.write_latency_cycle : global.read_latency_cycle) * global.period,
    sendNs: (bytes, a, b) => (a === b ? 0 : linkNs(1, a, b) + linkNs(1, b, a) + localRead(bytes)),
    deliverNs: (bytes, a, b) => (a === b ? 0 : linkNs(bytes, a, b) + localWrite(bytes)),
    hops,
    transferNs,
    syncNs: (a, b) => Math.max(core.period, transferNs(1, a, b)),
  };
}
