/**
 * Whole-buffer copies forwarded: `pim.memcp[0, 0](%dst, %src) {size = bytes}` that copies every
 * byte of `%src` into a buffer `%dst` of the same bytes, where the copy is the last use of
 * `%src` and the first use of `%dst`, makes `%dst` a second name of the same bytes. The copy is
 * dropped and `%dst`'s later accesses use `%src` (so one buffer is live instead of two at the
 * copy): `%src` itself when the types are equal, else a view of it with `%dst`'s shape
 * (`memref.collapse_shape` to one dimension, then `memref.expand_shape`; both buffers are
 * contiguous, so the view covers the same bytes in the same order). spat-to-pim emits such
 * copies for reshapes (`tensor.collapse_shape` / `expand_shape`) and when it moves a received
 * fragment into the buffer that reconstructs the input (once that buffer has the fragment's
 * rows, {@link shrinkBuffersToAccesses}). Liveness follows the views
 * ({@link bufferViewAliases}).
 */
import { ConstantOp, IntegerAttr, MemRefType, OpBuilder, type Block, type OpOperand, type Operation, type Value } from '@raptor-pim/ir-core';
import { MemcpOp, VMMOp, getPimDestination } from '@raptor-pim/pim-dialect';
import { AllocOp, CollapseShapeOp, ExpandShapeOp, SubViewOp, createCollapseShape, createExpandShape, canonicalStrides, computeRankReductionMask, createSubView, stridedLayout } from '@raptor-pim/upstream-dialects';
import { byteSizeOf, elementBytes } from './bufferize-core';

function isConstantZero(v: Value): boolean {
  return constantIndex(v) === 0;
}

/** True for the view ops forwarding makes (`memref.collapse_shape`, `memref.expand_shape`). */
export function isBufferView(op: Operation): boolean {
  return op.definition === CollapseShapeOp || op.definition === ExpandShapeOp;
}

/** True for the ops whose result aliases bytes of their source buffer: {@link isBufferView}'s and `memref.subview`. */
function isBufferAlias(op: Operation): boolean {
  return isBufferView(op) || op.definition === SubViewOp;
}

/**
 * The values aliasing the buffer used by `use`: the result of a view op of it (or of a
 * `memref.subview`, {@link forwardSliceCopiesToViews}; the
 * `aliasesOf` option of ir-core's `getLiveIntervals`, so a buffer stays live while a view of it
 * is used).
 */
export function bufferViewAliases(use: OpOperand): readonly Value[] {
  return use.index === 0 && isBufferAlias(use.owner) ? [use.owner.getResult(0)] : [];
}

/** True when a buffer of type `to` can be a view of every byte of a buffer of type `from`. */
function reshapable(from: MemRefType, to: MemRefType): boolean {
  return (
    from.elementType === to.elementType &&
    from.layout === undefined &&
    to.layout === undefined &&
    from.memorySpace === to.memorySpace &&
    from.shape.length > 0 &&
    to.shape.length > 0 &&
    byteSizeOf(from) === byteSizeOf(to)
  );
}

/** A view of `src` with the type `type` built before `at` (undefined when the view ops refuse it). */
function viewAs(src: Value, type: MemRefType, at: Operation): Value | undefined {
  const b = OpBuilder.before(at);
  const from = src.type as MemRefType;
  const made: Operation[] = [];
  let v: Value | undefined = src;
  if (from.shape.length !== 1) v = createCollapseShape(b, at.location, src, [from.shape.map((_, d) => d)]);
  if (v?.definingOp && v !== src) made.push(v.definingOp);
  if (v && type.shape.length !== 1) v = createExpandShape(b, at.location, v, [type.shape.map((_, d) => d)], type.shape);
  if (v?.definingOp && v !== src && !made.includes(v.definingOp)) made.push(v.definingOp);
  if (v && v.type === type) return v;
  for (const op of made.reverse()) op.erase();
  return undefined;
}

/** The top-level op of `body` holding `op` (itself when it is top-level). */
function inBody(body: Block, op: Operation): Operation | null {
  let o: Operation | null = op;
  while (o && o.parent !== body) o = o.getParentOp();
  return o;
}

