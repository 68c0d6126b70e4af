/**
 * ReLU fusion: a `spat.relu_plan` whose input is the only use of a producer plan's result, and
 * that keeps the producer's layout, is applied by the producer's lanes to the fragment they
 * publish (`max(x, 0)` on the pixel or strip each lane already holds) instead of being a graph
 * compute of its own. The activation then never exists twice: one compute, one collection, no
 * transfer between them (resnet18: 17 computes and their results fewer).
 */
import type { Operation, PatternRewriter, Value } from '@raptor-pim/ir-core';
import { ReluPlanOp, type PhysicalLayoutName } from '@raptor-pim/spatial-dialect';
import { readSelectedLayouts } from '@raptor-pim/layout-planner';

/**
 * The ReLU plan `producer`'s lowering applies itself: the sole user of its (single) result, a
 * `spat.relu_plan` reading it in `layout` and producing `layout` (a ReLU without a layout record
 * is dense to dense). Undefined when there is none (the ReLU is then lowered on its own).
 */
export function fusibleRelu(producer: Operation, layout: PhysicalLayoutName): Operation | undefined {
  if (producer.numResults !== 1) return undefined;
  const result = producer.getResult(0);
  if (!result.hasOneUse()) return undefined;
  const relu = result.firstUse!.owner;
  if (!ReluPlanOp.match(relu) || relu.getOperand(0) !== result || relu.getResult(0).type !== result.type) return undefined;
  const record = readSelectedLayouts(relu);
  if (!record.ok) return record.problem === 'missing' && layout === 'dense_nchw' ? relu : undefined;
  return record.layouts.operandLayouts[0] === layout && record.layouts.resultLayout === layout ? relu : undefined;
}

/**
 * Replaces `producer` by `value`, or, when `relu` (from {@link fusibleRelu}) was applied by its
 * lanes, replaces the ReLU by `value` and erases the producer.
 */
export function replaceFused(rw: PatternRewriter, producer: Operation, relu: Operation | undefined, value: Value): void {
  if (!relu) {
    rw.replaceOp(producer, [value]);
    return;
  }
  rw.replaceOp(relu, [value]);
  rw.eraseOp(producer);
}
