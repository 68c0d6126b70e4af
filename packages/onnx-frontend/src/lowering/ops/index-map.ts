/**
 * Static gathers along one axis, shared by the data-movement lowerings (`Gather` with constant
 * indices, nearest `Resize`, negative-step `Slice`): an index map `out[o] = in[map[o]]` known at
 * compile time is covered by a few strided pieces `out[o0 + j*os] = in[s0 + j*ss]`, each one
 * `tensor.extract_slice` (then a `spat.concat` of contiguous pieces, or strided
 * `tensor.insert_slice`s into a `tensor.empty`). The cost is the number of pieces, never the
 * number of elements of the other axes.
 */
import type { Location, Value } from '@raptor-pim/ir-core';
import type { BodyBuilder } from '../body-builder';
import type { LoweringContext, Val } from '../lowering-context';
import { elementCount } from '../ir-helpers';

/** `out[o0 + j*os] = in[s0 + j*ss]` for `j < len` (os, ss >= 1). */
export interface MapPiece {
  readonly o0: number;
  readonly os: number;
  readonly s0: number;
  readonly ss: number;
  readonly len: number;
}

/** Greedy runs with a constant source step >= 1 over the output positions `positions` (in order). */
function runsOver(map: readonly number[], positions: readonly number[], os: number, out: MapPiece[]): void {
  let i = 0;
  while (i < positions.length) {
    const o0 = positions[i]!;
    const s0 = map[o0]!;
    let len = 1;
    let ss = 1;
    if (i + 1 < positions.length) {
      const d = map[positions[i + 1]!]! - s0;
      if (d >= 1) {
        ss = d;
        len = 2;
        while (i + len < positions.length && map[positions[i + len]!]! - map[positions[i + len - 1]!]! === d) len++;
      }
    }
    out.push({ o0, os: len === 1 ? 1 : os, s0, ss, len });
    i += len;
  }
}

/**
 * The fewest pieces found covering `map` (length `out`) over a source axis of `inSize`:
 * contiguous output runs (downsampling, identity, plain gathers) or, for repeating maps
 * (upsampling), one family of pieces per output phase modulo a stride near `out / inSize`.
 */
export function mapPieces(map: readonly number[], inSize: number): MapPiece[] {
  const n = map.length;
  const all = Array.from({ length: n }, (_, o) => o);
  let best: MapPiece[] = [];
  runsOver(map, all, 1, best);
  const ratio = inSize > 0 ? n / inSize : 1;
  const strides = new Set([Math.floor(ratio), Math.ceil(ratio), Math.round(ratio)].filter((k) => k >= 2 && k <= n));
  for (const k of [...strides].sort((a, b) => a - b)) {
    const pieces: MapPiece[] = [];
    for (let p = 0; p < k && pieces.length < best.length; p++) {
      const positions: number[] = [];
      for (let o = p; o < n; o += k) positions.push(o);
      runsOver(map, positions, k, pieces);
    }
    if (pieces.length < best.length) best = pieces;
  }
  return best;
}

/** True when two shapes are equal (same rank and dimensions). */
export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

/** True when `map` is the identity of an axis of `inSize`. */
export function isIdentityMap(map: readonly number[], inSize: number): boolean {
  return map.length === inSize && map.every((s, o) => s === o);
}

/**
 * Writes `out = in` gathered along `axis` by `map` (`out[.., o, ..] = in[.., map[o], ..]`) into
 * the region body `b`; `v` has shape `shape`. Returns the result's SSA name and shape.
 */
export function gatherAxis(b: BodyBuilder, v: Value, shape: readonly number[], axis: number, map: readonly number[]): { value: Value; shape: number[] } {
  const outShape = shape.map((d, i) => (i === axis ? map.length : d));
  if (isIdentityMap(map, shape[axis]!)) return { value: v, shape: outShape };
  const pieces = mapPieces(map, shape[axis]!);
  const at = (k: number) => shape.map((_, i) => (i === axis ? k : 0));
  const sized = (k: number) => shape.map((d, i) => (i === axis ? k : d));
  const strided = (k: number) => shape.map((_, i) => (i === axis ? k : 1));
  const extract = (p: MapPiece) => b.extractSlice(v, shape, at(p.s0), sized(p.len), strided(p.ss));
  let next = 0;
  const isInOrder = pieces.every((p) => {
    const ok = p.o0 === next && (p.os === 1 || p.len === 1);
    next += p.len;
    return ok;
  });
  if (isInOrder) {
    // Pieces are contiguous and in output order: one concat.
    const parts = pieces.map(extract);
    return { value: b.concat(axis, parts, pieces.map((p) => sized(p.len)), outShape), shape: outShape };
  }
  let acc = b.empty(outShape);
  for (const p of pieces) acc = b.insertSlice(extract(p), acc, outShape, at(p.o0), sized(p.len), strided(p.os));
  return { value: acc, shape: outShape };
}

/**
 * Defines `out` as a zero-element value of `shape` (a splat constant: there is nothing to
 * compute) and returns true, when `shape` has no elements.
 */
export function defineIfEmpty(cx: LoweringContext, out: string, shape: readonly number[], loc: Location): boolean {
  if (elementCount(shape) !== 0) return false;
  const v: Val = cx.splat(0, shape, loc);
  cx.define(out, v);
  return true;
}
