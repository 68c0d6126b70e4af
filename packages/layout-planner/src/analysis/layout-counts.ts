/** Counting what layout planning produced (for reports and the plan-lowering benchmark). */
import type { Operation } from '@raptor-pim/ir-core';
import { MaterializeLayoutOp } from '@raptor-pim/spatial-dialect';
import { readSelectedLayouts } from '../ir/selected-layouts';
import { isLayoutAware } from './layout-problem';

/** Counts of layout-related ops under a root. */
export interface LayoutOpCounts {
  /** Layout-aware plan ops. */
  readonly plans: number;
  /** Plans whose recorded result layout is `nhwc_row_strip`. */
  readonly rowStripPlans: number;
  /** `spat.materialize_layout` ops. */
  readonly materializations: number;
}

/**
 * Counts the plans, row-strip plans and materializations under `root` (any op: a module or a
 * function).
 *
 * @example
 * const { plans, materializations } = countLayoutOps(module);
 */
export function countLayoutOps(root: Operation): LayoutOpCounts {
  let plans = 0;
  let rowStripPlans = 0;
  let materializations = 0;
  root.walk((op) => {
    if (MaterializeLayoutOp.match(op)) materializations++;
    else if (isLayoutAware(op)) {
      plans++;
      const r = readSelectedLayouts(op);
      if (r.ok && r.layouts.resultLayout === 'nhwc_row_strip') rowStripPlans++;
    }
  });
  return { plans, rowStripPlans, materializations };
}
