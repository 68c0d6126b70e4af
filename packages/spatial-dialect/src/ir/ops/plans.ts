/**
 * The planning ops of the `spat` dialect (reference order): `spat.add_plan`,
 * `spat.bias_add_plan`, `spat.concat_plan`, `spat.conv2d_plan`, `spat.flatten_plan`,
 * `spat.global_average_pool_plan`, `spat.max_pool2d_plan`, `spat.relu_plan`,
 * `spat.resize_nearest_plan`, `spat.silu_plan`. They record model operations in logical NCHW
 * coordinates and use the quoted generic form (no custom assembly). Each declares
 * {@link SpatialLayoutCapabilityInterface} with its dense alternative.
 */
import {
  DenseI64ArrayAttr,
  I64Attr,
  Traits,
  defineOp,
  formatType,
  implement,
  optional,
  prop,
  single,
  variadic,
  type AnyOpDefinition,
  type Operation,
} from '@raptor-pim/ir-core';
import { SpatMessages as M } from '../../diagnostics';
import { LogicalLayoutConstraint } from '../attributes';
import { SpatialLayoutCapabilityInterface, denseAlternative } from '../interfaces';
import { requireArrayLength, requirePositiveDims, requireSameElementType, requireSameType, requireTensor } from '../type-checks';

const layoutCapability = implement(SpatialLayoutCapabilityInterface, { getLayoutAlternatives: (op: Operation) => [denseAlternative(op)] });
const logicalLayout = { logicalLayout: prop(LogicalLayoutConstraint) };

/** Verifies a unary plan: ranked tensor input/output with matching element types. */
function verifyUnaryPlan(op: Operation): boolean {
  const input = requireTensor(op, 'input', op.getOperand(0).type);
  if (!input) return false;
  const output = requireTensor(op, 'output', op.getResult(0).type);
  if (!output) return false;
  return requireSameElementType(op, 'output', output, input, 'the input');
}

/** `spat.add_plan`: element-wise addition of two identical static rank-4 NCHW tensors. */
export const AddPlanOp = defineOp({
  name: 'spat.add_plan',
  summary: 'Plan element-wise addition',
  operands: { lhs: single(), rhs: single() },
  results: { output: single() },
  attributes: logicalLayout,
  traits: [Traits.Pure],
  interfaces: [layoutCapability],
  verify(view) {
    const op = view.op;
    const lhs = requireTensor(op, 'lhs', view.lhs.type, { isStatic: true, rank: 4 });
    if (!lhs) return false;
    return requireSameType(op, 'rhs', view.rhs.type, lhs, 'same as lhs') && requireSameType(op, 'output', view.output.type, lhs, 'same as lhs');
  },
});

/** `spat.bias_add_plan`: adds a scalar or per-channel bias to a static rank-4 NCHW tensor. */
export const BiasAddPlanOp = defineOp({
  name: 'spat.bias_add_plan',
  summary: 'Plan channel bias addition',
  operands: { input: single(), bias: single() },
  results: { output: single() },
  attributes: logicalLayout,
  traits: [Traits.Pure],
  interfaces: [layoutCapability],
  verify(view) {
    const op = view.op;
    const input = requireTensor(op, 'input', view.input.type, { isStatic: true, rank: 4 });
    if (!input || !requireSameType(op, 'output', view.output.type, input, 'same as input')) return false;
    const bias = requireTensor(op, 'bias', view.bias.type, { isStatic: true });
    if (!bias || !requireSameElementType(op, 'bias', bias, input, 'the input')) return false;
    const c = input.shape[1]!;
    const s = bias.shape;
    const ok =
      s.length === 0 ||
      (s.length === 1 && s[0] === c) ||
      (s.length === 2 && s[0] === 1 && s[1] === c) ||
      (s.length === 4 && s[0] === 1 && s[1] === c && s[2] === 1 && s[3] === 1);
    if (!ok) view.emitOpError(M.biasShape(formatType(bias), c));
    return ok;
  },
});

/**
 * Shared concat checks (plan and `spat.concat`): at least one input, ranks and element types
 * match the output, static non-axis dimensions match, static axis sizes sum to the output's.
 */
export function verifyConcatInputs(op: Operation, inputs: readonly Operation['operands'][number][], outputType: Operation['resultTypes'][number], axis: number, rank: number): boolean {
  if (inputs.length === 0) {
    op.emitOpError(M.noInputs);
    return false;
  }
  const outShape = (outputType as unknown as { shape: readonly number[] }).shape;
  let sum = 0;
  let allStatic = true;
  for (let k = 0; k < inputs.length; k++) {
    const t = inputs[k]!.type as { shape?: readonly number[] };
    if (!t.shape || t.shape.length !== rank) {
      op.emitOpError(M.inputRankMismatch(k, formatType(inputs[k]!.type), rank));
      return false;
    }
    if (!requireSameElementType(op, `input #${k}`, inputs[k]!.type, outputType, 'the output')) return false;
    for (let d = 0; d < rank; d++) {
      const a = t.shape[d]!;
      const b = outShape[d]!;
      if (d === axis) {
        if (a < 0) allStatic = false;
        else sum += a;
        continue;
      }
      if (a >= 0 && b >= 0 && a !== b) {
        op.emitOpError(M.nonAxisDimMismatch(k, d, a, b));
        return false;
      }
    }
  }
  if (allStatic && outShape[axis]! >= 0 && sum !== outShape[axis]) {
    op.emitOpError(M.axisSumMismatch(sum, outShape[axis]!));
    return false;
  }
  return true;
}

