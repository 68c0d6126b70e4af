/**
 * The checks of scheduled bodies that run before `spat-to-pim` changes anything: every op
 * nested in a body must have a lowering on this target, static shapes, static slice sizes and
 * strides, and static selectors, loop bounds and conditions (for every lane of a batch, every
 * iteration of an enclosing loop and every case of a grouped `spat.deferred_communication`).
 * Because of them the conversion can move body ops into their streams in place (no clone): a
 * refused function is reported here and stays exactly as it was.
 *
 * The checks also find the batches that cannot stay one `pim.core_batch`: a loop bound or
 * condition that depends on the lane is static per lane only, so the batch is expanded lane by
 * lane (its lanes become constants). A selector static per lane only keeps the batch.
 */
import { DYNAMIC, RankedTensorType, Traits, type Block, type Operation, type Value, printType } from '@raptor-pim/ir-core';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import {
  DeferredCommunicationOp,
  DeferredSourceSelectOp,
  InParallelOp,
  ScheduledComputeBatchOp,
  SoftmaxOp,
  YieldOp as SpatYieldOp,
} from '@raptor-pim/spatial-dialect';
import { ExtractSliceOp, ForOp, IfOp, InsertSliceOp, ParallelInsertSliceOp, YieldOp as ScfYieldOp, evaluateStaticIndex, readSliceLists } from '@raptor-pim/upstream-dialects';
import { SpatToPimMessages as M } from '../diagnostics';
import { staticTensor } from './lowering-context';
import { evaluateStaticCondition, staticTrips } from './patterns/structured';

/** The most binding environments (lanes x loop iterations x cases) checked per op. */
const MAX_ENVIRONMENTS = 4096;

/** Dialects whose ops stay in a stream as they are (index arithmetic, pim ops, memrefs). */
const KEPT_DIALECTS: ReadonlySet<string> = new Set(['arith', 'affine', 'memref', 'pim']);

/** What the body checks found. */
export interface BodyCheck {
  /** False after a diagnostic. */
  readonly ok: boolean;
  /** True when a loop bound or condition depends on the lane of a batch. */
  readonly laneDependent: boolean;
}

type Env = ReadonlyMap<Value, number>;

/** The body checker of one function (see the file comment). */
export class BodyValidator {
  constructor(
    /** Op names some conversion pattern converts. */
    private readonly converted: ReadonlySet<string>,
    private readonly config: HardwareConfig,
  ) {}

  /** Checks the body of the scheduled compute or batch `compute`. */
  check(compute: Operation): BodyCheck {
    const entry = compute.regions[0]!.firstBlock!;
    const state = { ok: true, laneDependent: false };
    let envs: Env[] = [new Map()];
    let lane: Value | undefined;
    if (compute.definition === ScheduledComputeBatchOp) {
      lane = entry.arguments[0]!;
      const n = Number(ScheduledComputeBatchOp.get(compute).laneCount.value);
      envs = Array.from({ length: Math.max(1, n) }, (_, k) => new Map([[lane!, k]]));
    }
    this.checkBlock(entry, envs, lane, state, true);
    return state;
  }

  private fail(state: { ok: boolean }, op: Operation, message: string): void {
    op.emitError(message);
    state.ok = false;
  }

  /**
   * A static value under every environment; `laneDependent` is set when it is static only with
   * the lane bound. Reports `what` at `op` when it is not static.
   */
  private staticUnder<T>(
    evaluate: (env: Env) => T | undefined,
    envs: readonly Env[],
    lane: Value | undefined,
    state: { ok: boolean; laneDependent: boolean },
    op: Operation,
    what: string,
    laneSensitive = true,
  ): boolean {
    for (const env of envs.slice(0, MAX_ENVIRONMENTS)) {
      if (evaluate(env) === undefined) {
        this.fail(state, op, M.notStatic(op.name, what));
        return false;
      }
      if (laneSensitive && lane && env.has(lane)) {
        const without = new Map(env);
        without.delete(lane);
        if (evaluate(without) === undefined) state.laneDependent = true;
      }
    }
    return true;
  }

