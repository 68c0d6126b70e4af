/**
 * Affine scopes, valid affine symbols and valid affine dimensions, with MLIR 22's rules
 * (`getAffineScope`, `isTopLevelValue`, `isValidSymbol`, `isValidDim` of the affine dialect).
 *
 * An affine scope is a region of an op with ir-core's `Traits.AffineScope` trait (`func.func`
 * and `builtin.module` carry it); ops with regions that lack the trait (`scf.forall`,
 * `scf.for`, `scf.if`, ...) belong to the scope of their closest ancestor with it.
 *
 * A value of `index` type is a valid symbol in scope region `R` when it is:
 * - defined at the top level of `R` (an op result in `R`'s blocks, or an argument of `R`'s
 *   blocks, e.g. a function argument);
 * - the result of a constant op (`ConstantLike`, e.g. `arith.constant`);
 * - the result of a `Pure` op whose operands are all valid symbols (this includes
 *   `affine.apply` and `arith` integer arithmetic);
 * - the result of a dim op (`memref.dim`, `tensor.dim`) whose source is a top-level value of its
 *   affine scope, or (constant dimension index) a `memref.alloc`/`memref.view`/`memref.subview`
 *   result, possibly through `memref.cast`, whose size in that dimension is static or a valid
 *   symbol;
 * - otherwise, when `R`'s owner is not isolated from above, a valid symbol of the region
 *   enclosing `R`'s owner.
 *
 * A valid dimension is a valid symbol, an affine induction variable, an `affine.apply` whose
 * operands are all valid dimensions, or a dim op on a top-level value. Only `affine.for` and
 * `affine.parallel` define affine induction variables, and this package has neither: the
 * induction variables of `scf.for` and the lane variables of `scf.forall` are neither valid
 * symbols nor valid dimensions (mlir-opt 22 agrees: its canonicalizer never promotes them to
 * symbol positions, and `affine.apply` accepts them in dimension and in symbol positions).
 */
import {
  getConstantValue,
  IndexType,
  IntegerAttr,
  isDynamic,
  MemRefType,
  Traits,
  type Operation,
  type Region,
  type Value,
} from '@raptor-pim/ir-core';
import { AllocOp } from '../memref/ops/allocation';
import { DimOp as MemRefDimOp } from '../memref/ops/queries';
import { CastOp as MemRefCastOp, SubViewOp, ViewOp } from '../memref/ops/views';
import { DimOp as TensorDimOp } from '../tensor/ops/access';
import { ApplyOp } from './ops';

/**
 * The region of the closest ancestor of `op` with the `AffineScope` trait that contains `op`
 * (MLIR's `getAffineScope`), or `null` when no ancestor is an affine scope.
 */
export function getAffineScope(op: Operation): Region | null {
  let cur = op;
  for (let parent = cur.getParentOp(); parent; parent = parent.getParentOp()) {
    if (parent.hasTrait(Traits.AffineScope)) return cur.parentRegion;
    cur = parent;
  }
  return null;
}

/**
 * True when `value` is defined at the top level of `region` (an argument of one of its blocks,
 * or the result of an op directly in one of its blocks). Without `region`: when the op owning
 * the definition's block is an affine scope (MLIR's two `isTopLevelValue` overloads).
 */
export function isTopLevelValue(value: Value, region?: Region | null): boolean {
  if (region !== undefined) return region !== null && value.parentRegion === region;
  const block = value.parentBlock;
  const owner = block ? block.parentOp : null;
  return owner !== null && owner.hasTrait(Traits.AffineScope);
}

/**
 * True when `value` is an affine induction variable (of `affine.for` / `affine.parallel`).
 * Neither op exists in this package, so this is always false; kept as the single place to
 * extend when they are added.
 */
export function isAffineInductionVar(_value: Value): boolean {
  return false;
}

function isIndex(value: Value): boolean {
  return value.type instanceof IndexType;
}

function constantIndex(value: Value): number | undefined {
  const a = getConstantValue(value);
  return a instanceof IntegerAttr ? Number(a.value) : undefined;
}

/** The shaped source of a dim op (`memref.dim`, `tensor.dim`: operand 0), or null. */
function dimOpSource(op: Operation): Value | null {
  return (MemRefDimOp.isInstance(op) || TensorDimOp.isInstance(op)) && op.numOperands === 2 ? op.getOperand(0) : null;
}

