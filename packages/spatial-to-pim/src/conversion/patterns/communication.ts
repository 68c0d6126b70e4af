/**
 * Transfers and synchronization: `spat.channel_send/receive` -> `pim.send/receive` (core
 * addressed, matched per core pair in program order), host slots -> `pim.memcp_dh` +
 * `pim.sync` (writer) and `pim.wait` + `pim.memcp_hd` (reader) on the function's host-slot
 * buffer, `spat.sync/wait` -> `pim.sync/wait`. The READY/FREE protocol of the synchronization
 * contract is carried by the schedule's own `spat.sync`/`spat.wait` (FREE) and the slot ops
 * (READY); the lowering keeps their order exactly.
 */
import { createConversionPattern, type ConversionPattern, printType } from '@raptor-pim/ir-core';
import { MemcpDhOp, MemcpHdOp, ReceiveOp, SendOp, SyncOp as PimSyncOp, WaitOp as PimWaitOp } from '@raptor-pim/pim-dialect';
import { ChannelReceiveOp, ChannelSendOp, HostStoreSyncOp, HostWaitLoadOp, SyncOp, WaitOp } from '@raptor-pim/spatial-dialect';
import { SpatToPimMessages as M } from '../../diagnostics';
import { staticTensor, type LoweringContext } from '../lowering-context';

/** The transfer and synchronization patterns. */
export function communicationPatterns(ctx: LoweringContext): ConversionPattern[] {
  return [
    createConversionPattern(ChannelSendOp, (view, adaptor, rw) => {
      const op = view.op;
      const info = staticTensor(view.input.type);
      if (!info) return ctx.error(op, M.dynamicShape(op.name, printType(view.input.type)));
      SendOp.build(rw, { input: adaptor.input, targetCoreId: adaptor.targetCoreId, size: ctx.i32(info.bytes) }, op.location);
      ctx.counters.transfers++;
      rw.eraseOp(op);
      return true;
    }),
    createConversionPattern(ChannelReceiveOp, (view, adaptor, rw) => {
      const op = view.op;
      const t = op.getResult(0).type;
      const info = staticTensor(t);
      if (!info) return ctx.error(op, M.dynamicShape(op.name, printType(t)));
      const y = ReceiveOp.build(
        rw,
        { outputBuffer: ctx.empty(rw, t, op.location), outputOffset: ctx.constant(rw, 0), sourceCoreId: adaptor.sourceCoreId, output: t, size: ctx.i32(info.bytes) },
        op.location,
      ).output;
      ctx.counters.transfers++;
      rw.replaceOp(op, [y]);
      return true;
    }),
    createConversionPattern(HostStoreSyncOp, (view, adaptor, rw) => {
      const op = view.op;
      const info = staticTensor(view.input.type);
      if (!info) return ctx.error(op, M.dynamicShape(op.name, printType(view.input.type)));
      const slots = ctx.host.slots!;
      MemcpDhOp.build(
        rw,
        { dst: slots, src: adaptor.input, dstOffset: adaptor.hostOffset, srcOffset: ctx.constant(rw, 0), output: slots.type, size: ctx.i32(info.bytes) },
        op.location,
      );
      PimSyncOp.build(rw, { targetCoreId: adaptor.targetCoreId, eventRegister: adaptor.eventRegister }, op.location);
      ctx.counters.hostStores++;
      rw.eraseOp(op);
      return true;
    }),
    createConversionPattern(HostWaitLoadOp, (view, adaptor, rw) => {
      const op = view.op;
      const t = op.getResult(0).type;
      const info = staticTensor(t);
      if (!info) return ctx.error(op, M.dynamicShape(op.name, printType(t)));
      PimWaitOp.build(rw, { eventRegister: adaptor.eventRegister, waitValue: adaptor.waitValue }, op.location);
      const y = MemcpHdOp.build(
        rw,
        { dst: ctx.empty(rw, t, op.location), src: ctx.host.slots!, dstOffset: ctx.constant(rw, 0), srcOffset: adaptor.hostOffset, output: t, size: ctx.i32(info.bytes) },
        op.location,
      ).output;
      ctx.counters.hostLoads++;
      rw.replaceOp(op, [y]);
      return true;
    }),
    createConversionPattern(SyncOp, (view, adaptor, rw) => {
      PimSyncOp.build(rw, { targetCoreId: adaptor.targetCoreId, eventRegister: adaptor.eventRegister }, view.op.location);
      rw.eraseOp(view.op);
      return true;
    }),
    createConversionPattern(WaitOp, (view, adaptor, rw) => {
      PimWaitOp.build(rw, { eventRegister: adaptor.eventRegister, waitValue: adaptor.waitValue }, view.op.location);
      rw.eraseOp(view.op);
      return true;
    }),
  ];
}
