/**
 * Barriers between the stages of a plan that runs one layer after another: every core with a
 * stream arrives at the coordinator (the lowest core: `sync coordinator, ARRIVE`) and waits to be
 * released (`wait RELEASE, 1`); the coordinator waits for every other core
 * (`wait ARRIVE, cores - 1`) and then releases them one by one. Two event registers per core, for
 * any number of barriers: a core cannot arrive twice before the coordinator's wait consumed its
 * first arrival (it waits for its release in between), so no register exceeds its awaited count.
 *
 * Materialization orders the stages of a host-slot plan this way where the slots' FREE and READY
 * registers would run out (ultraface: about a hundred layers on sixty cores each, one FREE
 * register per slot its writer holds for the whole stream): a slot is never overwritten before
 * its readers loaded it, since its bytes pass only to a slot of a later stage and the next
 * inference starts after the last barrier, so it needs no FREE register, and a READY register
 * passes to a slot of a later stage without a FREE hand-over.
 */
import { ConstantOp, IndexType, IntegerAttr, IntegerType, OpBuilder, UnitAttr, type Location, type Operation, type Value } from '@raptor-pim/ir-core';
import { ScheduledComputeOp, SyncOp, WaitOp, YieldOp } from '@raptor-pim/spatial-dialect';
import { EVENT_REGISTER_COUNT } from '@raptor-pim/pim-target';

/**
 * The unit attribute marking a barrier's part on one core (a resultless `spat.scheduled_compute`):
 * `spat-verify-communication` checks the parts and pairs their signals and waits barrier by
 * barrier (the k-th part of every core belongs to barrier k).
 */
export const LAYER_BARRIER_ATTR = 'spat.layer_barrier';

/** Event registers the barriers take on every core (the last two). */
export const BARRIER_REGISTER_COUNT = 2;
/** The coordinator's register counting arrivals. */
export const BARRIER_ARRIVE_REGISTER = EVENT_REGISTER_COUNT - 1;
/** Every other core's register its release signals. */
export const BARRIER_RELEASE_REGISTER = EVENT_REGISTER_COUNT - 2;

/** The stages of a plan: runs of nodes no stream group crosses. */
export interface LayerStages {
  /** Per node, the first and last node of its stage. */
  readonly first: readonly number[];
  readonly last: readonly number[];
  /** The last node of every stage, in order. */
  readonly ends: readonly number[];
}

/**
 * The stages of nodes `0 .. count-1` whose stream groups span `groups.first[i] .. groups.last[i]`:
 * the union of overlapping spans (a barrier between two nodes of one stream group would stop a
 * producer that streams into its reader).
 *
 * @example
 * layerStages({ first: [0, 1, 1, 3], last: [0, 2, 2, 3] }, 4).ends // [0, 2, 3]
 */
export function layerStages(groups: { readonly first: readonly number[]; readonly last: readonly number[] }, count: number): LayerStages {
  const first = new Array<number>(count);
  const last = new Array<number>(count);
  const ends: number[] = [];
  let start = 0;
  let reach = -1;
  for (let i = 0; i < count; i++) {
    if (i > reach && i > 0) {
      ends.push(reach);
      for (let k = start; k <= reach; k++) last[k] = reach;
      start = i;
    }
    first[i] = start;
    reach = Math.max(reach, groups.last[i]!, i);
  }
  if (count > 0) {
    ends.push(reach);
    for (let k = start; k < count; k++) last[k] = reach;
  }
  return { first, last, ends };
}

/**
 * Inserts one barrier of `cores` (sorted, distinct) right after `after`: a resultless scheduled
 * compute per core holding its part. Does nothing for fewer than two cores.
 */
export function insertLayerBarrier(after: Operation, cores: readonly number[], loc: Location): void {
  if (cores.length < 2) return;
  const ctx = after.context;
  const index = IndexType.get(ctx);
  const i32 = IntegerType.get(ctx, 32);
  const b = new OpBuilder(ctx);
  b.setInsertionPointAfter(after);
  const coordinator = cores[0]!;
  for (const core of cores) {
    const s = ScheduledComputeOp.build(b, { weights: [], inputs: [], outputs: [], coreId: IntegerAttr.get(i32, core) }, loc).op;
    s.setAttr(LAYER_BARRIER_ATTR, UnitAttr.get(ctx));
    const bb = OpBuilder.atBlockEnd(s.regions[0]!.addBlock(), ctx);
    const consts = new Map<number, Value>();
    const c = (n: number): Value => {
      let v = consts.get(n);
      if (!v) consts.set(n, (v = ConstantOp.build(bb, { result: index, value: IntegerAttr.get(index, n) }, loc).result));
      return v;
    };
    if (core === coordinator) {
      WaitOp.build(bb, { eventRegister: c(BARRIER_ARRIVE_REGISTER), waitValue: c(cores.length - 1) }, loc);
      for (const other of cores) if (other !== coordinator) SyncOp.build(bb, { targetCoreId: c(other), eventRegister: c(BARRIER_RELEASE_REGISTER) }, loc);
    } else {
      SyncOp.build(bb, { targetCoreId: c(coordinator), eventRegister: c(BARRIER_ARRIVE_REGISTER) }, loc);
      WaitOp.build(bb, { eventRegister: c(BARRIER_RELEASE_REGISTER), waitValue: c(1) }, loc);
    }
    YieldOp.build(bb, { outputs: [] }, loc);
    b.setInsertionPointAfter(s);
  }
}