/** The dynamic-size operands of an alloc/view/subview-like op, in result-dimension order. */
function dynamicSizes(op: Operation): readonly Value[] | null {
  const group = AllocOp.isInstance(op) ? 0 : ViewOp.isInstance(op) ? 2 : SubViewOp.isInstance(op) ? 2 : -1;
  if (group < 0) return null;
  const range = op.definition?.getOperandGroupRange(op, group);
  return range ? op.operands.slice(range[0], range[0] + range[1]) : null;
}

/** MLIR's `isMemRefSizeValidSymbol`: size `index` of `op`'s result is static or a valid symbol. */
function isMemRefSizeValidSymbol(op: Operation, index: number, region: Region | null): boolean {
  const type = op.getResult(0).type;
  if (!(type instanceof MemRefType) || index < 0 || index >= type.rank) return false;
  if (!isDynamic(type.shape[index]!)) return true;
  const sizes = dynamicSizes(op);
  if (!sizes) return false;
  let pos = 0;
  for (let i = 0; i < index; i++) if (isDynamic(type.shape[i]!)) pos++;
  const size = sizes[pos];
  return size !== undefined && isValidSymbol(size, region);
}

/** MLIR's `isDimOpValidSymbol`. */
function isDimOpValidSymbol(dim: Operation, source: Value, region: Region | null): boolean {
  if (isTopLevelValue(source)) return true;
  if (source.definingOp === null) return false;
  const index = constantIndex(dim.getOperand(1));
  if (index === undefined) return false;
  let def: Operation | null = source.definingOp;
  while (def && MemRefCastOp.isInstance(def)) {
    if (!(def.getOperand(0).type instanceof MemRefType)) return false;
    def = def.getOperand(0).definingOp;
  }
  if (!def) return false;
  if (AllocOp.isInstance(def) || ViewOp.isInstance(def) || SubViewOp.isInstance(def)) {
    return isMemRefSizeValidSymbol(def, index, region);
  }
  return false;
}

/** Recurses into the region enclosing `region`'s owner when that owner is not isolated from above. */
function isValidSymbolAbove(value: Value, region: Region | null): boolean {
  const owner = region ? region.parentOp : null;
  if (!owner || owner.hasTrait(Traits.IsolatedFromAbove)) return false;
  const above = owner.parentRegion;
  return above !== null && isValidSymbol(value, above);
}

/**
 * True when `value` can be used as an affine symbol in `region` (see the module comment).
 * Without `region`, the scope is that of the value's definition (MLIR's one-argument
 * `isValidSymbol`).
 */
export function isValidSymbol(value: Value, region?: Region | null): boolean {
  if (!isIndex(value)) return false;
  if (region === undefined) {
    const def = value.definingOp;
    if (isTopLevelValue(value)) return true;
    return def ? isValidSymbol(value, getAffineScope(def)) : false;
  }
  if (region && isTopLevelValue(value, region)) return true;
  const def = value.definingOp;
  if (!def) return isValidSymbolAbove(value, region);
  if (def.hasTrait(Traits.ConstantLike) && getConstantValue(value) !== undefined) return true;
  if (def.hasTrait(Traits.Pure) && def.operands.every((o) => isValidSymbol(o, region))) return true;
  const source = dimOpSource(def);
  if (source) return isDimOpValidSymbol(def, source, region);
  return isValidSymbolAbove(value, region);
}

/**
 * True when `value` can be used as an affine dimension in `region`. Without `region`, the scope
 * is that of the value's definition (MLIR's one-argument `isValidDim`).
 */
export function isValidDim(value: Value, region?: Region | null): boolean {
  if (!isIndex(value)) return false;
  if (region === undefined) {
    const def = value.definingOp;
    if (def) return isValidDim(value, getAffineScope(def));
    if (isAffineInductionVar(value)) return true;
    return isTopLevelValue(value);
  }
  if (isValidSymbol(value, region)) return true;
  const def = value.definingOp;
  if (!def) return isAffineInductionVar(value);
  if (ApplyOp.isInstance(def)) return def.operands.every((o) => isValidDim(o, region));
  const source = dimOpSource(def);
  if (source) return isTopLevelValue(source);
  return false;
}
