/**
 * The `Scheduler` interface and the driver that turns a planning function into one: a
 * strategy only decides replica counts, cores and transfer style ({@link SchedulePlan});
 * {@link createPlanScheduler} does the rest with the shared building blocks (workload
 * analysis, capacity check B0, mesh placement, estimate, bounds, materialization, report).
 */
import {
  Diagnostic,
  FuncOp,
  type Operation,
  type PassOptionSpec,
  type PassOptionValue,
} from '@raptor-pim/ir-core';
import { computeBounds, createCostModel, type CostModel, type ModelWork, type Target, type WeightLayerWork } from '@raptor-pim/pim-target';
import { Workload } from './analysis/workload';
import { SchedulerMessages as M } from './diagnostics';
import { estimateSchedule } from './planning/estimate';
import { replaySchedule, type ScheduleReplay } from './planning/schedule-replay';
import { enforcesLocalMemory, granularityForMemory, minimumFootprint, planLocalMemory, withWindows } from './planning/local-memory';
import { planSendOrder } from './planning/send-order';
import { planParallelTiles, tileOversizedParallelComputes } from './transforms/tile-parallel-computes';
import { splitLanesToFit } from './transforms/split-lanes';
import { placeOnMesh, trafficCost } from './planning/placement';
import { usesHostSlots, type Granularity, type SchedulePlan } from './planning/schedule-plan';
import { planReads, remapPlan, trafficOf } from './planning/transfers';
import { buildReport, type ScheduleReport } from './report';
import { materializeSchedule } from './transforms/materialize-schedule';
import { planOversizedSplits, splitLimitsOf, splitOversizedComputes } from './transforms/split-oversized-computes';
import { planChannelBlockSplits, planInputChannelSplits, splitChannelBlocks, splitInputChannels } from './transforms/split-input-channels';
import { verifyCommunication, type CommunicationCheck } from './transforms/spat-verify-communication';
import { functionsOf } from './analysis/functions';

/** Scheduler options by name, typed by the scheduler's {@link Scheduler.optionsSchema}. */
export type SchedulerOptions = { readonly [name: string]: PassOptionValue };

/** The report of one scheduler run: one entry per scheduled function. */
export type SchedulerRunReport = {
  readonly strategy: string;
  readonly functions: readonly ScheduleReport[];
};

/** The outcome of {@link Scheduler.schedule}: the scheduled module, or the diagnostics saying why not. */
export type ScheduleResult =
  | {
      readonly module: Operation;
      readonly report: SchedulerRunReport;
      readonly diagnostics?: readonly Diagnostic[];
      /**
       * Functions whose final scheduled IR the scheduler itself checked with `verifyCommunication`
       * (on the same target) and found without a problem: `spat-schedule` records them
       * (spat-verify-communication's `CommunicationVerified` analysis) so `spat-verify-communication` right after does not check
       * them again. Optional; leave it out when unsure.
       */
      readonly communicationVerified?: readonly Operation[];
    }
  | { readonly module?: undefined; readonly diagnostics: readonly Diagnostic[]; readonly report?: SchedulerRunReport };

/**
 * A scheduling strategy. `schedule` receives a module of graph computes, the target machine and
 * its options (typed by `optionsSchema`), and returns the scheduled module (changed in place)
 * with its report, or diagnostics (leaving the module unchanged). It must not throw for bad
 * input. A plug-in is an ES module whose default export is a `Scheduler`.
 */
export interface Scheduler {
  /** The strategy's name (`spat-schedule{strategy=NAME}` selects it). */
  readonly name: string;
  /** One line saying what it does. */
  readonly description?: string;
  /** The options it accepts, declared like pass options. */
  readonly optionsSchema: readonly PassOptionSpec[];
  /** Schedules `module` on `target`. */
  schedule(module: Operation, target: Target, options: SchedulerOptions): ScheduleResult;
}

