/**
 * Element-wise and reduction ops: `spat.relu/sigmoid/softmax/vavg` -> `pim.vrelu/vsigm/
 * vsoftmax/vavg`, `spat.vadd/vsub/vmul/vmax/vvdmul` -> `pim.vvadd/vvsub/vvmul/vvmax/vvdmul`,
 * each writing into a fresh destination (destination-passing style).
 */
import type { AnyOpDefinition, Operation, Type, Value } from '@raptor-pim/ir-core';
import { VAvgOp, VReluOp, VSigmOp, VSoftmaxOp, VVAddOp, VVDMulOp, VVMaxOp, VVMulOp, VVSubOp } from '@raptor-pim/pim-dialect';
import { ReluOp, SigmoidOp, SoftmaxOp, VaddOp, VavgOp, VmaxOp, VmulOp, VsubOp, VvdmulOp } from '@raptor-pim/spatial-dialect';
import { SpatToPimMessages as M } from '../../diagnostics';
import { staticTensor, type StreamLowering } from '../stream-lowering';
import { lowerOp, type ScheduledOpPattern } from './pattern';

type UnaryPim = typeof VReluOp;
type BinaryPim = typeof VVAddOp;

function destination(op: Operation, s: StreamLowering): Value | undefined {
  const t: Type = op.getResult(0).type;
  if (!staticTensor(t)) {
    s.error(op, M.dynamicShape(op.name, String(t)));
    return undefined;
  }
  return s.empty(t, op);
}

function unary(def: AnyOpDefinition & { get(op: Operation): { input: Value } }, pim: UnaryPim, gate?: (s: StreamLowering, op: Operation) => boolean): ScheduledOpPattern {
  return lowerOp(def, (view, op, s) => {
    if (gate && !gate(s, op)) return false;
    const input = s.value(view.input, op);
    const outputBuffer = destination(op, s);
    if (!outputBuffer) return false;
    const y = pim.build(s.b, { input, outputBuffer, output: op.getResult(0).type }, op.location).output;
    s.counters.vectorOps++;
    s.map(op.getResult(0), y);
    return true;
  });
}

function binary(def: AnyOpDefinition & { get(op: Operation): { lhs: Value; rhs: Value } }, pim: BinaryPim): ScheduledOpPattern {
  return lowerOp(def, (view, op, s) => {
    const lhs = s.value(view.lhs, op);
    const rhs = s.value(view.rhs, op);
    const outputBuffer = destination(op, s);
    if (!outputBuffer) return false;
    const y = pim.build(s.b, { lhs, rhs, outputBuffer, output: op.getResult(0).type }, op.location).output;
    s.counters.vectorOps++;
    s.map(op.getResult(0), y);
    return true;
  });
}

/** `spat.softmax` needs `pim.vsoftmax`, which the target may disable (`raptor_config.allow_vsoftmax`). */
function softmaxAllowed(s: StreamLowering, op: Operation): boolean {
  return s.config.raptor_config.allow_vsoftmax || s.error(op, M.noPimEquivalent(op.name, 'raptor_config.allow_vsoftmax'));
}

/** The element-wise and reduction patterns. */
export const ELEMENTWISE_PATTERNS: readonly ScheduledOpPattern[] = [
  unary(ReluOp, VReluOp),
  unary(SigmoidOp, VSigmOp),
  unary(SoftmaxOp, VSoftmaxOp, softmaxAllowed),
  unary(VavgOp, VAvgOp),
  binary(VaddOp, VVAddOp),
  binary(VsubOp, VVSubOp),
  binary(VmulOp, VVMulOp),
  binary(VmaxOp, VVMaxOp),
  binary(VvdmulOp, VVDMulOp),
];