/** Forwards the whole-buffer copies of one bufferized stream body; returns how many were dropped. */
export function forwardWholeCopies(body: Block): number {
  const positions = new Map<Operation, number>();
  let p = 0;
  for (let op = body.firstOp; op; op = op.next) positions.set(op, p++);
  /** First and last positions of the uses of `v`, other than `except`. */
  const useRange = (v: Value, except: Operation): { first: number; last: number } => {
    let first = Infinity;
    let last = -1;
    for (let u = v.firstUse; u; u = u.nextUse) {
      if (u.owner === except) continue;
      const top = inBody(body, u.owner);
      const at = top ? positions.get(top) : undefined;
      if (at === undefined) continue;
      first = Math.min(first, at);
      last = Math.max(last, at);
    }
    return { first, last };
  };
  let dropped = 0;
  for (let op = body.firstOp; op; ) {
    const next = op.next;
    const copy = MemcpOp.match(op);
    if (copy) {
      const dst = op.getOperand(0);
      const src = op.getOperand(1);
      const bytes = byteSizeOf(dst.type);
      const size = op.getProperty('size');
      const at = positions.get(op)!;
      if (
        dst !== src &&
        dst.type instanceof MemRefType &&
        src.type instanceof MemRefType &&
        (dst.type === src.type || reshapable(src.type, dst.type)) &&
        dst.definingOp?.definition === AllocOp &&
        (src.definingOp?.definition === AllocOp || (src.definingOp !== null && isBufferView(src.definingOp))) &&
        dst.definingOp.parent === body &&
        src.definingOp.parent === body &&
        bytes !== undefined &&
        size instanceof IntegerAttr &&
        Number(size.value) === bytes &&
        isConstantZero(op.getOperand(2)) &&
        isConstantZero(op.getOperand(3)) &&
        useRange(src, op).last < at &&
        useRange(dst, op).first > at
      ) {
        const dstAlloc = dst.definingOp;
        const same = dst.type === src.type ? src : viewAs(src, dst.type, op);
        if (same) {
          op.getResult(0).replaceAllUsesWith(same);
          op.erase();
          dst.replaceAllUsesWith(same);
          dstAlloc.erase();
          dropped++;
        }
      }
    }
    op = next;
  }
  return dropped;
}

/** The constant value of an index operand, undefined when it is not a constant. */
function constantIndex(v: Value): number | undefined {
  const a = v.definingOp ? ConstantOp.match(v.definingOp)?.value : undefined;
  return a instanceof IntegerAttr ? Number(a.value) : undefined;
}

/** The buffer a view chain starts from (`memref.collapse_shape` / `expand_shape` / `subview` followed back). */
function rootBuffer(v: Value): Value {
  let r = v;
  while (r.definingOp && isBufferAlias(r.definingOp)) r = r.definingOp.getOperand(0);
  return r;
}

/**
 * Copies through a temporary forwarded: a local buffer `%t` written once by
 * `pim.memcp[%d, %a](%t, %x) {size = s}` and then only read, by `pim.memcp[%b, %c](%y, %t)` copies
 * that follow it directly (nothing but those reads, allocations and constants between), each
 * inside the bytes written, becomes the reads copying from `%x` at `%a + %c - %d`; the write and
 * the buffer are dropped. spat-to-pim emits such pairs where a slice of one tensor is inserted
 * into another (a streaming window's overlap moved into the next window, a loaded run placed in a
 * window): without the temporary, its bytes are never live. A read into a buffer of `%x`'s own
 * (its root through views) is left alone (the ranges could overlap). Returns how many
 * temporaries were dropped.
 */