/** What a planning function receives. */
export interface PlanContext {
  /** The function's workload. */
  readonly workload: Workload;
  /** The target's cost model. */
  readonly cost: CostModel;
  /** The target. */
  readonly target: Target;
  /** The strategy's options (defaults filled in). */
  readonly options: SchedulerOptions;
  /**
   * Replays `plan` (on virtual cores) as the driver would schedule it: windows, mesh placement
   * and materialization on a scratch copy of the function, then {@link replaySchedule}. Undefined
   * when that copy overflows host memory or deadlocks (the driver would repair it). Given by the
   * driver of {@link createPlanScheduler}; see {@link pickByReplay}.
   */
  readonly replayPlan?: (plan: SchedulePlan) => ScheduleReplay | undefined;
}

/**
 * A planning function: a plan on virtual cores `0..V-1` (the driver maps them onto the mesh),
 * or a diagnostic message saying why no plan exists.
 */
export type Planner = (context: PlanContext) => SchedulePlan | string;

/** What {@link createPlanScheduler} takes. */
export interface PlanSchedulerSpec {
  readonly name: string;
  readonly description: string;
  readonly optionsSchema: readonly PassOptionSpec[];
  readonly plan: Planner;
  /** Map virtual cores onto the mesh to minimise bytes x hops (default true). */
  readonly placeOnMesh?: boolean;
}

/** The option values of `schema` with defaults for the missing ones. */
export function withDefaults(schema: readonly PassOptionSpec[], options: SchedulerOptions): SchedulerOptions {
  const out: Record<string, PassOptionValue> = {};
  for (const s of schema) out[s.name] = options[s.name] ?? s.defaultValue;
  return out;
}

/** The {@link ModelWork} of a workload for the bounds of hardware-defaults.md. */
export function modelWorkOf(workload: Workload): ModelWork {
  const layers: WeightLayerWork[] = [];
  const layerOf = new Map<number, number>();
  let vectorElements = 0;
  let ioBytes = 0;
  for (const n of workload.nodes) {
    vectorElements += n.vectorElementsPerLane * n.lanes;
    ioBytes += n.hostInputBytes + n.hostOutputBytes;
    if (n.crossbars <= 0) continue;
    const vectors = (n.lanes * n.crossbarMvmsPerLane) / n.crossbars;
    layerOf.set(n.index, layers.length);
    layers.push({ name: n.name, crossbars: n.crossbars, arrayGroups: vectors > 0 ? (n.lanes * n.mvmIssuesPerLane) / vectors : 0, vectors, outputColumns: 0 });
  }
  // Longest chain of weight layers (dependency order).
  const depth: number[] = [];
  const prev: number[] = [];
  for (const n of workload.nodes) {
    let best = -1;
    for (const input of n.inputs) for (const s of input.sources) if (best < 0 || depth[s.producer]! > depth[best]!) best = s.producer;
    depth[n.index] = (best >= 0 ? depth[best]! : 0) + (n.crossbars > 0 ? 1 : 0);
    prev[n.index] = best;
  }
  let end = -1;
  for (const n of workload.nodes) if (end < 0 || depth[n.index]! > depth[end]!) end = n.index;
  const path: number[] = [];
  for (let i = end; i >= 0; i = prev[i]!) if (layerOf.has(i)) path.push(layerOf.get(i)!);
  path.reverse();
  return { layers, vectorElements, ioBytes, spilledBytes: 0, criticalPath: path };
}

