/**
 * Data movement inside a scheduled body: `tensor.extract_slice` / `tensor.insert_slice` ->
 * `pim.memcp` per contiguous run (`pim.memcp_hd` straight from host memory when the source is
 * an unloaded host input), `spat.concat` -> `pim.concat`, `spat.extract_rows` -> one
 * `pim.memcp` per row, `spat.deferred_source_select` with a static selector -> the selected
 * value (no copy), and `tensor.empty` -> a fresh destination.
 */
import type { Operation, Value } from '@raptor-pim/ir-core';
import { ConcatOp as PimConcatOp, MemcpHdOp, MemcpOp } from '@raptor-pim/pim-dialect';
import { ConcatOp, DeferredSourceSelectOp, ExtractRowsOp } from '@raptor-pim/spatial-dialect';
import { EmptyOp, ExtractSliceOp, InsertSliceOp } from '@raptor-pim/upstream-dialects';
import { SpatToPimMessages as M } from '../../diagnostics';
import { staticTensor, type IndexOrValue, type StreamLowering } from '../stream-lowering';
import { lowerOp, type ScheduledOpPattern } from './pattern';
import { evaluateStatic } from '../static-index';

/** Copies `runs` of `src` (at `srcBase + delta`) to consecutive bytes of `dst` from `dstBase`. */
function copyRuns(
  s: StreamLowering,
  op: Operation,
  def: typeof MemcpOp,
  dst: Value,
  src: Value,
  runs: readonly { delta: number; bytes: number }[],
  srcBase: IndexOrValue,
  dstBase: IndexOrValue,
  gather: boolean,
): Value {
  let cur = dst;
  let packed = 0;
  for (const run of runs) {
    const srcOffset = gather ? s.add(srcBase, run.delta, op) : s.add(srcBase, packed, op);
    const dstOffset = gather ? s.add(dstBase, packed, op) : s.add(dstBase, run.delta, op);
    cur = def.build(
      s.b,
      { dst: cur, src, dstOffset: s.materialize(dstOffset), srcOffset: s.materialize(srcOffset), output: cur.type, size: s.i32(run.bytes) },
      op.location,
    ).output;
    packed += run.bytes;
    s.counters.copies++;
  }
  return cur;
}

const EXTRACT_SLICE: ScheduledOpPattern = lowerOp(ExtractSliceOp, (view, op, s) => {
  const src = staticTensor(view.source.type);
  const res = staticTensor(op.getResult(0).type);
  if (!src || !res) return s.error(op, M.dynamicShape(op.name, String(view.source.type)));
  const lists = s.sliceLists(op, view.offsets);
  if (!lists) return false;
  const host = s.unloadedHost(view.source);
  const source = host ?? s.value(view.source, op);
  const { base, runs } = s.sliceRuns(src.shape, lists.offsets, lists.sizes, src.elementBytes, op);
  const dst = s.empty(op.getResult(0).type, op);
  const y = copyRuns(s, op, host ? MemcpHdOp : MemcpOp, dst, source, runs, base, 0, true);
  if (host) s.counters.hostLoads += runs.length;
  s.map(op.getResult(0), y);
  return true;
});

const INSERT_SLICE: ScheduledOpPattern = lowerOp(InsertSliceOp, (view, op, s) => {
  const dest = staticTensor(view.dest.type);
  if (!dest || !staticTensor(view.source.type)) return s.error(op, M.dynamicShape(op.name, String(view.dest.type)));
  const lists = s.sliceLists(op, view.offsets);
  if (!lists) return false;
  const source = s.value(view.source, op);
  const into = s.value(view.dest, op);
  const { base, runs } = s.sliceRuns(dest.shape, lists.offsets, lists.sizes, dest.elementBytes, op);
  s.map(op.getResult(0), copyRuns(s, op, MemcpOp, into, source, runs, 0, base, false));
  return true;
});

const CONCAT: ScheduledOpPattern = lowerOp(ConcatOp, (view, op, s) => {
  const t = op.getResult(0).type;
  if (!staticTensor(t)) return s.error(op, M.dynamicShape(op.name, String(t)));
  const inputs = view.inputs.map((v) => s.value(v, op));
  const y = PimConcatOp.build(s.b, { inputs, outputBuffer: s.empty(t, op), output: t, axis: s.i64(Number(view.axis.value)) }, op.location).output;
  s.counters.copies++;
  s.map(op.getResult(0), y);
  return true;
});

const EXTRACT_ROWS: ScheduledOpPattern = lowerOp(ExtractRowsOp, (view, op, s) => {
  const src = staticTensor(view.input.type);
  if (!src) return s.error(op, M.dynamicShape(op.name, String(view.input.type)));
  const source = s.value(view.input, op);
  const rowBytes = src.bytes / src.shape[0]!;
  op.results.forEach((r, i) => {
    const y = MemcpOp.build(
      s.b,
      { dst: s.empty(r.type, op), src: source, dstOffset: s.constant(0), srcOffset: s.constant(i * rowBytes), output: r.type, size: s.i32(rowBytes) },
      op.location,
    ).output;
    s.counters.copies++;
    s.map(r, y);
  });
  return true;
});

const SOURCE_SELECT: ScheduledOpPattern = lowerOp(DeferredSourceSelectOp, (view, op, s) => {
  const k = evaluateStatic(view.selector, s.bindings);
  if (k === undefined || k < 0 || k >= view.sources.length) return s.error(op, M.notStatic(op.name, 'the selector'));
  s.map(op.getResult(0), s.value(view.sources[k]!, op));
  return true;
});

const EMPTY: ScheduledOpPattern = lowerOp(EmptyOp, (_view, op, s) => {
  if (!staticTensor(op.getResult(0).type)) return s.error(op, M.dynamicShape(op.name, String(op.getResult(0).type)));
  s.map(op.getResult(0), s.empty(op.getResult(0).type, op));
  return true;
});

/** The data-movement patterns. */
export const DATA_MOVEMENT_PATTERNS: readonly ScheduledOpPattern[] = [EXTRACT_SLICE, INSERT_SLICE, CONCAT, EXTRACT_ROWS, SOURCE_SELECT, EMPTY];
