/**
 * Reasons the element-wise, activation, softmax and batch-normalization lowerings give when
 * they refuse a node (the `why` of `cx.unsupported`, which prefixes the operator and node).
 */
export const ElementwiseReasons = {
  notBroadcastable: (a: readonly number[], b: readonly number[], out: readonly number[]) =>
    `operands [${a.join('x')}] and [${b.join('x')}] do not broadcast to the output [${out.join('x')}]`,
  nonFloatOperand: (name: string, type: string) => `operand '${name}' has element type ${type}; only float32 element-wise arithmetic is lowered`,
  clipBoundsNotConstant: (which: string) => `the ${which} bound is not a compile-time scalar (bind it with constantInputs)`,
  batchNormNotConstant: 'scale, B, input_mean and input_var must be compile-time constants (bind them with constantInputs)',
} as const;
