/**
 * The layouts `spat-plan-layouts` selected for a plan (its discardable `spat.operand_layouts` /
 * `spat.result_layout` record, read with layout-planner's reader), checked against the layouts
 * the operands actually have after their producers were lowered. A plan without a record is
 * lowered in its dense alternative.
 */
import { printAttribute, type Operation, type Value } from '@raptor-pim/ir-core';
import type { PhysicalLayoutName } from '@raptor-pim/spatial-dialect';
import { OPERAND_LAYOUTS_ATTR, RESULT_LAYOUT_ATTR, readSelectedLayouts } from '@raptor-pim/layout-planner';
import { PlanLoweringMessages as M } from '../diagnostics';
import { physicalValueOf } from '../conversion/physical-values';
import { refuse, type LoweringEnv } from '../conversion/lowering-env';

/** The layout an operand has now: row strips behind a row-strip cast, dense otherwise. */
export function actualLayout(v: Value): PhysicalLayoutName {
  return physicalValueOf(v)?.layout ?? 'dense_nchw';
}

/**
 * The result layout to lower `op` to (the recorded one, `dense_nchw` without a record), or
 * undefined after a diagnostic when the record is malformed or an operand's recorded layout
 * differs from its producer's.
 */
export function selectedResultLayout(env: LoweringEnv, op: Operation): PhysicalLayoutName | undefined {
  const record = readSelectedLayouts(op);
  if (!record.ok) {
    if (record.problem === 'missing') return 'dense_nchw';
    const show = (name: string): string => {
      const a = op.getDiscardableAttr(name);
      return a ? printAttribute(a) : '<missing>';
    };
    refuse(env, op, M.malformedRecord(show(RESULT_LAYOUT_ATTR), show(OPERAND_LAYOUTS_ATTR)));
    return undefined;
  }
  const layouts = record.layouts;
  for (let i = 0; i < op.numOperands; i++) {
    const actual = actualLayout(op.getOperand(i));
    if (layouts.operandLayouts[i] !== actual) {
      refuse(env, op, M.operandLayoutMismatch(i, layouts.operandLayouts[i]!, actual));
      return undefined;
    }
  }
  return layouts.resultLayout;
}
