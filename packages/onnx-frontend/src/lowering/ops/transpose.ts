/**
 * `Transpose` (strided slices of the largest order-preserving block, see
 * `BodyBuilder.transpose`) and `DepthToSpace` (reshape + transpose + reshape, DCR and CRD).
 */
import type { Location } from '@raptor-pim/ir-core';
import { getAttribute } from '../../onnx/model';
import type { OnnxNode } from '../../onnx/model';
import type { LoweringContext, NodeLowering } from '../lowering-context';
import { defineIfEmpty } from './index-map';

function lowerTranspose(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const rank = x.shape.length;
  const perm = getAttribute(n, 'perm', 'ints') ?? x.shape.map((_, i) => rank - 1 - i);
  const out = n.outputs[0]!;
  const outShape = perm.map((p) => x.shape[p]!);
  if (defineIfEmpty(cx, out, outShape, loc)) return;
  if (perm.every((p, i) => p === i)) return void cx.define(out, x);
  cx.compute(out, [x], outShape, loc, (b, [a]) => b.transpose(a!, x.shape, perm));
}

/**
 * DepthToSpace on [N, C, H, W] with block size s: DCR reads channels as [s, s, C/(s*s)]
 * (reshape [N, s, s, C', H, W], perm [0, 3, 4, 1, 5, 2]); CRD as [C', s, s]
 * (reshape [N, C', s, s, H, W], perm [0, 1, 4, 2, 5, 3]); then reshape to [N, C', H*s, W*s].
 * The transpose moves [N, C', H, W] blocks: s*s slices.
 */
function lowerDepthToSpace(cx: LoweringContext, n: OnnxNode, loc: Location): void {
  const x = cx.input(n, 0, loc);
  if (!x) return;
  const s = getAttribute(n, 'blocksize', 'int') ?? 1;
  const mode = getAttribute(n, 'mode', 'string') ?? 'DCR';
  const [bn, c, h, w] = x.shape as [number, number, number, number];
  const c2 = c / (s * s);
  const mid = mode === 'CRD' ? [bn, c2, s, s, h, w] : [bn, s, s, c2, h, w];
  const perm = mode === 'CRD' ? [0, 1, 4, 2, 5, 3] : [0, 3, 4, 1, 5, 2];
  const moved = perm.map((p) => mid[p]!);
  const out = n.outputs[0]!;
  const outShape = [bn, c2, h * s, w * s];
  if (defineIfEmpty(cx, out, outShape, loc)) return;
  cx.compute(out, [x], outShape, loc, (b, [a]) => b.reshape(b.transpose(b.reshape(a!, x.shape, mid), mid, perm), moved, outShape));
}

/** Lowerings of this file, by ONNX operator. */
export const TRANSPOSE_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  Transpose: lowerTranspose,
  DepthToSpace: lowerDepthToSpace,
};
