/**
 * `layer-sequential`: the PUMA-like baseline. Each layer's weights on cores of their own, one
 * copy (no replication), one layer after another per inference (an inference starts when the
 * previous one finished), activations passed through host memory with the READY/FREE protocol
 * (as PIMCOMP-NN's and PUMA's flows do) unless `transfer=channel`. Weightless computes
 * (activations, softmax) run on the core of their producer when both fit its local memory,
 * else on a core of their own. The yardstick for the others.
 */
import { enumOption } from '@raptor-pim/ir-core';
import type { WorkloadNode } from '../analysis/workload';
import { replicaItems, replicaTimeNs } from '../planning/core-mapping';
import { enforcesLocalMemory, footprintMode, planLocalMemory, granularityForMemory, localMemoryOption, replicaChoices, replicaCrossbarShortfall, replicasWithinCrossbars, streamsResults, withWindows, type FootprintMode } from '../planning/local-memory';
import { planReads } from '../planning/transfers';
import { estimateSchedule } from '../planning/estimate';
import { replicateLayers } from '../planning/layer-replication';
import { crossbarsOf as crossbarsOfReplication } from '../planning/replication';
import { materializeSchedule } from '../transforms/materialize-schedule';
import { hostSlotBudget, hostSlotPeak, readersOfNodes, valuesKeptOnChip } from '../planning/host-slots';
import { lanesOfReplica, replicaCounts, replicaOfLane, streamGroups, type Granularity, type NodePlacement, type SchedulePlan, type TransferMode } from '../planning/schedule-plan';
import { createPlanScheduler, type PlanContext } from '../scheduler';
import { SchedulerMessages as M } from '../diagnostics';

const transferOption = enumOption('transfer', ['host', 'channel'] as const, 'host', 'how activations move between layers');

/**
 * The plan of `layer-sequential` for one function (exported for strategies that start from it).
 * With host transfers, where the plan's host slots would not fit host memory (checked by placing
 * them as materialization does), the largest values live at the peak stay on chip instead
 * ({@link valuesKeptOnChip}): streamed round by round into their readers through channels, the
 * producer and its readers side by side on cores of their own.
 */
export function planLayerSequential(context: PlanContext): SchedulePlan | string {
  const planned = planLayers(context);
  return typeof planned === 'string' ? planned : planned.plan;
}

/** A layer-after-layer plan and the host bytes its slots need beyond host memory (undefined: they fit). */
interface LayersPlan {
  readonly plan: SchedulePlan;
  readonly hostOverflow: number | undefined;
}

/**
 * {@link planLayerSequential} with at least `floor[node]` replicas per node, and whether its host
 * slots fit. With `hint` (the values a similar plan kept on chip, spread over the cores), that
 * plan is tried first and taken when its host slots fit.
 */
/** A plan with its windows, the transfers of that, and its host slots placed with their event registers. */
interface CheckedPlan {
  readonly windowed: SchedulePlan;
  readonly reads: ReturnType<typeof planReads>;
  readonly slots: ReturnType<typeof materializeSchedule>;
}

/** The host-slot check of {@link planLayers} and the replicated search's checks share one {@link CheckedPlan} per plan. */
const checkedPlans = new WeakMap<SchedulePlan, CheckedPlan>();

/**
 * `plan`'s windows, transfers and host slots (placed as materialization places them, with one
 * READY register per producer result where one per slot and reader run out). Its `hostOverflow`
 * is the same as a host-slots-only materialization's: the slots are placed before registers.
 */
function checkPlan({ workload, cost }: PlanContext, plan: SchedulePlan): CheckedPlan {
  let found = checkedPlans.get(plan);
  if (!found) {
    const windowed = withWindows(workload, plan, cost);
    const reads = planReads(workload, windowed);
    found = { windowed, reads, slots: materializeSchedule(workload, windowed, reads, cost, { slotRegistersOnly: true, groupReadyRegisters: true }) };
    checkedPlans.set(plan, found);
  }
  return found;
}

