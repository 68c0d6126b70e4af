/**
 * Data movement inside a stream: `tensor.extract_slice` / `tensor.insert_slice` -> one
 * `pim.memcp` per contiguous run, `spat.concat` -> `pim.concat`, `spat.extract_rows` -> one
 * `pim.memcp` per row, `spat.deferred_source_select` with a static selector -> the selected
 * value (no copy; a selector static per lane of a kept batch: the sources staged back to back
 * and the selected one copied from the lane's offset), `spat.blueprint` -> `pim.memcp` per slice run. (Slices of host inputs are read straight from host memory with
 * `pim.memcp_hd` when streams are formed, see `convert-function.ts`.)
 */
import { RankedTensorType, createConversionPattern, type ConversionPattern, type DenseArrayAttr, type Location, type OpBuilder, type Operation, type Value, printType } from '@raptor-pim/ir-core';
import { ConcatOp as PimConcatOp, MemcpHdOp, MemcpOp, ReceiveOp, VMVOp, getPimDestination } from '@raptor-pim/pim-dialect';
import { BlueprintOp, ConcatOp, DeferredSourceSelectOp, ExtractRowsOp } from '@raptor-pim/spatial-dialect';
import { EmptyOp, ExtractSliceOp, InsertSliceOp, TensorCollapseShapeOp, TensorExpandShapeOp } from '@raptor-pim/upstream-dialects';
import { SpatToPimMessages as M } from '../../diagnostics';
import { NO_BINDINGS, staticTensor, type IndexOrValue, type LoweringContext, type SliceRun } from '../lowering-context';
import { evaluateStaticIndex as evaluateStatic } from '@raptor-pim/upstream-dialects';

/**
 * Copies `runs` between `src` and `dst` with `def` (`pim.memcp` or `pim.memcp_hd`): a gather
 * reads run k at `srcBase + delta` into consecutive destination bytes; a scatter writes
 * consecutive source bytes to `dstBase + delta`. Returns the updated destination.
 */
export function copyRuns(
  ctx: LoweringContext,
  b: OpBuilder,
  loc: Location,
  def: typeof MemcpOp,
  dst: Value,
  src: Value,
  runs: readonly SliceRun[],
  base: IndexOrValue,
  gather: boolean,
  packedStart = 0,
): Value {
  let cur = dst;
  let packed = packedStart;
  for (const run of runs) {
    const at = ctx.add(b, base, run.delta, loc);
    const srcOffset = gather ? at : packed;
    const dstOffset = gather ? packed : at;
    if (run.gather) {
      cur = VMVOp.build(
        b,
        {
          target: cur,
          source: src,
          targetOffset: ctx.materialize(b, dstOffset),
          sourceOffset: ctx.materialize(b, srcOffset),
          sourceStride: ctx.constant(b, run.gather.stride),
          output: cur.type,
          length: ctx.i32(run.gather.length),
        },
        loc,
      ).output;
      packed += run.bytes;
      ctx.counters.copies++;
      continue;
    }
    cur = def.build(
      b,
      { dst: cur, src, dstOffset: ctx.materialize(b, dstOffset), srcOffset: ctx.materialize(b, srcOffset), output: cur.type, size: ctx.i32(run.bytes) },
      loc,
    ).output;
    packed += run.bytes;
    ctx.counters.copies++;
  }
  return cur;
}

function ints(a: DenseArrayAttr | undefined): number[] {
  return a ? (a.values as readonly (number | bigint)[]).map(Number) : [];
}

/**
 * `spat.blueprint`: `physical_view` is one byte copy of the collection (row-major slots);
 * `fragment_assembly` copies slice k from slot `sourceSlots[k]` of fragment collection
 * `operandIndices[k]`, starting at flat element `sourceOffsets[k]`, into its destination slice,
 * one `pim.memcp` per contiguous destination run.
 */
