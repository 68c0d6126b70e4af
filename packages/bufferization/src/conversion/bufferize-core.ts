/**
 * Bufferization of one core stream (destination-passing style): every `tensor.empty` becomes a
 * `memref.alloc`, every pim op writes into the buffer of its destination operand and its result
 * *is* that buffer (uses of the result are redirected to the buffer, so liveness follows the
 * buffers). A destination is written in place when its tensor value has no later use and is
 * not also an input of the same op (the reference's overlap rules do not allow a destination
 * to alias an input it still reads); otherwise the destination is first copied into a fresh
 * buffer (`pim.memcp`), and the copy is counted.
 *
 * Weights (the core's weight arguments) stay tensors: they are resident array-group resources,
 * not local memory. Host buffers are memrefs already.
 */
import {
  DYNAMIC,
  FloatType,
  IndexType,
  IntegerAttr,
  IntegerType,
  MemRefType,
  OpBuilder,
  RankedTensorType,
  Traits,
  type Block,
  type Operation,
  type Type,
  type Value,
} from '@raptor-pim/ir-core';
import { MemcpOp, SendOp, getPimDestination, isHostOperand } from '@raptor-pim/pim-dialect';
import { EmptyOp, createAlloc } from '@raptor-pim/upstream-dialects';
import { BufferizationMessages as M } from '../diagnostics';

/** Bytes per element of a static element type. */
export function elementBytes(type: Type): number | undefined {
  if (type instanceof FloatType) return Math.ceil(type.width / 8);
  if (type instanceof IntegerType) return Math.ceil(type.width / 8);
  if (type instanceof IndexType) return 8;
  return undefined;
}

/** Byte sizes per (uniqued) type. */
const BYTE_SIZES = new WeakMap<Type, number | null>();

/** Byte size of a static tensor or memref type, or undefined. */
export function byteSizeOf(type: Type): number | undefined {
  const hit = BYTE_SIZES.get(type);
  if (hit !== undefined) return hit ?? undefined;
  const n = computeByteSize(type);
  BYTE_SIZES.set(type, n ?? null);
  return n;
}

function computeByteSize(type: Type): number | undefined {
  const t = type as { shape?: readonly number[]; elementType?: Type };
  if (!(type instanceof RankedTensorType) && !(type instanceof MemRefType)) return undefined;
  if (!t.shape || t.shape.some((d) => d === DYNAMIC || d < 0)) return undefined;
  const eb = elementBytes(t.elementType!);
  return eb === undefined ? undefined : t.shape.reduce((a, b) => a * b, 1) * eb;
}

/** What bufferizing one stream did. */
export interface BufferizeCounts {
  /** Buffers allocated (one per `tensor.empty` plus one per copy). */
  allocations: number;
  /** Destinations written in place. */
  inPlace: number;
  /** Copies inserted because a destination was still needed. */
  copies: number;
}

function isTensor(v: Value): boolean {
  return v.type instanceof RankedTensorType;
}

/** True when `op` has a tensor result or a tensor operand that is local data (not a weight, not host data). */
function touchesLocalTensors(op: Operation, weights: ReadonlySet<Value>): boolean {
  for (let i = 0; i < op.numResults; i++) if (isTensor(op.getResult(i))) return true;
  for (let i = 0; i < op.numOperands; i++) {
    const v = op.getOperand(i);
    if (isTensor(v) && !weights.has(v) && !isHostOperand(op, i)) return true;
  }
  return false;
}

/** True when `v` is used by an op after `op` (positions of the top-level ops, taken before any insertion). */
function usedAfter(v: Value, op: Operation, positions: ReadonlyMap<Operation, number>): boolean {
  const at = positions.get(op)!;
  for (let u = v.firstUse; u; u = u.nextUse) {
    let owner: Operation | null = u.owner;
    while (owner && owner.parent !== op.parent) owner = owner.getParentOp();
    const p = owner ? positions.get(owner) : undefined;
    if (p !== undefined && p > at) return true;
  }
  return false;
}

/**
 * Bufferizes the body of one `pim.core` / `pim.core_batch`. Returns undefined after reporting
 * diagnostics (the body may then be partially converted; the pass fails).
 */
