/**
 * Lane expressions of a `spat.scheduled_compute_batch` body: an integer that differs per
 * scheduled lane (a peer core, a channel id, a slice offset) becomes one `affine.apply` of the
 * lane argument, so a batch keeps one body for all its lanes and every stage after it
 * (the communication checker, spatial-to-pim, code generation) evaluates the value statically
 * per lane with the affine evaluator it already has.
 *
 * A table `v_0 .. v_{m-1}` becomes `v_0 + a * lane` when it is an arithmetic progression, and
 * otherwise the step function `v_0 + sum_k (v_k - v_{k-1}) * ((lane + m - k) floordiv m)`:
 * for `0 <= lane < m` the term `(lane + m - k) floordiv m` is 1 exactly when `lane >= k`.
 */
import { AffineMap, getAffineDimExpr, getAffineSymbolExpr, type AffineExpr, type Block, type Location, type MLIRContext, type OpBuilder, type Value } from '@raptor-pim/ir-core';
import { createAffineApply } from '@raptor-pim/upstream-dialects';

/** The affine map `(lane) -> values[lane]` for `0 <= lane < values.length`. */
export function laneTableMap(context: MLIRContext, values: readonly number[]): AffineMap {
  return AffineMap.get(context, 1, 0, [laneTableExpr(context, values)]);
}

/** The expression `values[d0]` for `0 <= d0 < values.length` (see the file comment). */
function laneTableExpr(context: MLIRContext, values: readonly number[]): AffineExpr {
  const lane = getAffineDimExpr(context, 0);
  const m = values.length;
  const v0 = values[0]!;
  const step = m > 1 ? values[1]! - v0 : 0;
  let expr: AffineExpr;
  if (values.every((v, k) => v === v0 + step * k)) expr = lane.mul(step).add(v0);
  else {
    expr = lane.mul(0).add(v0);
    for (let k = 1; k < m; k++) {
      const delta = values[k]! - values[k - 1]!;
      if (delta !== 0) expr = expr.add(lane.add(m - k).floorDiv(m).mul(delta));
    }
  }
  return expr;
}

/**
 * Per-lane integers of one batch body: {@link LaneValues.index} gives an `index` value (a
 * shared constant when every lane agrees, else one cached `affine.apply` per distinct table),
 * {@link LaneValues.offset} a slice offset (a number when every lane agrees).
 */
export class LaneValues {
  private readonly tables = new Map<string, Value>();
  private readonly shiftedMaps = new Map<string, AffineMap>();

  /**
   * @param lane the batch body's lane argument
   * @param constant the body's index constant of a number (shared per block)
   */
  constructor(
    private readonly context: MLIRContext,
    private readonly block: Block,
    private readonly lane: Value,
    private readonly constant: (b: OpBuilder, n: number, loc: Location) => Value,
  ) {}

  /** The value `values[lane]` at the builder's point. */
  index(b: OpBuilder, values: readonly number[], loc: Location): Value {
    const v0 = values[0]!;
    if (values.every((v) => v === v0)) return this.constant(b, v0, loc);
    if (values.every((v, k) => v === k)) return this.lane;
    const key = values.join(',');
    let v = this.tables.get(key);
    if (!v) {
      if (b.insertionBlock !== this.block) throw new Error('LaneValues: lane expression requested outside its batch body');
      v = createAffineApply(b, loc, laneTableMap(this.context, values), [this.lane]);
      this.tables.set(key, v);
    }
    return v;
  }

  /**
   * The value `values[lane] + shift` at the builder's point: one `affine.apply` of the lane and
   * the constant `shift` through a map shared by every shift of the same table (the graph lane
   * of round `r` of replicas `js` is `js[lane] * rounds + r`).
   */
  shifted(b: OpBuilder, values: readonly number[], shift: number, loc: Location): Value {
    if (shift === 0) return this.index(b, values, loc);
    const v0 = values[0]!;
    if (values.every((v) => v === v0)) return this.constant(b, v0 + shift, loc);
    const key = values.join(',');
    let map = this.shiftedMaps.get(key);
    if (!map) {
      map = AffineMap.get(this.context, 1, 1, [laneTableExpr(this.context, values).add(getAffineSymbolExpr(this.context, 0))]);
      this.shiftedMaps.set(key, map);
    }
    return createAffineApply(b, loc, map, [this.lane], [this.constant(b, shift, loc)]);
  }

  /** `values[lane]` as a slice offset: a number when uniform. */
  offset(b: OpBuilder, values: readonly number[], loc: Location): number | Value {
    const v0 = values[0]!;
    return values.every((v) => v === v0) ? v0 : this.index(b, values, loc);
  }
}