  private checkBlock(block: Block, envs: readonly Env[], lane: Value | undefined, state: { ok: boolean; laneDependent: boolean }, top: boolean): void {
    for (let op = block.firstOp; op; op = op.next) {
      if (op.hasTrait(Traits.IsTerminator)) {
        const d = op.definition;
        if (d === SpatYieldOp || d === ScfYieldOp) continue;
        if (d === InParallelOp && top) {
          for (let ins = op.regions[0]!.firstBlock?.firstOp ?? null; ins; ins = ins.next) {
            if (ins.definition === ParallelInsertSliceOp) this.checkSlice(ins, state);
          }
          continue;
        }
        this.fail(state, op, M.unsupportedOp(op.name));
        continue;
      }
      this.checkOp(op, envs, lane, state);
    }
  }

  private checkOp(op: Operation, envs: readonly Env[], lane: Value | undefined, state: { ok: boolean; laneDependent: boolean }): void {
    const d = op.definition;
    for (const r of op.results) {
      if (r.type instanceof RankedTensorType && !staticTensor(r.type)) {
        this.fail(state, op, M.dynamicShape(op.name, printType(r.type)));
        return;
      }
    }
    if (op.hasTrait(Traits.ConstantLike)) return;
    if (d === ForOp) {
      if (!this.staticUnder((env) => staticTrips(op, env), envs, lane, state, op, 'a loop bound')) return;
      const body = op.regions[0]!.firstBlock!;
      const iv = body.arguments[0]!;
      const inner: Env[] = [];
      for (const env of envs) {
        for (const t of staticTrips(op, env)!) {
          if (inner.length >= MAX_ENVIRONMENTS) break;
          inner.push(new Map([...env, [iv, t]]));
        }
      }
      this.checkBlock(body, inner, lane, state, false);
      return;
    }
    if (d === IfOp) {
      if (!this.staticUnder((env) => evaluateStaticCondition(IfOp.get(op).condition, env), envs, lane, state, op, 'the condition')) return;
      for (const r of op.regions) if (r.firstBlock) this.checkBlock(r.firstBlock, envs, lane, state, false);
      return;
    }
    if (d === DeferredCommunicationOp) {
      const view = DeferredCommunicationOp.get(op);
      const count = view.specialization_count ? Number(view.specialization_count.value) : 1;
      const body = view.body.firstBlock!;
      let inner: Env[] = [...envs];
      if (count > 1) {
        const caseArg = body.arguments[body.numArguments - 1]!;
        inner = [];
        for (const env of envs) for (let c = 0; c < count && inner.length < MAX_ENVIRONMENTS; c++) inner.push(new Map([...env, [caseArg, c]]));
      }
      this.checkBlock(body, inner, lane, state, false);
      return;
    }
    if (op.numRegions > 0) {
      this.fail(state, op, M.nestedRegion(op.name));
      return;
    }
    if (d === DeferredSourceSelectOp) {
      const view = DeferredSourceSelectOp.get(op);
      const n = view.sources.length;
      const pick = (env: Env): number | undefined => {
        const k = evaluateStaticIndex(view.selector, env);
        return k !== undefined && k >= 0 && k < n ? k : undefined;
      };
      // A selector static per lane stays in a kept batch (lowered to a lane-offset copy).
      this.staticUnder(pick, envs, lane, state, op, 'the selector', false);
      return;
    }
    if (d === SoftmaxOp && !this.config.raptor_config.allow_vsoftmax) {
      this.fail(state, op, M.noPimEquivalent(op.name, 'raptor_config.allow_vsoftmax'));
      return;
    }
    if (d === ExtractSliceOp || d === InsertSliceOp) {
      this.checkSlice(op, state);
      return;
    }
    const dialect = op.name.substring(0, op.name.indexOf('.'));
    if (this.converted.has(op.name) || KEPT_DIALECTS.has(dialect) || op.name === 'tensor.empty') return;
    this.fail(state, op, M.unsupportedOp(op.name));
  }

  private checkSlice(op: Operation, state: { ok: boolean }): void {
    const lists = readSliceLists(op);
    if (lists.strides.some((s) => s === DYNAMIC || s < 1)) this.fail(state, op, M.nonUnitStride(op.name));
    else if (lists.sizes.some((s) => s === DYNAMIC)) this.fail(state, op, M.dynamicShape(op.name, 'dynamic sizes'));
  }
}