export function forwardCopiesThroughTemporaries(body: Block): number {
  let dropped = 0;
  for (let op = body.firstOp; op; ) {
    const next = op.next;
    const write = MemcpOp.match(op) ? op : undefined;
    const t = write?.getOperand(0);
    if (write && t && t.definingOp?.definition === AllocOp && t.definingOp.parent === body && !write.getResult(0).firstUse) {
      const x = write.getOperand(1);
      const d = constantIndex(write.getOperand(2));
      const a = constantIndex(write.getOperand(3));
      const sizeAttr = write.getProperty('size');
      const s = sizeAttr instanceof IntegerAttr ? Number(sizeAttr.value) : undefined;
      const reads: Operation[] = [];
      let ok = d !== undefined && a !== undefined && s !== undefined && x !== t && x.definingOp?.parent === body;
      for (let u = t.firstUse; ok && u; u = u.nextUse) {
        if (u.owner === write) continue;
        const r = u.owner;
        const c = MemcpOp.match(r) ? constantIndex(r.getOperand(3)) : undefined;
        const rs = r.getProperty('size');
        ok =
          u.index === 1 &&
          r.parent === body &&
          c !== undefined &&
          rs instanceof IntegerAttr &&
          c >= d! &&
          c + Number(rs.value) <= d! + s! &&
          rootBuffer(r.getOperand(0)) !== rootBuffer(x);
        if (ok) reads.push(r);
      }
      // The reads follow the write directly: nothing between can change the bytes of %x.
      if (ok && reads.length > 0) {
        const pending = new Set(reads);
        let at: Operation | null = write.next;
        while (at && pending.size > 0) {
          if (pending.has(at)) pending.delete(at);
          else if (at.definition !== AllocOp && !ConstantOp.match(at)) break;
          at = at.next;
        }
        if (pending.size === 0) {
          for (const r of reads) {
            const c = constantIndex(r.getOperand(3))!;
            const offset = a! + c - d!;
            const b = OpBuilder.before(r);
            const index = r.getOperand(3).type;
            // The write's source offset where the read starts at the written bytes (it dominates the read).
            const k = offset === c ? r.getOperand(3) : c === d ? write.getOperand(3) : ConstantOp.build(b, { result: index, value: IntegerAttr.get(index, offset) }, r.location).op.getResult(0);
            r.setOperand(1, x);
            r.setOperand(3, k);
          }
          const alloc = t.definingOp;
          write.erase();
          alloc.erase();
          dropped++;
        }
      }
    }
    op = next;
  }
  return dropped;
}

/** True when `op` may write bytes of a buffer whose root is `root` (its destination is a view of it, or it has regions). */
function mayWriteRoot(op: Operation, root: Value): boolean {
  if (op.regions.length > 0) return true;
  const dst = getPimDestination(op);
  return dst !== undefined && rootBuffer(dst) === root;
}

/**
 * Slice copies read in place: a local buffer `%t` filled whole by one `pim.memcp[0, %a](%t, %x)`
 * (its first use) and then only read as the input of `pim.vmm`s becomes a view of `%x`'s bytes
 * `[%a, %a + bytes(%t))` ({@link sliceView}: one `memref.subview` where those bytes are a box of
 * `%x`, else `%x` collapsed, sliced and expanded): the copy and the buffer are dropped, and the MVM reads
 * its input where the copy read it. spat-to-pim emits such copies for every crossbar tile of a
 * gathered convolution patch (`lmv` then `mvmul`); the view is contiguous, as an MVM input must
 * be. Only where nothing writes `%x`'s buffer from the copy to the last read, and where the view
 * does not keep `%x`'s buffer live longer than it already is (the memory plan's peak never grows).
 * Returns how many copies were dropped.
 */
