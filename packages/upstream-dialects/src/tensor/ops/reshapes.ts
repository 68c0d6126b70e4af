/** Reshapes: `tensor.collapse_shape`, `tensor.expand_shape` (reassociation groups of dimensions). */
import {
  ArrayAttr,
  attrConstraint,
  DenseI64ArrayAttr,
  defineOp,
  DYNAMIC,
  formatType,
  Index,
  IntegerAttr,
  prop,
  RankedTensorType,
  single,
  Traits,
  variadic,
  type Operation,
} from '@raptor-pim/ir-core';
import { readReassociation, readStaticArray } from '../../memref/asm';
import { RankedTensor } from '../constraints';
import { TensorMessages as M } from '../diagnostics';
import { parseReshape, printReshape } from '../../reshape-syntax';
import { parseRankedTensor } from './creation';

/** `IndexListArrayAttr`: an array of arrays of i64 integers. */
export const ReassociationAttr = attrConstraint(
  'Array of 64-bit integer array attributes',
  (a): a is ArrayAttr =>
    a instanceof ArrayAttr && a.elements.every((g) => g instanceof ArrayAttr && g.elements.every((e) => e instanceof IntegerAttr)),
);

/**
 * MLIR's `verifyReshapeLikeTypes` + `reshapeLikeShapesAreCompatible` + the collapsed-type check
 * of `verifyTensorReshapeOp`. Emits at `op` and returns false on the first violation.
 */
export function verifyTensorReshape(op: Operation, expanded: RankedTensorType, collapsed: RankedTensorType): boolean {
  const groups = readReassociation(op.getAttr('reassociation')) ?? [];
  if (expanded.rank < collapsed.rank) {
    op.emitOpError(M.reshapeRankOrder(formatType(expanded), formatType(collapsed)));
    return false;
  }
  if (collapsed.rank !== groups.length) {
    op.emitOpError(M.reshapeGroupCount(collapsed.rank, groups.length));
    return false;
  }
  // Each group becomes an affine map over (max index + 1) dimensions.
  let numDims = 0;
  for (const g of groups) for (const d of g) numDims = Math.max(numDims, d + 1);
  if (groups.length && numDims !== expanded.rank) {
    op.emitOpError(M.reshapeMapSize(0, expanded.rank, numDims));
    return false;
  }
  let next = 0;
  for (let i = 0; i < groups.length; i++)
    for (const d of groups[i]!)
      if (d !== next++) {
        op.emitOpError(M.reshapeInvalidMap(i));
        return false;
      }
  if (next !== numDims) {
    op.emitOpError(M.reshapeInvalidMap(groups.length - 1));
    return false;
  }
  let start = 0;
  const expected: number[] = [];
  for (let i = 0; i < groups.length; i++) {
    let dynamic = false;
    let product = 1;
    for (const d of expanded.shape.slice(start, start + groups[i]!.length)) {
      if (d === DYNAMIC) dynamic = true;
      else product *= d;
    }
    const c = collapsed.shape[i]!;
    if (dynamic && c !== DYNAMIC) {
      op.emitOpError(M.reshapeDynamicDim(i));
      return false;
    }
    if (!dynamic && c !== product) {
      op.emitOpError(M.reshapeStaticDim(i, product));
      return false;
    }
    expected.push(dynamic ? DYNAMIC : product);
    start += groups[i]!.length;
  }
  const want = RankedTensorType.get(op.context, expected, expanded.elementType);
  const got = RankedTensorType.get(op.context, collapsed.shape, collapsed.elementType);
  if (want !== got) {
    op.emitOpError(M.reshapeCollapsedType(formatType(want), formatType(collapsed)));
    return false;
  }
  return true;
}

/** `tensor.collapse_shape`: merges groups of adjacent dimensions. */
export const CollapseShapeOp = defineOp({
  name: 'tensor.collapse_shape',
  summary: 'operation to produce a tensor with a smaller rank',
  operands: { src: single(RankedTensor) },
  results: { result: single(RankedTensor) },
  attributes: { reassociation: prop(ReassociationAttr) },
  traits: [Traits.Pure],
  verify(view) {
    return verifyTensorReshape(view.op, view.src.type as RankedTensorType, view.result.type as RankedTensorType);
  },
  parse(parser, state) {
    return parseReshape(parser, state, { expand: false, parseType: parseRankedTensor });
  },
  print(op, p) {
    printReshape(op, p);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'collapsed');
  },
});

/** `tensor.expand_shape`: splits dimensions into groups; `output_shape` gives the result sizes. */
export const ExpandShapeOp = defineOp({
  name: 'tensor.expand_shape',
  summary: 'operation to produce a tensor with a higher rank',
  operands: { src: single(RankedTensor), output_shape: variadic(Index) },
  results: { result: single(RankedTensor) },
  attributes: { reassociation: prop(ReassociationAttr), static_output_shape: prop(DenseI64ArrayAttr) },
  traits: [Traits.Pure],
  verify(view) {
    const op = view.op;
    const result = view.result.type as RankedTensorType;
    if (!verifyTensorReshape(op, result, view.src.type as RankedTensorType)) return false;
    const statics = readStaticArray(view.static_output_shape);
    if (statics.length !== result.rank) {
      op.emitOpError(M.expandOutputRank(result.rank, statics.length));
      return false;
    }
    const dyn = statics.filter((d) => d === DYNAMIC).length;
    if (view.output_shape.length !== dyn) {
      op.emitOpError(M.expandDynamicCount(dyn, view.output_shape.length));
      return false;
    }
    for (let i = 0; i < result.rank; i++) {
      const d = result.shape[i]!;
      if (d !== DYNAMIC && d !== statics[i]) {
        op.emitOpError(M.expandOutputShape(i));
        return false;
      }
    }
    return true;
  },
  parse(parser, state) {
    return parseReshape(parser, state, { expand: true, parseType: parseRankedTensor, missingOutputShape: (s) => `custom op '${s.name}' ` + M.expectedOutputShape });
  },
  print(op, p) {
    printReshape(op, p);
  },
  getAsmResultNames(op, setName) {
    setName(op.getResult(0), 'expanded');
  },
});