function blueprintPattern(ctx: LoweringContext): ConversionPattern {
  return createConversionPattern(BlueprintOp, (view, adaptor, rw) => {
    const op = view.op;
    const t = op.getResult(0).type;
    const out = staticTensor(t);
    if (!out) return ctx.error(op, M.dynamicShape(op.name, printType(t)));
    const eb = out.elementBytes;
    let dst = ctx.empty(rw, t, op.location);
    if (view.mode.value === 'physical_view') {
      const src = adaptor.fragments[0]!;
      dst = copyRuns(ctx, rw, op.location, MemcpOp, dst, src, [{ delta: 0, bytes: out.bytes }], 0, false);
      rw.replaceOp(op, [dst]);
      return true;
    }
    const rank = out.shape.length;
    const offsets = ints(view.offsets);
    const sizes = ints(view.sizes);
    const indices = ints(view.operandIndices);
    const slots = ints(view.sourceSlots);
    const sourceOffsets = ints(view.sourceOffsets);
    for (let k = 0; rank > 0 && k < offsets.length / rank; k++) {
      const frag = adaptor.fragments[indices[k]!]!;
      const info = staticTensor(frag.type);
      if (!info) return ctx.error(op, M.dynamicShape(op.name, printType(frag.type)));
      const slotBytes = info.bytes / info.shape[0]!;
      const { base, runs } = ctx.sliceRuns(rw, out.shape, offsets.slice(k * rank, (k + 1) * rank), sizes.slice(k * rank, (k + 1) * rank), eb, op.location);
      // Scatter: consecutive source bytes from the slot start + source offset.
      let cur = dst;
      let packed = slots[k]! * slotBytes + sourceOffsets[k]! * eb;
      for (const run of runs) {
        cur = MemcpOp.build(
          rw,
          {
            dst: cur,
            src: frag,
            dstOffset: ctx.materialize(rw, ctx.add(rw, base, run.delta, op.location)),
            srcOffset: ctx.constant(rw, packed),
            output: cur.type,
            size: ctx.i32(run.bytes),
          },
          op.location,
        ).output;
        packed += run.bytes;
        ctx.counters.copies++;
      }
      dst = cur;
    }
    rw.replaceOp(op, [dst]);
    return true;
  });
}

/** Byte-copy ops whose destination may take any static shape of the same bytes. */
const BYTE_COPIES: ReadonlySet<unknown> = new Set([MemcpOp, MemcpHdOp, VMVOp, ReceiveOp]);

/**
 * The chain of byte copies that builds `v` from a fresh `tensor.empty`, each link used only by
 * the next (the last by the reshape), or undefined when `v` is built any other way.
 */
function copyChain(v: Value): { links: Operation[]; empty: Operation } | undefined {
  const links: Operation[] = [];
  for (let cur = v; ; ) {
    const op = cur.definingOp;
    if (!op || !cur.hasOneUse()) return undefined;
    if (op.definition === EmptyOp) return links.length > 0 ? { links, empty: op } : undefined;
    if (!BYTE_COPIES.has(op.definition)) return undefined;
    const dst = getPimDestination(op);
    if (!dst) return undefined;
    links.push(op);
    cur = dst;
  }
}

/**
 * `tensor.collapse_shape` / `tensor.expand_shape`: the same row-major bytes. When the source is
 * built by byte copies into a fresh destination used for nothing else (a slice, a host read, a
 * receive), the copies write the new shape directly and the reshape aliases (no op); otherwise
 * one `pim.memcp` into the new shape.
 */
function reshapePattern(ctx: LoweringContext, def: typeof TensorCollapseShapeOp | typeof TensorExpandShapeOp): ConversionPattern {
  return createConversionPattern(def, (view, adaptor, rw) => {
    const op = view.op;
    const t = op.getResult(0).type;
    const out = staticTensor(t);
    if (!out) return ctx.error(op, M.dynamicShape(op.name, printType(t)));
    const src = adaptor.operands[0]!;
    const chain = copyChain(src);
    if (chain) {
      rw.setInsertionPoint(chain.empty);
      let dst = ctx.empty(rw, t, chain.empty.location);
      for (const link of [...chain.links].reverse()) {
        const at = link.operands.indexOf(getPimDestination(link)!);
        const d = dst;
        rw.modifyOpInPlace(link, () => {
          link.setOperand(at, d);
          link.getResult(0).type = t;
        });
        dst = link.getResult(0);
      }
      rw.eraseOp(chain.empty);
      rw.replaceOp(op, [dst]);
      ctx.counters.aliases++;
      return true;
    }
    const dst = ctx.empty(rw, t, op.location);
    rw.replaceOp(op, [copyRuns(ctx, rw, op.location, MemcpOp, dst, src, [{ delta: 0, bytes: out.bytes }], 0, false)]);
    return true;
  });
}

