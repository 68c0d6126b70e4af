/**
 * How a selected layout is recorded on a plan op, and the layout conversions a
 * `spat.materialize_layout` may perform.
 *
 * `spat-plan-layouts` records the selected alternative of every plan as two discardable
 * attributes (MLIR style `dialect.name`), read by `spat-verify-layouts` and plan-lowering:
 *
 * ```mlir
 * %y = "spat.relu_plan"(%x) <{logicalLayout = #spat<logical_layout nchw>}>
 *        {spat.operand_layouts = [#spat<physical_layout nhwc_row_strip>],
 *         spat.result_layout = #spat<physical_layout nhwc_row_strip>} : ...
 * ```
 */
import { ArrayAttr, type Operation } from '@raptor-pim/ir-core';
import { SpatEnumAttr, type PhysicalLayoutName } from '@raptor-pim/spatial-dialect';

/** Discardable attribute holding the selected operand layouts (an array, one per operand). */
export const OPERAND_LAYOUTS_ATTR = 'spat.operand_layouts';
/** Discardable attribute holding the selected result layout. */
export const RESULT_LAYOUT_ATTR = 'spat.result_layout';

/** The layouts selected for one plan. */
export interface SelectedLayouts {
  /** One layout per operand, in operand order. */
  readonly operandLayouts: readonly PhysicalLayoutName[];
  /** The result layout. */
  readonly resultLayout: PhysicalLayoutName;
}

/** Records `layouts` on `op` (replacing an earlier record). */
export function recordSelectedLayouts(op: Operation, layouts: SelectedLayouts): void {
  const ctx = op.context;
  op.setDiscardableAttr(OPERAND_LAYOUTS_ATTR, ArrayAttr.get(ctx, layouts.operandLayouts.map((l) => SpatEnumAttr.get(ctx, 'physical_layout', l))));
  op.setDiscardableAttr(RESULT_LAYOUT_ATTR, SpatEnumAttr.get(ctx, 'physical_layout', layouts.resultLayout));
}

/** The result of {@link readSelectedLayouts}: the record, or what is wrong with it. */
export type SelectedLayoutsRecord = { readonly ok: true; readonly layouts: SelectedLayouts } | { readonly ok: false; readonly problem: 'missing' | 'malformed' };

function physical(a: unknown): PhysicalLayoutName | undefined {
  return a instanceof SpatEnumAttr && a.kind === 'physical_layout' ? (a.value as PhysicalLayoutName) : undefined;
}

/**
 * The layouts recorded on `op` by `spat-plan-layouts`.
 *
 * @example
 * const r = readSelectedLayouts(planOp);
 * if (r.ok && r.layouts.resultLayout === 'nhwc_row_strip') lowerToRowStrips(planOp);
 */
export function readSelectedLayouts(op: Operation): SelectedLayoutsRecord {
  const operands = op.getDiscardableAttr(OPERAND_LAYOUTS_ATTR);
  const result = op.getDiscardableAttr(RESULT_LAYOUT_ATTR);
  if (operands === undefined && result === undefined) return { ok: false, problem: 'missing' };
  const resultLayout = physical(result);
  if (!(operands instanceof ArrayAttr) || !resultLayout || operands.elements.length !== op.operands.length) return { ok: false, problem: 'malformed' };
  const operandLayouts: PhysicalLayoutName[] = [];
  for (const e of operands.elements) {
    const l = physical(e);
    if (!l) return { ok: false, problem: 'malformed' };
    operandLayouts.push(l);
  }
  return { ok: true, layouts: { operandLayouts, resultLayout } };
}

/**
 * The conversions `spat.materialize_layout` performs (source -> target): dense to row strips
 * and back, and fragment collections to dense. The planner never selects another one, and
 * `spat-verify-layouts` rejects any other.
 */
export const SUPPORTED_LAYOUT_CONVERSIONS: readonly (readonly [PhysicalLayoutName, PhysicalLayoutName])[] = [
  ['dense_nchw', 'nhwc_row_strip'],
  ['nhwc_row_strip', 'dense_nchw'],
  ['fragmented', 'dense_nchw'],
];

/** True when a materialization from `source` to `target` is supported. */
export function isSupportedLayoutConversion(source: PhysicalLayoutName, target: PhysicalLayoutName): boolean {
  return SUPPORTED_LAYOUT_CONVERSIONS.some(([s, t]) => s === source && t === target);
}
