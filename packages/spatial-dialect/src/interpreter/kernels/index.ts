/**
 * Reference kernels of the Spatial and PIM interpreters: pure functions over dense f32 tensors
 * (`Float32Array` data with explicit shapes), exact to the Raptor dialect reference and checked
 * against onnxruntime. Re-exports only.
 */
export type { F32Tensor, KernelFailure, KernelResult, KernelSuccess } from './tensor';
export { createTensor, formatShape, isValidShape, kernelFail, kernelOk, normalizeAxis, shapeSize, stridesOf, validateTensor } from './tensor';
export { KernelMessages } from '../../diagnostics';
export type { Conv2dAttributes } from './conv';
export { conv2d, windowOutputSize } from './conv';
export type { AveragePool2dAttributes, Pool2dAttributes } from './pool';
export { averagePool2d, globalAveragePool, globalMaxPool, maxPool2d } from './pool';
export type { CoordinateTransformationMode, IndexMapCoordinateMode, IndexMapNearestMode, NearestMode, ResizeNearestOptions } from './resize';
export { nearestIndexMap, resizeNearest } from './resize';
export type { DepthToSpaceMode } from './data-movement';
export { concat, depthToSpace, extractRows, extractSlice, flatten, insertSlice, padConstant, split, transpose } from './data-movement';
export type { BinaryKind, UnaryKind, UnaryParameters } from './elementwise';
export {
  add,
  biasAdd,
  broadcastShapes,
  clip,
  div,
  elementwiseBinary,
  elementwiseUnary,
  exp,
  hardSigmoid,
  leakyRelu,
  maximum,
  minimum,
  mul,
  neg,
  relu,
  sigmoid,
  silu,
  sub,
  tanh,
} from './elementwise';
export type { ReductionKind } from './reduction';
export { reduce, softmax, softmaxAll, vavg } from './reduction';
export type { CrossbarTile, GemmAttributes, TiledMatmulOptions } from './matrix';
export { crossbarTiles, gemm, matmul, tiledMatmul, vvdmul, wvmm } from './matrix';
export type { CrossbarTiling, CrossbarWeightTile } from './crossbar-tiling';
export { crossbarTileCount, tileWeightMatrix } from './crossbar-tiling';