/** The data-movement patterns. */
export function dataMovementPatterns(ctx: LoweringContext): ConversionPattern[] {
  return [
    blueprintPattern(ctx),
    reshapePattern(ctx, TensorCollapseShapeOp),
    reshapePattern(ctx, TensorExpandShapeOp),
    createConversionPattern(ExtractSliceOp, (view, adaptor, rw) => {
      const op = view.op;
      const src = staticTensor(view.source.type);
      if (!src || !staticTensor(op.getResult(0).type)) return ctx.error(op, M.dynamicShape(op.name, printType(view.source.type)));
      const lists = ctx.sliceLists(op, adaptor.offsets);
      if (!lists) return false;
      const { base, runs } = ctx.sliceRuns(rw, src.shape, lists.offsets, lists.sizes, src.elementBytes, op.location, lists.strides, true);
      const dst = ctx.empty(rw, op.getResult(0).type, op.location);
      rw.replaceOp(op, [copyRuns(ctx, rw, op.location, MemcpOp, dst, adaptor.source, runs, base, true)]);
      return true;
    }),
    createConversionPattern(InsertSliceOp, (view, adaptor, rw) => {
      const op = view.op;
      const dest = staticTensor(view.dest.type);
      if (!dest || !staticTensor(view.source.type)) return ctx.error(op, M.dynamicShape(op.name, printType(view.dest.type)));
      const lists = ctx.sliceLists(op, adaptor.offsets);
      if (!lists) return false;
      const { base, runs } = ctx.sliceRuns(rw, dest.shape, lists.offsets, lists.sizes, dest.elementBytes, op.location, lists.strides);
      rw.replaceOp(op, [copyRuns(ctx, rw, op.location, MemcpOp, adaptor.dest, adaptor.source, runs, base, false)]);
      return true;
    }),
    createConversionPattern(ConcatOp, (view, adaptor, rw) => {
      const op = view.op;
      const t = op.getResult(0).type;
      if (!staticTensor(t)) return ctx.error(op, M.dynamicShape(op.name, printType(t)));
      const y = PimConcatOp.build(
        rw,
        { inputs: adaptor.inputs, outputBuffer: ctx.empty(rw, t, op.location), output: t, axis: ctx.i64(Number(view.axis.value)) },
        op.location,
      ).output;
      ctx.counters.copies++;
      rw.replaceOp(op, [y]);
      return true;
    }),
    createConversionPattern(ExtractRowsOp, (view, adaptor, rw) => {
      const op = view.op;
      const src = staticTensor(view.input.type);
      if (!src) return ctx.error(op, M.dynamicShape(op.name, printType(view.input.type)));
      const rowBytes = src.bytes / src.shape[0]!;
      const rows = op.results.map((r, i) => {
        ctx.counters.copies++;
        return MemcpOp.build(
          rw,
          {
            dst: ctx.empty(rw, r.type, op.location),
            src: adaptor.input,
            dstOffset: ctx.constant(rw, 0),
            srcOffset: ctx.constant(rw, i * rowBytes),
            output: r.type,
            size: ctx.i32(rowBytes),
          },
          op.location,
        ).output;
      });
      rw.replaceOp(op, rows);
      return true;
    }),
    createConversionPattern(DeferredSourceSelectOp, (view, adaptor, rw) => {
      const op = view.op;
      const n = adaptor.sources.length;
      const k = evaluateStatic(adaptor.selector, NO_BINDINGS);
      if (k !== undefined) {
        if (k < 0 || k >= n) return ctx.error(op, M.notStatic(op.name, 'the selector'));
        rw.replaceOp(op, [adaptor.sources[k]!]);
        return true;
      }
      // A selector static per lane only (a kept batch): the sources staged back to back, the
      // selected one copied from the lane's offset, so the batch stays one body.
      const t = op.getResult(0).type as RankedTensorType;
      const info = staticTensor(t);
      if (!info) return ctx.error(op, M.dynamicShape(op.name, printType(t)));
      const elements = info.bytes / info.elementBytes;
      let stage = ctx.empty(rw, RankedTensorType.get(rw.context, [n * elements], t.elementType), op.location);
      adaptor.sources.forEach((src, i) => {
        stage = MemcpOp.build(
          rw,
          { dst: stage, src, dstOffset: ctx.constant(rw, i * info.bytes), srcOffset: ctx.constant(rw, 0), output: stage.type, size: ctx.i32(info.bytes) },
          op.location,
        ).output;
      });
      const at = ctx.materialize(rw, ctx.scale(rw, adaptor.selector, info.bytes, op.location));
      const y = MemcpOp.build(rw, { dst: ctx.empty(rw, t, op.location), src: stage, dstOffset: ctx.constant(rw, 0), srcOffset: at, output: t, size: ctx.i32(info.bytes) }, op.location).output;
      ctx.counters.copies += n + 1;
      rw.replaceOp(op, [y]);
      return true;
    }),
  ];
}
