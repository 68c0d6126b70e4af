/**
 * The physical lower bounds B0-B5 of hardware-defaults.md for a model on a machine: the limit
 * every schedule's latency and throughput is measured against.
 */
import type { CostModel } from './cost-model';

/**
 * The work of one weight layer, in the terms of hardware-defaults.md: per copy of its
 * weights, `crossbars` (X) crossbars in `arrayGroups` (A) array groups, driven by `vectors` (P)
 * input vectors per inference.
 */
export interface WeightLayerWork {
  /** A name for reports (`conv1`, the op's location). */
  readonly name: string;
  /** X: crossbars of one copy of the weights. */
  readonly crossbars: number;
  /** A: array groups of one copy (one MVM instruction drives one group). */
  readonly arrayGroups: number;
  /** P: input vectors per inference (each drives all A groups once). */
  readonly vectors: number;
  /** N: output columns (the partial-sum width of one MVM). */
  readonly outputColumns: number;
}

/**
 * A {@link WeightLayerWork} from the layer's unfolded weight shape: K rows (kh*kw*Cin/groups),
 * N columns (Cout), P input vectors (Hout*Wout*batch): A = ceil(K/R), X = A*ceil(N/C).
 *
 * @example weightLayerFromShape(cost, 'fc1', 784, 128, 1) // A = 7, X = 7
 */
export function weightLayerFromShape(cost: CostModel, name: string, rows: number, cols: number, vectors: number): WeightLayerWork {
  const arrayGroups = Math.ceil(rows / cost.crossbarRows);
  return { name, arrayGroups, crossbars: arrayGroups * Math.ceil(cols / cost.crossbarCols), vectors, outputColumns: cols };
}

/** What the bounds need besides the weight layers. */
export interface ModelWork {
  /** The weight layers. */
  readonly layers: readonly WeightLayerWork[];
  /**
   * Vector elements per inference other than partial-sum adds (activations, pooling, bias,
   * residual adds); the bound adds (A-1)*N*P per layer itself.
   */
  readonly vectorElements: number;
  /** Bytes of graph inputs and outputs per inference. */
  readonly ioBytes: number;
  /** Bytes spilled through host memory per inference (0 when everything stays on chip). */
  readonly spilledBytes: number;
  /**
   * Indices into `layers` of the longest weight-layer path (dependency order) for B5; empty
   * to use the single most expensive layer.
   */
  readonly criticalPath: readonly number[];
}

/** The bounds B0-B5 and the derived best throughput and latency (ns and inferences per second). */
export interface Bounds {
  /** B0: crossbars one copy of all weights needs. */
  readonly crossbarsNeeded: number;
  /** B0: crossbars of the machine. */
  readonly crossbarsAvailable: number;
  /** B0 holds: all weights fit at once (else weights must be reloaded). */
  readonly fits: boolean;
  /** The layer with the most crossbars (named in the B0 diagnostic). */
  readonly largestLayer: { readonly name: string; readonly crossbars: number } | null;
  /** B1 crossbar work: T_mvm * sum(P*X) / Nx. */
  readonly b1Ns: number;
  /** B2 issue limit: T_iss * sum(P*A) / Nc. */
  readonly b2Ns: number;
  /** B3 vector work: all vector elements / (Nc * width) * step latency. */
  readonly b3Ns: number;
  /** B4 host I/O: (input + output + spilled bytes) / host bandwidth. */
  readonly b4Ns: number;
  /** B5 latency critical path: sum over the path of (T_mvm + reduction + transfer). */
  readonly b5Ns: number;
  /** Best period max(B1..B4) in ns. */
  readonly periodMinNs: number;
  /** throughput_max = 1 / max(B1..B4), in inferences per second. */
  readonly throughputMax: number;
  /** latency_min = max(B1..B5) in ns. */
  readonly latencyMinNs: number;
}

/**
 * Computes B0-B5 (hardware-defaults.md, "Lower bounds") of `work` on the machine of `cost`.
 *
 * @example
 * const b = computeBounds(cost, { layers: [weightLayerFromShape(cost, 'fc', 784, 128, 1)], vectorElements: 128, ioBytes: 1588, spilledBytes: 0, criticalPath: [] });
 * b.b1Ns; // 2601 * 7 / 4096
 */
export function computeBounds(cost: CostModel, work: ModelWork): Bounds {
  let crossbarsNeeded = 0;
  let crossbarWork = 0;
  let issues = 0;
  let vectorElements = work.vectorElements;
  let largest: { name: string; crossbars: number } | null = null;
  for (const l of work.layers) {
    crossbarsNeeded += l.crossbars;
    crossbarWork += l.vectors * l.crossbars;
    issues += l.vectors * l.arrayGroups;
    vectorElements += Math.max(0, l.arrayGroups - 1) * l.outputColumns * l.vectors;
    if (!largest || l.crossbars > largest.crossbars) largest = { name: l.name, crossbars: l.crossbars };
  }
  const b1Ns = (cost.mvmNs * crossbarWork) / Math.max(1, cost.crossbars);
  const b2Ns = (cost.mvmIssueNs * issues) / Math.max(1, cost.cores);
  const b3Ns = (vectorElements / (Math.max(1, cost.cores) * cost.vectorWidth)) * cost.vectorStepNs;
  const b4Ns = (work.ioBytes + work.spilledBytes) / cost.hostBytesPerNs;
  const layerPathNs = (l: WeightLayerWork): number =>
    cost.mvmNs + cost.vectorNs(Math.max(0, l.arrayGroups - 1) * l.outputColumns) + cost.transferNs(l.outputColumns * cost.activationBytes, 0, 1);
  let b5Ns = 0;
  if (work.criticalPath.length) for (const i of work.criticalPath) b5Ns += layerPathNs(work.layers[i]!);
  else for (const l of work.layers) b5Ns = Math.max(b5Ns, layerPathNs(l));
  const periodMinNs = Math.max(b1Ns, b2Ns, b3Ns, b4Ns);
  return {
    crossbarsNeeded,
    crossbarsAvailable: cost.crossbars,
    fits: crossbarsNeeded <= cost.crossbars,
    largestLayer: largest,
    b1Ns,
    b2Ns,
    b3Ns,
    b4Ns,
    b5Ns,
    periodMinNs,
    throughputMax: periodMinNs > 0 ? 1e9 / periodMinNs : Infinity,
    latencyMinNs: Math.max(periodMinNs, b5Ns),
  };
}
