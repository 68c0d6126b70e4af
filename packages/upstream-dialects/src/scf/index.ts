/** The scf dialect: op definitions. */
export * from './dialect';
export { ScfMessages } from './diagnostics';
export { ForOp, IfOp, YieldOp, ensureYield } from './ops/control';
export { DeviceMappingArrayAttr, ForallOp, InParallelOp, forallSegments, readForallBounds } from './ops/forall';
export type { ForallBounds } from './ops/forall';
