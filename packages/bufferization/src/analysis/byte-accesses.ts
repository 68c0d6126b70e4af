/**
 * The byte ranges that the byte-addressed pim ops touch in their buffer operands: `pim.memcp`,
 * `pim.memcp_hd`, `pim.memcp_dh` (destination and source at their offsets, `size` bytes),
 * `pim.receive` (destination at its offset), `pim.send` (the first `size` bytes of the payload)
 * and `pim.vmv` (destination: `length` contiguous elements; source: a strided gather of `length`
 * elements). Offsets are index operands; they resolve per lane of a batch.
 */
import { IntegerAttr, MemRefType, RankedTensorType, type Operation, type Value } from '@raptor-pim/ir-core';
import { MemcpDhOp, MemcpHdOp, MemcpOp, ReceiveOp, SendOp, VMVOp } from '@raptor-pim/pim-dialect';
import { evaluateStaticIndex } from '@raptor-pim/upstream-dialects';
import { elementBytes } from '../conversion/bufferize-core';

/** One byte-range access of an operand of an op. */
export interface ByteAccess {
  /** The operand accessed. */
  readonly operand: number;
  /** Its byte offset: an index operand, or a fixed number. */
  readonly offset: Value | number;
  /** The operand holding the offset (undefined for a fixed offset). */
  readonly offsetOperand?: number;
  /** Bytes accessed from the offset (for a strided gather: see `stride`). */
  readonly size: number;
  /** Strided gather: `length` elements of `elementBytes` bytes, `value` elements apart. */
  readonly stride?: { readonly value: Value; readonly length: number; readonly elementBytes: number };
}

/** A resolved access: `[offset, offset + size)`, or what did not resolve. */
export type ResolvedAccess = { readonly offset: number; readonly size: number } | { readonly unresolved: 'offset' | 'stride' };

function intProp(op: Operation, name: string): number {
  const a = op.getProperty(name);
  return a instanceof IntegerAttr ? Number(a.value) : 0;
}

function elementBytesOf(v: Value): number {
  const t = v.type;
  return (t instanceof MemRefType || t instanceof RankedTensorType ? elementBytes(t.elementType) : undefined) ?? 1;
}

/** The byte accesses of `op` (empty for ops that are not byte-addressed). */
export function byteAccessesOf(op: Operation): ByteAccess[] {
  const d = op.definition;
  if (d === MemcpOp || d === MemcpHdOp || d === MemcpDhOp) {
    const size = intProp(op, 'size');
    return [
      { operand: 0, offset: op.getOperand(2), offsetOperand: 2, size },
      { operand: 1, offset: op.getOperand(3), offsetOperand: 3, size },
    ];
  }
  if (d === ReceiveOp) return [{ operand: 0, offset: op.getOperand(1), offsetOperand: 1, size: intProp(op, 'size') }];
  if (d === SendOp) return [{ operand: 0, offset: 0, size: intProp(op, 'size') }];
  if (d === VMVOp) {
    const length = intProp(op, 'length');
    return [
      { operand: 0, offset: op.getOperand(2), offsetOperand: 2, size: length * elementBytesOf(op.getOperand(0)) },
      { operand: 1, offset: op.getOperand(3), offsetOperand: 3, size: 0, stride: { value: op.getOperand(4), length, elementBytes: elementBytesOf(op.getOperand(1)) } },
    ];
  }
  return [];
}

/** True for the ops {@link byteAccessesOf} describes. */
export function isByteAddressed(op: Operation): boolean {
  const d = op.definition;
  return d === MemcpOp || d === MemcpHdOp || d === MemcpDhOp || d === ReceiveOp || d === SendOp || d === VMVOp;
}

/** The byte range of `access` with the lane bindings `env`. */
export function resolveByteAccess(access: ByteAccess, env: ReadonlyMap<Value, number>): ResolvedAccess {
  const offset = typeof access.offset === 'number' ? access.offset : evaluateStaticIndex(access.offset, env);
  if (offset === undefined) return { unresolved: 'offset' };
  if (!access.stride) return { offset, size: access.size };
  const stride = evaluateStaticIndex(access.stride.value, env);
  if (stride === undefined) return { unresolved: 'stride' };
  const { length, elementBytes: eb } = access.stride;
  return { offset, size: length > 0 ? (length - 1) * stride * eb + eb : 0 };
}