/** `spat.concat_plan`: concatenation of NCHW tensors along the channel axis. */
export const ConcatPlanOp = defineOp({
  name: 'spat.concat_plan',
  summary: 'Plan channel concatenation',
  operands: { inputs: variadic() },
  results: { output: single() },
  attributes: { axis: prop(I64Attr), ...logicalLayout },
  traits: [Traits.Pure],
  interfaces: [layoutCapability],
  verify(view) {
    const op = view.op;
    const output = requireTensor(op, 'output', view.output.type, { isStatic: true, rank: 4 });
    if (!output) return false;
    const axis = Number(view.axis.value);
    if (axis !== 1) {
      view.emitOpError(M.concatPlanAxis(axis));
      return false;
    }
    return verifyConcatInputs(op, view.inputs, output, axis, 4);
  },
});

/** `spat.conv2d_plan`: grouped NCHW cross-correlation with optional bias. */
export const Conv2dPlanOp = defineOp({
  name: 'spat.conv2d_plan',
  summary: 'Plan a grouped 2D convolution',
  operands: { input: single(), weight: single(), bias: optional() },
  results: { output: single() },
  attributes: { pads: prop(DenseI64ArrayAttr), strides: prop(DenseI64ArrayAttr), dilations: prop(DenseI64ArrayAttr), group: prop(I64Attr), ...logicalLayout },
  traits: [Traits.Pure],
  interfaces: [layoutCapability],
  verify(view) {
    const op = view.op;
    const input = requireTensor(op, 'input', view.input.type, { rank: 4 });
    if (!input) return false;
    const weight = requireTensor(op, 'weight', view.weight.type, { rank: 4 });
    if (!weight) return false;
    const output = requireTensor(op, 'output', view.output.type, { rank: 4 });
    if (!output) return false;
    if (!requireSameElementType(op, 'weight', weight, input, 'the input') || !requireSameElementType(op, 'output', output, input, 'the input')) return false;
    if (!requireArrayLength(op, 'pads', view.pads, 4) || !requireArrayLength(op, 'strides', view.strides, 2) || !requireArrayLength(op, 'dilations', view.dilations, 2)) return false;
    const group = Number(view.group.value);
    if (group < 1) {
      view.emitOpError(M.groupNotPositive(group));
      return false;
    }
    if (view.bias) {
      const bias = requireTensor(op, 'bias', view.bias.type);
      if (!bias || !requireSameElementType(op, 'bias', bias, input, 'the input')) return false;
    }
    return true;
  },
});

/** `spat.flatten_plan`: combines the dimensions before and from `axis` into a matrix. */
export const FlattenPlanOp = defineOp({
  name: 'spat.flatten_plan',
  summary: 'Plan logical flattening',
  operands: { input: single() },
  results: { output: single() },
  attributes: { axis: prop(I64Attr), ...logicalLayout },
  traits: [Traits.Pure],
  interfaces: [layoutCapability],
  verify(view) {
    const op = view.op;
    const input = requireTensor(op, 'input', view.input.type, { isStatic: true });
    if (!input) return false;
    const output = requireTensor(op, 'output', view.output.type, { isStatic: true, rank: 2 });
    if (!output) return false;
    if (!requireSameElementType(op, 'output', output, input, 'the input')) return false;
    if (!requirePositiveDims(op, 'input', input) || !requirePositiveDims(op, 'output', output)) return false;
    const rank = input.rank;
    let axis = Number(view.axis.value);
    if (axis < -rank || axis > rank) {
      view.emitOpError(M.flattenAxisRange(axis, rank));
      return false;
    }
    if (axis < 0) axis += rank;
    const first = input.shape.slice(0, axis).reduce((a, b) => a * b, 1);
    const second = input.shape.slice(axis).reduce((a, b) => a * b, 1);
    if (output.shape[0] !== first) {
      view.emitOpError(M.flattenDim('first', output.shape[0]!, first));
      return false;
    }
    if (output.shape[1] !== second) {
      view.emitOpError(M.flattenDim('second', output.shape[1]!, second));
      return false;
    }
    return true;
  },
});

