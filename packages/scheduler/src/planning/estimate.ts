/**
 * The analytic estimate of a plan: a list-scheduling replay of every core stream with the
 * target's cost model (MVM sequences, vector ops, transfers, host traffic, syncs), giving the
 * latency of one inference, the pipeline period, and per core its busy time by unit.
 */
import type { CostModel } from '@raptor-pim/pim-target';
import type { Workload } from '../analysis/workload';
import { lanesOfReplica, replicaOfLane, type SchedulePlan } from './schedule-plan';
import type { ReplicaInputReads } from './transfers';

/** Busy time of one core by unit, its crossbars and memory. */
export interface CoreUsage {
  /** Physical core id. */
  readonly core: number;
  /** MVM unit busy time (ns). */
  mvmNs: number;
  /** Vector unit busy time (ns). */
  vectorNs: number;
  /** Core-to-core transfers, sending and receiving (ns). */
  transferNs: number;
  /** Host loads and stores (ns). */
  hostNs: number;
  /** Sync/wait messages (ns). */
  syncNs: number;
  /** Sum of the above. */
  busyNs: number;
  /** Crossbars holding weights. */
  crossbars: number;
  /** Estimated peak live local memory (bytes). */
  peakLocalBytes: number;
  /** Replicas (scheduled lanes) it runs. */
  replicas: number;
}

/** The estimate of a plan. */
export interface ScheduleEstimate {
  /** Latency of one inference (ns). */
  readonly latencyNs: number;
  /** Time between two inferences in steady state (ns). */
  readonly periodNs: number;
  /** Inferences per second (1e9 / period). */
  readonly throughput: number;
  /** Per used core, by core id. */
  readonly cores: readonly CoreUsage[];
  /** Bytes moved between cores per inference. */
  readonly transferBytes: number;
  /** Bytes through host memory per inference other than graph inputs/outputs. */
  readonly spilledBytes: number;
  /** Graph input and output bytes per inference. */
  readonly ioBytes: number;
}

