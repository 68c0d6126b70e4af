/**
 * Result types of the timing and energy pass.
 */
import type { SimError } from '../diagnostics';

/** Energy by component in pJ (pim-isa.md §13). */
export interface EnergyBreakdown {
  /** Static energy of all cores and the global memory. */
  staticPj: number;
  /** Instruction fetch. */
  fetchPj: number;
  /** Instruction decode. */
  decodePj: number;
  /** Register-file reads. */
  regReadPj: number;
  /** Register-file writes. */
  regWritePj: number;
  /** Scalar unit. */
  scalarPj: number;
  /** Vector unit (ALU and vector registers). */
  vectorPj: number;
  /** Local memories. */
  localMemoryPj: number;
  /** Global memory. */
  globalMemoryPj: number;
  /** Crossbar MVMs. */
  matrixPj: number;
  /** Network messages. */
  networkPj: number;
}

/** Per-core timing statistics. */
export interface CoreStats {
  /** Core id. */
  id: number;
  /** Time its last instruction retired (latency mode), in ns. */
  finishNs: number;
  /**
   * Time the fetch stage first passed the program's last instruction, in ns (pimsim-nn's
   * "core :N reached time"); 0 for an empty program.
   */
  fetchEndNs: number;
  /** Completed passes over the program (throughput mode: fetches of the last instruction). */
  rounds: number;
  /** Instructions in the program. */
  programLength: number;
  /** Instructions issued (fetched) during the run. */
  issued: number;
  /** Energy of this core (excludes the network and the global memory), in pJ. */
  energyPj: number;
  /** Busy time per unit in ns. */
  busyNs: { vector: number; transfer: number; matrix: number };
  /** Front-end stall time by cause in ns. */
  stallNs: { robFull: number; unitBusy: number; hazard: number };
  /** Bytes moved. */
  bytes: { localRead: number; localWrite: number; globalRead: number; globalWrite: number; sent: number; received: number };
  /** Instructions issued per mnemonic. */
  mix: Record<string, number>;
}

/** One Chrome trace-event record (complete events 'X' and metadata 'M'). */
export interface TraceEvent {
  /** Name shown on the slice. */
  name: string;
  /** Category. */
  cat: string;
  /** Phase: 'X' complete event, 'M' metadata. */
  ph: 'X' | 'M' | 'i';
  /** Start in microseconds. */
  ts: number;
  /** Duration in microseconds ('X' only). */
  dur?: number;
  /** Process id: the core id, or the core count for the network process. */
  pid: number;
  /** Thread id (unit track). */
  tid: number;
  /** Extra fields. */
  args?: Record<string, string | number>;
  /** Instant-event scope. */
  s?: 't';
}

/** What the timing pass returns. */
export interface TimingResult {
  /** Chip latency (max core finish) in latency mode; the simulated time in throughput mode (ns). */
  latencyNs: number;
  /** Total energy in pJ (latency mode: one run; throughput mode: the whole simulated time). */
  energyPj: number;
  /** Energy by component. */
  energy: EnergyBreakdown;
  /** Per-core statistics. */
  cores: CoreStats[];
  /** Throughput mode: outputs completed (minimum rounds over non-empty cores). */
  rounds: number;
  /** The error that stopped the run, if any. */
  error?: SimError;
  /** Trace events when requested. */
  trace?: TraceEvent[];
}
