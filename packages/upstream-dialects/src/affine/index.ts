/** The affine dialect: `affine.apply`. */
export * from './dialect';
export { AffineMessages } from './diagnostics';
export { ApplyOp as AffineApplyOp } from './ops';
export * from './builders';
export { getAffineScope, isAffineInductionVar, isTopLevelValue, isValidDim, isValidSymbol } from './scope';
export { evaluateStaticIndex } from './static-index';
