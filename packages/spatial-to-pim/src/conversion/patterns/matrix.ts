/** `spat.wvmm` -> `pim.vmm` on the resident weight bound to the core stream. */
import { createConversionPattern, type ConversionPattern, printType } from '@raptor-pim/ir-core';
import { VMMOp } from '@raptor-pim/pim-dialect';
import { WvmmOp } from '@raptor-pim/spatial-dialect';
import { SpatToPimMessages as M } from '../../diagnostics';
import { staticTensor, type LoweringContext } from '../lowering-context';

/** `spat.wvmm[%w](%x)` -> `pim.vmm[%w](%x, %dst)` with a fresh destination. */
export function matrixPatterns(ctx: LoweringContext): ConversionPattern[] {
  return [
    createConversionPattern(WvmmOp, (view, adaptor, rw) => {
      const op = view.op;
      const t = op.getResult(0).type;
      if (!staticTensor(t)) return ctx.error(op, M.dynamicShape(op.name, printType(t)));
      const y = VMMOp.build(rw, { weight: adaptor.weight, input: adaptor.input, outputBuffer: ctx.empty(rw, t, op.location), output: t }, op.location).output;
      ctx.counters.matrixOps++;
      rw.replaceOp(op, [y]);
      return true;
    }),
  ];
}
