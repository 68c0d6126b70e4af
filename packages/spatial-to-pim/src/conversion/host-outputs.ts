/**
 * Graph outputs no compute produces (a function argument or a constant tensor returned as it
 * is, as in Identity, Dropout at inference or Constant): a `memref.alloc` output buffer written
 * by a small stream on core 0 that reads the data into local memory with `pim.memcp_hd` and
 * stores it with `pim.memcp_dh`, in chunks that fit the target's local memory. So every graph
 * output is written by a core and the module always has a stream to emit.
 */
import {
  Block,
  BlockArgument,
  FunctionType,
  IntegerAttr,
  IntegerType,
  MemRefType,
  OpBuilder,
  RankedTensorType,
  ReturnOp,
  Traits,
  TypeAttr,
  type Operation,
  type Value,
} from '@raptor-pim/ir-core';
import { CoreOp, HaltOp, MemcpDhOp, MemcpHdOp } from '@raptor-pim/pim-dialect';
import type { HardwareConfig } from '@raptor-pim/pim-target';
import { createAlloc } from '@raptor-pim/upstream-dialects';
import { SpatToPimMessages as M } from '../diagnostics';
import { LoweringContext, staticTensor, type ConversionCounters } from './lowering-context';

/** True for a value a host-output copy can read: a tensor argument of `block` or a constant tensor. */
function hostReadable(v: Value, block: Block): boolean {
  if (!staticTensor(v.type)) return false;
  if (v instanceof BlockArgument) return v.owner === block;
  const def = v.definingOp;
  return def !== null && (def.hasTrait(Traits.ConstantLike) || def.name.endsWith('.constant'));
}

/**
 * Bytes one copy chunk holds: the local memory size rounded down to a multiple of the element
 * size and of the local memory alignment (at least one element).
 */
export function copyChunkBytes(config: HardwareConfig, elementBytes: number): number {
  const local = config.chip_config.core_config.local_memory_config.memory_size;
  const unit = Math.max(elementBytes, config.raptor_config.local_memory_alignment, 1);
  return Math.max(elementBytes, Math.floor(local / unit) * unit);
}

/**
 * Converts a function without scheduled computes whose graph outputs are arguments or constant
 * tensors (see the file comment). Returns false after a diagnostic for an output produced by
 * anything else; the function is then unchanged. A function with no tensor output is left as
 * it is.
 */
export function convertHostOnlyOutputs(func: Operation, block: Block, config: HardwareConfig, counters: ConversionCounters & { cores: number }): boolean {
  const ret = block.terminator;
  if (!ret || ret.definition !== ReturnOp || !ret.operands.some((v) => v.type instanceof RankedTensorType)) return true;
  let ok = true;
  for (const v of ret.operands) {
    if (v.type instanceof RankedTensorType && !hostReadable(v, block)) {
      ret.emitError(M.unsupportedOutput(v.definingOp?.name ?? 'a function argument of a dynamic shape'));
      ok = false;
    }
  }
  if (!ok) return false;
  const ctx = func.context;
  const lowering = new LoweringContext(ctx, config, { slots: undefined, outputs: new Map() }, counters);
  const b = OpBuilder.before(ret);
  // One buffer per returned operand: a value returned twice is two graph outputs of the bundle.
  const outputs: { readonly v: Value; readonly out: Value }[] = [];
  for (const v of ret.operands) {
    if (v.type instanceof RankedTensorType) outputs.push({ v, out: createAlloc(b, ret.location, MemRefType.get(ctx, v.type.shape, v.type.elementType)) });
  }
  const core = CoreOp.build(b, { weights: [], coreId: IntegerAttr.get(IntegerType.get(ctx, 32), 0) }, ret.location).op;
  counters.cores++;
  const body = new Block();
  core.regions[0]!.push(body);
  const sb = OpBuilder.atBlockEnd(body, ctx);
  for (const { v, out } of outputs) {
    const info = staticTensor(v.type)!;
    const elementType = (v.type as RankedTensorType).elementType;
    const chunk = copyChunkBytes(config, info.elementBytes);
    for (let at = 0; at < info.bytes; at += chunk) {
      const bytes = Math.min(chunk, info.bytes - at);
      const type = RankedTensorType.get(ctx, [bytes / info.elementBytes], elementType);
      const dst = lowering.empty(sb, type, ret.location);
      const y = MemcpHdOp.build(
        sb,
        { dst, src: v, dstOffset: lowering.constant(sb, 0), srcOffset: lowering.constant(sb, at), output: type, size: lowering.i32(bytes) },
        ret.location,
      ).output;
      counters.hostLoads++;
      MemcpDhOp.build(
        sb,
        { dst: out, src: y, dstOffset: lowering.constant(sb, at), srcOffset: lowering.constant(sb, 0), output: out.type, size: lowering.i32(bytes) },
        ret.location,
      );
      counters.hostStores++;
    }
  }
  HaltOp.build(sb, {}, ret.location);
  let k = 0;
  ret.setOperands(ret.operands.map((v) => (v.type instanceof RankedTensorType ? outputs[k++]!.out : v)));
  for (const arg of block.arguments) if (arg.type instanceof RankedTensorType) arg.type = MemRefType.get(ctx, arg.type.shape, arg.type.elementType);
  func.setAttr('function_type', TypeAttr.get(FunctionType.get(ctx, block.arguments.map((a) => a.type), ret.operands.map((v) => v.type))));
  return true;
}
