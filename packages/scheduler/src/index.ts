/**
 * @packageDocumentation
 * Scheduling of Spatial graph computes onto physical cores: the `Scheduler` interface, the
 * built-in strategies (`throughput`, `layer-sequential`, `latency`), the `spat-schedule` and
 * `spat-verify-communication` passes, and the building blocks a new strategy is made of
 * (workload analysis, replication and core mapping, mesh placement, communication insertion,
 * event-register allocation, estimate and report; the cost model and bounds come from
 * `@raptor-pim/pim-target`).
 */
import type { PassRegistry } from '@raptor-pim/ir-core';
import { SpatSchedulePass } from './transforms/spat-schedule';
import { SpatVerifyCommunicationPass } from './transforms/spat-verify-communication';
import { SplitOversizedComputesPass } from './transforms/split-oversized-computes';
import { TileParallelComputesPass } from './transforms/tile-parallel-computes';
import { SplitLanesPass } from './transforms/split-lanes';
import { SplitInputChannelsPass } from './transforms/split-input-channels';

// The interface and the strategy driver
export { createPlanScheduler, modelWorkOf, withDefaults } from './scheduler';
export type { PlanContext, PlanSchedulerSpec, Planner, Scheduler, SchedulerOptions, ScheduleResult, SchedulerRunReport } from './scheduler';
export { BUILTIN_SCHEDULERS, builtinScheduler, latencyScheduler, layerSequentialScheduler, throughputScheduler } from './strategies';
export { planThroughput } from './strategies/throughput';
export { fallbackOption, layerSequentialFallback, matchReplicasToCores, planLayerSequential, planReplicatedLayers } from './strategies/layer-sequential';
export { replicateLayers } from './planning/layer-replication';
export { isScheduler, loadSchedulerPlugin, loadSchedulerPluginSync } from './plugin';
// Building blocks
export { Workload, byteSizeOfType, describeNode } from './analysis/workload';
export type { InputWindow, WorkloadInput, WorkloadNode, WorkloadProblem, WorkloadSource } from './analysis/workload';
export { analyzeFragmentNeeds, boundingBox, evaluateIndex, physicalViewSplit, sourceRegions } from './analysis/fragment-needs';
export type { Box } from './analysis/fragment-needs';
export { firstLaneOfReplica, intersectBoxes, largestReplicaWindowBytes, largestRunWindowBytes, partBytes, replicaWindow, runWindow, streamingWindows, windowBytes, windowOfLanes, windowRunsOf } from './planning/windows';
export { coreOfLane, divisors, lanesOfReplica, readsThroughHost, replicaCounts, replicaOfLane, roundOfLane, roundsOf, streamGroups, usesHostSlots } from './planning/schedule-plan';
export type { Granularity, NodePlacement, Replication, SchedulePlan, TransferMode } from './planning/schedule-plan';
export { laneBusyNs, packReplicas, replicaItems, replicaTimeNs } from './planning/core-mapping';
export type { CorePacking, PackOptions, ReplicaItem } from './planning/core-mapping';
export { crossbarsOf, layerWiseCandidates, layerWiseReplications, planReplicasForPeriod, planSingleCopies, replicationCandidates, replicationForPeriod, spreadReplication } from './planning/replication';
export type { PackingConstraints, ReplicationPlan } from './planning/replication';
export {
  canStreamWindows,
  enforcesLocalMemory,
  footprintMode,
  granularityForMemory,
  LOCAL_MEMORY_MODES,
  localMemoryOption,
  minimumFootprint,
  minimumReplicas,
  needsWindows,
  placedFootprint,
  planLocalMemory,
  replicaCrossbarShortfall,
  localMemoryPackingDetail,
  replicaFootprint,
  streamsResults,
  withWindows,
} from './planning/local-memory';
export type { CoreMemory, FootprintMode, MemoryParts, PlacedFootprint, ReplicaFootprint } from './planning/local-memory';
export { addTraffic, placeOnMesh, trafficCost } from './planning/placement';
export { mirrorHostFedComputes } from './planning/mirrors';
export type { MeshPlacement, TrafficMatrix } from './planning/placement';
export { planReads, remapPlan, trafficOf } from './planning/transfers';
export type { FragmentPiece, FragmentRead, ReplicaInputReads } from './planning/transfers';
export { planSendOrder, type SendSchedule } from './planning/send-order';
export { estimateSchedule } from './planning/estimate';
export { replaySchedule } from './planning/schedule-replay';
export type { ReplayedTask, ScheduleReplay, ScheduleReplayOptions } from './planning/schedule-replay';
export { pickByReplay, REPLAY_RANKING_CANDIDATES, REPLAY_RANKING_LANES, REPLAY_RANKING_SPREAD, type RankedPlan } from './planning/replay-ranking';
export { hostSlotBudget, hostSlotPeak, placeSharedSlots, readersOfNodes, valuesKeptOnChip, type HostSlotPeak, type SharedSlot, type SharedSlotPlacement } from './planning/host-slots';
export type { CoreUsage, ScheduleEstimate } from './planning/estimate';
export { materializeSchedule, type MaterializeOptions } from './transforms/materialize-schedule';
export { sinkViewsToFirstUse } from './transforms/sink-views';
export type { MaterializeResult } from './transforms/materialize-schedule';
export { allocateEventRegisters, assignEventRegisters } from './transforms/event-registers';
export type { EventRegisterAssignment, EventRegisterRequest } from './transforms/event-registers';
export { buildReport, formatReport } from './report';
export type { BoundsReport, CoreReport, LayerReport, ScheduleReport } from './report';
// Passes
export { SpatSchedulePass } from './transforms/spat-schedule';
export { ScheduleReportKey, TargetKey, targetOf } from './target';
export { CommunicationVerified, SpatVerifyCommunicationPass, verifyCommunication } from './transforms/spat-verify-communication';
export type { CommunicationCheck } from './transforms/spat-verify-communication';
export {
  SplitOversizedComputesPass,
  applyComputeSplit,
  crossbarsOfCompute,
  planComputeSplit,
  planOversizedSplits,
  splitLimitsOf,
  splitOversizedComputes,
} from './transforms/split-oversized-computes';
export type { ComputeSplitPart, ComputeSplitPlan, OversizedSplits, SplitLimits, SplitResult } from './transforms/split-oversized-computes';
export { TileParallelComputesPass, parallelDimension, planParallelTiles, tileOversizedParallelComputes, tileParallelCompute } from './transforms/tile-parallel-computes';
export {
  assembleConcat,
  canAssembleConcat,
  chooseChunks,
  concatAxis,
  fuseDataMovementProducers,
  fusibleInputs,
  replaceFusedCompute,
  reshapeSegments,
  reshapeSourceChunk,
  scalarBodyBytes,
  tileComputeInChunks,
  trackChunks,
  wrapInOneLane,
} from './transforms/chunk-tiling';
export type { Chunk, ChunkTracking, ReshapeSegment } from './transforms/chunk-tiling';
export type { ParallelTile } from './transforms/tile-parallel-computes';
export {
  SplitInputChannelsPass,
  applyInputChannelSplit,
  planInputChannelSplit,
  planInputChannelSplits,
  splitInputChannels,
  planChannelBlockSplit,
  planChannelBlockSplits,
  splitChannelBlocks,
  type InputChannelSplitPlan,
} from './transforms/split-input-channels';
export {
  BARRIER_ARRIVE_REGISTER,
  BARRIER_REGISTER_COUNT,
  BARRIER_RELEASE_REGISTER,
  LAYER_BARRIER_ATTR,
  insertLayerBarrier,
  layerStages,
  type LayerStages,
} from './transforms/layer-barriers';
export { LANE_GROUPS_ATTR } from './analysis/workload';
export { SplitLanesPass, laneLiveBytes, laneSplitBudget, laneSplitBudgets, laneSplitDimension, planLaneSplits, splitLanes, splitLanesToFit, splitWideLanes } from './transforms/split-lanes';
export type { LaneSplit, LaneSplitDimension } from './transforms/split-lanes';
export { SchedulerMessages } from './diagnostics';

/**
 * Registers `spat-schedule`, `spat-verify-communication` and `spat-split-oversized-computes`
 * (which `spat-schedule` also runs itself) in `registry` (the compiler and `raptor opt` call this).
 *
 * @example
 * const registry = new PassRegistry();
 * registerSchedulerPasses(registry);
 * // raptor opt m.mlir --pass-pipeline='builtin.module(spat-schedule{strategy=latency},spat-verify-communication)'
 */
export function registerSchedulerPasses(registry: PassRegistry): void {
  registry.registerPass(() => new SpatSchedulePass());
  registry.registerPass(() => new SpatVerifyCommunicationPass());
  registry.registerPass(() => new SplitOversizedComputesPass());
  registry.registerPass(() => new TileParallelComputesPass());
  registry.registerPass(() => new SplitLanesPass());
  registry.registerPass(() => new SplitInputChannelsPass());
}
