/**
 * The interface of ops that may sit in an in-parallel region (MLIR 22's
 * `ParallelCombiningOpInterface` on `tensor.parallel_insert_slice`): each updates a destination
 * that must be an output block argument of the parallel op. The parent side is ir-core's
 * `ParallelCombiningOpInterface` (MLIR 22 calls it `InParallelOpInterface`), which
 * `scf.forall.in_parallel` implements and `spat.in_parallel` can implement too.
 */
import { defineOpInterface, type Operation, type Value } from '@raptor-pim/ir-core';

/** Implementation of {@link ParallelInsertionOpInterface}. */
export interface ParallelInsertionOpInterfaceImpl {
  /** The destinations this op updates (block arguments of the parallel op). */
  getUpdatedDestinations(op: Operation): Value[];
}

/** See {@link ParallelInsertionOpInterfaceImpl}. */
export const ParallelInsertionOpInterface = defineOpInterface<ParallelInsertionOpInterfaceImpl>('ParallelCombiningOpInterface');
