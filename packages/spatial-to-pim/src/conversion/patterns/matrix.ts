/** `spat.wvmm` -> `pim.vmm` on the resident weight bound to the core stream. */
import { VMMOp } from '@raptor-pim/pim-dialect';
import { WvmmOp } from '@raptor-pim/spatial-dialect';
import { SpatToPimMessages as M } from '../../diagnostics';
import { staticTensor } from '../stream-lowering';
import { lowerOp, type ScheduledOpPattern } from './pattern';

/** `spat.wvmm[%w](%x)` -> `pim.vmm[%w](%x, %dst)` with a fresh destination. */
export const WVMM_PATTERN: ScheduledOpPattern = lowerOp(WvmmOp, (view, op, s) => {
  const t = op.getResult(0).type;
  if (!staticTensor(t)) return s.error(op, M.dynamicShape(op.name, String(t)));
  const weight = s.value(view.weight, op);
  const input = s.value(view.input, op);
  const outputBuffer = s.empty(t, op);
  const y = VMMOp.build(s.b, { weight, input, outputBuffer, output: t }, op.location).output;
  s.counters.matrixOps++;
  s.map(op.getResult(0), y);
  return true;
});
