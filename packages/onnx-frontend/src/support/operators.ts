/**
 * The operator support table: each ai.onnx operator the frontend imports and the opsets it
 * is supported in. Used by shape inference and for "unsupported operator" diagnostics.
 */
import { MAX_OPSET, MIN_OPSET } from './opsets';

/** One supported operator. */
export interface OperatorSupport {
  readonly opType: string;
  /** First supported opset (inclusive). */
  readonly minOpset: number;
  /** Last supported opset (inclusive). */
  readonly maxOpset: number;
  /** Short note on what is supported (forms, attributes). */
  readonly note: string;
}

const op = (opType: string, note: string, minOpset = MIN_OPSET, maxOpset = MAX_OPSET): OperatorSupport => ({ opType, minOpset, maxOpset, note });

/** All supported operators, alphabetical. */
export const SUPPORTED_OPERATORS: readonly OperatorSupport[] = [
  op('Add', 'multidirectional broadcasting; legacy broadcast/axis attributes at opset 6'),
  op('AveragePool', '1-3 spatial dims, auto_pad, ceil_mode, count_include_pad, dilations (19)'),
  op('BatchNormalization', 'inference mode only (one output, training_mode=0)'),
  op('Cast', 'numeric types'),
  op('Clip', 'min/max attributes (<11) or inputs (>=11)'),
  op('Concat', 'negative axis'),
  op('Constant', 'value, value_float(s), value_int(s)'),
  op('Conv', '1-3 spatial dims, groups, dilations, strides, pads, auto_pad'),
  op('DepthToSpace', 'DCR and CRD modes'),
  op('Dropout', 'inference (identity; optional mask output)'),
  op('Flatten', 'negative axis'),
  op('Gather', 'any axis, constant folding of integer tensors'),
  op('Gemm', 'transA/transB, alpha, beta, optional C'),
  op('GlobalAveragePool', ''),
  op('GlobalMaxPool', ''),
  op('HardSigmoid', 'alpha, beta'),
  op('Identity', ''),
  op('LeakyRelu', 'alpha'),
  op('MatMul', 'numpy semantics (1-D operands, batch broadcasting)'),
  op('MaxPool', '1-3 spatial dims, auto_pad, ceil_mode, dilations, storage_order 0; Indices output'),
  op('Mul', 'multidirectional broadcasting; legacy broadcast/axis attributes at opset 6'),
  op('Pad', 'pads attribute (<11) or input (>=11), axes input (18)'),
  op('Relu', ''),
  op('Reshape', '0 and -1 in the target shape; allowzero (14)'),
  op('Resize', 'scales or sizes inputs, keep_aspect_ratio_policy (18)', 10),
  op('Shape', 'start/end (15)'),
  op('Sigmoid', ''),
  op('Slice', 'attribute form (<10), input form (>=10), negative/clamped indices, steps'),
  op('Softmax', 'axis'),
  op('Split', 'split attribute (<13) or input (>=13), num_outputs (18)'),
  op('Squeeze', 'axes attribute (<13) or input (>=13)'),
  op('Sub', 'multidirectional broadcasting; legacy broadcast/axis attributes at opset 6'),
  op('Tanh', ''),
  op('Transpose', 'perm'),
  op('Unsqueeze', 'axes attribute (<13) or input (>=13)'),
  op('Upsample', 'scales attribute (7-8) or input (9)', 7, 9),
];

const BY_TYPE = new Map(SUPPORTED_OPERATORS.map((o) => [o.opType, o]));

/** The support entry of an ai.onnx operator, or undefined. */
export function operatorSupport(opType: string): OperatorSupport | undefined {
  return BY_TYPE.get(opType);
}

/** The comma-separated list of supported operator names (for diagnostics). */
export function supportedOperatorList(): string {
  return SUPPORTED_OPERATORS.map((o) => o.opType).join(', ');
}

/** `7-23` style text of an operator's supported opsets. */
export function opsetRangeText(o: OperatorSupport): string {
  return `${o.minOpset}-${o.maxOpset}`;
}