function planLayers(context: PlanContext, floor?: readonly number[], hint?: ReadonlySet<number>): LayersPlan | string {
  const { workload, cost, options } = context;
  const planWith = (context: PlanContext, onChip: ReadonlySet<number>, spread = false): SchedulePlan | string => planLayersWith(context, onChip, spread, floor);
  /** Bytes the plan's host slots need where they do not fit (placed as materialization places them). */
  const overflow = (plan: SchedulePlan): number | undefined => checkPlan(context, plan).slots.hostOverflow?.neededBytes;
  const hosted = enforcesLocalMemory(options) && options['transfer'] === 'host';
  if (hint && hosted) {
    const hinted = planWith(context, hint, true);
    if (typeof hinted !== 'string' && overflow(hinted) === undefined) return { plan: hinted, hostOverflow: undefined };
  }
  const plain = planWith(context, new Set());
  if (typeof plain === 'string') return plain;
  if (!hosted) return { plan: plain, hostOverflow: undefined };
  const room = hostSlotBudget(workload, cost);
  let best: SchedulePlan = plain;
  let onChip = new Set<number>();
  let needed = overflow(plain);
  if (needed === undefined) return { plan: plain, hostOverflow: undefined };
  // First the same layers with their replicas spread over the cores (slots of different writers share bytes).
  const spread = planWith(context, onChip, true);
  if (typeof spread !== 'string') {
    const spreadNeeds = overflow(spread);
    if (spreadNeeds === undefined) return { plan: spread, hostOverflow: undefined };
    if (spreadNeeds < needed) {
      best = spread;
      needed = spreadNeeds;
    }
  }
  // The node-order model brought below the room, scaled by what the last plan's slots needed, until they fit.
  for (let attempt = 0; needed !== undefined && attempt < 8; attempt++) {
    const modelled = hostSlotPeak(workload, onChip, cost).bytes;
    const next = valuesKeptOnChip(workload, cost, { keep: onChip, budget: Math.floor((modelled * room) / needed) });
    if (next.size === onChip.size) break;
    const streamed = planWith(context, next, true);
    if (typeof streamed === 'string') break;
    best = streamed;
    onChip = next;
    needed = overflow(streamed);
  }
  return { plan: best, hostOverflow: needed };
}

/**
 * `layer-sequential`'s plan (host transfers) with the crossbars it leaves free given to weight
 * replicas ({@link replicateLayers}): from each of four starts (layer-sequential's replica counts,
 * and its weightless computes at fewer replicas: see the body), the largest crossbar budget, found
 * by a binary search between the start's crossbars and the target's, whose replicas pack onto the
 * cores, fit their local memory, leave the host slots within host memory and find every slot its
 * event registers (past the budget that binds, the search is not monotone, so it takes a feasible
 * budget, not always the largest). The estimate picks among those plans and the plan without
 * replicas, which is returned where none is faster.
 */
