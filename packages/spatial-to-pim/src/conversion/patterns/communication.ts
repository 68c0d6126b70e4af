/**
 * Transfers and synchronization: `spat.channel_send/receive` -> `pim.send/receive` (core
 * addressed, matched per core pair in program order), host slots -> `pim.memcp_dh` +
 * `pim.sync` (writer) and `pim.wait` + `pim.memcp_hd` (reader) on the function's host-slot
 * buffer, `spat.sync/wait` -> `pim.sync/wait`. The READY/FREE protocol of the synchronization
 * contract is carried by the schedule's own `spat.sync`/`spat.wait` (FREE) and the slot ops
 * (READY); the lowering keeps their order exactly.
 */
import { MemcpDhOp, MemcpHdOp, ReceiveOp, SendOp, SyncOp as PimSyncOp, WaitOp as PimWaitOp } from '@raptor-pim/pim-dialect';
import {
  ChannelReceiveOp,
  ChannelSendOp,
  HostStoreSyncOp,
  HostWaitLoadOp,
  SyncOp,
  WaitOp,
} from '@raptor-pim/spatial-dialect';
import { SpatToPimMessages as M } from '../../diagnostics';
import { staticTensor } from '../stream-lowering';
import { lowerOp, type ScheduledOpPattern } from './pattern';

const SEND = lowerOp(ChannelSendOp, (view, op, s) => {
  const info = staticTensor(view.input.type);
  if (!info) return s.error(op, M.dynamicShape(op.name, String(view.input.type)));
  const input = s.value(view.input, op);
  SendOp.build(s.b, { input, targetCoreId: s.value(view.targetCoreId, op), size: s.i32(info.bytes) }, op.location);
  s.counters.transfers++;
  return true;
});

const RECEIVE = lowerOp(ChannelReceiveOp, (view, op, s) => {
  const t = op.getResult(0).type;
  const info = staticTensor(t);
  if (!info) return s.error(op, M.dynamicShape(op.name, String(t)));
  const y = ReceiveOp.build(
    s.b,
    { outputBuffer: s.empty(t, op), outputOffset: s.constant(0), sourceCoreId: s.value(view.sourceCoreId, op), output: t, size: s.i32(info.bytes) },
    op.location,
  ).output;
  s.counters.transfers++;
  s.map(op.getResult(0), y);
  return true;
});

const HOST_STORE = lowerOp(HostStoreSyncOp, (view, op, s) => {
  const info = staticTensor(view.input.type);
  if (!info) return s.error(op, M.dynamicShape(op.name, String(view.input.type)));
  const slots = s.host.slots!;
  MemcpDhOp.build(
    s.b,
    {
      dst: slots,
      src: s.value(view.input, op),
      dstOffset: s.value(view.hostOffset, op),
      srcOffset: s.constant(0),
      output: slots.type,
      size: s.i32(info.bytes),
    },
    op.location,
  );
  PimSyncOp.build(s.b, { targetCoreId: s.value(view.targetCoreId, op), eventRegister: s.value(view.eventRegister, op) }, op.location);
  s.counters.hostStores++;
  return true;
});

const HOST_LOAD = lowerOp(HostWaitLoadOp, (view, op, s) => {
  const t = op.getResult(0).type;
  const info = staticTensor(t);
  if (!info) return s.error(op, M.dynamicShape(op.name, String(t)));
  PimWaitOp.build(s.b, { eventRegister: s.value(view.eventRegister, op), waitValue: s.value(view.waitValue, op) }, op.location);
  const y = MemcpHdOp.build(
    s.b,
    {
      dst: s.empty(t, op),
      src: s.host.slots!,
      dstOffset: s.constant(0),
      srcOffset: s.value(view.hostOffset, op),
      output: t,
      size: s.i32(info.bytes),
    },
    op.location,
  ).output;
  s.counters.hostLoads++;
  s.map(op.getResult(0), y);
  return true;
});

const SYNC = lowerOp(SyncOp, (view, op, s) => {
  PimSyncOp.build(s.b, { targetCoreId: s.value(view.targetCoreId, op), eventRegister: s.value(view.eventRegister, op) }, op.location);
  return true;
});

const WAIT = lowerOp(WaitOp, (view, op, s) => {
  PimWaitOp.build(s.b, { eventRegister: s.value(view.eventRegister, op), waitValue: s.value(view.waitValue, op) }, op.location);
  return true;
});

/** The transfer and synchronization patterns. */
export const COMMUNICATION_PATTERNS: readonly ScheduledOpPattern[] = [SEND, RECEIVE, HOST_STORE, HOST_LOAD, SYNC, WAIT];
