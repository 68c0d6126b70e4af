/**
 * A schedule before it is written into the IR: per graph compute its replica count (scheduled
 * lanes) and the core of each replica, how data moves between cores, and at which granularity
 * a consumer waits for its producer. Strategies build a plan with the building blocks of
 * `planning/`; `materializeSchedule` writes it into the module.
 *
 * Graph lane `l` of a node with `r` replicas runs on scheduled lane `l % r` in round
 * `floor(l / r)`, on core `cores[l % r]`.
 */

/** How payloads between two cores move. */
export type TransferMode = 'channel' | 'host';

/**
 * When a consumer may start: `layer` waits for every fragment it reads before its first round
 * (batch granularity: receives at body entry, sends at body exit); `window` starts each round
 * as soon as that round's fragments arrived (fine-grained pipeline: receives and sends around
 * every round).
 */
export type Granularity = 'layer' | 'window';

/** Placement of one graph compute. */
export interface NodePlacement {
  /** Replicas = scheduled lanes; divides the node's graph lanes. */
  readonly replicas: number;
  /** Core of each replica (distinct). */
  readonly cores: readonly number[];
  /** When consumers of this node's inputs may start. */
  readonly granularity: Granularity;
}

/** A complete plan: one placement per workload node, in node order. */
export interface SchedulePlan {
  /** The strategy that made it (for reports). */
  readonly strategy: string;
  /** Per node. */
  readonly placements: readonly NodePlacement[];
  /** How payloads between cores move. */
  readonly transfer: TransferMode;
  /**
   * True when consecutive inferences overlap (a pipeline: the period is the busiest core's time);
   * false when an inference starts after the previous one finished (period = latency).
   */
  readonly pipelined: boolean;
}

/** The core that runs graph lane `lane` of a placement. */
export function coreOfLane(p: NodePlacement, lane: number): number {
  return p.cores[lane % p.replicas]!;
}

/** The divisors of `n` in increasing order. */
export function divisors(n: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) out.push(d);
  return out;
}