export function planReplicatedLayers(context: PlanContext): SchedulePlan | string {
  const { workload, cost } = context;
  const plain = planLayers(context);
  if (typeof plain === 'string') return plain;
  const plainReplicas = plain.plan.placements.map((p) => p.replicas);
  // A value kept on chip streams into readers that take its fragments in lane order; its
  // producer's replicas take the lanes round-robin (`interleaved`), so they stream side by side
  // and replicate like any other node (their stream group takes more cores apart).
  const streamed = new Set(plain.plan.placements.flatMap((p, i) => (p.onChip ? [i] : [])));
  // The plain plan's values on chip, spread (when it kept some): what the replicated plans try first.
  const hint = streamed.size ? streamed : undefined;
  const crossbarsOf = (replicas: readonly number[]): number => crossbarsOfReplication(workload, replicas.map((r) => ({ replicas: r, copies: 1 })));
  const latencyOf = (plan: SchedulePlan): number => estimateSchedule(workload, plan, planReads(workload, plan), cost).latencyNs;
  /**
   * The plan with `base` raised by the replicas of `budget` crossbars, where it differs from the
   * plain plan, is complete and fits; with `keepGroups`, the nodes of stream groups keep their
   * plain replicas.
   */
  const attempt = (base: readonly number[], budget: number, keepGroups = false): SchedulePlan | undefined => {
    const raised = replicateLayers(workload, cost, base, budget);
    const floor = keepGroups ? raised.map((r, i) => (grouped.has(i) ? plainReplicas[i]! : r)) : raised;
    if (floor.every((r, i) => r === plainReplicas[i])) return undefined;
    const planned = planLayers(context, floor, hint);
    if (typeof planned === 'string' || planned.hostOverflow !== undefined) return undefined;
    const { windowed, reads, slots } = checkPlan(context, planned.plan);
    if (planLocalMemory(workload, windowed, reads, cost).some((c) => c.peakBytes > cost.localMemoryBytes)) return undefined;
    // More replicas write and read more host slots: every slot must still get its event
    // registers (one READY register per producer result, as the driver takes them for a plan that
    // runs layer after layer), or those slots would fall back to channels, which may deadlock.
    if (slots.hostFallbacks > 0) return undefined;
    return planned.plan;
  };
  /** The plan of the largest budget that works from `base` (all the target's crossbars, else a bisection to about a 32nd of them). */
  const search = (base: readonly number[], keepGroups = false): SchedulePlan | undefined => {
    let found = attempt(base, cost.crossbars, keepGroups);
    if (found) return found;
    let lo = crossbarsOf(base);
    let hi = cost.crossbars;
    while (hi - lo > Math.max(1, cost.crossbars / 32)) {
      const mid = Math.floor((lo + hi) / 2);
      const plan = attempt(base, mid, keepGroups);
      if (plan) {
        found = plan;
        lo = mid;
      } else hi = mid;
    }
    return found;
  };
  // Every replica writes a host slot, and a writer holds one FREE register per slot for its whole
  // stream (32 per core): the plain plan spreads its weightless computes over many cores, which
  // can leave no registers for weight replicas (resnet18: 420 more crossbars). The lean starts
  // take the weightless computes outside stream groups at the fewest replicas their data allows,
  // or at the fewest (up to their plain count) whose replica takes at most 150 or 40 MVM times
  // (slow weightless computes keep some parallelism); the estimate picks among all starts.
  const grouped = new Set(streamed);
  for (const n of workload.nodes) if (n.inputs.some((i) => i.sources.some((src) => streamed.has(src.producer)))) grouped.add(n.index);
  const choices = replicaChoices(workload, cost, granularityForMemory(workload, cost, 'layer', 'host'), 'host');
  const leanWithin = (limitNs: number): number[] =>
    plainReplicas.map((r, i) => {
      const n = workload.nodes[i]!;
      if (n.crossbars > 0 || grouped.has(i)) return r;
      const fewest = Math.min(r, choices[i]!.fewest);
      return replicaCounts(n, cost.cores).find((d) => d >= fewest && d <= r && replicaTimeNs(n, cost, d) <= limitNs) ?? r;
    });
  const starts: number[][] = [plainReplicas];
  for (const limit of [Infinity, 150 * cost.mvmUnitNs(1), 40 * cost.mvmUnitNs(1)]) {
    const lean = leanWithin(limit);
    if (!starts.some((x) => x.every((r, i) => r === lean[i]))) starts.push(lean);
  }
  let best: { plan: SchedulePlan; latency: number } | undefined = plain.hostOverflow === undefined ? { plan: plain.plan, latency: latencyOf(plain.plan) } : undefined;
  let replicated = false;
  /** Searches from every start; keeps the fastest plan found. */
  const searchStarts = (keepGroups: boolean): void => {
    for (const base of starts) {
      const found = search(base, keepGroups);
      if (!found) continue;
      replicated = true;
      const latency = latencyOf(found);
      if (!best || latency < best.latency) best = { plan: { ...found, replicaCrossbars: crossbarsOf(found.placements.map((p) => p.replicas)) - crossbarsOf(plainReplicas) }, latency };
    }
  };
  searchStarts(false);
  // Where no replicated plan fits because the stream groups no longer pack with more replicas
  // (ultraface: a pointwise convolution streaming through its padding into a depthwise one's
  // channel blocks), the same search with those nodes at their plain replicas.
  if (!replicated && grouped.size) searchStarts(true);
  return best?.plan ?? plain.plan;
}

/**
 * The plan of `layer-sequential` with the values of `onChip` streamed into their readers (host
 * transfers) and at least `floor[node]` replicas per node (where given). With `spread`, once every core holds a compute, a replica takes the first core that
 * fits among those whose results hold the fewest bytes, then round robin after the core of the
 * last one placed, instead of the first from core 0: the layers' host slots then have different
 * writers, and slots of different writers may share bytes.
 */