export function forwardSliceCopiesToViews(body: Block): number {
  const positions = new Map<Operation, number>();
  const ops: Operation[] = [];
  for (let op = body.firstOp; op; op = op.next) {
    positions.set(op, ops.length);
    ops.push(op);
  }
  /** Last position of a use of `v` or of a view of it (top-level ops of `body`), before this rewrite adds views. */
  const lastUses = new Map<Value, number>();
  const lastUseOfRoot = (root: Value): number => {
    let last = lastUses.get(root);
    if (last === undefined) lastUses.set(root, (last = lastUse(root)));
    return last;
  };
  const lastUse = (v: Value, seen = new Set<Value>()): number => {
    let last = -1;
    if (seen.has(v)) return last;
    seen.add(v);
    for (let u = v.firstUse; u; u = u.nextUse) {
      const top = inBody(body, u.owner);
      const at = top ? positions.get(top) : undefined;
      if (at === undefined) return Infinity;
      last = Math.max(last, at);
      if (u.index === 0 && isBufferAlias(u.owner)) last = Math.max(last, lastUse(u.owner.getResult(0), seen));
    }
    return last;
  };
  let dropped = 0;
  for (const op of ops) {
    if (!MemcpOp.match(op) || !op.parent) continue;
    const t = op.getOperand(0);
    const x = op.getOperand(1);
    const tType = t.type;
    const xType = x.type;
    const alloc = t.definingOp;
    if (!(tType instanceof MemRefType) || !(xType instanceof MemRefType) || alloc?.definition !== AllocOp || alloc.parent !== body) continue;
    if (tType.layout !== undefined || xType.layout !== undefined || tType.elementType !== xType.elementType || tType.memorySpace !== xType.memorySpace) continue;
    const root = rootBuffer(x);
    if (root === t || root.definingOp?.definition !== AllocOp || root.definingOp.parent !== body) continue;
    const bytes = byteSizeOf(tType);
    const eb = elementBytes(tType.elementType);
    const size = op.getProperty('size');
    const a = constantIndex(op.getOperand(3));
    if (bytes === undefined || eb === undefined || !(size instanceof IntegerAttr) || Number(size.value) !== bytes || constantIndex(op.getOperand(2)) !== 0) continue;
    if (a === undefined || a % eb !== 0 || a + bytes > (byteSizeOf(xType) ?? 0)) continue;
    // Every other use of %t reads it as an MVM input, after the copy.
    const at = positions.get(op)!;
    let last = -1;
    let reads = true;
    for (let u = t.firstUse; u && reads; u = u.nextUse) {
      if (u.owner === op) continue;
      const p = positions.get(u.owner);
      reads = u.owner.definition === VMMOp && u.index === 1 && p !== undefined && p > at;
      if (reads) last = Math.max(last, p!);
    }
    if (!reads || last < 0 || lastUseOfRoot(root) < last) continue;
    let clean = true;
    for (let p = at + 1; p < last && clean; p++) clean = !mayWriteRoot(ops[p]!, root);
    if (!clean) continue;
    const view = sliceView(x, a / eb, tType, op);
    if (!view) continue;
    t.replaceAllUsesWith(view);
    op.erase();
    alloc.erase();
    dropped++;
  }
  return dropped;
}

/**
 * A view of `count(type)` elements of contiguous `src` from element `offset`, shaped as `type`,
 * built before `at`: one `memref.subview` where the elements are a box of `src` (leading
 * indices fixed, one dimension's range, the trailing dimensions whole) that `type`'s shape is a
 * rank reduction of, else `src` collapsed to one dimension, sliced and expanded to `type`'s shape.
 */
function sliceView(src: Value, offset: number, type: MemRefType, at: Operation): Value | undefined {
  const b = OpBuilder.before(at);
  const from = src.type as MemRefType;
  const n = type.shape.reduce((x, y) => x * y, 1);
  const box = boxOf(from.shape, offset, n);
  const dropped = box ? computeRankReductionMask(box.sizes, type.shape) : undefined;
  if (box && dropped) {
    // memref.subview's rank reduction: the kept dimensions keep the source's strides.
    const strides = canonicalStrides(from.shape).filter((_, d) => !dropped.has(d));
    const result = MemRefType.get(type.context, type.shape, type.elementType, stridedLayout(type.context, { strides, offset }), type.memorySpace);
    return createSubView(b, at.location, src, box.offsets, box.sizes, box.sizes.map(() => 1), result);
  }
  const flat = from.shape.length === 1 ? src : createCollapseShape(b, at.location, src, [from.shape.map((_, d) => d)]);
  if (!flat) return undefined;
  const slice = createSubView(b, at.location, flat, [offset], [n], [1]);
  return type.shape.length === 1 ? slice : createExpandShape(b, at.location, slice, [type.shape.map((_, d) => d)], type.shape);
}

/**
 * The box of `shape` (row-major) holding elements `[offset, offset + count)`: leading indices
 * fixed, a range of one dimension `j`, the dimensions after `j` whole (the innermost such `j`);
 * undefined when the range is not one.
 */
export function boxOf(shape: readonly number[], offset: number, count: number): { offsets: number[]; sizes: number[] } | undefined {
  const strides = canonicalStrides(shape);
  for (let j = shape.length - 1; j >= 0; j--) {
    const st = strides[j]!;
    if (count % st !== 0 || offset % st !== 0) continue;
    const m = count / st;
    const start = (offset / st) % shape[j]!;
    if (start + m > shape[j]!) continue;
    const offsets = shape.map((dim, d) => (d < j ? Math.floor(offset / strides[d]!) % dim : d === j ? start : 0));
    const sizes = shape.map((dim, d) => (d < j ? 1 : d === j ? m : dim));
    return { offsets, sizes };
  }
  return undefined;
}
