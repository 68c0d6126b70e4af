/**
 * The operator lowering table: every ONNX operator the Spatial lowering handles, merged from
 * the per-family tables of this folder.
 */
import type { NodeLowering } from '../lowering-context';
import { CONV_LOWERINGS } from './conv';
import { DATA_MOVEMENT_LOWERINGS } from './data-movement';
import { ELEMENTWISE_LOWERINGS } from './elementwise';
import { MATMUL_LOWERINGS } from './matmul';
import { POOLING_LOWERINGS } from './pooling';
import { RESIZE_LOWERINGS } from './resize';
import { SOFTMAX_LOWERINGS } from './softmax';

/** Lowering of each ai.onnx operator, by op type. */
export const NODE_LOWERINGS: Readonly<Record<string, NodeLowering>> = {
  ...CONV_LOWERINGS,
  ...DATA_MOVEMENT_LOWERINGS,
  ...ELEMENTWISE_LOWERINGS,
  ...MATMUL_LOWERINGS,
  ...POOLING_LOWERINGS,
  ...RESIZE_LOWERINGS,
  ...SOFTMAX_LOWERINGS,
};
