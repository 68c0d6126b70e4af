/**
 * Copies, transfers and synchronization of the `pim` dialect: `pim.memcp`, `pim.memcp_hd`,
 * `pim.memcp_dh`, `pim.receive`, `pim.send`, `pim.sync`, `pim.wait`. None has a custom
 * verifier (the reference lists their range, peer and ordering requirements as later checks);
 * `pim.receive` gets the destination-interface check (result type = destination type).
 */
import {
  I32Attr,
  Index,
  MemoryEffects,
  bufferEffects,
  defineOp,
  memoryEffects,
  prop,
  single,
  type AnyOpDefinition,
  type MemoryEffect,
  type Value,
} from '@raptor-pim/ir-core';
import { TensorOrMemRef, parseAttrDictWithProperties, printAttrDictWithProperties, resolveAll, verifyDestinationResult } from '../asm';
import { PimChannelResource, PimEventRegisterResource, destinationAt, destinationBufferEffects } from '../interfaces';
import { indexType, parseBufferTypes, parseOffsetsBuffers, printOffsetsBuffers } from './vector';

function copyOp(name: string, summary: string) {
  return defineOp({
    name,
    summary,
    operands: {
      dst: single(TensorOrMemRef),
      src: single(TensorOrMemRef),
      dstOffset: single(Index),
      srcOffset: single(Index),
    },
    results: { output: single(TensorOrMemRef) },
    attributes: { size: prop(I32Attr) },
    interfaces: [destinationAt(0), destinationBufferEffects],
    parse: (p, state) => parseOffsetsBuffers(p, state, 2, 2, 'size'),
    print: (op, p) => printOffsetsBuffers(op, p, 2, 2),
  });
}

/** `pim.memcp[%dstOffset, %srcOffset](%dst, %src) {size}`: device-local byte copy. */
export const MemcpOp = copyOp('pim.memcp', 'Copy device-local bytes');
/** `pim.memcp_hd`: host (source) to device (destination) byte copy. */
export const MemcpHdOp = copyOp('pim.memcp_hd', 'Copy host to device');
/** `pim.memcp_dh`: device (source) to host (destination) byte copy. */
export const MemcpDhOp = copyOp('pim.memcp_dh', 'Copy device to host');

/** `pim.receive[%offset](%dst, %source) {size} : T -> R`: receive bytes from a core. Operands: dst, offset, source. */
export const ReceiveOp = defineOp({
  name: 'pim.receive',
  summary: 'Receive into local storage',
  operands: {
    outputBuffer: single(TensorOrMemRef),
    outputOffset: single(Index),
    sourceCoreId: single(Index),
  },
  results: { output: single(TensorOrMemRef) },
  attributes: { size: prop(I32Attr) },
  // Consumes a message from the channel (read and write) and writes the destination buffer.
  interfaces: [
    destinationAt(0),
    memoryEffects((op) => [
      MemoryEffects.read(PimChannelResource),
      MemoryEffects.write(PimChannelResource),
      ...bufferEffects([], [op.getOperand(0)]),
    ]),
  ],
  parse(p, state) {
    const off = p.parseOperandList('square', 1);
    const ops = off && p.parseOperandList('paren', 2);
    if (!off || !ops) return false;
    if (!parseAttrDictWithProperties(p, state, ['size']) || !p.parseColon()) return false;
    const types = parseBufferTypes(p, 1);
    if (!types) return false;
    const it = indexType(p);
    const operands: Value[] = [];
    if (!resolveAll(p, [ops[0]!, off[0]!, ops[1]!], [types.inputs[0]!, it, it], operands)) return false;
    state.operands = operands;
    state.resultTypes = types.results;
    return true;
  },
  print(op, p) {
    p.print('[');
    p.printOperand(op.getOperand(1));
    p.print('](');
    p.printOperands([op.getOperand(0), op.getOperand(2)]);
    p.print(')');
    printAttrDictWithProperties(op, p);
    p.print(' : ');
    p.printType(op.getOperand(0).type);
    p.print(' -> ');
    p.printTypes(op.resultTypes);
  },
  verify: (v) => verifyDestinationResult(v.op, 'output', v.op.getOperand(0).type, v.op.getResult(0).type),
});

/** `pim.send(%x, %target) {size} : T -> ()`: send the first `size` bytes of `%x`. */
export const SendOp = defineOp({
  name: 'pim.send',
  summary: 'Send local data',
  operands: { input: single(TensorOrMemRef), targetCoreId: single(Index) },
  attributes: { size: prop(I32Attr) },
  interfaces: [memoryEffects((op) => [MemoryEffects.write(PimChannelResource), ...bufferEffects([op.getOperand(0)], [])])],
  parse(p, state) {
    const ops = p.parseOperandList('paren', 2);
    if (!ops) return false;
    if (!parseAttrDictWithProperties(p, state, ['size']) || !p.parseColon()) return false;
    const types = parseBufferTypes(p, 1);
    if (!types) return false;
    const operands: Value[] = [];
    if (!resolveAll(p, ops, [types.inputs[0]!, indexType(p)], operands)) return false;
    state.operands = operands;
    state.resultTypes = types.results;
    return true;
  },
  print(op, p) {
    p.print('(');
    p.printOperands(op.operands);
    p.print(')');
    printAttrDictWithProperties(op, p);
    p.print(' : ');
    p.printType(op.getOperand(0).type);
    p.print(' -> ()');
  },
});

function keywordPair(name: string, summary: string, keyword: string, first: string, second: string, effects: readonly MemoryEffect[]) {
  return defineOp({
    name,
    summary,
    operands: { [first]: single(Index), [second]: single(Index) } as Record<string, ReturnType<typeof single>>,
    interfaces: [memoryEffects(() => effects)],
    parse(p, state) {
      const a = p.parseOperand();
      if (!a || !p.parseKeyword(keyword)) return false;
      const b = p.parseOperand();
      if (!b) return false;
      if (!parseAttrDictWithProperties(p, state, [])) return false;
      const operands: Value[] = [];
      if (!resolveAll(p, [a, b], [indexType(p), indexType(p)], operands)) return false;
      state.operands = operands;
      return true;
    },
    print(op, p) {
      p.print(' ');
      p.printOperand(op.getOperand(0));
      p.print(` ${keyword} `);
      p.printOperand(op.getOperand(1));
      printAttrDictWithProperties(op, p);
    },
  });
}

/** `pim.sync %target event %event`: increment event register `%event` of core `%target`. */
export const SyncOp = keywordPair('pim.sync', 'Signal an event register', 'event', 'targetCoreId', 'eventRegister', [
  MemoryEffects.write(PimEventRegisterResource),
]);
/** `pim.wait %event value %count`: block until the local register equals `%count`, then reset it. */
export const WaitOp = keywordPair('pim.wait', 'Wait for an exact event count', 'value', 'eventRegister', 'waitValue', [
  MemoryEffects.read(PimEventRegisterResource),
  MemoryEffects.write(PimEventRegisterResource),
]);

/** The copy, transfer and synchronization op definitions. */
export const TRANSFER_OPS: readonly AnyOpDefinition[] = [MemcpOp, MemcpHdOp, MemcpDhOp, ReceiveOp, SendOp, SyncOp, WaitOp];
