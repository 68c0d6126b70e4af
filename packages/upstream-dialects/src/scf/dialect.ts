/** The `scf` dialect: `scf.for`, `scf.if`, `scf.yield`, `scf.forall`, `scf.forall.in_parallel`. */
import { defineDialect, type Dialect } from '@raptor-pim/ir-core';
import { ForOp, IfOp, YieldOp } from './ops/control';
import { ForallOp, InParallelOp } from './ops/forall';

/** Every scf op definition. */
export const SCF_OPERATIONS = [ForOp, ForallOp, InParallelOp, IfOp, YieldOp] as const;

/** The scf dialect. */
export const ScfDialect: Dialect = defineDialect({ namespace: 'scf', operations: SCF_OPERATIONS });