function planLayersWith({ workload, cost, options }: PlanContext, onChip: ReadonlySet<number>, spread: boolean, floor: readonly number[] | undefined): SchedulePlan | string {
  const enforce = enforcesLocalMemory(options);
  const transfer = options['transfer'] as TransferMode;
  const readers = readersOfNodes(workload);
  // The nodes kept on chip as a host plan's placements (for the stream groups and the footprints).
  // A weighted batch kept on chip deals its lanes one at a time to its replicas (`interleaved`):
  // its readers take the fragments in lane order, so the replicas stream side by side instead of
  // one after another. (Weightless readers kept on chip stay in blocks: resnet18's max-pool
  // padding, whose lanes are channel chunks numbered chunk-major, deadlocked dealt round-robin.)
  const interleaves = (n: WorkloadNode): number => (onChip.has(n.index) && n.isBatch && n.crossbars > 0 ? 1 : 0);
  const modePlan = { transfer, placements: workload.nodes.map((n) => (onChip.has(n.index) ? { onChip: true, ...(interleaves(n) ? { interleaved: interleaves(n) } : {}) } : {})) as NodePlacement[] };
  const groups = streamGroups(modePlan, (i) => readers[i]!);
  /** The stream group of a node (its first node), or undefined for a node outside every group. */
  const grouped = workload.nodes.map((n) => onChip.has(n.index) || n.inputs.some((x) => x.sources.some((s) => onChip.has(s.producer))));
  const groupOf = (i: number): number | undefined => (grouped[i] ? groups.first[i] : undefined);
  const modeOf = (n: WorkloadNode): FootprintMode => footprintMode(modePlan, n);
  const granularity: Granularity[] = (enforce ? granularityForMemory(workload, cost, 'layer', transfer) : workload.nodes.map(() => 'layer' as const)).map((g, i) => (groupOf(i) !== undefined ? 'window' : g));
  // One copy per layer; a layer whose data does not fit one core is split over as many cores as it needs.
  // (A floor replaces the choices: see below.)
  let choices = enforce && !floor ? replicaChoices(workload, cost, granularity, transfer) : undefined;
  if (choices && onChip.size) {
    // Nodes of a stream group: the fewest replicas whose windows fit (through channels where they read a streamed value).
    const streamed = replicaChoices(workload, cost, granularity, 'channel');
    choices = choices.map((c, i) => {
      if (groupOf(i) === undefined) return c;
      const fewest = (modeOf(workload.nodes[i]!).transfer === 'channel' ? streamed[i]! : c).fewest;
      return { preferred: fewest, fewest };
    });
  }
  // A floor (the replicas of a plan that packed, and more) replaces the choices: the preferred
  // counts of nodes it does not raise could take more crossbars than the floor leaves.
  const replicas = floor ? [...floor] : choices ? replicasWithinCrossbars(workload, choices, cost.crossbars) : workload.nodes.map(() => 1);
  const itemsFor = (replicas: readonly number[]): ReturnType<typeof replicaItems> =>
    replicaItems(workload, workload.nodes.map((n) => ({ replicas: replicas[n.index]!, copies: 1 })), cost, granularity, onChip.size ? modeOf : transfer).filter((it) => it.replica === 0); // node order: one per node (its replicas are alike)
  const items = itemsFor(replicas);
  if (enforce) {
    // The replicas local memory asks for take more crossbars than the target has.
    const shortfall = replicaCrossbarShortfall(workload, cost, granularity, transfer, replicas);
    if (shortfall) return M.noPacking('layer-sequential', cost.cores, shortfall);
    // A node whose replica does not fit even alone on a core (minimumReplicas found no count that fits).
    const over = items.find((it) => it.memoryBytes > cost.localMemoryBytes);
    if (over) {
      const n = workload.nodes[over.node]!;
      return M.noPacking('layer-sequential', cost.cores, M.replicaBeyondCore(n.name, replicas[n.index]!, over.memoryBytes, cost.localMemoryBytes));
    }
  }
  /**
   * Places every node's replicas in node order. With `reserveHeavy`, each replica of a node
   * holding more than half a core's crossbars has a core set aside whose crossbars other nodes
   * leave room for (placed in node order, the early layers' replicas would otherwise leave no
   * core with that many free crossbars for the late, large layers).
   */
  const pack = (replicas: readonly number[], items: ReturnType<typeof replicaItems>, reserveHeavy: boolean): SchedulePlan | string => {
    const coreOf: number[][] = [];
    const used: number[] = [];
    // Per core: the computes placed on it (node, body bytes) and the results kept live there, each
    // from its producer's body to the last compute on the core that reads it.
    const placed = new Map<number, { node: number; body: number; assembled: boolean }[]>();
    const keptOn = new Map<number, Map<number, { bytes: number; until: number }>>();
    let next = 0;
    /** With `spread`: the core after the last one a replica took. */
    let cursor = 0;
    /** With `spread`: bytes of results each core has written (its host slots). */
    const writtenOn = new Array<number>(cost.cores).fill(0);
    /** With `spread`: the cores by the bytes their slots hold (fewest first), then round robin from the cursor. */
    const spreadOrder = (): number[] =>
      Array.from({ length: used.length }, (_, c) => c).sort((a, b) => writtenOn[a]! - writtenOn[b]! || ((a - cursor + used.length) % used.length) - ((b - cursor + used.length) % used.length));
    /** Nodes whose replicas load their own core's producer slots from host memory (`NodePlacement.selfHostReads`). */
    const selfHostReads = new Set<number>();
    // Cores set aside for the replicas of heavy nodes (core -> its node's crossbars), while unused.
    const reservedFor = new Map<number, number>();
    const heavyCores = new Map<number, number[]>();
    if (reserveHeavy) {
      const heavy = workload.nodes.filter((n) => n.crossbars * 2 > cost.crossbarsPerCore);
      if (heavy.reduce((a, n) => a + replicas[n.index]!, 0) <= cost.cores) {
        let c = cost.cores;
        for (const n of heavy) {
          const cores: number[] = [];
          for (let j = 0; j < replicas[n.index]!; j++) {
            cores.push(--c);
            reservedFor.set(c, n.crossbars);
          }
          heavyCores.set(n.index, cores);
        }
      }
    }
    const reservedOn = (c: number, n: WorkloadNode): number => (heavyCores.get(n.index)?.includes(c) ? 0 : (reservedFor.get(c) ?? 0));
    // Cores taken by the nodes of each stream group: the group's nodes run side by side, so none
    // shares a core with another of them (a blocking send would wait for a body behind it).
    const groupCores = new Map<number, Set<number>>();
    const apart = (c: number, n: WorkloadNode): boolean => {
      const g = groupOf(n.index);
      return g === undefined || !groupCores.get(g)?.has(c);
    };
    const fitsOn = (c: number, n: WorkloadNode): boolean => apart(c, n) && (used[c] ?? 0) + n.crossbars + reservedOn(c, n) <= cost.crossbarsPerCore;
    // With host transfers a partial result is stored inside its producer's body: nothing stays live after it.
    const retained = (i: number): number => (transfer === 'host' ? 0 : items[i]!.retainedBytes);
    const producersCache = new Map<number, number[]>();
    const producersOf = (n: WorkloadNode): number[] => {
      let out = producersCache.get(n.index);
      if (!out) producersCache.set(n.index, (out = [...new Set(n.inputs.flatMap((i) => i.sources.map((s) => s.producer)))]));
      return out;
    };
    /** Per producer, the producer replicas whose slots replica `j` of `n` reads (cached: the replica counts are fixed here). */
    const readsCache = new Map<string, Map<number, Set<number>>>();
    const replicasReadBy = (n: WorkloadNode, j: number): Map<number, Set<number>> => {
      const key = `${n.index}:${j}`;
      let out = readsCache.get(key);
      if (out) return out;
      out = new Map();
      const lanes = lanesOfReplica({ replicas: replicas[n.index]!, interleaved: interleaves(n) }, n.lanes, j);
      for (const input of n.inputs) {
        for (const src of input.sources) {
          const producer = workload.nodes[src.producer]!;
          let set = out.get(src.producer);
          if (!set) out.set(src.producer, (set = new Set()));
          for (const l of lanes) for (const slot of src.slotsPerLane[l] ?? []) set.add(producer.isBatch ? replicaOfLane({ replicas: replicas[src.producer]!, interleaved: interleaves(producer) }, producer.lanes, slot) : 0);
        }
      }
      readsCache.set(key, out);
      return out;
    };
    /** The results of `n`'s producers on core `c`: read locally, so live until `n`. */
    /**
     * The producers of replica `j` of `n` that make some slot it reads on core `c` (read there as
     * SSA, so their partial results stay live until it runs); a producer whose replicas on `c`
     * make none of its slots is read from its host slot or channel like any other.
     */
    const forwardedOn = (c: number, n: WorkloadNode, j: number): number[] => {
      const read = replicasReadBy(n, j);
      return producersOf(n).filter((p) => {
        const cores = coreOf[p]!;
        if (!cores.includes(c)) return false;
        for (const r of read.get(p) ?? []) if (cores[r] === c) return true;
        return false;
      });
    };
    /** Bytes kept live on `c` while node `idx` runs, with `extend` (producers whose results stay live until `until`). */
    const liveAt = (c: number, idx: number, extend: readonly number[], until: number): number => {
      let bytes = 0;
      const entries = keptOn.get(c);
      for (const [p, e] of entries ?? []) if (p < idx && idx <= (extend.includes(p) ? Math.max(e.until, until) : e.until)) bytes += e.bytes;
      for (const p of extend) if (!entries?.has(p) && p < idx && idx <= until) bytes += items[p]!.resultBytes;
      return bytes;
    };
    /**
     * Bytes a producer's body grows by when a consumer reads it on its own core: a producer that
     * streams its fragments out round by round assembles its partial result for the local reader.
     */
    const assembledFor = (p: number): number => (streamsResults(workload.nodes[p]!, granularity[p]!, transfer) ? items[p]!.resultBytes : 0);
    /** True when `n` fits on `c` reading `forwarded` locally, and every compute already on `c` still fits. */
    const memoryFits = (c: number, n: WorkloadNode, forwarded: readonly number[]): boolean => {
      if (!enforce) return true;
      const cap = cost.localMemoryBytes;
      if (items[n.index]!.memoryBytes + retained(n.index) + liveAt(c, n.index, forwarded, n.index) > cap) return false;
      return (placed.get(c) ?? []).every((x) => x.body + (forwarded.includes(x.node) && !x.assembled ? assembledFor(x.node) : 0) + liveAt(c, x.node, forwarded, n.index) <= cap);
    };
    for (const n of workload.nodes) {
      const affinity = items[n.index]!.affinity;
      const count = replicas[n.index]!;
      const mine: number[] = [];
      // Producers on `c` that replica `j` reads there and whose results then stay live until it
      // runs: with host transfers every one (read as SSA instead of from its slot), with channels
      // those that would otherwise stream their fragments out (at layer granularity they are
      // retained anyway). First every producer on `c` counts (`byNode`, conservative); only where
      // no core takes the replica that way, the slots replica `j` reads decide (`byReplica`).
      const staysLive = (p: number): boolean => transfer === 'host' || assembledFor(p) > 0;
      const byNode = (c: number): number[] => producersOf(n).filter((p) => coreOf[p]!.includes(c) && staysLive(p));
      const byReplica = (j: number) => (c: number): number[] => forwardedOn(c, n, j).filter(staysLive);
      /** The forwarding rule with which replica `j` fits on `c` (which must hold no other replica of `n`), if any. */
      const ruleOn = (j: number, c: number): ((c: number) => number[]) | undefined => {
        if (!fitsOn(c, n)) return undefined;
        for (const rule of [byNode, byReplica(j)]) if (memoryFits(c, n, rule(c))) return rule;
        return undefined;
      };
      /** Places replica `j` on `core`, its producers in `forwarding(core)` read there as SSA. */
      const commit = (core: number, forwarding: (c: number) => number[]): void => {
        if (heavyCores.get(n.index)?.includes(core)) reservedFor.delete(core);
        used[core] = (used[core] ?? 0) + n.crossbars;
        cursor = (core + 1) % cost.cores;
        writtenOn[core]! += items[n.index]!.resultBytes;
        const g = groupOf(n.index);
        if (g !== undefined) {
          let taken = groupCores.get(g);
          if (!taken) groupCores.set(g, (taken = new Set()));
          taken.add(core);
        }
        let list = placed.get(core);
        if (!list) placed.set(core, (list = []));
        // Producers read here now assemble their partial results.
        const readHere = forwarding(core);
        for (const x of list) {
          if (!readHere.includes(x.node) || x.assembled) continue;
          x.body += assembledFor(x.node);
          x.assembled = true;
        }
        list.push({ node: n.index, body: items[n.index]!.memoryBytes, assembled: false });
        let kept = keptOn.get(core);
        if (!kept) keptOn.set(core, (kept = new Map()));
        for (const p of readHere) {
          const e = kept.get(p);
          kept.set(p, { bytes: items[p]!.resultBytes, until: Math.max(e?.until ?? n.index, n.index) });
        }
        if (retained(n.index) > 0) kept.set(n.index, { bytes: retained(n.index), until: Infinity });
        mine.push(core);
      };
      // The state before this node, for the matching below.
      const saved = { used: [...used], next, placed: new Map([...placed].map(([c, l]) => [c, l.map((x) => ({ ...x }))])), keptOn: new Map([...keptOn].map(([c, m]) => [c, new Map(m)])) };
      let failed = -1;
      for (let j = 0; j < count; j++) {
        let forwarding = byNode;
        let core = -1;
        // Its core set aside, if any: with the producers on it read as SSA, or from their slots.
        const reserved = heavyCores.get(n.index)?.[j];
        const reservedRule = reserved !== undefined && !mine.includes(reserved) ? ruleOn(j, reserved) : undefined;
        if (reservedRule) {
          core = reserved!;
          forwarding = reservedRule;
        }
        if (core < 0 && n.crossbars === 0 && affinity >= 0 && count === replicas[affinity]) {
          // Forwarding on the producer's core keeps the producer's result live until this compute.
          const c = coreOf[affinity]![j]!;
          if (apart(c, n) && memoryFits(c, n, forwarding(c))) core = c;
        }
        if (core < 0 && next < cost.cores && fitsOn(next, n)) core = next++;
        else if (core < 0) {
          // Cores holding none of its producers first, so little stays live between computes.
          for (const rule of [byNode, byReplica(j)]) {
            for (const withProducers of [false, true]) {
              const order = spread ? spreadOrder() : undefined;
              for (let k = 0; k < used.length && core < 0; k++) {
                const c = order ? order[k]! : k;
                const f = rule(c);
                if (f.length > 0 !== withProducers) continue;
                if (!mine.includes(c) && fitsOn(c, n) && memoryFits(c, n, f)) core = c;
              }
            }
            if (core >= 0) {
              forwarding = rule;
              break;
            }
          }
        }
        if (core < 0) {
          failed = j;
          break;
        }
        commit(core, forwarding);
      }
      if (failed >= 0) {
        // The cores taken one replica after another left none for replica `failed` (e.g. only the
        // core of the producer replica it reads, where that producer's result would stay live):
        // place all the replicas at once, as a bipartite matching of replicas to cores that take them.
        used.length = 0;
        used.push(...saved.used);
        next = saved.next;
        placed.clear();
        for (const [c, l] of saved.placed) placed.set(c, l);
        keptOn.clear();
        for (const [c, m] of saved.keptOn) keptOn.set(c, m);
        mine.length = 0;
        const cores = Array.from({ length: cost.cores }, (_, c) => c);
        const candidates = Array.from({ length: count }, (_, j) => cores.filter((c) => ruleOn(j, c) !== undefined));
        let match = matchReplicasToCores(candidates, cost.cores);
        let rules = match?.map((c, j) => ruleOn(j, c)!);
        if (!match && transfer === 'host') {
          // Still none: the replicas load even their own core's producer slots from host memory,
          // so no producer result stays live on a core for them.
          const none = (): number[] => [];
          match = matchReplicasToCores(
            Array.from({ length: count }, () => cores.filter((c) => fitsOn(c, n) && memoryFits(c, n, []))),
            cost.cores,
          );
          rules = match?.map(() => none);
          if (match) selfHostReads.add(n.index);
        }
        if (!match || !rules) return M.noPacking('layer-sequential', cost.cores, M.noCoreFor(n.name, failed, count, items[n.index]!.memoryBytes, n.crossbars));
        match.forEach((c, j) => commit(c, rules![j]!));
        next = Math.max(next, ...match.map((c) => c + 1));
      }
      coreOf[n.index] = mine;
    }
    const placements: NodePlacement[] = workload.nodes.map((n) => ({
      replicas: replicas[n.index]!,
      copies: 1,
      cores: coreOf[n.index]!,
      granularity: granularity[n.index]!,
      ...(selfHostReads.has(n.index) ? { selfHostReads: true } : {}),
      ...(onChip.has(n.index) ? { onChip: true } : {}),
      ...(interleaves(n) && replicas[n.index]! > 1 ? { interleaved: interleaves(n) } : {}),
    }));
    return { strategy: 'layer-sequential', placements, transfer, pipelined: false };
  };
  const first = pack(replicas, items, false);
  if (typeof first !== 'string') return first;
  // Packed in node order the early layers may leave no core for a large late one: cores set
  // aside for the heavy nodes; then, with host transfers, also the fewest replicas local memory
  // allows everywhere (no host part budget: less crossbars to pack, larger parts in pieces).
  const attempts: (() => SchedulePlan | string)[] = [() => pack(replicas, items, true)];
  if (choices && transfer === 'host' && !floor) {
    const fewest = replicasWithinCrossbars(workload, choices, 0);
    if (fewest.some((r, i) => r !== replicas[i])) attempts.push(() => pack(fewest, itemsFor(fewest), true));
  }
  for (const attempt of attempts) {
    const plan = attempt();
    if (typeof plan !== 'string') return plan;
  }
  return first;
}

