/**
 * Broadcasting for the element-wise lowerings. Spat element-wise ops (`spat.vadd`, `spat.vmul`,
 * ...) need operands of exactly the output type, so an ONNX broadcast is made explicit inside the
 * compute region: the operand is reshaped to the output rank (unit dimensions where ONNX aligns
 * it), then copied along each broadcast axis with `spat.concat` (doubling, so `k` copies cost
 * O(log k) ops whatever `k` is).
 */
import type { Value } from '@raptor-pim/ir-core';
import { getAttribute, type OnnxNode } from '../../onnx/model';
import type { BodyBuilder } from '../body-builder';
import { elementCount } from '../ir-helpers';

/** Copies along one axis that one `spat.concat` of `k` identical operands takes directly. */
const DIRECT_CONCAT_LIMIT = 8;

/** `shape` padded with leading unit dimensions to `rank` (numpy's right alignment). */
export function alignRight(shape: readonly number[], rank: number): number[] {
  return [...new Array<number>(Math.max(0, rank - shape.length)).fill(1), ...shape];
}

/**
 * The shape operand B of an opset < 7 `Add`/`Sub`/`Mul` takes inside A's rank: with
 * `broadcast=1`, B's dimensions sit at `axis` (default: the trailing ones) and the others are 1;
 * a one-element B is a scalar. Without `broadcast` the shapes are equal (checked by shape inference).
 */
export function legacyAlign(n: OnnxNode, a: readonly number[], b: readonly number[]): number[] {
  if ((getAttribute(n, 'broadcast', 'int') ?? 0) === 0) return [...b];
  if (elementCount(b) === 1) return new Array<number>(a.length).fill(1);
  const axisAttr = getAttribute(n, 'axis', 'int');
  const axis = axisAttr === undefined ? a.length - b.length : axisAttr < 0 ? axisAttr + a.length : axisAttr;
  return [...new Array<number>(axis).fill(1), ...b, ...new Array<number>(Math.max(0, a.length - axis - b.length)).fill(1)];
}

/** True when `shape` (same rank as `outShape`) broadcasts to `outShape`. */
export function broadcastsTo(shape: readonly number[], outShape: readonly number[]): boolean {
  return shape.length === outShape.length && shape.every((d, i) => d === outShape[i] || d === 1);
}

/**
 * Inside a region body: `v` of shape `from` reshaped to `aligned` (same element count, the
 * output rank) and copied along every axis where `aligned` is 1 and `outShape` is not.
 * Returns the SSA name of a value of type `outShape`.
 */
export function broadcastInBody(b: BodyBuilder, v: Value, from: readonly number[], aligned: readonly number[], outShape: readonly number[]): Value {
  if (elementCount(from) !== elementCount(aligned)) throw new Error(`internal error: broadcast operand ${from.join('x')} does not align to ${aligned.join('x')}`);
  let cur = b.reshape(v, from, aligned);
  const shape = [...aligned];
  for (let d = 0; d < outShape.length; d++) {
    if (shape[d] === outShape[d]) continue;
    if (shape[d] !== 1) throw new Error(`internal error: dimension ${d} of ${aligned.join('x')} does not broadcast to ${outShape.join('x')}`);
    cur = repeatAlong(b, cur, shape, d, outShape[d]!);
    shape[d] = outShape[d]!;
  }
  return cur;
}

/** `k` copies of `v` (shape `shape`, unit at `axis`) concatenated along `axis`. */
function repeatAlong(b: BodyBuilder, v: Value, shape: readonly number[], axis: number, k: number): Value {
  const withAxis = (size: number): number[] => shape.map((s, i) => (i === axis ? size : s));
  if (k <= DIRECT_CONCAT_LIMIT) return b.concat(axis, new Array<Value>(k).fill(v), new Array<readonly number[]>(k).fill(shape), withAxis(k));
  // Powers of two by doubling, then one concat of the powers in k's binary representation.
  const powers: { v: Value; size: number }[] = [{ v, size: 1 }];
  while (powers[powers.length - 1]!.size * 2 <= k) {
    const p = powers[powers.length - 1]!;
    powers.push({ v: b.concat(axis, [p.v, p.v], [withAxis(p.size), withAxis(p.size)], withAxis(p.size * 2)), size: p.size * 2 });
  }
  const parts = powers.filter((p) => (k & p.size) !== 0).reverse();
  return b.concat(axis, parts.map((p) => p.v), parts.map((p) => withAxis(p.size)), withAxis(k));
}
