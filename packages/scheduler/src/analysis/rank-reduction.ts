/**
 * Dimension bookkeeping of the scheduler's body rewrites (`spat-split-lanes`,
 * `spat-tile-parallel-computes` and its chunk tiling): where a dimension lands under a
 * rank-reducing slice, and shapes with one dimension resized.
 */
import { rankReductionMask } from '@raptor-pim/upstream-dialects';

/** The position in `reduced` of dimension `dim` of `full` under a rank reduction, or -1. */
export function reducedPosition(full: readonly number[], reduced: readonly number[], dim: number): number {
  const dropped = rankReductionMask(full, reduced);
  if (!dropped || dropped.has(dim)) return -1;
  let r = 0;
  for (let i = 0; i < dim; i++) if (!dropped.has(i)) r++;
  return r;
}

/** The dimension of `full` at position `pos` of `reduced` under a rank reduction, or -1. */
export function fullPosition(full: readonly number[], reduced: readonly number[], pos: number): number {
  const dropped = rankReductionMask(full, reduced);
  if (!dropped) return -1;
  let r = 0;
  for (let i = 0; i < full.length; i++) {
    if (dropped.has(i)) continue;
    if (r === pos) return i;
    r++;
  }
  return -1;
}

/** `shape` with dimension `dim` set to `size`. */
export function resized(shape: readonly number[], dim: number, size: number): number[] {
  return shape.map((x, i) => (i === dim ? size : x));
}
