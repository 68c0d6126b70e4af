import { M } from '../diagnostics/ir-messages';
import type { Attribute } from './attribute';
import { formatType } from './format-hooks';
import { defineOpInterface } from './interfaces';
import type { Operation } from './operation';
import type { Region } from './region';
import type { Value } from './value';

/** MLIR's `RegionKind`: SSA CFG regions obey dominance, graph regions do not. */
export type RegionKind = 'ssacfg' | 'graph';

/** Says per region whether it is an SSA CFG or a graph region (MLIR's `RegionKindInterface`). */
export interface RegionKindInterfaceImpl {
  /** The kind of region `index` of `op`. */
  getRegionKind(op: Operation, index: number): RegionKind;
}
/** See {@link RegionKindInterfaceImpl}. */
export const RegionKindInterface = defineOpInterface<RegionKindInterfaceImpl>('RegionKindInterface');

/**
 * A terminator with successor operands (MLIR's `BranchOpInterface`). Its verifier checks the
 * operand count and types against each successor's block arguments.
 */
export interface BranchOpInterfaceImpl {
  /** The values forwarded to successor `index`'s block arguments. */
  getSuccessorOperands(op: Operation, index: number): Value[];
}
/** See {@link BranchOpInterfaceImpl}. */
export const BranchOpInterface = defineOpInterface<BranchOpInterfaceImpl>('BranchOpInterface', (op, impl) => {
  for (let i = 0; i < op.numSuccessors; i++) {
    const operands = impl.getSuccessorOperands(op, i);
    const block = op.getSuccessor(i);
    if (operands.length !== block.numArguments) {
      op.emitError(M.successorArgCount(i, operands.length, block.numArguments));
      return false;
    }
    for (let k = 0; k < operands.length; k++) {
      const given = operands[k]!.type;
      const expected = block.getArgument(k).type;
      if (given !== expected) {
        op.emitError(M.successorArgType(k, i, formatType(given), formatType(expected)));
        return false;
      }
    }
  }
  return true;
});

/**
 * An op that combines the results of the parallel iterations of its parent, and whose body
 * holds "parallel insert" ops (MLIR's `ParallelCombiningOpInterface`, implemented by
 * `scf.forall.in_parallel`). Ops like `tensor.parallel_insert_slice` require a parent that
 * implements it; use {@link hasParallelCombiningParent}.
 */
export interface ParallelCombiningOpInterfaceImpl {
  /** The region holding the combining ops. */
  getRegion(op: Operation): Region;
  /** The ops yielded (combined) by this op, in order. */
  getYieldingOps(op: Operation): Operation[];
}
/** See {@link ParallelCombiningOpInterfaceImpl}. */
export const ParallelCombiningOpInterface = defineOpInterface<ParallelCombiningOpInterfaceImpl>('ParallelCombiningOpInterface');

/** True when `op`'s parent implements {@link ParallelCombiningOpInterface}. */
export function hasParallelCombiningParent(op: Operation): boolean {
  const p = op.getParentOp();
  return p !== null && p.getInterface(ParallelCombiningOpInterface) !== undefined;
}

/**
 * A destination-style op: some operands are "inits" (destinations) tied to the results
 * (MLIR's `DestinationStyleOpInterface`).
 */
export interface DestinationStyleOpInterfaceImpl {
  /** The init (destination) operands, one per tensor result. */
  getDpsInits(op: Operation): Value[];
}
/** See {@link DestinationStyleOpInterfaceImpl}. */
export const DestinationStyleOpInterface = defineOpInterface<DestinationStyleOpInterfaceImpl>('DestinationStyleOpInterface');

/** A call (MLIR's `CallOpInterface`): names its callee symbol and its arguments. */
export interface CallOpInterfaceImpl {
  /** The callee symbol name (flat). */
  getCallee(op: Operation): string | undefined;
  /** The call arguments. */
  getArgOperands(op: Operation): Value[];
}
/** See {@link CallOpInterfaceImpl}. */
export const CallOpInterface = defineOpInterface<CallOpInterfaceImpl>('CallOpInterface');

/** A callable (MLIR's `CallableOpInterface`): a symbol with a body region. */
export interface CallableOpInterfaceImpl {
  /** The body region (empty for a declaration). */
  getCallableRegion(op: Operation): Region | null;
}
/** See {@link CallableOpInterfaceImpl}. */
export const CallableOpInterface = defineOpInterface<CallableOpInterfaceImpl>('CallableOpInterface');

/** An op whose constant value is known (used by folding): implemented by ConstantLike ops. */
export interface ConstantOpInterfaceImpl {
  /** The constant value attribute. */
  getValue(op: Operation): Attribute | undefined;
}
/** See {@link ConstantOpInterfaceImpl}. */
export const ConstantOpInterface = defineOpInterface<ConstantOpInterfaceImpl>('ConstantOpInterface');
