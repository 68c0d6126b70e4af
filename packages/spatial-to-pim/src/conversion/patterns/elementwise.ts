/**
 * Element-wise and reduction ops: `spat.relu/sigmoid/softmax/vavg` -> `pim.vrelu/vsigm/
 * vsoftmax/vavg`, `spat.vadd/vsub/vmul/vmax/vvdmul` -> `pim.vvadd/vvsub/vvmul/vvmax/vvdmul`,
 * each writing into a fresh destination (destination-passing style).
 */
import { createConversionPattern, type AnyOpDefinition, type ConversionPattern, type Operation, type Value, printType } from '@raptor-pim/ir-core';
import { VAvgOp, VReluOp, VSigmOp, VSoftmaxOp, VVAddOp, VVDMulOp, VVMaxOp, VVMulOp, VVSubOp } from '@raptor-pim/pim-dialect';
import { ReluOp, SigmoidOp, SoftmaxOp, VaddOp, VavgOp, VmaxOp, VmulOp, VsubOp, VvdmulOp } from '@raptor-pim/spatial-dialect';
import { SpatToPimMessages as M } from '../../diagnostics';
import { staticTensor, type LoweringContext } from '../lowering-context';

type UnaryDef = AnyOpDefinition & { get(op: Operation): { input: Value; op: Operation } };
type BinaryDef = AnyOpDefinition & { get(op: Operation): { lhs: Value; rhs: Value; op: Operation } };

function unary(ctx: LoweringContext, def: UnaryDef, pim: typeof VReluOp, gate?: (op: Operation) => boolean): ConversionPattern {
  return createConversionPattern(def, (view, adaptor, rw) => {
    const op = view.op;
    const t = op.getResult(0).type;
    if (!staticTensor(t)) return ctx.error(op, M.dynamicShape(op.name, printType(t)));
    if (gate && !gate(op)) return false;
    const input = (adaptor as unknown as { input: Value }).input;
    const y = pim.build(rw, { input, outputBuffer: ctx.empty(rw, t, op.location), output: t }, op.location).output;
    ctx.counters.vectorOps++;
    rw.replaceOp(op, [y]);
    return true;
  });
}

function binary(ctx: LoweringContext, def: BinaryDef, pim: typeof VVAddOp): ConversionPattern {
  return createConversionPattern(def, (view, adaptor, rw) => {
    const op = view.op;
    const t = op.getResult(0).type;
    if (!staticTensor(t)) return ctx.error(op, M.dynamicShape(op.name, printType(t)));
    const { lhs, rhs } = adaptor as unknown as { lhs: Value; rhs: Value };
    const y = pim.build(rw, { lhs, rhs, outputBuffer: ctx.empty(rw, t, op.location), output: t }, op.location).output;
    ctx.counters.vectorOps++;
    rw.replaceOp(op, [y]);
    return true;
  });
}

/** The element-wise and reduction patterns. `spat.softmax` needs `raptor_config.allow_vsoftmax`. */
export function elementwisePatterns(ctx: LoweringContext): ConversionPattern[] {
  const softmaxAllowed = (op: Operation): boolean =>
    ctx.config.raptor_config.allow_vsoftmax || ctx.error(op, M.noPimEquivalent(op.name, 'raptor_config.allow_vsoftmax'));
  return [
    unary(ctx, ReluOp, VReluOp),
    unary(ctx, SigmoidOp, VSigmOp),
    unary(ctx, SoftmaxOp, VSoftmaxOp, softmaxAllowed),
    unary(ctx, VavgOp, VAvgOp),
    binary(ctx, VaddOp, VVAddOp),
    binary(ctx, VsubOp, VVSubOp),
    binary(ctx, VmulOp, VVMulOp),
    binary(ctx, VmaxOp, VVMaxOp),
    binary(ctx, VvdmulOp, VVDMulOp),
  ];
}