/** Replays `plan` with `cost`; `reads` is {@link planReads} of the same plan. */
export function estimateSchedule(workload: Workload, plan: SchedulePlan, reads: readonly ReplicaInputReads[], cost: CostModel): ScheduleEstimate {
  const usage = new Map<number, CoreUsage>();
  const use = (core: number): CoreUsage => {
    let u = usage.get(core);
    if (!u) usage.set(core, (u = { core, mvmNs: 0, vectorNs: 0, transferNs: 0, hostNs: 0, syncNs: 0, busyNs: 0, crossbars: 0, peakLocalBytes: 0, replicas: 0 }));
    return u;
  };
  const host = plan.transfer === 'host';
  const moveNs = (bytes: number, a: number, b: number): { send: number; recv: number; wire: number } =>
    host
      ? { send: cost.hostStoreNs(bytes) + cost.syncNs(a, b), recv: cost.hostLoadNs(bytes) + cost.syncNs(b, a), wire: bytes / cost.hostBytesPerNs }
      : { send: cost.transferNs(bytes, a, b), recv: cost.transferNs(bytes, a, b), wire: 0 };

  // Reads grouped by consumer replica; outgoing transfer time per producer fragment.
  const readsOf = new Map<string, ReplicaInputReads[]>();
  const sendNsOf = new Map<string, number>();
  let transferBytes = 0;
  for (const r of reads) {
    const key = `${r.consumer}:${r.replica}`;
    let list = readsOf.get(key);
    if (!list) readsOf.set(key, (list = []));
    list.push(r);
    for (const f of r.remote) {
      const k = `${f.producer}:${f.slot}`;
      sendNsOf.set(k, (sendNsOf.get(k) ?? 0) + moveNs(f.bytes, f.fromCore, f.toCore).send);
      transferBytes += f.bytes;
    }
  }

  const finish: number[][] = workload.nodes.map((n) => new Array<number>(n.lanes).fill(0));
  const coreFree = new Map<number, number>();
  const replicaDone = new Map<string, number>();
  let latencyNs = 0;
  let ioBytes = 0;
  for (const n of workload.nodes) {
    const pl = plan.placements[n.index]!;
    const inLoad = n.hostInputBytes > 0 ? cost.hostLoadNs(n.hostInputBytes / n.lanes) : 0;
    const outStore = n.hostOutputBytes > 0 ? cost.hostStoreNs(n.hostOutputBytes / n.lanes) : 0;
    ioBytes += n.hostInputBytes + n.hostOutputBytes;
    for (let j = 0; j < pl.replicas; j++) {
      const core = pl.cores[j]!;
      const u = use(core);
      u.replicas++;
      u.crossbars += n.crossbars * pl.copies;
      const rounds = Math.ceil(n.lanes / pl.replicas);
      u.peakLocalBytes = Math.max(u.peakLocalBytes, n.localBytesPerLane * (pl.granularity === 'layer' ? rounds : 1));
      const myReads = readsOf.get(`${n.index}:${j}`) ?? [];
      // Arrival of every remote fragment, and the receive time per round.
      const arrivalByRound = new Array<number>(rounds).fill(0);
      const recvByRound = new Array<number>(rounds).fill(0);
      let arrivalAll = 0;
      for (const r of myReads) {
        const producer = plan.placements[r.producer]!;
        const prodLayer = producer.granularity === 'layer';
        const producerDone = (slot: number): number => {
          if (!prodLayer) return finish[r.producer]![slot]!;
          // Layer granularity: sends happen after the replica's last round.
          const rep = replicaOfLane(producer, workload.nodes[r.producer]!.lanes, slot);
          const key = `${r.producer}:${rep}`;
          let t = replicaDone.get(key);
          if (t === undefined) {
            t = 0;
            for (const l of lanesOfReplica(producer, workload.nodes[r.producer]!.lanes, rep)) t = Math.max(t, finish[r.producer]![l]!);
            replicaDone.set(key, t);
          }
          return t;
        };
        for (const f of r.remote) {
          const m = moveNs(f.bytes, f.fromCore, f.toCore);
          const at = producerDone(f.slot) + m.send + m.wire;
          const round = pl.granularity === 'layer' ? 0 : f.round;
          arrivalByRound[round] = Math.max(arrivalByRound[round]!, at);
          arrivalAll = Math.max(arrivalAll, at);
          recvByRound[round]! += m.recv;
          if (host) u.hostNs += m.recv;
          else u.transferNs += m.recv;
        }
        if (r.hasLocal) {
          // Local forwarding: the producer result must be complete (SSA binding).
          let t = 0;
          for (const x of finish[r.producer]!) t = Math.max(t, x);
          arrivalByRound[0] = Math.max(arrivalByRound[0]!, t);
          arrivalAll = Math.max(arrivalAll, t);
        }
      }
      let t = coreFree.get(core) ?? 0;
      let arrived = 0;
      const lanesOf = lanesOfReplica(pl, n.lanes, j);
      // Waves of `copies` rounds: their MVMs issue back to back on distinct weight copies.
      for (let first = 0; first < lanesOf.length; first += pl.copies) {
        const wave = lanesOf.slice(first, first + pl.copies);
        let recv = 0;
        for (let k = first; k < first + wave.length; k++) {
          arrived = Math.max(arrived, arrivalByRound[k]!);
          recv += recvByRound[k]!;
        }
        const ready = pl.granularity === 'layer' ? arrivalAll : arrived;
        const mvmWave = cost.mvmSequenceNs(wave.length * n.mvmIssuesPerLane);
        const vecWave = wave.length * n.laneVectorNs;
        const hostWave = wave.length * (inLoad + outStore);
        t = Math.max(t, ready) + recv + hostWave + mvmWave + vecWave;
        u.mvmNs += mvmWave;
        u.vectorNs += vecWave;
        u.hostNs += hostWave;
        for (const lane of wave) {
          const send = sendNsOf.get(`${n.index}:${lane}`) ?? 0;
          if (pl.granularity === 'window') t += send;
          if (host) u.hostNs += send;
          else u.transferNs += send;
        }
        for (const lane of wave) finish[n.index]![lane] = t;
      }
      if (pl.granularity === 'layer') {
        let send = 0;
        for (const lane of lanesOf) send += sendNsOf.get(`${n.index}:${lane}`) ?? 0;
        t += send;
        for (const lane of lanesOf) finish[n.index]![lane] = t;
      }
      coreFree.set(core, t);
      latencyNs = Math.max(latencyNs, t);
    }
    // Mirrors compute the whole (scalar, weightless, host-fed) node again on their cores.
    for (const m of pl.mirrors ?? []) {
      const u = use(m);
      u.replicas++;
      u.peakLocalBytes = Math.max(u.peakLocalBytes, n.localBytesPerLane);
      const t = (coreFree.get(m) ?? 0) + inLoad + n.laneComputeNs + outStore;
      u.vectorNs += n.laneComputeNs;
      u.hostNs += inLoad + outStore;
      coreFree.set(m, t);
      finish[n.index]![0] = Math.max(finish[n.index]![0]!, t);
      latencyNs = Math.max(latencyNs, t);
    }
  }
  let spilledBytes = 0;
  if (host) spilledBytes = transferBytes;
  const cores = [...usage.values()].sort((a, b) => a.core - b.core);
  for (const u of cores) {
    if (host) u.syncNs = 0;
    u.busyNs = u.mvmNs + u.vectorNs + u.transferNs + u.hostNs + u.syncNs;
  }
  const hostWire = (ioBytes + spilledBytes) / cost.hostBytesPerNs;
  const busiest = Math.max(0, ...cores.map((c) => c.busyNs));
  const periodNs = plan.pipelined ? Math.max(busiest, hostWire) : latencyNs;
  return { latencyNs, periodNs, throughput: periodNs > 0 ? 1e9 / periodNs : Infinity, cores, transferBytes, spilledBytes, ioBytes };
}