/** `spat.global_average_pool_plan`: mean over H x W per channel. */
export const GlobalAveragePoolPlanOp = defineOp({
  name: 'spat.global_average_pool_plan',
  summary: 'Plan global spatial mean',
  operands: { input: single() },
  results: { output: single() },
  attributes: logicalLayout,
  traits: [Traits.Pure],
  interfaces: [layoutCapability],
  verify(view) {
    const op = view.op;
    const input = requireTensor(op, 'input', view.input.type, { isStatic: true, rank: 4 });
    if (!input) return false;
    const output = requireTensor(op, 'output', view.output.type, { isStatic: true, rank: 4 });
    if (!output) return false;
    if (!requireSameElementType(op, 'output', output, input, 'the input')) return false;
    if (input.shape[0] !== 1) {
      view.emitOpError(M.batchNotOne(formatType(input)));
      return false;
    }
    if (output.shape[1] !== input.shape[1]) {
      view.emitOpError(M.channelMismatch(input.shape[1]!, output.shape[1]!));
      return false;
    }
    if (output.shape[0] !== 1 || output.shape[2] !== 1 || output.shape[3] !== 1) {
      view.emitOpError(M.poolOutputSpatial(formatType(output)));
      return false;
    }
    return true;
  },
});

/** `spat.max_pool2d_plan`: maximum over each window per channel. */
export const MaxPool2dPlanOp = defineOp({
  name: 'spat.max_pool2d_plan',
  summary: 'Plan 2D max pooling',
  operands: { input: single() },
  results: { output: single() },
  attributes: {
    kernelShape: prop(DenseI64ArrayAttr),
    pads: prop(DenseI64ArrayAttr),
    strides: prop(DenseI64ArrayAttr),
    dilations: prop(DenseI64ArrayAttr),
    ...logicalLayout,
  },
  traits: [Traits.Pure],
  interfaces: [layoutCapability],
  verify(view) {
    const op = view.op;
    const input = requireTensor(op, 'input', view.input.type, { isStatic: true, rank: 4 });
    if (!input) return false;
    const output = requireTensor(op, 'output', view.output.type, { isStatic: true, rank: 4 });
    if (!output) return false;
    if (!requireSameElementType(op, 'output', output, input, 'the input')) return false;
    if (output.shape[0] !== input.shape[0] || output.shape[1] !== input.shape[1]) {
      view.emitOpError(M.batchChannelMismatch(formatType(input), formatType(output)));
      return false;
    }
    return (
      requireArrayLength(op, 'kernelShape', view.kernelShape, 2) &&
      requireArrayLength(op, 'strides', view.strides, 2) &&
      requireArrayLength(op, 'dilations', view.dilations, 2) &&
      requireArrayLength(op, 'pads', view.pads, 4)
    );
  },
});

/** `spat.relu_plan`: element-wise ReLU (shape equality is assumed, not verified). */
export const ReluPlanOp = defineOp({
  name: 'spat.relu_plan',
  summary: 'Plan ReLU',
  operands: { input: single() },
  results: { output: single() },
  attributes: logicalLayout,
  traits: [Traits.Pure],
  interfaces: [layoutCapability],
  verify: (view) => verifyUnaryPlan(view.op),
});

/** `spat.resize_nearest_plan`: nearest-neighbor resize with asymmetric coordinates. */
export const ResizeNearestPlanOp = defineOp({
  name: 'spat.resize_nearest_plan',
  summary: 'Plan nearest-neighbor resize',
  operands: { input: single() },
  results: { output: single() },
  attributes: logicalLayout,
  traits: [Traits.Pure],
  interfaces: [layoutCapability],
  verify(view) {
    const op = view.op;
    const input = requireTensor(op, 'input', view.input.type, { isStatic: true, rank: 4 });
    if (!input) return false;
    const output = requireTensor(op, 'output', view.output.type, { isStatic: true, rank: 4 });
    if (!output) return false;
    return requireSameElementType(op, 'output', output, input, 'the input') && requirePositiveDims(op, 'input', input) && requirePositiveDims(op, 'output', output);
  },
});

/** `spat.silu_plan`: element-wise SiLU (shape equality is assumed, not verified). */
export const SiluPlanOp = defineOp({
  name: 'spat.silu_plan',
  summary: 'Plan SiLU',
  operands: { input: single() },
  results: { output: single() },
  attributes: logicalLayout,
  traits: [Traits.Pure],
  interfaces: [layoutCapability],
  verify: (view) => verifyUnaryPlan(view.op),
});

/** The planning ops, in reference order. */
export const PLAN_OPS: readonly AnyOpDefinition[] = [
  AddPlanOp,
  BiasAddPlanOp,
  ConcatPlanOp,
  Conv2dPlanOp,
  FlattenPlanOp,
  GlobalAveragePoolPlanOp,
  MaxPool2dPlanOp,
  ReluPlanOp,
  ResizeNearestPlanOp,
  SiluPlanOp,
];