/** The option of the pipelined strategies choosing what they do when no pipeline fits the target. */
export const fallbackOption = enumOption(
  'fallback',
  ['layer-sequential', 'none'] as const,
  'layer-sequential',
  'when no pipeline fits the target: schedule layer after layer as layer-sequential does, with weight replicas in the crossbars it leaves free (with a warning), or refuse',
);

/**
 * What a pipelined strategy returns when no pipeline of its kind fits the target (`why`, the
 * refusal it would give): with the option `fallback=layer-sequential` (the default) the plan of
 * `layer-sequential` with host transfers (one layer after another, nothing kept live between
 * layers) and weight replicas in the crossbars it leaves free where they pack and the estimate
 * says they shorten an inference ({@link planReplicatedLayers}), marked with the reason (`SchedulePlan.fallback`, reported as a warning); with
 * `fallback=none`, or when that plan does not exist either, the refusal (naming both reasons).
 */
export function layerSequentialFallback(context: PlanContext, why: string): SchedulePlan | string {
  if (context.options['fallback'] === 'none') return why;
  const options = { ...context.options, transfer: 'host' };
  const plan = planReplicatedLayers({ ...context, options });
  if (typeof plan === 'string') return M.fallbackRefused(why, 'layer-sequential', plan);
  return { ...plan, fallback: why };
}