/** Builds a {@link Scheduler} from a planning function (see the file comment). */
export function createPlanScheduler(spec: PlanSchedulerSpec): Scheduler {
  return {
    name: spec.name,
    description: spec.description,
    optionsSchema: spec.optionsSchema,
    schedule(module: Operation, target: Target, options: SchedulerOptions): ScheduleResult {
      const cost = createCostModel(target);
      const opts = withDefaults(spec.optionsSchema, options);
      const enforce = enforcesLocalMemory(opts);
      const diagnostics: Diagnostic[] = [];
      const error = (op: Operation, message: string, fallback?: string): void => {
        const d = new Diagnostic('error', op.location, message);
        // A plan of another kind than the strategy's own: why the strategy took it.
        if (fallback) d.attachNote(M.fallbackNote(spec.name, fallback));
        diagnostics.push(d);
      };
      const funcs = functionsOf(module);
      /**
       * `plan` (on virtual cores) as scheduled: windows where whole values would not fit (enforced
       * local memory), then mapped onto the mesh; with the traffic (bytes x hops) before and after.
       */
      const placeVirtual = (w: Workload, plan: SchedulePlan): { plan: SchedulePlan; trafficBefore: number; trafficAfter: number } => {
        const virtual = enforce ? withWindows(w, plan, cost) : plan;
        const virtualCores = 1 + Math.max(-1, ...virtual.placements.flatMap((p) => [...p.cores]));
        const traffic = trafficOf(planReads(w, virtual));
        if (spec.placeOnMesh === false) {
          const before = trafficCost(traffic, Array.from({ length: virtualCores }, (_, i) => i), cost);
          return { plan: virtual, trafficBefore: before, trafficAfter: before };
        }
        const mesh = placeOnMesh(virtualCores, traffic, cost);
        return { plan: remapPlan(virtual, mesh.physical), trafficBefore: mesh.naiveCost, trafficAfter: mesh.cost };
      };
      interface Planned {
        /** The strategy's name in messages (with the fallback it took, if any). */
        name: string;
        workload: Workload;
        plan: SchedulePlan;
        trafficBefore: number;
        trafficAfter: number;
        warnings: string[];
      }
      const planned: Planned[] = [];
      // Computes larger than one core are split into column parts first (B0 failures are left
      // to the capacity check below); the bodies are restored if scheduling fails later.
      const restore: { func: Operation; body: Operation }[] = [];
      for (const func of funcs) {
        // Computes whose input window is too large for a core are split over their input
        // channels first (partial sums and a reduction), then what is still larger than a core
        // into column parts.
        const channelSplits = enforce ? planInputChannelSplits(func, cost) : [];
        if (channelSplits.length) {
          restore.push({ func, body: func.clone() });
          splitInputChannels(func, cost, channelSplits);
        }
        // Channel blocks (a grouped convolution's chains each reading their own channels) whose
        // window is too large are split into column parts (no reduction).
        const blockSplits = enforce ? planChannelBlockSplits(func, cost) : [];
        if (blockSplits.length) {
          if (!restore.some((r) => r.func === func)) restore.push({ func, body: func.clone() });
          splitChannelBlocks(func, cost, blockSplits);
        }
        const split = planOversizedSplits(func, splitLimitsOf(cost));
        for (const d of split.diagnostics) diagnostics.push(d);
        if (split.plans.length && !split.diagnostics.length) {
          if (!restore.some((r) => r.func === func)) restore.push({ func, body: func.clone() });
          splitOversizedComputes(func, splitLimitsOf(cost), split);
        }
      }
      const failed = (): ScheduleResult => {
        for (const r of restore) r.func.regions[0]!.takeBody(r.body.regions[0]!);
        return { diagnostics };
      };
      if (diagnostics.length) return failed();
      for (const func of funcs) {
        let workload = new Workload(func, cost);
        // Scalar computes too large for a core that work along a dimension become lane batches.
        const tiles = enforce ? planParallelTiles(workload, cost) : [];
        if (tiles.length) {
          if (!restore.some((r) => r.func === func)) restore.push({ func, body: func.clone() });
          tileOversizedParallelComputes(func, cost, tiles);
          workload = new Workload(func, cost);
        }
        // Where some compute still fits no core, weightless lanes wider than a budget are split
        // along a dimension every op takes whole (channels): the chunks stream through smaller windows.
        const minimumOf = (w: Workload): ReturnType<typeof minimumFootprint>[] => (enforce ? w.nodes.map((n) => minimumFootprint(w, n, cost)) : []);
        let minimum = minimumOf(workload);
        // The largest lane budget after which every compute fits (fewest chunks, longest copies).
        const fitsCores = (m: readonly ReturnType<typeof minimumFootprint>[]): boolean => m.every((f) => f.bodyBytes <= cost.localMemoryBytes);
        if (!fitsCores(minimum)) {
          const unsplit = restore.some((r) => r.func === func) ? undefined : func.clone();
          /** The footprints of the last split tried (those of the split kept when it fitted). */
          let measured: { workload: Workload; minimum: ReturnType<typeof minimumOf> } | undefined;
          const split = splitLanesToFit(func, workload, cost, (w) => fitsCores((measured = { workload: w, minimum: minimumOf(w) }).minimum));
          if (split !== workload) {
            if (unsplit) restore.push({ func, body: unsplit });
            minimum = measured?.workload === split ? measured.minimum : minimumOf(split);
            workload = split;
          }
        }
        const warnings: string[] = [];
        for (const p of workload.problems) {
          if (p.message === 'plan') error(p.op, M.unloweredPlan(p.op.name));
          else warnings.push(M.hostOperation(p.op.name));
        }
        if (workload.nodes.length === 0) continue;
        if (workload.crossbars > cost.crossbars) {
          const largest = workload.largestNode!;
          error(func, M.capacity(workload.crossbars, cost.crossbars, largest.name, largest.crossbars));
          continue;
        }
        for (const n of workload.nodes) if (n.crossbars > cost.crossbarsPerCore) error(n.op, M.computeTooLarge(n.name, n.crossbars, cost.crossbarsPerCore));
        // A compute whose own live data exceeds a core's local memory cannot be placed anywhere.
        for (const n of workload.nodes) {
          const f = minimum[n.index];
          if (!f || f.bodyBytes <= cost.localMemoryBytes) continue;
          const parts = `inputs ${f.parts.inputs} B, host data ${f.parts.hostData} B, blueprints ${f.parts.blueprints} B, results ${f.parts.results} B, one round ${f.parts.round} B`;
          error(n.op, M.nodeMemory(n.name, f.bodyBytes, cost.localMemoryBytes, parts, f.replicas));
        }
        if (diagnostics.length) continue;
        const replayPlan = (plan: SchedulePlan): ScheduleReplay | undefined => {
          // A scratch copy of the function as the strategy sees it (same nodes, same order).
          const scratch = func.clone();
          const w = new Workload(scratch, cost);
          if (w.nodes.length !== workload.nodes.length) return undefined;
          const placed = placeVirtual(w, plan).plan;
          // A candidate the driver would have to repair (a plan shape materialization refuses, host
          // slots beyond host memory, a deadlock) does not replay: undefined, the others are compared.
          try {
            const done = materializeSchedule(w, placed, planReads(w, placed), cost, {});
            return done.hostOverflow ? undefined : replaySchedule(scratch, cost, { stepBudget: 60_000 });
          } catch {
            return undefined;
          }
        };
        const planned0 = spec.plan({ workload, cost, target, options: opts, replayPlan });
        if (typeof planned0 === 'string') {
          error(func, planned0);
          continue;
        }
        const name = planned0.fallback ? M.fallbackName(spec.name, planned0.strategy) : spec.name;
        if (planned0.fallback) warnings.push(M.strategyFallback(planned0.strategy, planned0.fallback, planned0.replicaCrossbars));
        const next: Planned = { name, workload, ...placeVirtual(workload, planned0), warnings };
        if (enforce) {
          for (const c of planLocalMemory(workload, next.plan, planReads(workload, next.plan), cost)) {
            if (c.peakBytes > cost.localMemoryBytes) error(func, M.coreMemory(name, c.core, c.peakBytes, cost.localMemoryBytes, c.peakAt), planned0.fallback);
          }
        }
        planned.push(next);
      }
      if (diagnostics.length) return failed();
      const reports: ScheduleReport[] = [];
      const communicationVerified: Operation[] = [];
      for (const p of planned) {
        // Changes of the function's IR and the change count its last clean communication check saw.
        const tracked = { changes: 0, cleanAt: -1 };
        /** `verifyCommunication`, remembering a clean check. */
        const checkCommunication = (func: Operation, t: Target): CommunicationCheck => {
          const r = verifyCommunication(func, t);
          if (!r.diagnostics.length) tracked.cleanAt = tracked.changes;
          return r;
        };
        /** `materializeSchedule`, counting the runs that build (change the IR). */
        const materialize = (...args: Parameters<typeof materializeSchedule>): ReturnType<typeof materializeSchedule> => {
          const options = args[4];
          if (!options?.slotRegistersOnly && !options?.hostSlotsOnly) tracked.changes++;
          return materializeSchedule(...args);
        };
        let reads = planReads(p.workload, p.plan);
        // A window pipeline sends inside producer bodies; blocking transfers may then form a
        // cycle across cores. Check it, and fall back to layer granularity (send tasks) if so.
        const fine = (p.plan.transfer === 'channel' || p.plan.placements.some((x) => x.onChip)) && p.plan.placements.some((x) => x.granularity === 'window');
        // Host slots that do not fit the host memory or the event registers fall back to channels,
        // which may deadlock in a schedule ordered for slots: keep the body to restore then.
        const hostPlan = usesHostSlots(p.plan);
        const backup = fine || hostPlan ? p.workload.func.clone() : undefined;
        // The estimate reads the graph computes' bodies: price the plan before materializing it.
        let estimate = estimateSchedule(p.workload, p.plan, reads, cost);
        /** Options every later materialization of this plan keeps (READY registers per producer result, once taken). */
        let slotOptions: { groupReadyRegisters?: boolean } = {};
        // A plan that runs one layer after another: a reader loads a producer's slots once the
        // layer is done, so READY registers per producer result cost it no overlap. Where one per
        // slot and reader runs out (slots falling back to channels, which on resnet18 and
        // mobilenet_block deadlock) and per producer result places every slot, take them at once
        // (checked on the slots and registers alone) instead of materializing twice.
        if (hostPlan && !p.plan.pipelined) {
          const probe = materialize(p.workload, p.plan, reads, cost, { slotRegistersOnly: true, groupReadyRegisters: true });
          if (probe.readyRegistersGrouped && probe.hostFallbacks === 0) slotOptions = { groupReadyRegisters: true };
        }
        let done = materialize(p.workload, p.plan, reads, cost, slotOptions);
        /** The function body as it was before materializing (a fresh workload over it). */
        const restoreBody = (): void => {
          tracked.changes++;
          p.workload.func.regions[0]!.takeBody(backup!.clone().regions[0]!);
          p.workload = new Workload(p.workload.func, cost);
        };
        if (done.hostOverflow) {
          error(p.workload.func, M.hostSlotMemory(p.name, done.hostOverflow.neededBytes, done.hostOverflow.budgetBytes, cost.hostMemoryBytes), p.plan.fallback);
          return failed();
        }
        if (hostPlan && done.hostFallbacks > 0 && checkCommunication(p.workload.func, target).deadlock) {
          // The channels the slots fell back to deadlock: readers of many slots take one READY
          // register per producer result instead, so fewer slots fall back. A window pipeline's
          // cycles are repaired below; any other cycle is final.
          restoreBody();
          reads = planReads(p.workload, p.plan);
          estimate = estimateSchedule(p.workload, p.plan, reads, cost);
          slotOptions = { groupReadyRegisters: true };
          done = materialize(p.workload, p.plan, reads, cost, slotOptions);
          if (!fine && done.hostFallbacks > 0 && checkCommunication(p.workload.func, target).deadlock) {
            p.workload.func.regions[0]!.takeBody(backup!.regions[0]!);
            error(p.workload.func, M.hostFallbackDeadlock(p.name, done.hostFallbacks, done.hostSlots, cost.hostMemoryBytes), p.plan.fallback);
            return failed();
          }
        }
        if (hostPlan && done.hostFallbacks > 0) p.warnings.push(M.hostFallbacks(p.name, done.hostFallbacks, done.hostSlots, cost.hostMemoryBytes));
        if (fine && backup) {
          const deadlocked = (): boolean => checkCommunication(p.workload.func, target).deadlock !== undefined;
          // First repair: the nodes whose scheduled computes lie on the cycle wait for whole
          // layers (where that fits), the others keep their window pipeline; repeated while
          // cycles remain and something changes.
          let cycle = checkCommunication(p.workload.func, target).deadlock;
          if (cycle) {
            // First, the same plan with its window sends placed by a simulation of the streams
            // in one global order (producers hold made fragments until their readers take them).
            // The simulation reads only the plan and its reads (data): it runs before the body is
            // restored, and the same plan keeps its reads and estimate.
            const sendSchedule = planSendOrder(p.workload, p.plan, reads);
            if (sendSchedule) {
              restoreBody();
              // Producers then hold made fragments until their readers take them: that must fit too.
              const held = sendSchedule.heldBytes;
              const fits = !enforce || planLocalMemory(p.workload, p.plan, reads, cost).every((c) => c.peakBytes + (held.get(c.core) ?? 0) <= cost.localMemoryBytes);
              const ordered = fits ? materialize(p.workload, p.plan, reads, cost, { ...slotOptions, sendSchedule }) : undefined;
              if (ordered && !ordered.hostOverflow && !deadlocked()) {
                done = ordered;
                cycle = undefined;
                p.warnings.push(M.windowSendOrder(p.name));
              } else {
                if (ordered) restoreBody();
                done = materialize(p.workload, p.plan, reads, cost, slotOptions);
                cycle = checkCommunication(p.workload.func, target).deadlock;
              }
            }
          }
          let repairs = 0;
          while (cycle && repairs < 12) {
            const nodeOf = new Map<Operation, number>();
            done.scheduled.forEach((ops, node) => ops.forEach((op) => nodeOf.set(op, node)));
            const onCycle = new Set<number>();
            for (const op of cycle) {
              for (let o: Operation | null = op; o; o = o.parent?.parentOp ?? null) {
                const node = nodeOf.get(o);
                if (node !== undefined) {
                  onCycle.add(node);
                  break;
                }
              }
            }
            const current = p.plan;
            if (!current.placements.some((x, i) => onCycle.has(i) && x.granularity === 'window')) break;
            restoreBody();
            let next: SchedulePlan = { ...current, placements: current.placements.map((x, i) => (onCycle.has(i) && x.granularity === 'window' ? { ...x, granularity: 'layer' as const } : x)) };
            if (enforce) next = withWindows(p.workload, next, cost);
            const nextReads = planReads(p.workload, next);
            // Does not fit: the fallbacks below start again from the unscheduled body.
            if (enforce && planLocalMemory(p.workload, next, nextReads, cost).some((c) => c.peakBytes > cost.localMemoryBytes)) break;
            p.plan = next;
            reads = nextReads;
            estimate = estimateSchedule(p.workload, next, nextReads, cost);
            done = materialize(p.workload, next, nextReads, cost, slotOptions);
            repairs++;
            cycle = checkCommunication(p.workload.func, target).deadlock;
          }
          if (!cycle && repairs > 0) p.warnings.push(M.windowRepair(p.name, p.plan.placements.filter((x) => x.granularity === 'layer').length));
          if (cycle) {
            // Fallbacks, in order: consumers wait for whole layers (send tasks in one global
            // order), except computes whose partial result would not fit a core; then every
            // activation through host slots (READY/FREE), which blocks on no send.
            const original = p.plan;
            const fallbacks: SchedulePlan[] = [];
            const layerOnly = (plan: SchedulePlan, g?: readonly Granularity[]): SchedulePlan => ({
              ...plan,
              placements: plan.placements.map((x, i) => ({ ...x, granularity: g?.[i] ?? ('layer' as const) })),
            });
            restoreBody();
            const replicas = original.placements.map((x) => x.replicas);
            const withMemory = (plan: SchedulePlan): SchedulePlan => (enforce ? withWindows(p.workload, plan, cost) : plan);
            fallbacks.push(withMemory(layerOnly(original, enforce ? granularityForMemory(p.workload, cost, 'layer', 'channel', replicas) : undefined)));
            fallbacks.push(withMemory({ ...layerOnly(original), transfer: 'host' }));
            let settled = false;
            let over: { core: number; peakBytes: number } | undefined;
            for (const [k, plan] of fallbacks.entries()) {
              if (k > 0) restoreBody();
              const fallbackReads = planReads(p.workload, plan);
              over = enforce ? planLocalMemory(p.workload, plan, fallbackReads, cost).find((c) => c.peakBytes > cost.localMemoryBytes) : undefined;
              if (over) continue;
              const fallbackEstimate = estimateSchedule(p.workload, plan, fallbackReads, cost);
              const fallbackDone = materialize(p.workload, plan, fallbackReads, cost, slotOptions);
              if (fallbackDone.hostOverflow || deadlocked()) continue;
              p.plan = plan;
              reads = fallbackReads;
              estimate = fallbackEstimate;
              done = fallbackDone;
              settled = true;
              p.warnings.push(plan.transfer === 'host' ? M.windowFallbackHost(p.name) : M.windowFallback(p.name));
              break;
            }
            if (!settled) {
              p.workload.func.regions[0]!.takeBody(backup.regions[0]!);
              error(p.workload.func, over ? M.windowFallbackMemory(p.name, over.core, over.peakBytes, cost.localMemoryBytes) : M.windowFallbackDeadlock(p.name), p.plan.fallback);
              return failed();
            }
          }
        }
        const bounds = computeBounds(cost, modelWorkOf(p.workload));
        const layers = p.workload.nodes.map((n) => ({
          name: n.name,
          lanes: n.lanes,
          replicas: p.plan.placements[n.index]!.replicas,
          copies: p.plan.placements[n.index]!.copies,
          cores: [...p.plan.placements[n.index]!.cores],
          mirrors: [...(p.plan.placements[n.index]!.mirrors ?? [])],
          crossbarsPerCopy: n.crossbars,
          granularity: p.plan.placements[n.index]!.granularity,
          ...(p.plan.placements[n.index]!.windowRounds !== undefined ? { windowRounds: p.plan.placements[n.index]!.windowRounds } : {}),
          ...(p.plan.placements[n.index]!.exactWindows ? { exactWindows: true } : {}),
          ...(p.plan.placements[n.index]!.onChip ? { onChip: true } : {}),
        }));
        const name = FuncOp.get(p.workload.func).sym_name.value;
        // Peak local memory per core: the model of what the stream will allocate (planning/local-memory).
        const memory = new Map(planLocalMemory(p.workload, p.plan, reads, cost).map((c) => [c.core, c.peakBytes]));
        for (const c of estimate.cores) c.peakLocalBytes = memory.get(c.core) ?? 0;
        for (const c of estimate.cores) if (c.peakLocalBytes > cost.localMemoryBytes) p.warnings.push(M.localMemory(c.core, c.peakLocalBytes, cost.localMemoryBytes));
        if (tracked.cleanAt === tracked.changes) communicationVerified.push(p.workload.func);
        // The reported latency and period: the materialized programs replayed with their rendezvous.
        const replay = replaySchedule(p.workload.func, cost);
        reports.push(
          buildReport(estimate, bounds, cost, {
            ...(replay ? { replay } : {}),
            strategy: spec.name,
            functionName: name,
            layers,
            channels: done.channels,
            hostSlots: done.hostSlots,
            trafficBefore: p.trafficBefore,
            trafficAfter: p.trafficAfter,
            warnings: p.warnings,
          }),
        );
      }
      return { module, report: { strategy: spec.name, functions: reports }, communicationVerified };
    },
  };
}
