/**
 * Array-group allocation: every resident weight of a core onto crossbars of that core, one
 * array group per distinct weight, so that one `mvmul` drives one group.
 *
 * Crossbars are logical (hardware-defaults.md: 128 × 128, weight bit slicing hidden, the
 * capacity the layout planner counts): a weight of `rows ≤ xbar_size[0]` rows and `cols`
 * columns takes `ceil(cols / xbar_size[1])` crossbars side by side. Groups are numbered in
 * first-use order of the core's stream; their crossbar counts are what `config.json`'s
 * `array_group_map` records (pimsim-nn charges MVM energy by them). A plan recorded in the IR
 * by `pim-allocate-array-groups` (`pim.array_group` on each `pim.vmm`,
 * `pim.array_group_crossbars` on the core op) is used as given, after checking it.
 */
import { DenseArrayAttr, IntegerAttr, IntegerType, type Operation, type Value } from '@raptor-pim/ir-core';
import type { MatrixConfig, Target } from '@raptor-pim/pim-target';
import { CodegenMessages as M } from '../diagnostics';
import type { Reporter } from './reporter';
import type { ResidentWeight, StaticProgram } from './static-program';

/** The attribute on a `pim.vmm` naming its array group. */
export const ARRAY_GROUP_ATTR = 'pim.array_group';
/** The attribute on a core op listing the crossbar count of each of its array groups. */
export const ARRAY_GROUP_CROSSBARS_ATTR = 'pim.array_group_crossbars';

/** One array group of a core. */
export interface ArrayGroup {
  /** Index in the core's `array_group_map` entry (the `mvmul` group operand). */
  readonly index: number;
  /** The weight it holds (none for a recorded group no mvmul uses). */
  readonly weight: ResidentWeight | undefined;
  /** Crossbars it spans. */
  readonly crossbars: number;
}

/** The array groups of every core. */
export interface ArrayGroupPlan {
  /** Groups per core id, in index order. */
  readonly groups: ReadonlyMap<number, readonly ArrayGroup[]>;
  /** Group index of the `mvmul` at `op` on `core`. */
  groupOf(core: number, op: Operation): number;
}

/** Logical crossbars a weight of `cols` columns needs. */
export function crossbarsFor(cols: number, matrix: MatrixConfig): number {
  return Math.max(1, Math.ceil(cols / matrix.xbar_size[1]));
}

/**
 * The `mbiw` operand of every emitted `mvmul`: the cell precision, so that pimsim-nn's output
 * length per crossbar, `floor(xbar_size[1] · cell_precision / mbiw)`, is the logical
 * crossbar's column count (weight bit slicing is hidden in the logical crossbar; mvmul
 * latency does not depend on mbiw).
 */
export function mvmulWeightBits(matrix: MatrixConfig): number {
  return matrix.cell_precision;
}

function recordedCrossbars(op: Operation): number[] | undefined {
  const a = op.getDiscardableAttr(ARRAY_GROUP_CROSSBARS_ATTR);
  return a instanceof DenseArrayAttr ? (a.values as readonly (number | bigint)[]).map(Number) : undefined;
}

function recordedGroup(op: Operation): number | undefined {
  const a = op.getDiscardableAttr(ARRAY_GROUP_ATTR);
  return a instanceof IntegerAttr ? Number(a.value) : undefined;
}

/** Options of {@link allocateArrayGroups}. */
export interface AllocateArrayGroupsOptions {
  /** Ignore a plan recorded in the IR and allocate afresh. Default false. */
  readonly fresh?: boolean;
}

/** Allocates (or reads and checks the recorded) array groups of every core of `program`. */
export function allocateArrayGroups(program: StaticProgram, target: Target, report: Reporter, options: AllocateArrayGroupsOptions = {}): ArrayGroupPlan {
  const matrix = target.config.chip_config.core_config.matrix_config;
  const groups = new Map<number, ArrayGroup[]>();
  const byOp = new Map<number, Map<Operation, number>>();
  for (const stream of program.streams) {
    const list: ArrayGroup[] = [];
    const opGroups = new Map<Operation, number>();
    const mvmuls = stream.ops.filter((o) => o.kind === 'mvmul');
    const recorded = recordedCrossbars(stream.coreOp);
    const useRecorded = !options.fresh && recorded !== undefined && mvmuls.every((o) => recordedGroup(o.op) !== undefined);
    if (useRecorded) {
      const holder = new Array<ResidentWeight | undefined>(recorded.length);
      for (const m of mvmuls) {
        const g = recordedGroup(m.op)!;
        const prev = g >= 0 && g < recorded.length ? holder[g] : undefined;
        if (g < 0 || g >= recorded.length || (prev && prev.key !== m.weight.key)) {
          report.error(m.op, M.badRecordedGroup(g, recorded.length));
          continue;
        }
        const needed = crossbarsFor(m.weight.cols, matrix);
        if (recorded[g]! < needed) report.error(m.op, M.recordedGroupTooSmall(g, recorded[g]!, needed));
        holder[g] = m.weight;
        opGroups.set(m.op, g);
      }
      recorded.forEach((crossbars, index) => list.push({ index, weight: holder[index], crossbars }));
    } else {
      const byKey = new Map<Value, number>();
      for (const m of mvmuls) {
        let g = byKey.get(m.weight.key);
        if (g === undefined) {
          g = list.length;
          byKey.set(m.weight.key, g);
          list.push({ index: g, weight: m.weight, crossbars: crossbarsFor(m.weight.cols, matrix) });
        }
        opGroups.set(m.op, g);
      }
    }
    const total = list.reduce((a, g) => a + g.crossbars, 0);
    if (total > matrix.xbar_array_count) report.error(stream.coreOp, M.crossbarsExceeded(stream.coreId, total, matrix.xbar_array_count));
    groups.set(stream.coreId, list);
    byOp.set(stream.coreId, opGroups);
  }
  return {
    groups,
    groupOf(core, op) {
      const g = byOp.get(core)?.get(op);
      if (g === undefined) throw new Error(`internal error: no array group for '${op.name}' on core ${core}`);
      return g;
    },
  };
}

/**
 * Records `plan` in the IR: `pim.array_group` on every `pim.vmm`, `pim.array_group_crossbars`
 * on every core op (a batch's lanes share one body, so they get the same groups).
 */
export function recordArrayGroups(program: StaticProgram, plan: ArrayGroupPlan): void {
  for (const stream of program.streams) {
    const list = plan.groups.get(stream.coreId) ?? [];
    const ctx = stream.coreOp.context;
    stream.coreOp.setAttr(ARRAY_GROUP_CROSSBARS_ATTR, DenseArrayAttr.i32(ctx, list.map((g) => g.crossbars)));
    for (const o of stream.ops) {
      if (o.kind !== 'mvmul') continue;
      o.op.setAttr(ARRAY_GROUP_ATTR, IntegerAttr.get(IntegerType.get(ctx, 32), plan.groupOf(stream.coreId, o.op)));
    }
  }
}