export function bufferizeCoreBody(body: Block, weights: ReadonlySet<Value>, alignment: number): BufferizeCounts | undefined {
  const counts: BufferizeCounts = { allocations: 0, inPlace: 0, copies: 0 };
  const buffers = new Map<Value, Value>();
  const empties: Operation[] = [];
  const retyped: [Value, Value][] = [];
  const ctx = body.parentOp!.context;
  const index = IndexType.get(ctx);
  const memrefTypes = new Map<Type, MemRefType>();
  const alloc = (b: OpBuilder, at: Operation, type: RankedTensorType): Value => {
    counts.allocations++;
    let m = memrefTypes.get(type);
    if (!m) memrefTypes.set(type, (m = MemRefType.get(ctx, type.shape, type.elementType)));
    return createAlloc(b, at.location, m, [], { alignment });
  };
  const constant = (b: OpBuilder, at: Operation, n: number): Value =>
    b.create({ name: 'arith.constant', location: at.location, properties: { value: IntegerAttr.get(index, n) }, resultTypes: [index] }).getResult(0);
  let ok = true;
  const fail = (op: Operation, message: string): void => {
    op.emitError(message);
    ok = false;
  };
  const ops: Operation[] = [];
  const positions = new Map<Operation, number>();
  for (let op = body.firstOp; op; op = op.next) {
    positions.set(op, ops.length);
    ops.push(op);
  }
  for (const op of ops) {
    if (op.definition === EmptyOp) {
      const t = op.getResult(0).type as RankedTensorType;
      if (byteSizeOf(t) === undefined) {
        fail(op, M.dynamicShape(String(t)));
        continue;
      }
      buffers.set(op.getResult(0), alloc(OpBuilder.before(op), op, t));
      empties.push(op);
      continue;
    }
    if (!touchesLocalTensors(op, weights)) continue;
    if (op.numRegions > 0 || (!getPimDestination(op) && op.definition !== SendOp) || op.hasTrait(Traits.ConstantLike)) {
      fail(op, M.unsupportedTensorOp(op.name));
      continue;
    }
    const dst = getPimDestination(op);
    let dstIndex = -1;
    for (let i = 0; i < op.numOperands; i++) if (op.getOperand(i) === dst) dstIndex = i;
    // Operands: tensors -> their buffers (weights stay resources).
    for (let i = 0; i < op.numOperands; i++) {
      const v = op.getOperand(i);
      if (!isTensor(v) || weights.has(v) || isHostOperand(op, i)) continue; // host constants stay in host memory
      const buf = buffers.get(v);
      if (!buf) {
        fail(op, M.constantTensorOperand(op.name));
        break;
      }
      if (i !== dstIndex) op.setOperand(i, buf);
    }
    if (!ok) continue;
    if (dst && isTensor(dst) && dstIndex >= 0) {
      let buf = buffers.get(dst)!;
      let readsDst = false;
      for (let i = 0; i < op.numOperands; i++) if (i !== dstIndex && op.getOperand(i) === dst) readsDst = true;
      if (usedAfter(dst, op, positions) || readsDst) {
        const b = OpBuilder.before(op);
        const copy = alloc(b, op, dst.type as RankedTensorType);
        const zero = constant(b, op, 0);
        MemcpOp.build(
          b,
          { dst: copy, src: buf, dstOffset: zero, srcOffset: zero, output: copy.type, size: IntegerAttr.get(IntegerType.get(ctx, 32), byteSizeOf(dst.type)!) },
          op.location,
        );
        counts.copies++;
        buf = copy;
      } else counts.inPlace++;
      op.setOperand(dstIndex, buf);
      const result = op.getResult(0);
      buffers.set(result, buf);
      retyped.push([result, buf]);
    } else if (op.numResults > 0 && dst) {
      // A host destination (memcp_dh): the result is the host buffer itself.
      op.getResult(0).replaceAllUsesWith(dst);
    }
  }
  if (!ok) return undefined;
  // Results keep their tensor type until every user was rewired (the in-place test reads the
  // remaining tensor uses); now they are the destination buffers.
  for (const [result, buf] of retyped) {
    result.replaceAllUsesWith(buf);
    result.type = buf.type;
  }
  for (const e of empties) {
    if (e.getResult(0).useEmpty) e.erase();
  }
  return counts;
}
