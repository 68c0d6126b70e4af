/**
 * Buffers sized by what their accesses reach. spat-to-pim reconstructs an input read from other
 * cores in a buffer of the whole tensor and copies the received fragment into it, although the
 * stream only ever touches the fragment's rows. When every access of a local buffer is a
 * byte-addressed copy or transfer ({@link byteAccessesOf}) whose offsets resolve for every lane,
 * the buffer keeps only the rows of its outermost non-unit dimension that the accesses reach:
 * `memref<1x34x34x16xf32>` written and read in bytes [0, 13056) becomes `memref<1x6x34x16xf32>`.
 * When the reached rows do not start at row 0 and every offset is a constant, the rows before
 * them are dropped too and the offsets rebased (new `arith.constant`s); otherwise the buffer
 * keeps its first rows. Other uses (vector ops read and write whole buffers) keep the buffer as
 * it is. The results of the ops writing the buffer take its new type.
 */
import { ConstantOp, IndexType, IntegerAttr, MemRefType, OpBuilder, type Block, type Operation, type Value } from '@raptor-pim/ir-core';
import { getPimDestination } from '@raptor-pim/pim-dialect';
import { AllocOp } from '@raptor-pim/upstream-dialects';
import { byteAccessesOf, isByteAddressed, resolveByteAccess, type ByteAccess } from '../analysis/byte-accesses';
import { byteSizeOf } from './bufferize-core';

/** What shrinking did to one stream. */
export interface ShrinkCounts {
  /** Buffers given fewer rows. */
  shrunk: number;
  /** Bytes the shrunk buffers no longer allocate. */
  bytesSaved: number;
}

interface Use {
  readonly op: Operation;
  readonly access: ByteAccess;
}

/** The byte accesses of `buffer`, or undefined when some use is not a resolvable byte access. */
function accessesOfBuffer(buffer: Value, body: Block): Use[] | undefined {
  // Most buffers have a vector use: refuse those before describing any access.
  for (let u = buffer.firstUse; u; u = u.nextUse) if (u.owner.parent !== body || !isByteAddressed(u.owner)) return undefined;
  const uses: Use[] = [];
  for (let u = buffer.firstUse; u; u = u.nextUse) {
    const access = byteAccessesOf(u.owner).find((a) => a.operand === u.index);
    if (!access) return undefined;
    uses.push({ op: u.owner, access });
  }
  return uses;
}

function constantIndex(v: Value | number): number | undefined {
  if (typeof v === 'number') return v;
  const c = v.definingOp ? ConstantOp.match(v.definingOp) : undefined;
  const a = c?.value;
  return a instanceof IntegerAttr ? Number(a.value) : undefined;
}

/**
 * Shrinks the buffers of one bufferized stream body (`lanes`: the lane bindings, one map per
 * lane; a `pim.core` has one empty map).
 */
export function shrinkBuffersToAccesses(body: Block, lanes: readonly ReadonlyMap<Value, number>[]): ShrinkCounts {
  const counts: ShrinkCounts = { shrunk: 0, bytesSaved: 0 };
  const ctx = body.parentOp!.context;
  const index = IndexType.get(ctx);
  for (let op = body.firstOp; op; op = op.next) {
    if (op.definition !== AllocOp) continue;
    const buffer = op.getResult(0);
    const type = buffer.type;
    const bytes = byteSizeOf(type);
    if (!(type instanceof MemRefType) || bytes === undefined || bytes === 0 || buffer.useEmpty) continue;
    const dim = type.shape.findIndex((d) => d > 1);
    if (dim < 0) continue;
    const uses = accessesOfBuffer(buffer, body);
    if (!uses) continue;
    let lo = Infinity;
    let hi = 0;
    let resolved = true;
    for (const { access } of uses) {
      for (const env of lanes) {
        const r = resolveByteAccess(access, env);
        if ('unresolved' in r) {
          resolved = false;
          break;
        }
        lo = Math.min(lo, r.offset);
        hi = Math.max(hi, r.offset + r.size);
      }
      if (!resolved || (lo <= 0 && hi >= bytes)) break; // every byte is reached: nothing to drop
    }
    if (!resolved || lo < 0 || hi > bytes || (lo === 0 && hi === bytes)) continue; // out-of-range accesses: pim-verify-memory reports them
    const rowBytes = bytes / type.shape[dim]!;
    const rebase = uses.every((u) => constantIndex(u.access.offset) !== undefined);
    const firstRow = rebase && lo !== Infinity ? Math.floor(lo / rowBytes) : 0;
    const rows = Math.max(1, Math.ceil(hi / rowBytes) - firstRow);
    if (rows >= type.shape[dim]!) continue;
    const shape = [...type.shape];
    shape[dim] = rows;
    const shrunk = MemRefType.get(ctx, shape, type.elementType);
    if (firstRow > 0) {
      const shift = firstRow * rowBytes;
      const rebased = new Map<number, Value>();
      // The new offsets right after the allocation (so they dominate every access).
      const b = OpBuilder.before(op.next!);
      for (const { op: user, access } of uses) {
        if (access.offsetOperand === undefined) continue; // a fixed offset is 0 (pim.send), so no row was dropped
        const at = constantIndex(access.offset)! - shift;
        let v = rebased.get(at);
        if (!v) {
          v = ConstantOp.build(b, { result: index, value: IntegerAttr.get(index, at) }, user.location).result;
          rebased.set(at, v);
        }
        user.setOperand(access.offsetOperand, v);
      }
    }
    buffer.type = shrunk;
    for (const { op: user } of uses) if (getPimDestination(user) === buffer && user.numResults > 0) user.getResult(0).type = shrunk;
    counts.shrunk++;
    counts.bytesSaved += bytes - byteSizeOf(shrunk)!;
  }
  return counts;
}