/** The `layer-sequential` strategy. */
export const layerSequentialScheduler = createPlanScheduler({
  name: 'layer-sequential',
  description: 'PUMA-like baseline: one copy per layer on its own cores, layer after layer, activations through host memory',
  optionsSchema: [transferOption, localMemoryOption],
  plan: planLayerSequential,
});

/**
 * A matching of replicas to distinct cores (`candidates[j]`: the cores replica `j` may take),
 * by augmenting paths (Kuhn's algorithm), or undefined when some replica gets none.
 * Deterministic: candidates are tried in the order given.
 */
export function matchReplicasToCores(candidates: readonly (readonly number[])[], cores: number): number[] | undefined {
  const owner = new Int32Array(cores).fill(-1);
  const tryPlace = (j: number, seen: Uint8Array): boolean => {
    for (const c of candidates[j]!) {
      if (seen[c]) continue;
      seen[c] = 1;
      if (owner[c]! < 0 || tryPlace(owner[c]!, seen)) {
        owner[c] = j;
        return true;
      }
    }
    return false;
  };
  for (let j = 0; j < candidates.length; j++) if (!tryPlace(j, new Uint8Array(cores))) return undefined;
  const match = new Array<number>(candidates.length);
  owner.forEach((j, c) => {
    if (j >= 0) match[j] = c;
  });
  return match;
}
