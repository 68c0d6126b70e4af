// What case.ts measures for one (model, strategy); bench.ts prints the table from these.

/** One (model, strategy) run. Times in ms unless named otherwise. */
export interface CaseRecord {
  model: string;
  strategy: string;
  /** Compiled, simulated and output 0 matched onnxruntime. */
  ok: boolean;
  /** raptor_config.allow_vsoftmax was set (the model has a Softmax). */
  vsoftmax: boolean;
  /** Where and why it stopped (first error diagnostic). */
  failure?: { stage: string; message: string };
  compileMs?: number;
  stageMs?: Record<string, number>;
  /** compile()'s sampled peak JS heap. */
  peakHeapBytes?: number;
  /** The process's peak resident set (compile and simulation). */
  maxRssBytes?: number;
  cores?: number;
  crossbars?: number;
  instructions?: number;
  /** Wall time of the latency-mode simulation. */
  simMs?: number;
  latencyNs?: number;
  energyPj?: number;
  /** Inferences per second (throughput mode). */
  throughput?: number;
  matches?: boolean;
  estimate?: { latencyNs: number; throughput: number };
  bounds?: { latencyMinNs: number; throughputMax: number; crossbarsNeeded: number };
}
